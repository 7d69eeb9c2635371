package e2e

import (
	"encoding/json"
	"github.com/tick-agent/tick/ui/app/apptest"
	"os"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/ui/app"
)

// TestBudgetResultListsOpenItemsAndCopies: a run the time budget stops
// while a task works in its copy exits 6, and its result object lists
// the plan's open items and the task's kept copy; the model is told the
// time budget stopped it, never "interrupted by the user".
func TestBudgetResultListsOpenItemsAndCopies(t *testing.T) {
	srv := providertest.New(t)
	srv.SetFunc(func(req providertest.Request) providertest.Reply {
		first, last := "", req.Messages[len(req.Messages)-1]
		for _, m := range req.Messages {
			if m.Role == "user" {
				first = m.Content
				break
			}
		}
		switch {
		case last.Role == "user" && last.Content == "go on":
			return providertest.Reply{Text: "carrying on"}
		case first == "write it":
			return call("bash", map[string]any{"command": "echo x > new.txt; sleep 30"})
		case last.Role == "user":
			b, _ := json.Marshal(map[string]any{"description": "write it", "prompt": "write it", "item": "1"})
			return providertest.Reply{ToolCalls: []providertest.Call{todoCall("Ship", "1:in_progress:Write it", "2:pending:Test it"),
				{Name: "task", Args: string(b)}}}
		}
		return providertest.Reply{Text: "never"}
	})
	args, ws := headless(t, srv, "ship it", "--yolo", "--output-format", "json", "--max-time", "2s")
	env, _ := apptest.StateEnv(t)
	r := tick(t, env, "", args...)
	obj := resultOf(t, r)
	if r.code != app.ExitBudget || obj["exit_reason"] != "budget" {
		t.Fatalf("exit %d, reason %v; want 6, budget\nstderr:\n%s", r.code, obj["exit_reason"], r.stderr)
	}
	open, _ := obj["open_items"].([]any)
	if len(open) != 2 {
		t.Errorf("open_items = %v, want both items", obj["open_items"])
	}
	kept, _ := obj["kept_copies"].([]any)
	if len(kept) != 1 {
		t.Fatalf("kept_copies = %v, want the task's copy\nstderr:\n%s", obj["kept_copies"], r.stderr)
	}
	defer os.RemoveAll(kept[0].(string))
	if _, err := os.Stat(kept[0].(string) + "/new.txt"); err != nil {
		t.Errorf("the kept copy lacks the task's file: %v", err)
	}
	mustRun(t, env, "-c", "-p", "go on", "--base-url", srv.URL, "-C", ws, "--yolo")
	reqs := srv.Requests()
	var resumed []string
	for _, m := range reqs[len(reqs)-1].Messages {
		resumed = append(resumed, m.Content)
	}
	text := strings.Join(resumed, "\n")
	if strings.Contains(text, "interrupted by the user") || !strings.Contains(text, "stopped by the time budget") {
		t.Errorf("the resumed history does not say the time budget stopped the call:\n%s", text)
	}
}
