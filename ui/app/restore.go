package app

import (
	"fmt"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/session"
)

// Restore gives ag, a new agent, the session ld as it was left: its
// history and todo list, the user's side of its plan (what the model may
// not undo, the edits it has not been told of yet, a proposal awaiting
// approval) and its mode. It is the one path for tick -c, --resume and the
// /sessions picker (resume and fork). keepMode (the run was started with
// --plan, or is headless, where nothing can switch modes or approve a
// plan) keeps ag's mode and saves it as the session's: the session's own
// is then only where approving the plan returns to. Session files without
// plan or mode lines (older tick) restore as before: no authority, ag's
// mode.
func Restore(ag *agent.Agent, ld *session.Loaded, keepMode bool) error {
	if err := ag.Restore(ld.ModelHistory, ld.Todos); err != nil {
		return err
	}
	ag.SetPromptDate(ld.Info.Started) // the same system prompt as on the day it started
	if err := ag.RestorePlan(ld.Plan); err != nil {
		return err
	}
	mode, before := ld.Mode, ld.BeforePlan
	if keepMode {
		if mode != "plan" {
			before = mode
		}
		mode = ""
	}
	if err := ag.RestoreMode(mode, before); err != nil {
		return fmt.Errorf("restore session %s: %w", ld.Info.ID, err)
	}
	if keepMode {
		ag.SetMode(ag.Mode()) // saves the mode this run keeps, with the restored one to return to
	}
	return nil
}

// History is what the app shows of a session restored into ag: the
// replay of its history, then the agent's own list as the last
// TodoUpdate (the replay holds the model's todo calls only, not what a
// rewind, an undo or the user's plan edits made of the list since), then
// what it still waits on (agent.Pending: a plan awaiting approval). So
// the panel shows the list the agent holds, never an older one.
func History(ag *agent.Agent, ld *session.Loaded) []agent.Event {
	evs := agent.ReplayTasks(agent.MarkRewinds(agent.Replay(ld.History, ld.CompactedAt...), ld.Summaries), ld.Tasks)
	rev := 0
	for _, ev := range evs {
		if u, ok := ev.(agent.TodoUpdate); ok {
			rev = max(rev, u.Rev)
		}
	}
	if list := ag.Todos(); rev > 0 || !list.Empty() {
		evs = append(evs, agent.TodoUpdate{List: list, Rev: rev + 1})
	}
	return append(evs, ag.Pending()...)
}
