package agent

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tick-agent/tick/agent/compact"
)

// ModelRecorder is what a Recorder may also implement to save a change of
// model with the session (so that resuming keeps it).
type ModelRecorder interface {
	Model(name string) error
}

// SetModel switches the model the agent asks from the next request on
// (a running turn keeps its current request). window is the new model's
// context size in tokens; 0 picks it from the model name. The change is
// recorded when the Recorder is a ModelRecorder.
func (a *Agent) SetModel(name string, window int) error {
	name = strings.TrimSpace(name)
	if name == "" {
		return errors.New("set the model: the name is empty")
	}
	a.mu.Lock()
	a.model, a.modelWindow, a.modelSet = name, window, true
	a.mu.Unlock()
	if r, ok := a.cfg.Recorder.(ModelRecorder); ok {
		if err := r.Model(name); err != nil {
			return fmt.Errorf("set the model: %w", err)
		}
	}
	return nil
}

// SetModelOn switches to model name of another server, client, from the
// next request on; otherwise it is SetModel. The switch is not recorded:
// a resumed session talks to the configured server again.
func (a *Agent) SetModelOn(client Streamer, name string, window int) error {
	name = strings.TrimSpace(name)
	if client == nil || name == "" {
		return errors.New("set the model: a client and a name are needed")
	}
	a.mu.Lock()
	a.streamer, a.model, a.modelWindow, a.modelSet = client, name, window, true
	a.mu.Unlock()
	return nil
}

// client returns the model client in use.
func (a *Agent) client() Streamer {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.streamer != nil {
		return a.streamer
	}
	return a.cfg.Model
}

// ModelName returns the model the next request asks for ("" means the
// client's default).
func (a *Agent) ModelName() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.modelNameLocked()
}

func (a *Agent) modelNameLocked() string {
	if a.modelSet {
		return a.model
	}
	return a.cfg.ModelName
}

// window returns the model's context window in tokens.
func (a *Agent) window() int {
	a.mu.Lock()
	set := a.modelSet
	switch {
	case set && a.modelWindow > 0:
		defer a.mu.Unlock()
		return a.modelWindow
	case !set && a.cfg.ContextWindow > 0:
		defer a.mu.Unlock()
		return a.cfg.ContextWindow
	}
	name := a.modelNameLocked()
	a.mu.Unlock()
	if !set && a.cfg.ContextWindowFunc != nil {
		if w := a.lateWindow(); w > 0 {
			return w
		}
	}
	return compact.Window(name)
}

// lateWindow is Config.ContextWindowFunc's answer, asked once (outside
// a.mu: it may block).
func (a *Agent) lateWindow() int {
	a.lateOnce.Do(func() { a.late = a.cfg.ContextWindowFunc() })
	return a.late
}
