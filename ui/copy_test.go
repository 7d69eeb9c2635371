package ui

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/todo"
)

// runCmds runs cmd and what it batches, returning the messages.
func runCmds(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, runCmds(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

// osc52Text is the text of a tea.SetClipboard message among msgs.
func osc52Text(msgs []tea.Msg) (string, bool) {
	want := reflect.TypeOf(tea.SetClipboard("")())
	for _, m := range msgs {
		if reflect.TypeOf(m) == want {
			return reflect.ValueOf(m).String(), true
		}
	}
	return "", false
}

const answerWithCode = "Here:\n\n```go\nfmt.Println(1)\n```\n\nand\n\n~~~sh\necho \x1b]52;c;ZXZpbA==\x07two\n~~~\n"

// TestCopyCommand: /copy puts the last answer on the clipboard through
// OSC 52 and the system tool, /copy N its Nth code block; the text is
// made safe; a wrong N says how many there are.
func TestCopyCommand(t *testing.T) {
	m, a := newTestModel(t, 100, 30)
	var sys []string
	m.cfg.Services = fakeServices{copyText: func(s string) (string, error) { sys = append(sys, s); return "xclip", nil }}
	runCmds(submit(m, "/copy"))
	if s := screen(m); !strings.Contains(s, "no answer to copy yet") {
		t.Fatalf("/copy before an answer:\n%s", s)
	}
	submit(m, "go")
	events(t, m, agent.AssistantDone{Text: answerWithCode, Final: true})
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})

	tests := []struct{ cmd, want string }{
		{"/copy", "Here:"},
		{"/copy 1", "fmt.Println(1)"},
		{"/copy 2", "echo two"},
	}
	for _, tt := range tests {
		msgs := runCmds(submit(m, tt.cmd))
		got, ok := osc52Text(msgs)
		if !ok || !strings.HasPrefix(strings.TrimSpace(got), tt.want) && got != tt.want {
			t.Errorf("%s put %q on the clipboard (found %v); want it to start %q", tt.cmd, got, ok, tt.want)
		}
		if strings.Contains(got, "\x1b") {
			t.Errorf("%s copied an escape sequence: %q", tt.cmd, got)
		}
		if len(sys) == 0 || sys[len(sys)-1] != got {
			t.Errorf("%s: the system clipboard got %q, OSC 52 %q", tt.cmd, sys, got)
		}
		for _, msg := range msgs {
			update(m, msg)
		}
	}
	if s := screen(m); !strings.Contains(s, "copied code block 2 of the last answer (1 line) to the clipboard (and xclip)") {
		t.Errorf("no notice of the copy:\n%s", s)
	}
	runCmds(submit(m, "/copy 3"))
	if s := screen(m); !strings.Contains(s, "/copy 3: the last answer has 2 code blocks") {
		t.Errorf("/copy 3:\n%s", s)
	}
}

// TestCodeBlocks: fences of either kind, longer closing fences, an
// unclosed fence, and indented code that is not fenced.
func TestCodeBlocks(t *testing.T) {
	tests := []struct {
		md   string
		want []string
	}{
		{"no code", nil},
		{"```\na\nb\n```", []string{"a\nb"}},
		{"````md\n```\ninner\n```\n````\n", []string{"```\ninner\n```"}},
		{"~~~\nx\n~~~\ntext\n```py\ny", []string{"x", "y"}},
		{"    ```\n    not a fence", nil},
		{"``` not `a` fence\n", nil},
	}
	for _, tt := range tests {
		if got := codeBlocks(tt.md); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("codeBlocks(%q) = %q, want %q", tt.md, got, tt.want)
		}
	}
}

