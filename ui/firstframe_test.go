package ui

import (
	"bytes"
	"context"
	"github.com/tick-agent/tick/ui/input"
	"io"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// TestPaintFirstDrawsThePrompt checks the frame Run draws before Bubble
// Tea's first frame tick: the alternate screen, exactly the model's lines
// (the welcome and the input's placeholder), the cursor in the input, and
// colours reduced for a terminal without colour support.
func TestPaintFirstDrawsThePrompt(t *testing.T) {
	tests := []struct {
		name      string
		profile   colorprofile.Profile
		wantColor bool
	}{
		{"truecolor", colorprofile.TrueColor, true},
		{"no colour", colorprofile.Ascii, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := New(Config{Agent: &scriptAgent{}, Model: "test-model", Workspace: "/tmp/ws", Dark: true, Version: "test"})
			var out bytes.Buffer
			m.paintFirst(&out, 100, 30, tt.profile)
			got := out.String()
			if !strings.HasPrefix(got, ansi.SetModeAltScreenSaveCursor) {
				t.Errorf("frame does not start by entering the alternate screen: %q", got[:min(len(got), 40)])
			}
			// a paste or a wheel turn right after the prompt shows
			for _, mode := range []string{ansi.SetModeBracketedPaste, ansi.SetModeMouseButtonEvent, ansi.SetModeMouseExtSgr} {
				if !strings.Contains(got, mode) {
					t.Errorf("frame does not set mode %q", mode)
				}
			}
			plain := ansi.Strip(got)
			for _, want := range []string{"Welcome to tick", input.PlaceholderIdle} {
				if !strings.Contains(plain, want) {
					t.Errorf("frame lacks %q:\n%s", want, plain)
				}
			}
			if n := strings.Count(got, "\r\n") + 1; n != 30 {
				t.Errorf("frame has %d lines, want 30", n)
			}
			view := m.View()
			if view.Cursor == nil {
				t.Fatal("the model shows no cursor in the input")
			}
			if c := ansi.CursorPosition(view.Cursor.X+1, view.Cursor.Y+1) + ansi.ShowCursor; !strings.HasSuffix(got, c) {
				t.Errorf("frame does not end with the cursor at %d,%d: %q", view.Cursor.X, view.Cursor.Y, got[max(len(got)-30, 0):])
			}
			if hasColor := strings.Contains(got, "38;"); hasColor != tt.wantColor {
				t.Errorf("frame has colours: %v, want %v", hasColor, tt.wantColor)
			}
		})
	}
}

// TestPaintFirstNeedsATerminal checks that nothing is drawn for a
// terminal whose size is unknown or an output that is no terminal (Bubble
// Tea draws the first frame then).
func TestPaintFirstNeedsATerminal(t *testing.T) {
	m := New(Config{Agent: &scriptAgent{}, Model: "test-model", Dark: true})
	var out bytes.Buffer
	m.paintFirst(&out, 0, 0, colorprofile.TrueColor)
	m.paintFirst(&out, 80, 24, colorprofile.NoTTY)
	if out.Len() != 0 {
		t.Errorf("wrote %q for an unknown size or a file that is no terminal", out.String())
	}
}

// TestFirstFrameKeepsToTheScreen checks that lines wider than the terminal
// are cut and lines beyond its height are dropped, so the frame never
// scrolls the screen.
func TestFirstFrameKeepsToTheScreen(t *testing.T) {
	m := New(Config{Agent: &scriptAgent{}})
	v := m.View()
	v.Content = strings.Repeat("x", 50) + "\nsecond\nthird"
	v.Cursor = nil
	got := firstFrame(v, 10, 2, colorprofile.TrueColor)
	plain := ansi.Strip(got)
	if want := strings.Repeat("x", 10) + "\r\nsecond"; !strings.HasSuffix(plain, want) {
		t.Errorf("frame = %q, want it to end with %q", plain, want)
	}
	if !strings.Contains(got, ansi.HideCursor) || strings.Contains(got, ansi.ShowCursor) {
		t.Errorf("a view without a cursor must leave it hidden: %q", got)
	}
}

// TestUnpaintFirstUndoesModes: every mode the first frame sets is reset
// by unpaintFirst (written when Bubble Tea fails before taking over).
func TestUnpaintFirstUndoesModes(t *testing.T) {
	m := New(Config{Agent: &scriptAgent{}})
	v := m.View()
	v.ReportFocus = true
	got := firstFrame(v, 80, 24, colorprofile.TrueColor)
	for _, set := range []string{ansi.SetModeAltScreenSaveCursor, ansi.SetModeBracketedPaste, ansi.SetModeMouseButtonEvent, ansi.SetModeMouseExtSgr, ansi.SetModeFocusEvent} {
		if !strings.Contains(got, set) {
			t.Errorf("first frame lacks %q", set)
		}
		if reset := strings.TrimSuffix(set, "h") + "l"; !strings.Contains(unpaintFirst, reset) {
			t.Errorf("unpaintFirst does not reset %q", set)
		}
	}
}

// TestRunCallsFirstFrameOnce checks Config.FirstFrame: Run calls it once
// as it starts (here without a Screen), before the program ends, and the
// program then runs until its context is cancelled.
func TestRunCallsFirstFrameOnce(t *testing.T) {
	calls := make(chan struct{}, 4)
	ctx, cancel := context.WithCancel(context.Background())
	in, inW := io.Pipe()
	defer inW.Close()
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Config{Agent: &scriptAgent{}, Model: "test-model", Workspace: "/tmp/ws", Dark: true, Version: "test",
			FirstFrame: func() { calls <- struct{}{} }},
			tea.WithInput(in), tea.WithOutput(io.Discard), tea.WithWindowSize(80, 24))
	}()
	<-calls // Run called it while the program runs
	cancel()
	<-done
	if n := len(calls); n != 0 {
		t.Errorf("FirstFrame was called %d more times", n)
	}
}
