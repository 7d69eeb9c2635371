package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/ui/app"
)

// falseGreen is one way failed work used to exit 0: the model's replies
// before its final answer.
type falseGreen struct {
	name      string
	replies   []providertest.Reply
	failed    int // failed_commands without --verify
	cancelled int // cancelled_items without --verify
}

// todoWith is a todo call with items given as {id, status, text, note}.
func todoWith(items ...[4]string) providertest.Reply {
	var its []map[string]string
	for _, it := range items {
		m := map[string]string{"id": it[0], "status": it[1], "text": it[2]}
		if it[3] != "" {
			m["note"] = it[3]
		}
		its = append(its, m)
	}
	b, _ := json.Marshal(map[string]any{"goal": "Fix the tests", "items": its})
	return providertest.Reply{ToolCalls: []providertest.Call{{Name: "todo", Args: string(b)}}}
}

// falseGreens are the four: items completed after a failing command,
// every item cancelled, "All tests pass" after a failure, and a failing
// command with no plan at all.
func falseGreens() []falseGreen {
	return []falseGreen{
		{"completed after a failing command", []providertest.Reply{
			todoWith([4]string{"1", "in_progress", "Fix the test", ""}),
			call("bash", map[string]any{"command": "echo 'FAIL: TestX'; exit 1"}),
			todoWith([4]string{"1", "completed", "Fix the test", "fixed"}),
		}, 1, 0},
		{"every item cancelled", []providertest.Reply{
			todoWith([4]string{"1", "cancelled", "Fix the test", "too hard"}, [4]string{"2", "cancelled", "Fix the lint", "too hard"}),
		}, 0, 2},
		{"all tests pass after a failure", []providertest.Reply{
			call("bash", map[string]any{"command": "echo '--- FAIL: TestY'; exit 1"}),
		}, 1, 0},
		{"a failing command and no plan", []providertest.Reply{
			call("bash", map[string]any{"command": "echo 'Error: release not found' >&2; exit 1"}),
		}, 1, 0},
	}
}

// resultOf parses -p --output-format json's stdout as one object.
func resultOf(t *testing.T, r result) map[string]any {
	t.Helper()
	var obj map[string]any
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	if err := dec.Decode(&obj); err != nil || dec.More() {
		t.Fatalf("exit %d: stdout is not one object (%v): %q\nstderr:\n%s", r.code, err, r.stdout, r.stderr)
	}
	return obj
}

// TestFalseGreensWithoutVerify: without --verify the result still counts
// failed commands (with the last one and its status) and cancelled items,
// so a pipeline can refuse a suspicious green.
func TestFalseGreensWithoutVerify(t *testing.T) {
	for _, fg := range falseGreens() {
		t.Run(fg.name, func(t *testing.T) {
			srv := providertest.New(t)
			srv.Enqueue(append(fg.replies, providertest.Reply{Text: "All tests pass."})...)
			args, _ := headless(t, srv, "fix the tests", "--yolo", "--output-format", "json")
			obj := resultOf(t, tick(t, nil, "", args...))
			if obj["failed_commands"] != float64(fg.failed) || obj["cancelled_items"] != float64(fg.cancelled) {
				t.Errorf("failed_commands %v, cancelled_items %v; want %d, %d", obj["failed_commands"], obj["cancelled_items"], fg.failed, fg.cancelled)
			}
			if fg.failed > 0 {
				last, _ := obj["last_failed_command"].(map[string]any)
				if last["exit_code"] != 1.0 || !strings.Contains(last["command"].(string), "exit 1") {
					t.Errorf("last_failed_command = %v", obj["last_failed_command"])
				}
			}
		})
	}
}

// TestFalseGreensWithVerify: with --verify, each false green ends with
// exit 4 (verify_failed), after the model was told of each failure and
// the check ran verify_attempts times; the result carries the check.
func TestFalseGreensWithVerify(t *testing.T) {
	for _, fg := range falseGreens() {
		t.Run(fg.name, func(t *testing.T) {
			srv := providertest.New(t)
			final := providertest.Reply{Text: "All tests pass."}
			srv.Enqueue(append(fg.replies, final, final, final)...)
			args, _ := headless(t, srv, "fix the tests", "--yolo", "--output-format", "json", "--verify", "echo 'FAIL: TestZ'; exit 3")
			r := tick(t, nil, "", args...)
			obj := resultOf(t, r)
			if r.code != app.ExitUnfinished || obj["exit_reason"] != "verify_failed" || obj["is_error"] != true {
				t.Fatalf("exit %d, reason %v; want 4, verify_failed\nstderr:\n%s", r.code, obj["exit_reason"], r.stderr)
			}
			v, _ := obj["verify"].(map[string]any)
			if v["command"] != "echo 'FAIL: TestZ'; exit 3" || v["exit_code"] != 3.0 || v["attempts"] != 3.0 || !strings.Contains(v["output_tail"].(string), "FAIL: TestZ") {
				t.Errorf("verify = %v", obj["verify"])
			}
			notes := 0
			for _, m := range srv.Requests()[len(srv.Requests())-1].Messages {
				if m.Role == "user" && strings.Contains(m.Content, "The verify check failed") {
					notes++
					if !strings.Contains(m.Content, "exit status 3") || !strings.Contains(m.Content, "FAIL: TestZ") || !strings.Contains(m.Content, "exit 3`") {
						t.Errorf("the note lacks the command, status or output: %q", m.Content)
					}
				}
			}
			if notes != 2 {
				t.Errorf("the model was told of %d failures, want 2 (the third ends the turn)", notes)
			}
			checkValid(t, srv)
		})
	}
}

// TestVerifyPassesAfterAFix: the model's first "done" fails the check; it
// fixes the cause when told, the check passes and the run exits 0.
func TestVerifyPassesAfterAFix(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Text: "Done."},
		call("bash", map[string]any{"command": "touch fixed"}),
		providertest.Reply{Text: "Fixed for real."})
	args, _ := headless(t, srv, "fix it", "--yolo", "--output-format", "json", "--verify", "test -f fixed")
	r := tick(t, nil, "", args...)
	obj := resultOf(t, r)
	v, _ := obj["verify"].(map[string]any)
	if r.code != app.ExitOK || v["passed"] != true || v["attempts"] != 2.0 || obj["answer"] != "Fixed for real." {
		t.Fatalf("exit %d, verify %v, answer %v\nstderr:\n%s", r.code, v, obj["answer"], r.stderr)
	}
}
