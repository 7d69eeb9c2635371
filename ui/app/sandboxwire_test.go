package app

import (
	"testing"

	tickcfg "github.com/tick-agent/tick/agent/config"
)

// TestSandboxProbeWaitsForFirstFrame checks that the sandbox probe (it
// runs tick once) starts only when the app's first frame is drawn, so
// that it does not compete with it, and that it then finishes.
func TestSandboxProbeWaitsForFirstFrame(t *testing.T) {
	cfg := config{Run: tickcfg.Run{Args: tickcfg.Args{Workspace: t.TempDir()}}, live: live{drawn: make(chan struct{})}}
	r, cleanup, err := newSandbox(cfg, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	if r.Ready() {
		t.Fatal("the probe finished before the first frame was drawn")
	}
	close(cfg.drawn)
	<-r.Done()
	if !r.Ready() {
		t.Fatal("the probe did not finish after the first frame")
	}
}
