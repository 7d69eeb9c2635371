package ui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/agent"
)

// lingerBatch runs cmd and returns its message; it fails after a generous
// deadline (a lingering batch must always come back).
func lingerBatch(t *testing.T, cmd tea.Cmd) eventsMsg {
	t.Helper()
	got := make(chan tea.Msg, 1)
	go func() { got <- cmd() }()
	select {
	case msg := <-got:
		return msg.(eventsMsg)
	case <-time.After(30 * time.Second):
		t.Fatal("the batch never came")
	}
	return eventsMsg{}
}

// send sends evs on ch one by one, a millisecond apart (a stream at a
// reader's pace), and closes ch when last is set.
func send(ch chan<- agent.Event, last bool, evs ...agent.Event) {
	for _, ev := range evs {
		time.Sleep(time.Millisecond)
		ch <- ev
	}
	if last {
		close(ch)
	}
}

func deltas(n int) []agent.Event {
	evs := make([]agent.Event, n)
	for i := range evs {
		evs[i] = agent.TextDelta{Text: "abcd"}
	}
	return evs
}

// TestLingerCollectsDeltasUntilOtherEvent: deltas that arrive one by one
// while a paint is pending come as one batch, and any other event ends
// the batch at once (a tool call or the end of a turn is not held back).
func TestLingerCollectsDeltasUntilOtherEvent(t *testing.T) {
	ch := make(chan agent.Event, 64)
	go send(ch, false, append(deltas(10), agent.ToolStart{ID: "1", Name: "bash"})...)
	msg := lingerBatch(t, lingerEvents(1, ch, time.Now().Add(time.Minute)))
	if len(msg.events) != 11 {
		t.Fatalf("batch has %d events, want the 10 deltas and the tool call", len(msg.events))
	}
	if _, ok := msg.events[10].(agent.ToolStart); !ok {
		t.Errorf("last event = %T, want the tool call", msg.events[10])
	}
}

// TestLingerBounded: a lingering batch is delivered after lingerMax
// deltas, so the turn's channel never fills while the paint is pending.
func TestLingerBounded(t *testing.T) {
	ch := make(chan agent.Event)
	go send(ch, true, deltas(lingerMax+20)...)
	msg := lingerBatch(t, lingerEvents(1, ch, time.Now().Add(time.Minute)))
	if n := len(msg.events); n < lingerMax || n >= lingerMax+20 || msg.closed {
		t.Errorf("batch has %d events (closed %v), want about %d", n, msg.closed, lingerMax)
	}
	for !msg.closed { // drain the sender
		msg = lingerBatch(t, waitEvents(1, ch))
	}
}

// TestLingerUntilThePaint: a batch is delivered when the paint is due,
// however few deltas came; without a paint due (zero time) it lingers not
// at all, as waitEvents.
func TestLingerUntilThePaint(t *testing.T) {
	for _, until := range []time.Time{time.Now().Add(50 * time.Millisecond), {}} {
		ch := make(chan agent.Event, 64)
		ch <- agent.TextDelta{Text: "a"}
		msg := lingerBatch(t, lingerEvents(1, ch, until))
		if len(msg.events) != 1 || msg.closed {
			t.Errorf("until %v: batch %+v, want the one delta", until, msg)
		}
	}
}

// TestStreamedTextLingers: after a batch of streamed text the model
// schedules the paint and asks for the next events with a wait that
// collects the deltas arriving meanwhile into one batch.
func TestStreamedTextLingers(t *testing.T) {
	m, _ := newTestModel(t, 120, 40)
	submit(m, "go")
	ch := make(chan agent.Event, 64)
	m.turn.ch = ch
	cmd := update(m, eventsMsg{turn: m.turn.id, ch: ch, events: deltas(1)})
	if !m.paint.pending {
		t.Fatal("streamed text scheduled no paint")
	}
	batch, ok := cmd().(tea.BatchMsg)
	if !ok {
		t.Fatalf("command returned %T, want a batch", cmd())
	}
	go send(ch, false, append(deltas(5), agent.AssistantDone{})...)
	got := make(chan tea.Msg, len(batch))
	for _, c := range batch {
		if c != nil {
			go func() { got <- c() }()
		}
	}
	deadline := time.After(30 * time.Second)
	for {
		select {
		case msg := <-got:
			if ev, ok := msg.(eventsMsg); ok {
				if len(ev.events) != 6 {
					t.Errorf("next batch has %d events, want the 5 deltas and the end of the answer", len(ev.events))
				}
				return
			}
		case <-deadline:
			t.Fatal("no events came")
		}
	}
}
