package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider/providertest"
)

// TestE2EPlanCancelStopsItsTask (issue 31 §1): /plan cancel 2 while a
// task works on #2 stops it at once: its write (in its copy) is not
// applied, the chat says the changes were discarded and where the copy
// is, and the item keeps the user's reason.
func TestE2EPlanCancelStopsItsTask(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	srv.SetFunc(func(r providertest.Request) providertest.Reply {
		answers := 0
		for _, m := range r.Messages {
			if m.Role == "assistant" {
				answers++
			}
		}
		if strings.HasPrefix(r.Messages[1].Content, "CHILD") {
			if answers == 0 {
				return call("write_file", map[string]any{"path": "drop.sql", "content": "DROP TABLE users;\n"})
			}
			return providertest.Reply{Text: "dropping the table", Hang: true}
		}
		switch answers {
		case 0:
			return todoStep("Clean up", pending(todoItem{ID: "1", Text: "Back up"}, todoItem{ID: "2", Text: "Drop the users table"})...).reply
		case 1:
			return providertest.Reply{ToolCalls: []providertest.Call{{Name: "task", Args: `{"description":"drop users","prompt":"CHILD","item":"2"}`}}}
		}
		return providertest.Reply{Text: "Understood, #2 is cancelled."}
	})
	ws := t.TempDir()
	p := startAppAt(t, srv, t.TempDir(), ws, "--yolo")
	p.prompt("clean up the database")
	if !waitForFast(30*time.Second, func() bool { return len(srv.Requests()) >= 4 && srv.WaitOpen(1, time.Second) }) {
		t.Fatalf("the task never reached its second model call:\n%s", p.screen())
	}
	p.prompt("/plan cancel 2 never drop tables")
	p.waitFor("discarded", "Understood, #2 is cancelled.")
	if _, err := os.Stat(filepath.Join(ws, "drop.sql")); err == nil {
		t.Error("the cancelled task's write was applied to the workspace")
	}
	p.waitFor("never drop tables")
	checkValid(t, srv)
}

// gatedTaskServer: the parent plans #1 (in progress) and #2, waits on g,
// then sends a task on #2 whose subagent writes f2.txt (first waiting on
// child, when not nil) and reports.
func gatedTaskServer(srv *providertest.Server, g, child *gate) {
	srv.SetFunc(func(r providertest.Request) providertest.Reply {
		answers := 0
		for _, m := range r.Messages {
			if m.Role == "assistant" {
				answers++
			}
		}
		if strings.HasPrefix(r.Messages[1].Content, "CHILD") {
			if answers == 0 {
				return call("write_file", map[string]any{"path": "f2.txt", "content": "from the task\n"})
			}
			if child != nil {
				child.wait()
			}
			return providertest.Reply{Text: "report two"}
		}
		switch answers {
		case 0:
			return todoStep("Two steps", todoItem{ID: "1", Text: "Step ALPHA", Status: "in_progress"}, todoItem{ID: "2", Text: "Step BRAVO", Status: "pending"}).reply
		case 1:
			g.wait()
			return providertest.Reply{ToolCalls: []providertest.Call{{Name: "task", Args: `{"description":"bravo part","prompt":"CHILD","item":"2"}`}}}
		}
		return providertest.Reply{Text: "All done here."}
	})
}

// TestE2ETaskWaitsAtGate (issue 31 §2): with "stop after #1" set, the task
// on #2 does not start until the user continues.
func TestE2ETaskWaitsAtGate(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	hold := newGate(t)
	gatedTaskServer(srv, hold, nil)
	ws := t.TempDir()
	p := startAppAt(t, srv, t.TempDir(), ws, "--yolo")
	p.prompt("do two steps")
	hold.waitReached(t)
	p.waitFor("Step ALPHA", "Step BRAVO")
	p.prompt("/plan")
	p.waitFor("a add after", "g stop after")
	p.send("g") // stop after the running item, #1
	p.waitFor("stop after")
	p.send("Escape")
	p.waitGone("a add after")
	hold.open()
	p.waitFor("paused", "#2")
	for _, r := range srv.Requests() {
		if strings.HasPrefix(r.Messages[1].Content, "CHILD") {
			t.Fatalf("the task on #2 started before the user continued:\n%s", p.screen())
		}
	}
	if _, err := os.Stat(filepath.Join(ws, "f2.txt")); err == nil {
		t.Fatal("the task on #2 merged before the user continued")
	}
	p.send("Enter")
	p.waitFor("All done here.")
	if b, _ := os.ReadFile(filepath.Join(ws, "f2.txt")); string(b) != "from the task\n" {
		t.Errorf("f2.txt = %q after continuing, want the task's write", b)
	}
	checkValid(t, srv)
}

// TestE2EPlanModeHoldsTaskMerge (issue 31 §3): shift+tab while a task runs
// holds its merge: the workspace does not change, the chat says the
// changes are held and where.
func TestE2EPlanModeHoldsTaskMerge(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	hold, child := newGate(t), newGate(t)
	hold.open()
	gatedTaskServer(srv, hold, child)
	ws := t.TempDir()
	p := startAppAt(t, srv, t.TempDir(), ws, "--yolo")
	p.prompt("do two steps")
	child.waitReached(t)
	p.send("BTab")
	p.waitFor("plan mode")
	child.open()
	p.waitFor("are held", "All done here.")
	if _, err := os.Stat(filepath.Join(ws, "f2.txt")); err == nil {
		t.Error("the task's patch was applied in plan mode")
	}
	checkValid(t, srv)
}
