package session

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
)

// conversation is a small complete exchange with a tool call and a todo
// list, used by several tests.
func conversation() ([]provider.Message, todo.List) {
	list := todo.List{Goal: "Tidy utils.py", Items: []todo.Item{
		{ID: "1", Text: "Add type hints", Status: todo.Completed, Note: "14 functions"},
		{ID: "2", Text: "Add docstrings", Status: todo.InProgress, ActiveForm: "Adding docstrings"},
		{ID: "3", Text: "Add a CLI", Status: todo.Cancelled, Note: "not wanted"},
	}}
	msgs := []provider.Message{
		{Role: provider.RoleUser, Content: "Make utils.py <production> ready & tidy\nsecond line"},
		{Role: provider.RoleAssistant, Content: "Looking.", Reasoning: "think", ToolCalls: []provider.ToolCall{
			{ID: "call_1", Name: "read_file", Arguments: `{"path":"utils.py"}`},
			{ID: "call_2", Name: "bash", Arguments: `{"command":"ls"}`},
		}},
		{Role: provider.RoleTool, ToolCallID: "call_1", Content: "def f(): pass\n"},
		{Role: provider.RoleTool, ToolCallID: "call_2", Content: "utils.py\n"},
		{Role: provider.RoleAssistant, Content: "Done with step one."},
		{Role: provider.RoleUser, Content: "carry on"},
	}
	return msgs, list
}

// recordAll writes msgs and then list to st.
func recordAll(t *testing.T, st *Store, msgs []provider.Message, list *todo.List) {
	t.Helper()
	for _, m := range msgs {
		if err := st.Message(m); err != nil {
			t.Fatalf("Message: %v", err)
		}
	}
	if list != nil {
		if err := st.Todo(*list); err != nil {
			t.Fatalf("Todo: %v", err)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	dir, ws := t.TempDir(), t.TempDir()
	st, err := Create(dir, ws, "gpt-4.1")
	if err != nil {
		t.Fatal(err)
	}
	msgs, list := conversation()
	recordAll(t, st, msgs, &list)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	ld, err := Load(st.Path())
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if !reflect.DeepEqual(ld.History, msgs) {
		t.Errorf("History = %+v\nwant %+v", ld.History, msgs)
	}
	if !reflect.DeepEqual(ld.ModelHistory, msgs) {
		t.Errorf("ModelHistory = %+v\nwant %+v", ld.ModelHistory, msgs)
	}
	if !reflect.DeepEqual(ld.Todos, list) {
		t.Errorf("Todos = %+v, want %+v", ld.Todos, list)
	}
	if len(ld.Warnings) != 0 || ld.Compactions != 0 {
		t.Errorf("Warnings = %q, Compactions = %d; want none", ld.Warnings, ld.Compactions)
	}
	in := ld.Info
	realWS, _ := filepath.EvalSymlinks(ws)
	checks := []struct {
		name      string
		got, want any
	}{
		{"ID", in.ID, st.ID()},
		{"Path", in.Path, st.Path()},
		{"Workspace", in.Workspace, realWS},
		{"Model", in.Model, "gpt-4.1"},
		{"FirstPrompt", in.FirstPrompt, "Make utils.py <production> ready & tidy"},
		{"Turns", in.Turns, 2},
		{"Done", in.Done, 1},
		{"Total", in.Total, 2},
		{"Updated not before Started", !in.Updated.Before(in.Started), true},
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			if !reflect.DeepEqual(c.got, c.want) {
				t.Errorf("got %v, want %v", c.got, c.want)
			}
		})
	}
	if len(st.ID()) != 8 || strings.Trim(st.ID(), "0123456789abcdefghjkmnpqrstvwxyz") != "" {
		t.Errorf("ID %q is not 8 base32 characters", st.ID())
	}
	data, _ := os.ReadFile(st.Path())
	if !strings.Contains(string(data), "<production> ready & tidy") {
		t.Errorf("the file escapes HTML characters; want them readable:\n%s", data)
	}
	if lines := strings.Count(string(data), "\n"); lines != len(msgs)+2 {
		t.Errorf("file has %d lines, want %d (header, messages, todo)", lines, len(msgs)+2)
	}
}

