package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider/providertest"
)

// confirmShown is the key the rewind confirmation asks for, read off the
// screen ("Y (shift+y) rewind" or "y rewind"), so the test follows the
// undo confirmation's binding.
var confirmShown = regexp.MustCompile(`(\S)(?: \([^)]*\))? rewind {2,}`)

// rewindSetup runs two turns in a workspace that is not a git
// repository: the first writes one.txt, the second changes it and writes
// two.txt. It opens /rewind on the second message and chooses scope (the
// key f, c or b), answering the confirmation deliberately. then are the
// model's replies after the two turns.
func rewindSetup(t *testing.T, scopeKey string, then ...step) (*tmuxPane, *providertest.Server, string) {
	t.Helper()
	srv := providertest.New(t)
	ws := t.TempDir()
	steps := []step{
		{reply: call("write_file", map[string]any{"path": "one.txt", "content": "1\n"})},
		textStep("Wrote one."),
		{reply: call("write_file", map[string]any{"path": "one.txt", "content": "2\n"})},
		{reply: call("write_file", map[string]any{"path": "two.txt", "content": "2\n"})},
		textStep("Changed it."),
	}
	script(t, srv, append(steps, then...)...)
	p := startAppAt(t, srv, t.TempDir(), ws, "--yolo")
	p.prompt("write one")
	p.waitFor("Wrote one.")
	p.prompt("change it")
	p.waitFor("Changed it.")
	if _, err := os.Stat(filepath.Join(ws, ".git")); err == nil {
		t.Fatal("the workspace is a git repository")
	}
	p.prompt("/rewind")
	p.waitFor("Rewind to before", "“change it”", "2 files: one.txt, two.txt", "“write one”")
	p.send("Enter") // the newest point: the second message
	p.waitFor("What goes back?")
	p.send(scopeKey)
	s := p.waitFor("waiting for a deliberate answer")
	m := confirmShown.FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no confirmation key on screen:\n%s", s)
	}
	time.Sleep(deliberatePause)
	p.send(m[1])
	p.waitFor("rewound ")
	return p, srv, ws
}

// readWS returns the content of a file in ws, or "(none)".
func readWS(ws, name string) string {
	b, err := os.ReadFile(filepath.Join(ws, name))
	if err != nil {
		return "(none)"
	}
	return string(b)
}

// TestE2ERewindFiles: /rewind of the files brings the workspace back to
// before the message and keeps the conversation; the model is told.
func TestE2ERewindFiles(t *testing.T) {
	t.Parallel()
	p, srv, ws := rewindSetup(t, "f", textStep("Noted the rewind."))
	p.waitFor("rewound the files to before the message “change it”", "Changed it.")
	if one, two := readWS(ws, "one.txt"), readWS(ws, "two.txt"); one != "1\n" || two != "(none)" {
		t.Errorf("after the rewind one.txt = %q, two.txt = %q; want 1 and none", one, two)
	}
	p.prompt("what happened?")
	p.waitFor("Noted the rewind.")
	reqs := srv.Requests()
	if sent := dump(reqs[len(reqs)-1].Messages); !strings.Contains(sent, "The user rewound the files") || !strings.Contains(sent, "Changed it.") {
		t.Errorf("the model was not told, or lost the conversation:\n%s", sent)
	}
	checkValid(t, srv)
}

// TestE2ERewindConversation: /rewind of the conversation drops the second
// turn from the chat and from what the model gets, offers its message
// again in the input, and leaves the files as they are.
func TestE2ERewindConversation(t *testing.T) {
	t.Parallel()
	p, srv, ws := rewindSetup(t, "c", textStep("Again."))
	p.waitFor("rewound the conversation to before the message “change it”", "Wrote one.")
	p.waitGone("Changed it.")
	if one, two := readWS(ws, "one.txt"), readWS(ws, "two.txt"); one != "2\n" || two != "2\n" {
		t.Errorf("a conversation rewind changed the files: one.txt = %q, two.txt = %q", one, two)
	}
	p.send("Enter") // the message, offered again in the input
	p.waitFor("Again.")
	reqs := srv.Requests()
	sent := dump(reqs[len(reqs)-1].Messages)
	if strings.Contains(sent, "Changed it.") || !strings.Contains(sent, "The files were NOT restored") || !strings.Contains(reqs[len(reqs)-1].LastUser(), "change it") {
		t.Errorf("the model got the dropped turn, or was not told:\n%s", sent)
	}
	checkValid(t, srv)
}

// TestE2ERewindBoth: /rewind of both restores the files and drops the
// second turn.
func TestE2ERewindBoth(t *testing.T) {
	t.Parallel()
	p, srv, ws := rewindSetup(t, "b")
	p.waitFor("rewound the conversation and the files to before the message “change it”", "Wrote one.")
	p.waitGone("Changed it.")
	if one, two := readWS(ws, "one.txt"), readWS(ws, "two.txt"); one != "1\n" || two != "(none)" {
		t.Errorf("after the rewind one.txt = %q, two.txt = %q; want 1 and none", one, two)
	}
	checkValid(t, srv)
}

// TestE2EItemDiff: enter on an item in the plan editor shows the files it
// changed and their diff, in a workspace that is not a git repository;
// esc goes back to the editor.
func TestE2EItemDiff(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	script(t, srv,
		todoStep("Greet", todoItem{ID: "1", Text: "Write HELLO", Status: "in_progress"}),
		step{reply: call("write_file", map[string]any{"path": "hello.txt", "content": "hello world\n"})},
		todoStep("Greet", todoItem{ID: "1", Text: "Write HELLO", Status: "completed"}),
		textStep("Wrote hello."),
	)
	p := startApp(t, srv, "--yolo")
	p.prompt("write hello")
	p.waitFor("Wrote hello.")
	p.send("C-p")
	p.waitFor("what it changed")
	p.send("Enter")
	p.waitFor("#1 Write HELLO · what it changed", "hello.txt", "+hello world")
	p.send("Escape")
	p.waitGone("+hello world")
	p.waitFor("enter what it changed")
	checkValid(t, srv)
}
