package ui

import (
	"io"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"
)

// Bubble Tea writes its first frame only at the first tick of its frame
// ticker, one frame interval (1/frameRate, 33 ms) after it starts, while
// the model's first View is ready long before. Run therefore draws that
// first frame itself, at once, when Config.Screen is set: the user sees
// the prompt a frame interval sooner, and the idle frame rate stays low.
// Bubble Tea's own first frame then erases the screen and draws the same
// content again (it enters the alternate screen and repaints it whole).

// firstFrame returns the escape sequences that show frame v on a w×h
// terminal with colour profile p: the alternate screen (as Bubble Tea
// enters it), the frame's lines from the top-left corner with colours
// reduced to p, and the cursor where v puts it (hidden when v has none).
func firstFrame(v tea.View, w, h int, p colorprofile.Profile) string {
	var b strings.Builder
	b.Grow(len(v.Content) + 2*h + 64)
	b.WriteString(ansi.SetModeAltScreenSaveCursor)
	b.WriteString(ansi.HideCursor)
	b.WriteString(ansi.CursorHomePosition)
	b.WriteString(ansi.EraseEntireScreen)
	var content strings.Builder
	for i, l := range strings.SplitN(v.Content, "\n", h+1) {
		if i == h {
			break
		}
		if i > 0 {
			content.WriteString("\r\n")
		}
		if ansi.StringWidth(l) > w {
			l = ansi.Truncate(l, w, "")
		}
		content.WriteString(l)
		content.WriteString(ansi.ResetStyle)
	}
	_, _ = (&colorprofile.Writer{Forward: &b, Profile: p}).WriteString(content.String())
	if c := v.Cursor; c != nil {
		b.WriteString(ansi.CursorPosition(c.X+1, c.Y+1))
		b.WriteString(ansi.ShowCursor)
	}
	return b.String()
}

// paintFirst sizes m for a w×h terminal with colour profile p and writes
// its first frame to out. Nothing is written when the size is unknown or
// out is no terminal.
func (m *Model) paintFirst(out io.Writer, w, h int, p colorprofile.Profile) {
	if w <= 0 || h <= 0 || p == colorprofile.NoTTY {
		return
	}
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	_, _ = io.WriteString(out, firstFrame(m.View(), w, h, p))
}

// paintScreen draws the first frame on cfg.Screen, if set and a terminal
// of known size, with the colour profile Bubble Tea detects for it.
func (m *Model) paintScreen() {
	f := m.cfg.Screen
	if f == nil {
		return
	}
	if w, h, err := term.GetSize(f.Fd()); err == nil {
		m.paintFirst(f, w, h, colorprofile.Detect(f, m.cfg.Env))
	}
}
