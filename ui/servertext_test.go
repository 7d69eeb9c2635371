package ui

import (
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

// TestServerErrorIsMaskedOnScreen: a 401 that echoes the API key and
// breaks its text into lines shows in the TUI without the key, on one
// line, and the frame stays clean.
func TestServerErrorIsMaskedOnScreen(t *testing.T) {
	const key = "sk-proj-TUIsecretVALUE0123456789abcdefgh"
	srv := providertest.New(t)
	srv.SetFunc(func(r providertest.Request) providertest.Reply {
		b, _ := json.Marshal(map[string]any{"error": map[string]any{
			"message": "Incorrect API key provided: " + strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ") + "\r\nforged line",
			"code":    "invalid_api_key",
		}})
		return providertest.Reply{Status: 401, Body: string(b)}
	})
	client, err := provider.New(provider.Config{BaseURL: srv.URL, APIKey: key, Model: "fake", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	ag, err := agent.New(agent.Config{Model: client, Workspace: t.TempDir(), Approval: agent.ApproveAll})
	if err != nil {
		t.Fatal(err)
	}
	mv := New(Config{Agent: ag, Model: "fake", Dark: true})
	m := &mv
	update(m, tea.WindowSizeMsg{Width: 200, Height: 40})
	submit(m, "hello")
	pump(t, m, idle(m))
	scr := screen(m)
	if strings.Contains(m.View().Content, key) || strings.Contains(scr, "TUIsecret") {
		t.Fatalf("the key is on the screen:\n%s", scr)
	}
	if !strings.Contains(scr, "Incorrect API key provided: sk-**** ⏎ forged line") {
		t.Fatalf("the server's message is not on one line, masked:\n%s", scr)
	}
	checkScreen(t, m)
}
