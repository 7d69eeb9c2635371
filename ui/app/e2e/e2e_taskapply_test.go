package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider/providertest"
)

// tenLines is a.txt before the tasks of TestE2EApplyConflictingTask.
const tenLines = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"

// conflictServer answers the parent with two tasks side by side, each
// changing line 5 of a.txt its own way (task two also line 9), then
// "done", then "Noted." to any later message.
func conflictServer(srv *providertest.Server) {
	edits := map[string]string{"1": `sed -i 's/^5$/five one/' a.txt`, "2": `sed -i 's/^5$/five two/; s/^9$/nine/' a.txt`}
	srv.SetFunc(func(r providertest.Request) providertest.Reply {
		n, isChild := strings.CutPrefix(r.Messages[1].Content, "CHILD ")
		switch {
		case isChild && r.Last().Role == "user":
			srv.WaitOpen(2, 10*time.Second) // both copies made before either merges
			return call("bash", map[string]any{"command": edits[n]})
		case isChild:
			return providertest.Reply{Text: "report " + n}
		}
		answers := 0
		for _, m := range r.Messages {
			if m.Role == "assistant" {
				answers++
			}
		}
		switch answers {
		case 0:
			return providertest.Reply{ToolCalls: []providertest.Call{
				{Name: "task", Args: `{"description":"one","prompt":"CHILD 1"}`},
				{Name: "task", Args: `{"description":"two","prompt":"CHILD 2"}`},
			}}
		case 1:
			return providertest.Reply{Text: "done"}
		}
		return providertest.Reply{Text: "Noted."}
	})
}

// TestE2EApplyConflictingTask: two tasks change a.txt; one merges, the
// other conflicts. Its notice offers keys; p (after a pause) shows its
// patch, esc goes back, a applies it over the current files with the
// conflicting hunk between markers and the other hunk taken; the model
// is told with the next message; /undo takes the apply back.
func TestE2EApplyConflictingTask(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	conflictServer(srv)
	ws := parallelWorkspace(t)
	if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte(tenLines), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startAppAt(t, srv, t.TempDir(), ws, "--yolo")
	p.prompt("two tasks on a.txt")
	p.waitFor("changed files that changed in the workspace meanwhile", "p show its patch", "a apply it over the current files")
	p.waitFor("done")
	before := readWS(ws, "a.txt")
	time.Sleep(deliberatePause)
	p.send("p")
	p.waitFor("The patch of task 1")
	p.send("Enter")
	p.waitFor("+ five ")
	p.send("Escape")
	p.waitFor("esc close") // back on the list of its files
	p.send("Escape")
	p.waitGone("The patch of task 1")
	p.waitFor("p show its patch")
	time.Sleep(deliberatePause)
	p.send("a")
	p.waitFor("conflicts marked", "a.txt (1)", "/undo takes it back")
	got := readWS(ws, "a.txt")
	if !strings.Contains(got, "<<<<<<< current\nfive ") || !strings.Contains(got, "=======\nfive ") || !strings.Contains(got, ">>>>>>> task\n") || !strings.Contains(got, "nine\n") {
		t.Fatalf("a.txt after the apply = %q, want line 5's conflict marked and line 9 taken", got)
	}
	p.prompt("what now?")
	p.waitFor("Noted.")
	reqs := srv.Requests()
	if sent := dump(reqs[len(reqs)-1].Messages); !strings.Contains(sent, "The user applied the changes of the task") {
		t.Errorf("the model was not told of the apply:\n%s", sent)
	}
	p.prompt("/undo")
	p.waitFor("Undo applying task 1", "waiting for a deliberate answer")
	time.Sleep(deliberatePause)
	p.send("y")
	p.waitFor("undid applying task 1")
	if now := readWS(ws, "a.txt"); now != before {
		t.Errorf("after /undo a.txt = %q, want %q as before the apply", now, before)
	}
	checkValid(t, srv)
}
