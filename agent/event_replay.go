package agent

// UserMessage is a message the user wrote: a prompt or a steering message.
// Only Replay produces it, for a saved history; a live turn does not (the
// front-end shows the prompt it sent itself, and SteerDelivered says when
// a steering message joined the conversation).
type UserMessage struct {
	Text string `json:"text"`
}

// Type implements Event.
func (UserMessage) Type() string { return "user" }
