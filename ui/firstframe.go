package ui

import (
	"io"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"
	"github.com/tick-agent/tick/ui/prompthist"
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
// enters it), the input modes v asks for (bracketed paste, mouse, focus
// reports: a paste or a click right after the prompt shows must arrive as
// it will later; Bubble Tea sets them again and resets them on exit), the
// frame's lines from the top-left corner with colours reduced to p, and
// the cursor where v puts it (hidden when v has none).
func firstFrame(v tea.View, w, h int, p colorprofile.Profile) string {
	var b strings.Builder
	b.Grow(len(v.Content) + 2*h + 64)
	b.WriteString(ansi.SetModeAltScreenSaveCursor)
	if !v.DisableBracketedPasteMode {
		b.WriteString(ansi.SetModeBracketedPaste)
	}
	switch v.MouseMode {
	case tea.MouseModeCellMotion:
		b.WriteString(ansi.SetModeMouseButtonEvent + ansi.SetModeMouseExtSgr)
	case tea.MouseModeAllMotion:
		b.WriteString(ansi.SetModeMouseAnyEvent + ansi.SetModeMouseExtSgr)
	}
	if v.ReportFocus {
		b.WriteString(ansi.SetModeFocusEvent)
	}
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

// paintFirst sizes m for a w×h terminal with colour profile p, writes its
// first frame to out and reports whether it did. Nothing is written when
// the size is unknown or out is no terminal.
func (m *Model) paintFirst(out io.Writer, w, h int, p colorprofile.Profile) bool {
	if w <= 0 || h <= 0 || p == colorprofile.NoTTY {
		return false
	}
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	_, err := io.WriteString(out, firstFrame(m.View(), w, h, p))
	return err == nil
}

// paintScreen draws the first frame on cfg.Screen, if set and a terminal
// of known size, with the colour profile Bubble Tea detects for it. The
// prompt history is loaded first: once the prompt shows, ↑ must find it
// (loaded by Init, it would come only after Bubble Tea's first frame).
// The terminal is put in raw mode before the frame is drawn, so that keys
// typed as soon as the prompt shows are read as Bubble Tea reads them
// (in the terminal's cooked mode enter would arrive as ctrl+j); Bubble
// Tea then finds it raw and leaves it raw on exit.
//
// It returns the function to call once Bubble Tea has returned: it puts
// the terminal back in the mode it had and, should Bubble Tea have failed
// (runErr), resets what the first frame set; and the colour profile the
// frame was drawn with (Config.Profile, or detected; Unknown without a
// Screen).
func (m *Model) paintScreen() (after func(runErr error), p colorprofile.Profile) {
	after = func(error) {}
	f := m.cfg.Screen
	if f == nil {
		return after, colorprofile.Unknown
	}
	if path := m.cfg.HistoryFile; path != "" {
		p, err := prompthist.Load(path)
		m.Update(historyMsg{p, err})
		m.histLoaded = true
	}
	w, h, err := term.GetSize(f.Fd())
	p = m.cfg.Profile
	if p == colorprofile.Unknown {
		p = colorprofile.Detect(f, m.cfg.Env)
	}
	if err != nil || w <= 0 || h <= 0 || p == colorprofile.NoTTY {
		return after, p
	}
	state, err := term.MakeRaw(f.Fd())
	if err != nil {
		return after, p
	}
	restore := func() { _ = term.Restore(f.Fd(), state) }
	if !m.paintFirst(f, w, h, p) {
		restore()
		return after, p
	}
	return func(runErr error) {
		if runErr != nil {
			_, _ = io.WriteString(f, unpaintFirst)
		}
		restore()
	}, p
}

// unpaintFirst undoes firstFrame: the modes it sets, the hidden cursor
// and the alternate screen.
const unpaintFirst = ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent +
	ansi.ResetModeMouseExtSgr + ansi.ResetModeFocusEvent + ansi.ResetModeBracketedPaste +
	ansi.ShowCursor + ansi.ResetModeAltScreenSaveCursor
