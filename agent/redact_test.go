package agent_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

// TestToolOutputRedacted: tick's own API key in a file the model reads,
// in `env` output and in a command's live output, and a URL's password,
// never reach the model, the front-end's events or the history.
func TestToolOutputRedacted(t *testing.T) {
	const key = "sk-tick-own-key-0123456789"
	h := newHarness(t, func(c *agent.Config) { c.Secrets = []string{key} })
	if err := os.WriteFile(filepath.Join(h.dir, ".env"), []byte("OPENAI_API_KEY="+key+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h.srv.Enqueue(
		calls(call("read_file", `{"path":".env"}`),
			call("bash", `{"command":"LEAK=`+key+` env | grep LEAK; echo https://ci-token:glcbt-secret-777@git.example/x.git"}`)),
		providertest.Reply{Text: "done"})
	evs := h.run("go")
	for _, ev := range evs {
		var text string
		switch e := ev.(type) {
		case agent.ToolEnd:
			text = e.Output
		case agent.ToolOutput:
			text = e.Tail
		default:
			continue
		}
		if strings.Contains(text, key) || strings.Contains(text, "glcbt-secret-777") {
			t.Errorf("%T carries a secret: %q", ev, text)
		}
	}
	var tools []string
	for _, m := range h.ag.History() {
		if m.Role == provider.RoleTool {
			tools = append(tools, m.Content)
		}
	}
	joined := strings.Join(tools, "\n")
	if strings.Contains(joined, key) || strings.Contains(joined, "glcbt-secret-777") {
		t.Errorf("the history carries a secret:\n%s", joined)
	}
	if !strings.Contains(joined, "[redacted by tick]") || !strings.Contains(joined, "https://ci-token:[redacted by tick]@git.example") {
		t.Errorf("the results do not say what was masked:\n%s", joined)
	}
	for _, r := range h.srv.Requests() {
		for _, m := range r.Messages {
			if strings.Contains(m.Content, key) {
				t.Errorf("a request to the model carries the key: %q", m.Content)
			}
		}
	}
}

// TestSecretMaskedInSandboxRerunDialog (seam: secrets scrub × the
// sandbox × an open approval dialog): the question to run a blocked
// command again outside the sandbox quotes the end of its output; tick's
// own key in that output is masked there too, as in the result.
func TestSecretMaskedInSandboxRerunDialog(t *testing.T) {
	const key = "sk-tick-own-key-0123456789"
	outside := outsideDir(t, ".tick-redact-")
	h := newHarness(t, func(c *agent.Config) { c.Secrets, c.Approval = []string{key}, agent.ApproveAsk }, withSandbox(t))
	if err := os.WriteFile(filepath.Join(h.dir, "key.txt"), []byte(key+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h.srv.Enqueue(calls(call("bash", `{"command":"cat key.txt; echo x > `+filepath.Join(outside, "made")+`"}`)), providertest.Reply{Text: "ok"})
	reqs, ends := turn(t, h, func(agent.ApprovalRequest) agent.Approval { return agent.Approval{} })
	var rerun bool
	for _, r := range reqs {
		rerun = rerun || r.Rerun
		if strings.Contains(r.Detail+r.Summary+r.Scope, key) {
			t.Errorf("the approval request shows the key: %+v", r)
		}
	}
	if !rerun || len(ends) != 1 || !strings.Contains(ends[0].Output, "[redacted by tick]") {
		t.Fatalf("want a rerun request and a masked result; requests %+v, ends %+v", reqs, ends)
	}
}
