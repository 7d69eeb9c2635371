package agent

import (
	"fmt"

	"github.com/tick-agent/tick/provider"
)

// Effort returns the thinking level asked of the model: "" (the server's
// default), "off", "low", "medium" or "high".
func (a *Agent) Effort() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return string(a.effort)
}

// SetEffort sets the thinking level from the next request on (/think):
// off (or none), low, medium, high, or "default" for the server's own.
// The provider sends it the way the server understands, and stops sending
// it to a server that refused it (the user is told once).
func (a *Agent) SetEffort(level string) error {
	e, err := provider.ParseEffort(level)
	if err != nil {
		return fmt.Errorf("set the thinking level: %w", err)
	}
	a.mu.Lock()
	a.effort = e
	a.mu.Unlock()
	return nil
}
