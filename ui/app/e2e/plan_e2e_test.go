package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/ui/app"

	"github.com/tick-agent/tick/provider/providertest"
)

// TestHeadlessEndsEarlyTwice checks that -p reminds a model that ends its
// turn with items open, once, and then says the turn ended with open items.
func TestHeadlessEndsEarlyTwice(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(
		todoReply(todoCall("Ship", "1:completed:Build", "2:in_progress:Test", "3:pending:Docs")),
		providertest.Reply{Text: "All done!"},
		providertest.Reply{Text: "Yes, all done."},
	)
	args, _ := headless(t, srv, "ship it", "--yolo", "--completion-reminder=true")
	r := tick(t, nil, "", args...)
	if r.code != app.ExitUnfinished {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 || !strings.Contains(reqs[2].LastUser(), "2 items are still open: #2 Test, #3 Docs") {
		t.Fatalf("got %d requests; the third's last user message: %q", len(reqs), reqs[len(reqs)-1].LastUser())
	}
	if !strings.Contains(r.stderr, "the turn ended with 2 open items: #2 Test, #3 Docs") {
		t.Errorf("stderr does not say the turn ended with open items:\n%s", r.stderr)
	}
	if r.stdout != "Yes, all done.\n" { // one answer: the one that ended the turn
		t.Errorf("stdout = %q", r.stdout)
	}
	checkValid(t, srv)
}

// TestHeadlessPlanMode checks -p --plan: only read-only tools are offered,
// a write is refused, and the proposed plan is printed after the answer.
func TestHeadlessPlanMode(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(
		call("write_file", map[string]any{"path": "x.txt", "content": "no"}),
		todoReply(todoCall("Add a flag", "1:pending:Read main.go", "2:pending:Add --verbose")),
		providertest.Reply{Text: "Two steps."},
	)
	args, ws := headless(t, srv, "plan a --verbose flag", "--plan", "--yolo", "--completion-reminder=true")
	r := tick(t, nil, "", args...)
	if r.code != app.ExitOK {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	want := "Two steps.\n\n## Add a flag\n\n- [ ] #1 Read main.go\n- [ ] #2 Add --verbose\n"
	if r.stdout != want {
		t.Errorf("stdout =\n%q\nwant\n%q", r.stdout, want)
	}
	if _, err := os.Stat(filepath.Join(ws, "x.txt")); err == nil {
		t.Error("plan mode wrote a file")
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("got %d requests, want 3 (no reminder in plan mode)", len(reqs))
	}
	if got := strings.Join(reqs[0].Tools, ","); got != "bash,read_file,todo,task" {
		t.Errorf("tools offered in plan mode: %s", got)
	}
	if res := toolResults(reqs[1:2]); len(res) == 0 || !strings.Contains(res[0], "Error: plan mode is on") {
		t.Errorf("write_file result = %q", res)
	}
	checkValid(t, srv)
}
