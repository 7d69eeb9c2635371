package session

import (
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
)

// logFile is a File that logs what is done to it.
type logFile struct{ ops []string }

func (f *logFile) Write(p []byte) (int, error) {
	f.ops = append(f.ops, "write")
	return len(p), nil
}
func (f *logFile) Sync() error          { f.ops = append(f.ops, "sync"); return nil }
func (f *logFile) Truncate(int64) error { f.ops = append(f.ops, "truncate"); return nil }
func (f *logFile) Close() error         { f.ops = append(f.ops, "close"); return nil }

// TestEveryWriteSynced: each method writes its line with one write call
// and syncs it before returning, so a crash right after loses nothing it
// reported saved.
func TestEveryWriteSynced(t *testing.T) {
	f := &logFile{}
	st := &Store{id: "abcd1234", path: "test.jsonl", f: f}
	steps := []struct {
		name string
		do   func() error
	}{
		{"Message", func() error { return st.Message(provider.Message{Role: provider.RoleUser, Content: "hi"}) }},
		{"Todo", func() error { return st.Todo(todo.List{}) }},
		{"Compaction", func() error { return st.Compaction("sum", nil) }},
	}
	for _, s := range steps {
		f.ops = nil
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if got := strings.Join(f.ops, " "); got != "write sync" {
			t.Errorf("%s did %q, want %q", s.name, got, "write sync")
		}
	}
}