// TestExportCommand: /export writes the prompts, the answers as written,
// the tool calls in one line each and the plan, under a name that says
// the session and the date.
func TestExportCommand(t *testing.T) {
	dir := t.TempDir()
	a := &scriptAgent{}
	mv := New(Config{Agent: a, Model: "test-model", Workspace: dir, Dark: true, Services: fakeServices{sessionName: func() string { return "abc123" }}})
	m := &mv
	update(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	submit(m, "fix the bug")
	events(t, m,
		agent.ToolStart{ID: "1", Name: "bash", Summary: "go test ./..."},
		agent.ToolEnd{ID: "1", Name: "bash", Output: "FAIL: TestX\nmore\n", IsError: true, Duration: 1500 * time.Millisecond},
		agent.TodoUpdate{List: todo.List{Goal: "Fix it", Items: []todo.Item{{ID: "1", Text: "Find the bug", Status: todo.Completed}}}},
		agent.AssistantDone{Text: "Fixed **it**.\n\n```go\nx := 1\n```", Final: true})
	endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonDone})
	msgs := runCmds(submit(m, "/export"))
	if len(msgs) != 1 {
		t.Fatalf("/export gave %v", msgs)
	}
	n, _ := msgs[0].(NoticeMsg)
	name := "tick-abc123-" + time.Now().Format("2006-01-02") + ".md"
	if !strings.Contains(n.Text, name) {
		t.Fatalf("/export said %q; want the file %s", n.Text, name)
	}
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	got := string(data)
	for _, want := range []string{
		"## User\n\nfix the bug\n",
		"- tool `bash` ` go test ./... ` — failed (1.5s): ` FAIL: TestX ` (+1 lines)\n",
		"## Assistant\n\nFixed **it**.\n\n```go\nx := 1\n```\n",
		"## Plan\n\n```\nGoal: Fix it\n[x] #1: Find the bug",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("export lacks %q:\n%s", want, got)
		}
	}
	if fi, _ := os.Stat(filepath.Join(dir, name)); fi.Mode().Perm() != 0o600 {
		t.Errorf("export mode %v, want 0600", fi.Mode().Perm())
	}
}

// TestWriteExportSafe: a link planted at the name is replaced, not
// followed; a directory link out of the workspace is refused; an absolute
// path is the user's choice; no temporary file is left.
func TestWriteExportSafe(t *testing.T) {
	ws, outside := t.TempDir(), t.TempDir()
	victim := filepath.Join(outside, "victim")
	if err := os.WriteFile(victim, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(ws, "out.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(ws, "docs")); err != nil {
		t.Fatal(err)
	}
	if _, err := writeExport(ws, "out.md", []byte("new"), true); err != nil {
		t.Fatalf("export over a link: %v", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Errorf("the link's target was written: %q", b)
	}
	if fi, err := os.Lstat(filepath.Join(ws, "out.md")); err != nil || fi.Mode()&os.ModeSymlink != 0 {
		t.Errorf("out.md is still a link (%v)", err)
	}
	if _, err := writeExport(ws, "docs/x.md", []byte("new"), false); err == nil || !strings.Contains(err.Error(), "outside the workspace") {
		t.Errorf("export through a directory link = %v, want a refusal", err)
	}
	if _, err := os.Stat(filepath.Join(outside, "x.md")); err == nil {
		t.Error("the file was written through the link")
	}
	abs := filepath.Join(outside, "chosen.md")
	if p, err := writeExport(ws, abs, []byte("ok"), false); err != nil || p != abs {
		t.Errorf("absolute path: %q, %v", p, err)
	}
	for _, d := range []string{ws, outside} {
		ents, _ := os.ReadDir(d)
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".tmp") {
				t.Errorf("temporary file left: %s", e.Name())
			}
		}
	}
}

// TestCopyTooLarge: a text past what terminals take through OSC 52 is not
// sent, and the chat says why.
func TestCopyTooLarge(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	if cmd := m.copyText("the last answer", strings.Repeat("x", copyMax+1)); cmd != nil {
		t.Fatal("a huge text was sent to the clipboard")
	}
	update(m, paintMsg{}) // draw the frame again
	if s := screen(m); !strings.Contains(s, "not copied") {
		t.Errorf("no notice:\n%s", s)
	}
}
