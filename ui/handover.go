package ui

import (
	"github.com/tick-agent/tick/ui/style"

	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// handover is the text the user has handed over while a turn runs, in one
// place, until it reaches the conversation or comes back into the input:
//
//   - steering: given to the running turn with Agent.Steer, shown until
//     its SteerDelivered (matched by the id Steer returned) moves it into
//     the chat;
//   - queued (tab): the next turn after this one, if it ends well;
//   - next: sent as soon as the running turn is gone (typed while it was
//     ending or being interrupted).
//
// When a turn ends well, undelivered steering and queued text join next;
// after an interrupt or an error they are handed back for the input.
type handover struct {
	steering []steerText
	queued   []string
	next     []string
}

// steerText is a steering message waiting for delivery.
type steerText struct {
	id   int
	text string
}

// steer records a message given to Agent.Steer under its id.
func (h *handover) steer(id int, text string) {
	h.steering = append(h.steering, steerText{id: id, text: text})
}

// queue records text for the turn after this one (tab).
func (h *handover) queue(text string) { h.queued = append(h.queued, text) }

// later records text to send as soon as the running turn is gone.
func (h *handover) later(text string) { h.next = append(h.next, text) }

// delivered drops the steering message id, which reached the
// conversation; ok is false when it was not waiting.
func (h *handover) delivered(id int) (ok bool) {
	for i, s := range h.steering {
		if s.id == id {
			h.steering = append(h.steering[:i:i], h.steering[i+1:]...)
			return true
		}
	}
	return false
}

// turnEnded settles what the ended turn did not take: undelivered (from
// TurnEnd) and the queued text. When the turn ended well they become the
// start of next and back is nil; otherwise they are returned, for the
// input, and next is kept.
func (h *handover) turnEnded(undelivered []string, well bool) (back []string) {
	back = append(append([]string(nil), undelivered...), h.queued...)
	h.steering, h.queued = nil, nil
	if well {
		h.next = append(back, h.next...)
		return nil
	}
	return back
}

// takeNext returns the text to send as the next turn and forgets it; ok is
// false when there is none.
func (h *handover) takeNext() (text string, ok bool) {
	if len(h.next) == 0 {
		return "", false
	}
	text = strings.Join(h.next, "\n\n")
	h.next = nil
	return text, true
}

// clear forgets everything (the conversation was replaced).
func (h *handover) clear() { *h = handover{} }

// len is how many messages wait, one line each in view.
func (h *handover) len() int { return len(h.steering) + len(h.queued) + len(h.next) }

// waiting returns how many messages wait for delivery to the running turn
// and how many for a next one, for the status bar.
func (h *handover) waiting() (steering, queued int) {
	return len(h.steering), len(h.queued) + len(h.next)
}

// view lists the waiting messages in at most rows lines of width w.
func (h *handover) view(st *Styles, w, rows int) []string {
	if rows <= 0 {
		return nil
	}
	g := st.Glyphs
	var out []string
	add := func(glyph, label, text string) {
		head := st.Pending.Render(glyph + " " + label + ": ")
		out = append(out, head+st.PendingTxt.Render(style.TruncateWidth(style.OneLine(text), max(w-ansi.StringWidth(head), 1), g.Ellipsis)))
	}
	for _, s := range h.steering {
		add(g.Steering, "steering", s.text)
	}
	for _, s := range h.queued {
		add(g.Queued, "queued", s)
	}
	for _, s := range h.next {
		add(g.Queued, "next", s)
	}
	if len(out) > rows {
		more := len(out) - rows + 1
		out = append(out[:rows-1], st.PendingTxt.Render(fmt.Sprintf("  %s %d more", g.Ellipsis, more)))
	}
	return out
}
