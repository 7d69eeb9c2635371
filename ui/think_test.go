package ui

import (
	"github.com/tick-agent/tick/ui/status"

	"errors"
	"strings"
	"testing"
)

// thinkFake is an agent that takes /think.
type thinkFake struct {
	scriptAgent
	level string
}

func (f *thinkFake) Effort() string { return f.level }

func (f *thinkFake) SetEffort(level string) error {
	switch level {
	case "off", "low", "medium", "high":
		f.level = level
	case "default":
		f.level = ""
	default:
		return errors.New("set the thinking level: want off, low, medium or high")
	}
	return nil
}

func TestThinkCommand(t *testing.T) {
	ag := &thinkFake{}
	m := New(Config{Agent: ag, Model: "qwen3:8b"})
	if bar := status.View(m.bar, m.statusInfo(), 120); strings.Contains(bar, "think") {
		t.Errorf("the status bar names a level that is not set: %q", bar)
	}
	m.thinkCommand("high")
	if ag.level != "high" {
		t.Fatalf("the agent's level is %q, want high", ag.level)
	}
	if bar := status.View(m.bar, m.statusInfo(), 120); !strings.Contains(bar, "think high") {
		t.Errorf("the status bar does not show the level: %q", bar)
	}
	m.thinkCommand("sideways")
	if ag.level != "high" {
		t.Errorf("a bad level changed the agent's to %q", ag.level)
	}
	m.thinkCommand("default")
	if bar := status.View(m.bar, m.statusInfo(), 120); strings.Contains(bar, "think") {
		t.Errorf("the status bar still names a level after /think default: %q", bar)
	}
}
