package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
)

// TestApprovalOnce: a write into .git can be allowed only once: the dialog
// offers no "for the session", and a does not answer.
func TestApprovalOnce(t *testing.T) {
	m, c, reply := openApproval(t, 100, 30, agent.ApprovalRequest{ID: "1", Tool: "write_file", Summary: ".git/hooks/pre-commit", Detail: "+#!/bin/sh", Once: true})
	s := screen(m)
	if strings.Contains(s, "for this session") || !strings.Contains(s, "allow this write only") {
		t.Fatalf("the dialog offers allowing for the session:\n%s", s)
	}
	c.advance(time.Second)
	press(m, "a")
	select {
	case ans := <-reply:
		t.Fatalf("a answered %+v", ans)
	default:
	}
	c.advance(time.Second)
	press(m, "y")
	select {
	case ans := <-reply:
		if ans != (agent.Approval{Allow: true}) {
			t.Fatalf("y answered %+v, want allow once", ans)
		}
	default:
		t.Fatal("y after a pause did not answer")
	}
}

// TestApprovalOnceFetch: a web_fetch asks for this fetch only.
func TestApprovalOnceFetch(t *testing.T) {
	m, _, _ := openApproval(t, 100, 30, agent.ApprovalRequest{ID: "1", Tool: "web_fetch", Summary: "fetch https://example.org/", Detail: "GET https://example.org/", Once: true})
	s := screen(m)
	if strings.Contains(s, "for this session") || strings.Contains(s, "write") || !strings.Contains(s, "allow this fetch only") {
		t.Fatalf("the dialog does not offer this fetch only:\n%s", s)
	}
}
