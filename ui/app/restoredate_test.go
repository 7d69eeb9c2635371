package app

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/session"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

// TestRestoreKeepsTheSessionDate: a session continued on another day
// sends the system prompt of the day it started, so that the server's
// prompt cache still fits the conversation.
func TestRestoreKeepsTheSessionDate(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Text: "again"})
	client, err := provider.New(provider.Config{BaseURL: srv.URL, Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	ag, err := agent.New(agent.Config{Model: client, Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	started := time.Date(2025, 12, 24, 18, 0, 0, 0, time.Local)
	ld := &session.Loaded{Info: session.Info{ID: "s1", Started: started}, ModelHistory: []provider.Message{
		{Role: provider.RoleUser, Content: "hello"}, {Role: provider.RoleAssistant, Content: "hi"},
	}}
	if err := Restore(ag, ld, false); err != nil {
		t.Fatal(err)
	}
	for range ag.Run(context.Background(), "and now?") {
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || !strings.Contains(reqs[0].Messages[0].Content, "Date: 2025-12-24") {
		t.Fatalf("the system prompt does not name the session's start day:\n%v", reqs)
	}
}
