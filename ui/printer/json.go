package printer

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/tick-agent/tick/agent"
)

// MarshalEvent encodes ev as one JSON object without a trailing newline:
// {"type": ev.Type(), ...the event's own fields by their json tags}. A
// TurnEnd's error is the "error" string; a Subagent's inner event is nested
// under "event" with its own "type"; an ApprovalRequest has no reply
// channel. The object never contains a newline, nor a character a
// terminal would act on or that hides itself: DEL, C1 controls, bidi
// controls and invisible characters are written as \u escapes (see
// escapeUnsafe), which decode to the same text.
func MarshalEvent(ev agent.Event) ([]byte, error) {
	if ev == nil {
		return nil, fmt.Errorf("marshal event: nil event")
	}
	var (
		body []byte
		err  error
	)
	switch e := ev.(type) {
	case agent.Subagent:
		inner, ierr := MarshalEvent(e.Event)
		if ierr != nil {
			return nil, fmt.Errorf("marshal subagent event of %q: %w", e.ParentID, ierr)
		}
		body, err = json.Marshal(struct {
			ParentID string          `json:"parent_id"`
			Event    json.RawMessage `json:"event"`
		}{e.ParentID, inner})
	case agent.TurnEnd:
		if e.Err != nil && e.Error == "" {
			e.Error = e.Err.Error()
		}
		body, err = json.Marshal(e)
	default:
		body, err = json.Marshal(ev)
	}
	if err != nil {
		return nil, fmt.Errorf("marshal %s event: %w", ev.Type(), err)
	}
	typ, err := json.Marshal(ev.Type())
	if err != nil {
		return nil, fmt.Errorf("marshal %s event type: %w", ev.Type(), err)
	}
	var b bytes.Buffer
	b.Grow(len(body) + len(typ) + 10)
	b.WriteString(`{"type":`)
	b.Write(typ)
	switch rest, isObject := bytes.CutPrefix(body, []byte("{")); {
	case !isObject: // not a struct: keep the value whole
		b.WriteString(`,"value":`)
		b.Write(body)
		b.WriteByte('}')
	case len(rest) > 0 && rest[0] != '}':
		b.WriteByte(',')
		b.Write(rest)
	default:
		b.WriteByte('}')
	}
	return escapeUnsafe(b.Bytes()), nil
}
