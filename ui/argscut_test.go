package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

// TestArgsCutToolLine runs the real agent against the fake server with a
// client that keeps 1 KiB of one call's arguments; the model sends a
// write_file call of 2,000 bytes. The tool line says the arguments were
// too large, in the error colour, and the error the model got is under it;
// nothing speaks of JSON.
func TestArgsCutToolLine(t *testing.T) {
	srv := providertest.New(t)
	client, err := provider.New(provider.Config{BaseURL: srv.URL, Model: "fake", MaxRetries: -1, MaxArgs: 1 << 10})
	if err != nil {
		t.Fatal(err)
	}
	ag, err := agent.New(agent.Config{Model: client, Workspace: t.TempDir(), Approval: agent.ApproveAll})
	if err != nil {
		t.Fatal(err)
	}
	mv := New(Config{Agent: ag, Model: "fake", Dark: true})
	m := &mv
	update(m, tea.WindowSizeMsg{Width: 120, Height: 40})
	head, tail := `{"path":"big.txt","content":"`, `"}`
	srv.Enqueue(providertest.Reply{ToolCalls: []providertest.Call{{Name: "write_file", Args: head + strings.Repeat("a", 2000-len(head)-len(tail)) + tail}}},
		providertest.Reply{Text: "I will write it in parts."})
	submit(m, "write big.txt")
	pump(t, m, idle(m))

	const summary = "arguments too large: 2.0 KiB, over the limit of 1 KiB"
	s := screen(m)
	for _, want := range []string{
		"✗ write_file  " + summary,
		"⎿ Error: the arguments of write_file were 2,000 bytes, over the limit of 1 KiB for one call; nothing was run.",
		"I will write it in parts.",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q", want)
		}
	}
	if strings.Contains(s, "JSON") {
		t.Error("the screen speaks of JSON")
	}
	if raw := m.View().Content; !strings.Contains(raw, m.st.ToolError.Render(summary)) {
		t.Errorf("the summary is not in the error style: %q", raw)
	}
	if t.Failed() {
		t.Log("\n" + s)
	}
}
