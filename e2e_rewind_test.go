package main

import (
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
)

// TestHeadlessEmptyAnswer checks that -p says on stderr that the model
// returned an empty answer (no text, no tool call) and exits non-zero.
func TestHeadlessEmptyAnswer(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{})
	args, _ := headless(t, srv, "hello")
	r := tick(t, nil, "", args...)
	if r.code != exitError || !strings.Contains(r.stderr, "the model returned an empty answer") {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	if r.stdout != "" {
		t.Errorf("stdout = %q", r.stdout)
	}
}
