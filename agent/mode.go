package agent

import "github.com/tick-agent/tick/agent/plan"

// Mode is how the agent works (auto, ask, plan); see plan.Mode. The agent
// owns it: front-ends call SetMode and render what comes back; they never
// change it themselves.
type Mode = plan.Mode

// The modes, in the order shift+tab cycles them.
const (
	ModeAuto = plan.ModeAuto
	ModeAsk  = plan.ModeAsk
	ModePlan = plan.ModePlan
)

// SetMode switches the mode; it applies from the next tool call or model
// request. The change is saved when the Recorder is a ModeRecorder; a
// failure to save it is not reported here (the next message saved to the
// same file reports the trouble) and does not undo the switch.
func (a *Agent) SetMode(m Mode) {
	a.plan.SetMode(m)
	_ = a.saveMode()
}

// Mode returns the current mode.
func (a *Agent) Mode() Mode { return a.plan.Mode() }
