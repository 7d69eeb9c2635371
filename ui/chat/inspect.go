package chat

import (
	"strings"

	"github.com/tick-agent/tick/agent"
)

// What the root asks of the transcript besides its view: its length, where
// it is scrolled to, and the whole of it as a saved session would show it.

// Len is the number of entries in the transcript.
func (c *Model) Len() int { return len(c.entries) }

// Anchor is a place in the transcript: an entry, a part of it and a line
// inside that (see scroll.go). Two are equal when they are the same place.
type Anchor = anchor

// Top is the first line on screen when the pane does not follow the
// bottom (see Following).
func (c *Model) Top() Anchor { return c.top }

// Transcript is every line of every entry at the pane's width, all of it
// (not only what is on screen), leaving out the notices skip reports (nil
// keeps them all) and every tool call's duration, which a saved session
// does not keep: what a resumed session must show as the live one did. It
// leaves the entries as they were.
func (c *Model) Transcript(skip func(notice string) bool) string {
	var b strings.Builder
	for i, e := range c.entries {
		if e.kind == entryNotice && skip != nil && skip(e.text) {
			continue
		}
		if e.tool != nil {
			dur := e.tool.dur
			e.tool.dur = agent.DurationUnknown
			e.dirty = true
			defer func() { e.tool.dur, e.dirty = dur, true }()
		}
		for p := range c.partCount(i) {
			for _, l := range c.part(i, p) {
				b.WriteString(strings.TrimRight(l, " ") + "\n")
			}
		}
	}
	return strings.TrimLeft(b.String(), "\n")
}
