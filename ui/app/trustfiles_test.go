package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
)

// TestTrustedHookChangedMidSession: a trusted project's hook whose script
// changes while tick runs (by the user, or a command where the sandbox
// cannot protect it) is not run from its next call on; the project waits
// for /trust again, which allows the new version. Today the hook runs the
// changed script at once, outside the sandbox.
func TestTrustedHookChangedMidSession(t *testing.T) {
	ws, out := t.TempDir(), filepath.Join(t.TempDir(), "ran")
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "XDG_STATE_HOME": t.TempDir(), "OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}
	files := map[string]string{
		".tick/config.toml":   "[[hooks.stop]]\ncommand = \"sh .tick/hooks/done.sh\"\n",
		".tick/hooks/done.sh": "echo v1 >> " + out + "\n",
	}
	for name, body := range files {
		p := filepath.Join(ws, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	getenv := func(k string) string { return env[k] }
	load := func() *extensions {
		t.Helper()
		cfg, err := parseConfig([]string{"-C", ws}, getenv)
		if err != nil {
			t.Fatal(err)
		}
		x, err := newExtensions(cfg, getenv, false)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	if _, err := load().trustProject(); err != nil {
		t.Fatal(err)
	}
	x := load()
	if x.needsTrust() || x.hooks == nil {
		t.Fatal("the trusted project's hook is not wired")
	}
	if !x.trustable() {
		t.Fatal("/trust is not offered in a session whose trusted files may change")
	}
	stop := func() agent.HookOutcome {
		return x.hooks.Run(context.Background(), agent.HookInput{Event: agent.HookStop, Workspace: ws})
	}
	if o := stop(); len(o.Failures) > 0 {
		t.Fatalf("the trusted hook failed: %+v", o.Failures)
	}
	if err := os.WriteFile(filepath.Join(ws, ".tick/hooks/done.sh"), []byte("echo v2 >> "+out+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := stop()
	if len(o.Failures) != 1 || !strings.Contains(o.Failures[0].Error, "not run: .tick/hooks/done.sh changed since you trusted") || !x.needsTrust() {
		t.Fatalf("after the change: failures %+v, needs trust %v", o.Failures, x.needsTrust())
	}
	if msg, err := x.trustProject(); err != nil || !strings.Contains(msg, "allowed for this project") {
		t.Fatalf("/trust: %q, %v", msg, err)
	}
	if o := stop(); len(o.Failures) > 0 {
		t.Fatalf("after /trust: %+v", o.Failures)
	}
	if b, _ := os.ReadFile(out); string(b) != "v1\nv2\n" {
		t.Errorf("the hook ran %q, want v1 then v2 only after /trust", b)
	}
}