func TestPermissions(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "state", "tick", "sessions")
	st, err := Create(dir, t.TempDir(), "m")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	paths := []struct {
		path string
		mode os.FileMode
	}{
		{filepath.Join(root, "state"), 0o700},
		{filepath.Join(root, "state", "tick"), 0o700},
		{dir, 0o700},
		{filepath.Dir(st.Path()), 0o700},
		{st.Path(), 0o600},
	}
	for _, p := range paths {
		t.Run(strings.TrimPrefix(p.path, root), func(t *testing.T) {
			fi, err := os.Stat(p.path)
			if err != nil {
				t.Fatal(err)
			}
			if got := fi.Mode().Perm(); got != p.mode {
				t.Errorf("mode %v, want %v", got, p.mode)
			}
		})
	}
}

func TestWorkspaceFolder(t *testing.T) {
	dir := t.TempDir()
	ws := filepath.Join(t.TempDir(), "My Project!")
	if err := os.Mkdir(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	st, err := Create(dir, ws, "m")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	folder := filepath.Base(filepath.Dir(st.Path()))
	if !strings.HasPrefix(folder, "my-project-") || len(folder) != len("my-project-")+8 {
		t.Errorf("workspace folder %q, want my-project-<hash8>", folder)
	}
	name := filepath.Base(st.Path())
	if !strings.HasSuffix(name, "-"+st.ID()+".jsonl") || len(name) != len("20060102T150405Z-")+8+len(".jsonl") {
		t.Errorf("file name %q, want <UTC time>-<id>.jsonl", name)
	}
	// The same workspace through a symlink maps to the same folder.
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(ws, link); err != nil {
		t.Fatal(err)
	}
	st2, err := Create(dir, link, "m")
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	if filepath.Dir(st2.Path()) != filepath.Dir(st.Path()) {
		t.Errorf("symlinked workspace went to %s, want %s", filepath.Dir(st2.Path()), filepath.Dir(st.Path()))
	}
}

func TestConcurrentMessages(t *testing.T) {
	st, err := Create(t.TempDir(), t.TempDir(), "m")
	if err != nil {
		t.Fatal(err)
	}
	const workers, each = 8, 25
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				m := provider.Message{Role: provider.RoleUser, Content: fmt.Sprintf("w%d-%d %s", w, i, strings.Repeat("x", 300))}
				if err := st.Message(m); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	ld, err := Load(st.Path())
	if err != nil {
		t.Fatal(err)
	}
	if len(ld.History) != workers*each || len(ld.Warnings) != 0 {
		t.Fatalf("loaded %d messages with warnings %q, want %d and none", len(ld.History), ld.Warnings, workers*each)
	}
	seen := map[string]bool{}
	for _, m := range ld.History {
		seen[strings.Fields(m.Content)[0]] = true
	}
	if len(seen) != workers*each {
		t.Errorf("%d distinct messages, want %d", len(seen), workers*each)
	}
}

func TestWriteAfterClose(t *testing.T) {
	st, err := Create(t.TempDir(), t.TempDir(), "m")
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Errorf("second Close: %v, want nil", err)
	}
	err = st.Message(provider.Message{Role: provider.RoleUser, Content: "hi"})
	if !errors.Is(err, os.ErrClosed) {
		t.Errorf("Message after Close = %v, want os.ErrClosed", err)
	}
}

func TestCreateErrors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, dir, ws string
	}{
		{"empty workspace", t.TempDir(), ""},
		{"dir is a file", file, t.TempDir()},
		{"dir below a file", filepath.Join(file, "sessions"), t.TempDir()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st, err := Create(c.dir, c.ws, "m")
			if err == nil {
				st.Close()
				t.Fatal("Create succeeded, want an error")
			}
			if !strings.Contains(err.Error(), "create session") {
				t.Errorf("error %q does not name the action", err)
			}
		})
	}
}

func BenchmarkMessage(b *testing.B) {
	st, err := Create(b.TempDir(), b.TempDir(), "m")
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	m := provider.Message{Role: provider.RoleTool, ToolCallID: "call_1", Content: strings.Repeat("output line\n", 200)}
	b.ResetTimer()
	for range b.N {
		if err := st.Message(m); err != nil {
			b.Fatal(err)
		}
	}
}
