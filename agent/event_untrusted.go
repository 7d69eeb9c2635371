package agent

import "time"

// StreamProgress reports that a model call is receiving a tool call's
// arguments, which have no delta event of their own: it is sent at most
// once per streamProgressEvery while they stream, between the call's other
// events. Front-ends use it to tell a server that is busy sending from one
// that went quiet; it carries nothing to show.
type StreamProgress struct{}

// Type returns "stream_progress".
func (StreamProgress) Type() string { return "stream_progress" }

// streamProgressEvery is the least time between two StreamProgress events.
const streamProgressEvery = time.Second
