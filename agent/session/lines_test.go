package session

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider"
)

func TestLineReader(t *testing.T) {
	long := strings.Repeat("x", 100)
	tests := []struct {
		name string
		in   string
		want []string // text|terminated|long
	}{
		{"empty", "", nil},
		{"lines", "a\nbc\n", []string{"a|true|false", "bc|true|false"}},
		{"no final newline", "a\nb", []string{"a|true|false", "b|false|false"}},
		{"long line cut to the cap", long + "\nok\n", []string{long[:10] + "|true|true", "ok|true|false"}},
		{"exactly the cap", long[:10] + "\n", []string{long[:10] + "|true|false"}},
		{"blank lines", "\n\n", []string{"|true|false", "|true|false"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lr := newLineReader(strings.NewReader(tt.in), 10)
			var got []string
			var end int64
			for {
				ln, err := lr.next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if ln.start != end {
					t.Errorf("line starts at %d, want %d", ln.start, end)
				}
				end = ln.next
				got = append(got, string(ln.text)+"|"+boolStr(ln.terminated)+"|"+boolStr(ln.long))
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") || end != int64(len(tt.in)) {
				t.Errorf("lines = %q (end %d), want %q (end %d)", got, end, tt.want, len(tt.in))
			}
		})
	}
}

func boolStr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// hugeSession writes a session whose second user message is n bytes.
func hugeSession(t *testing.T, n int) (dir, ws, path string) {
	t.Helper()
	dir, ws = t.TempDir(), t.TempDir()
	st, err := Create(dir, ws, "m")
	if err != nil {
		t.Fatal(err)
	}
	path = st.Path()
	msgs := []provider.Message{
		{Role: provider.RoleUser, Content: "first prompt"},
		{Role: provider.RoleAssistant, Content: "ok"},
	}
	recordAll(t, st, msgs, nil)
	st.Close()
	// The huge line, written the way the store writes a message.
	line, err := json.Marshal(messageLine{Type: typeMessage, Time: time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC),
		Message: provider.Message{Role: provider.RoleUser, Content: "huge " + strings.Repeat("y", n)}})
	if err != nil {
		t.Fatal(err)
	}
	appendBytes(t, path, append(line, '\n'))
	appendBytes(t, path, []byte(`{"type":"message","time":"2030-01-02T03:04:06Z","message":{"role":"user","content":"after"}}`+"\n"))
	return dir, ws, path
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestListHugeLine lists a session with a 40 MB line: the listing reads
// only the start of that line, so it allocates a small part of the file.
func TestListHugeLine(t *testing.T) {
	const n = 40 << 20
	dir, ws, _ := hugeSession(t, n)
	var all []Info
	var err error
	alloc := allocated(func() { all, err = List(dir, ws) })
	if err != nil || len(all) != 1 {
		t.Fatalf("List = %+v, %v", all, err)
	}
	in := all[0]
	if in.Turns != 3 || in.FirstPrompt != "first prompt" || !in.Updated.Equal(time.Date(2030, 1, 2, 3, 4, 6, 0, time.UTC)) {
		t.Errorf("Info = %+v, want 3 turns and the time of the last line", in)
	}
	if alloc > n/8 {
		t.Errorf("listing allocated %d bytes for a %d-byte line", alloc, n)
	}
}

// TestLoadSkipsOverlongLine loads a session with a line over the cap: it
// is skipped with a warning, the lines after it are kept, and the reading
// costs about the cap, not the line.
func TestLoadSkipsOverlongLine(t *testing.T) {
	_, _, path := hugeSession(t, maxLoadLine+6<<20)
	var ld *Loaded
	var err error
	alloc := allocated(func() { ld, err = Load(path) })
	if err != nil {
		t.Fatal(err)
	}
	if len(ld.History) != 3 || ld.History[2].Content != "after" {
		t.Fatalf("history = %d messages, want the two before and the one after the long line", len(ld.History))
	}
	if w := strings.Join(ld.Warnings, "\n"); !strings.Contains(w, "skipped line 4") {
		t.Errorf("warnings %q do not name the skipped line", w)
	}
	if alloc > 3*maxLoadLine {
		t.Errorf("loading allocated %d bytes", alloc)
	}
	st, ld2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if len(ld2.History) != 3 {
		t.Errorf("Open: %d messages", len(ld2.History))
	}
	fi, _ := os.Stat(path)
	if fi.Size() < maxLoadLine {
		t.Error("Open cut the long line off the file")
	}
}

func TestPrefixRecord(t *testing.T) {
	full := `{"type":"message","time":"2030-01-02T03:04:05Z","message":{"role":"user","content":"hello \"world\" and more"}}`
	for _, cut := range []int{len(full), 90, 80, 75} {
		rec, prompt := prefixRecord([]byte(full[:cut]))
		if rec.Type != typeMessage || rec.Message == nil || rec.Message.Role != provider.RoleUser || rec.Time.Year() != 2030 {
			t.Errorf("cut %d: record %+v", cut, rec)
		}
		if !strings.HasPrefix("hello \"world\" and more", prompt) || (cut == len(full) && prompt == "") {
			t.Errorf("cut %d: prompt %q", cut, prompt)
		}
	}
	if rec, _ := prefixRecord(bytes.Repeat([]byte("z"), 50)); rec.Type != "" {
		t.Errorf("garbage gave %+v", rec)
	}
}
