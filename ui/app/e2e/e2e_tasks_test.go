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

// TestE2EThreeTaskRows: three tasks on three plan items run at once and
// show as three live rows under their items (the current tool, the tool
// count), then their results; the plan keeps the tasks' notes.
func TestE2EThreeTaskRows(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	g := newGate(t)
	srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if n, ok := strings.CutPrefix(r.Messages[1].Content, "CHILD "); ok {
			if r.Last().Role == "user" {
				return call("bash", map[string]any{"command": "echo part " + n})
			}
			srv.WaitOpen(3, 0)
			g.wait() // the three rows stay live until the test has seen them
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
			return todoStep("Three parts", pending(todoItem{ID: "1", Text: "ALPHA"}, todoItem{ID: "2", Text: "BRAVO"}, todoItem{ID: "3", Text: "CHARLIE"})...).reply
		case 1:
			var cs []providertest.Call
			for i := 1; i <= 3; i++ {
				b, _ := json.Marshal(map[string]any{"description": fmt.Sprintf("part %d", i), "prompt": fmt.Sprintf("CHILD %d", i), "item": fmt.Sprint(i)})
				cs = append(cs, providertest.Call{Name: "task", Args: string(b)})
			}
			return providertest.Reply{ToolCalls: cs}
		}
		return providertest.Reply{Text: "All three parts done."}
	})
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, ".tick"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A local fake server reports no slots: the config allows three.
	if err := os.WriteFile(filepath.Join(ws, ".tick", "config.toml"), []byte("max_parallel_tasks = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startAppAt(t, srv, t.TempDir(), ws, "--yolo")
	p.prompt("do the three parts")
	scr := p.waitFor("part 1 · 1 tool", "part 2 · 1 tool", "part 3 · 1 tool")
	lines := strings.Split(scr, "\n")
	at := func(s string) int {
		for i, l := range lines {
			if strings.Contains(l, s) {
				return i
			}
		}
		return -1
	}
	if !(at("ALPHA") < at("part 1 ·") && at("part 1 ·") < at("BRAVO") && at("BRAVO") < at("part 2 ·") && at("part 2 ·") < at("CHARLIE") && at("CHARLIE") < at("part 3 ·")) {
		t.Errorf("the three live rows are not under their items:\n%s", scr)
	}
	if !srv.WaitOpen(3, 0) {
		t.Errorf("the server saw %d requests at once, want the three tasks'", srv.MaxOpen())
	}
	g.open()
	p.waitFor("All three parts done.", "part 1 ● report 1", "part 3 ● report 3")
	checkValid(t, srv)
}
