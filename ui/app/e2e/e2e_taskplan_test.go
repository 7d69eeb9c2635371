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
