package agent

import "fmt"

// HookFailed reports a hook command that failed without blocking anything:
// it exited with a status other than 0 and 2, timed out or could not
// start; the call or prompt it ran for proceeds. It is sent when the hook
// ends, in the turn's order of events: a tool hook's failure between the
// call's ToolStart and ToolEnd, a user_prompt_submit hook's first in the
// turn, a stop hook's just before TurnEnd.
type HookFailed struct {
	Event   string `json:"event"`   // pre_tool_use, post_tool_use, user_prompt_submit or stop
	Command string `json:"command"` // the hook's command line
	Error   string `json:"error"`   // what went wrong, with the end of its stderr
}

// Type returns "hook_failed".
func (HookFailed) Type() string { return "hook_failed" }

// HookFailureText is the one-line message for a HookFailed, for the
// front-ends: "hook failed (EVENT: COMMAND): ERROR".
func HookFailureText(e HookFailed) string {
	return fmt.Sprintf("hook failed (%s: %s): %s", e.Event, e.Command, e.Error)
}
