package agent

// Mode is how the agent works, cycled by the user (shift+tab in the TUI,
// --plan for -p) and shown in the status bar. The agent owns it: front-ends
// call SetMode and render what comes back; they never change it themselves.
//
//   - ModeAuto: sandboxed commands and edits inside the workspace run without
//     asking; anything the sandbox cannot contain asks. The default where the
//     command sandbox works.
//   - ModeAsk: every change asks for approval.
//   - ModePlan: only tools that cannot change anything are offered; the turn
//     ends with a proposed plan for the user to approve.
//
// ApprovalMode (--yolo, headless) is separate: it says whether anybody is
// asked at all.
type Mode int

// The modes, in the order shift+tab cycles them.
const (
	ModeAuto Mode = iota
	ModeAsk
	ModePlan
)

// String returns the mode's name as the status bar shows it.
func (m Mode) String() string {
	switch m {
	case ModeAsk:
		return "ask"
	case ModePlan:
		return "plan"
	default:
		return "auto"
	}
}

// SetMode switches the mode; it applies from the next tool call or model
// request. The change is saved when the Recorder is a ModeRecorder; a
// failure to save it is not reported here (the next message saved to the
// same file reports the trouble) and does not undo the switch.
func (a *Agent) SetMode(m Mode) {
	a.mu.Lock()
	if m == ModePlan && a.mode != ModePlan {
		a.plan.beforePlan = a.mode // where approving the plan returns
	}
	a.mode = m
	a.mu.Unlock()
	_ = a.saveMode()
}

// Mode returns the current mode.
func (a *Agent) Mode() Mode {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.mode
}
