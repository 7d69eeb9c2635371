package agent_test

import (
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

func TestThinkingLevel(t *testing.T) {
	h := newClientHarness(t, func(c *provider.Config) { c.Server = provider.ServerVLLM },
		func(c *agent.Config) { c.Effort = "high" })
	refuse := true
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if refuse && strings.Contains(string(r.Body), "enable_thinking") {
			return providertest.Reply{Status: 400, Body: `{"error":{"message":"chat_template_kwargs: unexpected keyword enable_thinking","type":"BadRequestError","param":null,"code":400}}`}
		}
		return providertest.Reply{Text: "ok"}
	})
	if err := h.ag.SetEffort("sideways"); err == nil {
		t.Error("SetEffort accepted a level that does not exist")
	}
	if got := h.ag.Effort(); got != "high" {
		t.Fatalf("Effort() = %q, want the configured high", got)
	}
	evs := h.run("think")
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %v: %v", te.Reason, te.Err)
	}
	told := 0
	for _, ev := range evs {
		if n, ok := ev.(agent.Notice); ok && strings.Contains(n.Text, "thinking level") {
			told++
		}
	}
	if told != 1 {
		t.Errorf("%d notices about the refused level, want 1", told)
	}
	if err := h.ag.SetEffort("off"); err != nil {
		t.Fatal(err)
	}
	end(t, h.run("again"))
	for i, r := range h.srv.Requests()[1:] {
		if strings.Contains(string(r.Body), "enable_thinking") {
			t.Errorf("request %d sent the thinking switch again after the server refused it", i+1)
		}
	}
}

func TestThinkingLevelSent(t *testing.T) {
	h := newClientHarness(t, func(c *provider.Config) { c.Server = provider.ServerOllama })
	h.srv.Enqueue(providertest.Reply{Text: "a"}, providertest.Reply{Text: "b"})
	end(t, h.run("default"))
	if err := h.ag.SetEffort("off"); err != nil {
		t.Fatal(err)
	}
	end(t, h.run("no thinking"))
	reqs := h.srv.Requests()
	if strings.Contains(string(reqs[0].Body), "reasoning_effort") {
		t.Error("the default level sent reasoning_effort")
	}
	if !strings.Contains(string(reqs[1].Body), `"reasoning_effort":"none"`) {
		t.Errorf("/think off did not reach Ollama as reasoning_effort none: %s", reqs[1].Body)
	}
}
