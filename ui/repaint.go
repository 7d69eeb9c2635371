package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// repaint decides when the frame is drawn again. Update marks it changed
// for every message except those that change nothing on screen (quiet);
// streamed text does not mark it at once but schedules one paint per
// frameInterval, so a fast stream costs ~20 repaints a second.
type repaint struct {
	dirty   bool      // the state changed since the last frame
	drawn   bool      // a frame was drawn at all
	pending bool      // a paintMsg is on its way
	at      time.Time // when the pending paint is due
}

// paintMsg asks for a repaint of streamed text (see frameInterval).
type paintMsg struct{}

// frameInterval is the least time between two repaints caused by streamed
// text (~20 per second; at a reader's pace, 2,000 characters a second,
// less than a line per frame). Everything else repaints at once. Each
// repaint costs Bubble Tea a diff of the whole screen, most of the CPU of
// a stream besides decoding it: 20 instead of 30 a second took peerbench's
// stream10s from 1.44 to 1.13 CPU-s (median of 3).
const frameInterval = 50 * time.Millisecond

// changed marks the state changed since the last frame.
func (r *repaint) changed() { r.dirty = true }

// schedule returns a repaint command unless one is already pending.
func (r *repaint) schedule() tea.Cmd {
	if r.pending {
		return nil
	}
	r.pending = true
	r.at = time.Now().Add(frameInterval)
	return tea.Tick(frameInterval, func(time.Time) tea.Msg { return paintMsg{} })
}

// arrived notes that the scheduled paint came: the streamed text shows.
func (r *repaint) arrived() {
	r.pending = false
	r.dirty = true
}

// due reports whether View must draw the frame again.
func (r *repaint) due() bool { return r.dirty || !r.drawn }

// done notes that the frame was drawn.
func (r *repaint) done() { r.dirty, r.drawn = false, true }
