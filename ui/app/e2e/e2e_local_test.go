package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/ui/app"
)

// thinkInContent is how llama.cpp without a reasoning parser streams a
// reasoning model's answer: the thoughts inside <think> tags in the text
// (see provider/testdata/local/README.md).
const thinkInContent = "<think>\nThe user wants the meaning of life. Secret musing.\n</think>\n\nThe answer is 42."

// TestE2ELocalReasoningApart: in the TUI, thoughts a server sends inside
// the text (<think>…</think>) and thoughts Ollama sends as
// delta.reasoning both show as the model's thinking, apart from the
// answer; no tag reaches the screen.
func TestE2ELocalReasoningApart(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	ollama, err := os.ReadFile(filepath.Join("..", "..", "..", "provider", "testdata", "local", "ollama-reasoning.sse"))
	if err != nil {
		t.Fatal(err)
	}
	opened, err := os.ReadFile(filepath.Join("..", "..", "..", "provider", "testdata", "local", "llamacpp-template-opened-think.sse"))
	if err != nil {
		t.Fatal(err)
	}
	srv.Enqueue(providertest.Reply{Text: thinkInContent, ChunkSize: 3}, providertest.Reply{Raw: ollama}, providertest.Reply{Raw: opened})
	p := startApp(t, srv)

	p.typeText("what is the meaning of life?")
	p.send("Enter")
	scr := p.waitFor("Thought for", "The answer is 42.")
	for _, bad := range []string{"<think>", "</think>", "Secret musing"} {
		if strings.Contains(scr, bad) {
			t.Errorf("the screen shows %q after the answer:\n%s", bad, scr)
		}
	}

	p.typeText("and 2+2?")
	p.send("Enter")
	p.waitUntil("a second thought, then the answer 4", func(s string) bool {
		return strings.Count(s, "Thought for") == 2 && hasLine(s, "4")
	})

	// The template opened the tag: the thoughts stream as text until
	// </think>, and are then withdrawn from the answer.
	p.typeText("once more")
	p.send("Enter")
	scr = p.waitUntil("a third thought, then its answer", func(s string) bool {
		return strings.Count(s, "Thought for") == 3 && hasLine(s, "It is 4.")
	})
	if strings.Contains(scr, "Okay, the user") {
		t.Errorf("the thoughts before a lone </think> stay in the answer:\n%s", scr)
	}
}

// hasLine reports whether a line of the screen is text, give or take
// white space.
func hasLine(screen, text string) bool {
	for _, l := range strings.Split(screen, "\n") {
		if strings.TrimSpace(l) == text {
			return true
		}
	}
	return false
}

// TestLocalHeadlessKeepsThoughtsOffStdout: tick -p prints only the answer
// on stdout when the thoughts come inside the text.
func TestLocalHeadlessKeepsThoughtsOffStdout(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Text: thinkInContent, ChunkSize: 5})
	args, _ := headless(t, srv, "meaning of life?")
	r := tick(t, nil, "", args...)
	if r.code != app.ExitOK {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	if r.stdout != "The answer is 42.\n" {
		t.Errorf("stdout = %q, want only the answer", r.stdout)
	}
}

// TestReasoningEffortFlag: --reasoning-effort reaches the server, and a
// level that does not exist is a usage error.
func TestReasoningEffortFlag(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Text: "ok"})
	args, _ := headless(t, srv, "hi", "--reasoning-effort", "low")
	if r := tick(t, nil, "", args...); r.code != app.ExitOK {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	if body := string(srv.Requests()[0].Body); !strings.Contains(body, `"reasoning_effort":"low"`) {
		t.Errorf("the request does not ask for low effort: %s", body)
	}
	args, _ = headless(t, srv, "hi", "--reasoning-effort", "max")
	if r := tick(t, nil, "", args...); r.code != app.ExitUsage || !strings.Contains(r.stderr, "--reasoning-effort") {
		t.Errorf("--reasoning-effort max: exit %d, stderr %q; want a usage error naming the flag", r.code, r.stderr)
	}
}
