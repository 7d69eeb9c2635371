package ui

import (
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/checkpoint"
	"github.com/tick-agent/tick/ui/dialog"
)

// sessionPatch is two files' changes as the checkpoint store gives them.
const sessionPatch = "diff --git a/conf.txt b/conf.txt\nindex 1..2 100644\n--- a/conf.txt\n+++ b/conf.txt\n@@ -1,2 +1,2 @@\n name = tick\n-port = 80\n+port = 8080\n" +
	"diff --git a/new.go b/new.go\nnew file mode 100644\n--- /dev/null\n+++ b/new.go\n@@ -0,0 +1,2 @@\n+package main\n+\x1b]0;owned\x07 evil\n"

// TestSessionDiffDialog: /diff lists the files the session changed with
// their counts; enter opens a file's hunks, numbered and signed; esc goes
// back, esc again closes; /diff #2 asks since item 2; control sequences
// never reach the terminal (issue 35 §2).
func TestSessionDiffDialog(t *testing.T) {
	m, a := newTestModel(t, 100, 30)
	var asked []string
	a.sessionDiff = func(since string) (agent.ItemChanges, error) {
		asked = append(asked, since)
		return agent.ItemChanges{Text: "the start of this session", Files: []checkpoint.Change{
			{Kind: checkpoint.Changed, Path: "conf.txt"}, {Kind: checkpoint.Created, Path: "new.go"}}, Patch: sessionPatch}, nil
	}
	update(m, submit(m, "/diff")())
	if overlayOf[*dialog.Diff](m) == nil {
		t.Fatalf("/diff opened nothing:\n%s", screen(m))
	}
	s := screen(m)
	for _, want := range []string{"Changes since the start of this session", "changed  conf.txt  +1 −1", "created  new.go  +2 −0"} {
		if !strings.Contains(s, want) {
			t.Fatalf("the list lacks %q:\n%s", want, s)
		}
	}
	press(m, "enter")
	s = screen(m)
	for _, want := range []string{"changed conf.txt", "1   name = tick", "2 - port = 80", "2 + port = 8080"} {
		if !strings.Contains(s, want) {
			t.Fatalf("conf.txt's hunks lack %q:\n%s", want, s)
		}
	}
	press(m, "esc")
	press(m, "down")
	press(m, "enter")
	if s = screen(m); !strings.Contains(s, "1 + package main") {
		t.Fatalf("new.go's hunks:\n%s", s)
	}
	if v := m.View().Content; strings.Contains(v, "\x1b]0;owned") {
		t.Fatal("a control sequence of the diff reached the terminal")
	}
	press(m, "esc")
	press(m, "esc")
	if overlayOf[*dialog.Diff](m) != nil {
		t.Fatal("esc on the list did not close /diff")
	}
	update(m, submit(m, "/diff #2")())
	if len(asked) != 2 || asked[0] != "" || asked[1] != "#2" {
		t.Fatalf("asked since %q", asked)
	}
}

// TestSessionDiffCtrlC: ctrl+c in /diff does what esc does (back from a
// file's hunks, then close), like the pickers, and arms no quit: a user
// pressing ctrl+c to get out was stuck there until trying esc.
func TestSessionDiffCtrlC(t *testing.T) {
	m, a := newTestModel(t, 100, 30)
	a.sessionDiff = func(string) (agent.ItemChanges, error) {
		return agent.ItemChanges{Text: "the start of this session", Files: []checkpoint.Change{
			{Kind: checkpoint.Changed, Path: "conf.txt"}, {Kind: checkpoint.Created, Path: "new.go"}}, Patch: sessionPatch}, nil
	}
	update(m, submit(m, "/diff")())
	press(m, "enter")
	press(m, "ctrl+c")
	if s := screen(m); overlayOf[*dialog.Diff](m) == nil || !strings.Contains(s, "Changes since the start of this session") {
		t.Fatalf("ctrl+c in a file's hunks: want the list back:\n%s", s)
	}
	press(m, "ctrl+c")
	if overlayOf[*dialog.Diff](m) != nil {
		t.Fatalf("ctrl+c on the list did not close /diff:\n%s", screen(m))
	}
	if m.quitArmed {
		t.Fatal("closing /diff with ctrl+c armed a quit")
	}
}

// TestSessionDiffError: /diff without undo points says why in the chat.
func TestSessionDiffError(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	update(m, submit(m, "/diff 3")())
	if s := screen(m); !strings.Contains(s, "/diff: ") || overlayOf[*dialog.Diff](m) != nil {
		t.Fatalf("no reason shown:\n%s", s)
	}
}

// TestSeamDiffCtrlCUnderApproval: with an approval on top of /diff,
// ctrl+c never reaches /diff: the list stays open beneath the question.
func TestSeamDiffCtrlCUnderApproval(t *testing.T) {
	m, a := newTestModel(t, 100, 30)
	a.sessionDiff = func(string) (agent.ItemChanges, error) {
		return agent.ItemChanges{Text: "the start of this session", Files: []checkpoint.Change{{Kind: checkpoint.Changed, Path: "conf.txt"}}, Patch: sessionPatch}, nil
	}
	submit(m, "go")
	update(m, submit(m, "/diff")())
	d := overlayOf[*dialog.Diff](m)
	askApproval(t, m)
	press(m, "ctrl+c")
	if overlayOf[*dialog.Diff](m) != d {
		t.Fatalf("ctrl+c over an approval closed /diff beneath it:\n%s", screen(m))
	}
}
