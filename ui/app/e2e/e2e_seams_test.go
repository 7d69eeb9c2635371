package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider/providertest"
)

// The end-to-end tests of issue 30's seams seen from the keyboard: typing
// over an open dialog, user items in a plan, rewinds and nested
// repositories.

// TestE2ETypingOverDialogAnswersNothing (issue 30 §7): with "Allow bash?"
// open for a second, typing "also do it" at a typist's pace answers
// nothing, not even with its first key after the rest: the command does
// not run, nothing is allowed for the session, and the input holds the
// whole text.
func TestE2ETypingOverDialogAnswersNothing(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	script(t, srv, bashStep("touch allowed-by-typing"), textStep("Denied, fine."))
	ws := t.TempDir()
	p := startAppAt(t, srv, t.TempDir(), ws, "--sandbox", "danger-full-access")
	p.prompt("start")
	p.waitFor("Allow bash?")
	time.Sleep(deliberatePause) // the dialog has been open a while
	for _, r := range "also do it" {
		p.typeText(string(r))
		time.Sleep(40 * time.Millisecond)
	}
	time.Sleep(deliberatePause)
	scr := p.waitFor("Allow bash?", "your typing went to the input")
	if _, err := os.Stat(filepath.Join(ws, "allowed-by-typing")); err == nil {
		t.Fatalf("typing answered the dialog: the command ran:\n%s", scr)
	}
	if strings.Contains(scr, "allowed `") {
		t.Fatalf("typing allowed something for the session:\n%s", scr)
	}
	if !strings.Contains(lastLines(scr, 4), "also do it") {
		t.Fatalf("the input does not hold the whole text:\n%s", scr)
	}
	p.send("n")
	p.waitFor("Reason")
	p.send("Enter")
	p.waitFor("Denied, fine.")
	if res := toolResults(srv.Requests()); len(res) != 1 || !strings.Contains(res[0], "denied") {
		t.Fatalf("tool results %q, want one denial", res)
	}
}

// TestE2EUserItemCarriedIntoNewPlan (issue 30 §5): after a plan finished
// and the user added an item with /plan add, the model's plan for an
// unrelated request is accepted, and the chat says the user's item was
// carried into it.
func TestE2EUserItemCarriedIntoNewPlan(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	script(t, srv,
		todoStep("Tidy", todoItem{ID: "1", Text: "Tidy ALPHA", Status: "completed"}),
		textStep("Tidied."),
		todoStep("Rename the logger", todoItem{ID: "1", Text: "Rename LOGGER", Status: "in_progress", ActiveForm: "Renaming LOGGER"}),
		textStep("Renamed."),
	)
	p := startAppAt(t, srv, t.TempDir(), t.TempDir(), "--yolo")
	p.prompt("tidy up")
	p.waitFor("Tidied.")
	p.prompt("/plan add Write TESTS")
	p.waitFor("Write TESTS")
	p.prompt("rename the logger")
	scr := p.waitFor("Renamed.", "carried into the new plan", "Write TESTS")
	if strings.Contains(scr, "may not be") {
		t.Fatalf("the new plan was refused:\n%s", scr)
	}
	res := toolResults(srv.Requests())
	if len(res) < 2 || strings.Contains(res[len(res)-1], "Error") {
		t.Fatalf("the new plan's todo call was refused: %q", res)
	}
	checkValid(t, srv)
}

// TestE2ERewoundUserItemNoLongerBinds (issue 30 §14): a /rewind of the
// conversation to before a /plan add takes the user's item back: the
// model's next list, without it, is accepted.
func TestE2ERewoundUserItemNoLongerBinds(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	script(t, srv,
		todoStep("Build", pending(todoItem{ID: "1", Text: "Build ALPHA"})...),
		textStep("Planned."),
		textStep("Going."),
		todoStep("Build", todoItem{ID: "1", Text: "Build ALPHA", Status: "in_progress"}, todoItem{ID: "2", Text: "Ship BRAVO", Status: "pending"}),
		textStep("Listed."),
	)
	p := startAppAt(t, srv, t.TempDir(), t.TempDir(), "--yolo")
	p.prompt("plan it")
	p.waitFor("Planned.")
	p.prompt("go on")
	p.waitFor("Going.")
	p.prompt("/plan add Write TESTS")
	p.waitFor("Write TESTS")
	p.prompt("/rewind")
	p.waitFor("Rewind to before", "“go on”")
	p.send("Enter") // the newest point: "go on", before the /plan add
	s := p.waitUntil("the scope or the confirmation", func(s string) bool {
		return strings.Contains(s, "What goes back?") || strings.Contains(s, "waiting for a deliberate answer")
	})
	if strings.Contains(s, "What goes back?") {
		p.send("c")
		s = p.waitFor("waiting for a deliberate answer")
	}
	m := confirmShown.FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no confirmation key on screen:\n%s", s)
	}
	time.Sleep(deliberatePause)
	p.send(m[1])
	p.waitFor("rewound ")
	p.waitGone("Write TESTS")
	p.send("C-u") // the rewound message is offered again: send it
	p.send("Enter")
	scr := p.waitFor("Listed.", "Ship BRAVO")
	if strings.Contains(scr, "added by the user") {
		t.Fatalf("the rewound user item still binds:\n%s", scr)
	}
	res := toolResults(srv.Requests())
	if len(res) < 2 || strings.Contains(res[len(res)-1], "Error") {
		t.Fatalf("the list after the rewind was refused: %q", res)
	}
	checkValid(t, srv)
}

// TestE2ENestedRepoKeepsUndo (issue 30 §1): after a command's `git init
// docs` is kept with y, the next message still gets its undo point and
// /rewind works. It passes once undo snapshots nested repositories (the
// helper `undo`'s branch).
func TestE2ENestedRepoKeepsUndo(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	script(t, srv,
		bashStep("git init -q docs && echo initialised"),
		textStep("Initialised."),
		step{reply: call("write_file", map[string]any{"path": "notes.txt", "content": "n\n"})},
		textStep("Wrote notes."),
	)
	ws := t.TempDir()
	p := startAppAt(t, srv, t.TempDir(), ws)
	p.waitFor("auto · sandbox: workspace-write")
	p.prompt("make docs a repository")
	p.waitFor("Keep the git metadata this command created?")
	time.Sleep(deliberatePause)
	p.send("y")
	p.waitFor("Initialised.")
	p.prompt("write the notes")
	scr := p.waitFor("Wrote notes.")
	if strings.Contains(scr, "no undo point") {
		t.Fatalf("the nested repository switched undo off:\n%s", scr)
	}
	p.prompt("/rewind")
	scr = p.waitFor("Rewind to before", "“write the notes”")
	if strings.Contains(scr, "does not have a commit checked out") {
		t.Fatalf("/rewind fails on the nested repository:\n%s", scr)
	}
	p.send("Escape")
}
