package app

import (
	"fmt"
	"os"
	"strings"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/ui/printer"
)

// Exit codes of a headless run beyond ExitOK and ExitError: each says how
// the work was not done (see the README's exit-code table). main's usage
// error is 2.
const (
	ExitRefused    = 3  // a tool call was refused (no --yolo) or the sandbox blocked a command
	ExitUnfinished = 4  // the turn ended with open todo items
	ExitEmpty      = 5  // the model's final answer was empty
	ExitBudget     = 6  // a budget was reached (--max-turns, --max-cost, --max-time)
	ExitAuth       = 7  // the server refused the API key (401, 403)
	ExitRateLimit  = 8  // the server's rate limit or quota, after the retries
	ExitContext    = 9  // the conversation is too long for the model's context
	ExitTimeout    = 10 // the server sent nothing for the idle timeout
)

// The exit reasons of a run, as the result names them.
const (
	ReasonDone        = "done"
	ReasonError       = "error"
	ReasonUsage       = "usage" // bad flags or configuration (exit 2)
	ReasonRefused     = "refused"
	ReasonBlocked     = "sandbox_blocked"
	ReasonUnfinished  = "unfinished"
	ReasonVerify      = "verify_failed"    // --verify's check still failed when the turn ended (exit 4)
	ReasonNotApplied  = "task_not_applied" // a task's changes were kept unapplied (exit 4)
	ReasonEmpty       = "empty_answer"
	ReasonBudget      = "budget"
	ReasonAuth        = "auth"
	ReasonRateLimit   = "rate_limit"
	ReasonContext     = "context_too_long"
	ReasonTimeout     = "timeout"
	ReasonInterrupted = "interrupted"
	ReasonTerminated  = "terminated"
)

// kindExits are the error kinds with an exit code of their own.
var kindExits = map[agent.ErrorKind]struct {
	code   int
	reason string
}{
	agent.KindAuth:          {ExitAuth, ReasonAuth},
	agent.KindForbidden:     {ExitAuth, ReasonAuth},
	agent.KindRateLimit:     {ExitRateLimit, ReasonRateLimit},
	agent.KindContextWindow: {ExitContext, ReasonContext},
	agent.KindTimeout:       {ExitTimeout, ReasonTimeout},
	agent.KindRoundCap:      {ExitBudget, ReasonBudget},
	agent.KindBudget:        {ExitBudget, ReasonBudget},
	// The agent's own end for an answer with no text and no tool call; a
	// final answer of only spaces is found in the events (classify).
	agent.KindEmptyAnswer: {ExitEmpty, ReasonEmpty},
}

// classify says how a run ended: its exit code, its reason and a message
// for stderr ("" when the work was done). The order: a signal, an error
// (by kind), a refused or blocked tool, open items, an empty answer.
func classify(end agent.TurnEnd, res *printer.Result, sig os.Signal) (int, string, string) {
	switch {
	case sig != nil || end.Reason == agent.ReasonInterrupted:
		if code := signalExit(sig); code == ExitTerminated {
			return code, ReasonTerminated, "interrupted"
		}
		return ExitInterrupted, ReasonInterrupted, "interrupted"
	case end.Reason == agent.ReasonError:
		msg := end.Error
		if msg == "" && end.Err != nil {
			msg = end.Err.Error()
		}
		if k, ok := kindExits[end.Kind]; ok {
			return k.code, k.reason, msg
		}
		return ExitError, ReasonError, msg
	case len(res.Refused) > 0:
		return ExitRefused, ReasonRefused, refusedMessage(res)
	case len(res.Blocked) > 0:
		return ExitRefused, ReasonBlocked, fmt.Sprintf("the sandbox blocked %d command(s): %s; see --sandbox and writable_roots", len(res.Blocked), strings.Join(res.Blocked, "; "))
	case res.Verify != nil && !res.Verify.Passed:
		return ExitUnfinished, ReasonVerify, verifyMessage(res.Verify)
	case len(res.KeptCopies) > 0:
		return ExitUnfinished, ReasonNotApplied, fmt.Sprintf("the changes of %d task(s) were not applied (refused, conflicting or stopped); their copies are kept: %s", len(res.KeptCopies), strings.Join(res.KeptCopies, ", "))
	case len(res.OpenItems) > 0:
		return ExitUnfinished, ReasonUnfinished, fmt.Sprintf("the turn ended with %d open todo item(s): %s", len(res.OpenItems), strings.Join(res.OpenItems, "; "))
	case strings.TrimSpace(res.Answer) == "" && !res.Planned():
		return ExitEmpty, ReasonEmpty, "the model's final answer was empty"
	}
	return ExitOK, ReasonDone, ""
}

// refusedMessage says which calls were refused and what allows them: a
// write into .git nothing allows unasked (not --yolo, not a rule), the
// rest --yolo does.
func refusedMessage(res *printer.Result) string {
	msg := fmt.Sprintf("%d tool call(s) refused: %s", len(res.Refused), strings.Join(res.Refused, "; "))
	switch git := res.RefusedGit(); {
	case git == len(res.Refused):
		return msg + "; they write into .git, which nothing allows without a person approving each write (not --yolo, not a rule)"
	case git > 0:
		return msg + fmt.Sprintf("; %d of them write into .git, which nothing allows without a person approving each write; rerun with --yolo to allow the others", git)
	}
	return msg + "; rerun with --yolo to allow them"
}

// verifyMessage says how the verify check failed.
func verifyMessage(v *printer.Verify) string {
	status := "did not run to an end"
	if v.ExitCode != nil {
		status = fmt.Sprintf("exited %d", *v.ExitCode)
	}
	return fmt.Sprintf("the verify check %q %s after %d attempt(s): the work is not done", v.Command, status, v.Attempts)
}
