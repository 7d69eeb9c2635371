package agent

import "github.com/tick-agent/tick/provider"

// Repair returns history made valid for a strict server (see
// provider.Repair): every tool call answered, unanswered ones as
// interrupted by the user; orphan tool messages dropped. history itself is
// not modified.
func Repair(history []provider.Message) []provider.Message {
	out, _, _ := provider.Repair(history, interruptedResult)
	return out
}
