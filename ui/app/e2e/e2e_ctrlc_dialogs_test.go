package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
)

// TestE2ECtrlCLeavesDialogsWhileTasksRun: while two tasks run side by
// side, ctrl+c in the help overlay closes it, and ctrl+c in a task's
// transcript (ctrl+x, enter) goes back to the task rows, then leaves
// them, as esc does: tick does not quit, the turn is not interrupted and
// the tasks finish. Before, ctrl+c in the help interrupted the turn and
// left the help open, did nothing in the transcript, and interrupted the
// turn from the rows.
func TestE2ECtrlCLeavesDialogsWhileTasksRun(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	g := newGate(t)
	srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if n, ok := strings.CutPrefix(r.Messages[1].Content, "CHILD "); ok {
			if r.Last().Role == "user" {
				return call("bash", map[string]any{"command": "echo LOGLINE " + n})
			}
			g.wait() // the tasks run until the test has been through the dialogs
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
			return todoStep("Two parts", pending(todoItem{ID: "1", Text: "ALPHA"}, todoItem{ID: "2", Text: "BRAVO"})...).reply
		case 1:
			var cs []providertest.Call
			for i := 1; i <= 2; i++ {
				b, _ := json.Marshal(map[string]any{"description": fmt.Sprintf("part %d", i), "prompt": fmt.Sprintf("CHILD %d", i), "item": fmt.Sprint(i)})
				cs = append(cs, providertest.Call{Name: "task", Args: string(b)})
			}
			return providertest.Reply{ToolCalls: cs}
		}
		return providertest.Reply{Text: "Both parts done."}
	})
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, ".tick"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, ".tick", "config.toml"), []byte("max_parallel_tasks = 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startAppAt(t, srv, t.TempDir(), ws, "--yolo")
	p.prompt("do the two parts")
	p.waitFor("part 1 · 1 tool", "part 2 · 1 tool")

	p.send("C-g")
	p.waitFor("Input and turn")
	p.send("C-c")
	p.waitGone("Input and turn")

	p.send("C-x")
	p.waitFor("▸")
	p.send("Enter")
	p.waitFor("task part 1 · #1") // the transcript's head
	p.send("C-c")
	p.waitGone("task part 1 · #1")
	p.waitFor("▸") // back on the rows
	p.send("C-c")
	p.waitGone("▸")

	scr := p.screen()
	for _, bad := range []string{"interrupt", "again to quit", "stopping the task"} {
		if strings.Contains(scr, bad) && !strings.Contains(scr, "esc to interrupt") {
			t.Fatalf("ctrl+c in a dialog reached the turn or the quit (%q):\n%s", bad, scr)
		}
	}
	g.open()
	p.waitFor("Both parts done.", "part 1 ● report 1", "part 2 ● report 2")
	if dead, out := p.dead(); dead {
		t.Fatalf("tick quit:\n%s", out)
	}
	checkValid(t, srv)
}
