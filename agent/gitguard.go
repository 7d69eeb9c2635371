package agent

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tick-agent/tick/agent/sandbox"
	"github.com/tick-agent/tick/provider"
)

// maxListed bounds the .git entries named in one line.
const maxListed = 5

// afterGit looks, once a bash call has run, at the git metadata its
// sandboxed command left: a .git entry it created or replaced (a fresh
// `git init`, a submodule's gitfile, a nested repository) would have the
// user's own git run whatever its config names, outside the sandbox. Such
// entries are moved aside at once; in the TUI the user is asked, one
// question for the call, whether to keep them (they are put back), and
// otherwise they are removed; with nobody to ask (-p) they are removed and
// a notice says so. The model is told in one line what happened. In-place
// changes to an existing repository's config or hooks (possible only
// without namespaces) are reported to the user and the model.
//
// It returns the lines to add to the call's result ("" for none).
func (l *loop) afterGit(ctx context.Context, c provider.ToolCall) string {
	r := l.runner()
	if c.Name != "bash" || r == nil {
		return ""
	}
	rep := r.GitChanges()
	if rep.Empty() {
		return ""
	}
	var notes []string
	if rep.Over {
		l.emit(Notice{Text: "the workspace is too large to watch whole for new git metadata: directories past the bound are not checked"})
	}
	if len(rep.Changed) > 0 {
		msg := "a sandboxed command changed the config or hooks of " + listed(rep.Changed) + " (this sandbox cannot make .git read-only here); check them before running git there"
		l.emit(Notice{Text: msg})
		notes = append(notes, "Note: "+msg+".")
	}
	if len(rep.Planted) > 0 {
		notes = append(notes, l.quarantine(ctx, c, rep.Planted))
	}
	return strings.Join(notes, "\n")
}

// quarantine moves the planted .git entries aside, asks the user whether
// to keep them when someone can be asked, and returns the line for the
// model.
func (l *loop) quarantine(ctx context.Context, c provider.ToolCall, planted []string) string {
	names := listed(planted)
	qs, err := sandbox.Quarantine(l.workspace(), planted)
	if err != nil {
		msg := "could not move aside the git metadata a sandboxed command created (" + names + "): " + err.Error() + "; do not run git there before checking its config"
		if len(qs) > 0 {
			msg += " (moved aside: " + listed(asides(qs)) + ")"
		}
		l.emit(Notice{Text: msg})
		return "Note: " + msg + "."
	}
	why := "the user's own git would run the commands its config names"
	if l.a.cfg.Approval == ApproveNone || l.a.cfg.Headless {
		removeAll(qs)
		l.emit(Notice{Text: "removed git metadata a sandboxed command created: " + names + " (" + why + ")"})
		return "Note: tick removed the git metadata this command created (" + names + "): " + why + ". Do not create .git entries; tell the user to run such git commands themselves."
	}
	req := ApprovalRequest{
		ID: c.ID, Tool: c.Name, Once: true,
		Question: "Keep the git metadata this command created?",
		Summary:  "keep the git metadata this command created? " + names,
		Detail: "The command created or replaced git metadata: " + names + ".\n" +
			"tick moved it aside, because " + why + " (core.fsmonitor, hooks, filters, aliases) with your rights, outside the sandbox.\n\n" +
			"Yes puts it back (e.g. when you asked for git init); no removes it.",
	}
	_, _, ok := l.ask(ctx, req)
	switch {
	case ok:
		if err := restoreAll(qs); err != nil {
			return "Note: the user chose to keep the git metadata this command created (" + names + "), but " + err.Error() + "."
		}
		return "Note: the git metadata this command created (" + names + ") was kept with the user's approval."
	case ctx.Err() != nil:
		return "Note: the git metadata this command created was moved aside, to " + listed(asides(qs)) + ": " + why + "."
	}
	removeAll(qs)
	return "Note: tick removed the git metadata this command created (" + names + ") as the user chose: " + why + ". Do not create .git entries again; tell the user what you wanted."
}

// removeAll removes the entries moved aside, keeping what cannot be
// removed where it is (inert under its new name).
func removeAll(qs []sandbox.Quarantined) {
	for _, q := range qs {
		_ = q.Remove()
	}
}

// restoreAll puts the entries back; the first failure is returned after
// the others were tried.
func restoreAll(qs []sandbox.Quarantined) error {
	var first error
	for _, q := range qs {
		if err := q.Restore(); err != nil && first == nil {
			first = fmt.Errorf("%w (it stays at %s)", err, q.Aside)
		}
	}
	return first
}

// asides lists where the entries were moved.
func asides(qs []sandbox.Quarantined) []string {
	out := make([]string, len(qs))
	for i, q := range qs {
		out[i] = q.Aside
	}
	return out
}

// listed names paths in one line, at most maxListed of them, quoting a
// name that holds anything but printable characters (a model chose it).
func listed(paths []string) string {
	var names []string
	for i, p := range paths {
		if i == maxListed {
			names = append(names, fmt.Sprintf("and %d more", len(paths)-maxListed))
			break
		}
		if q := strconv.Quote(p); q != `"`+p+`"` {
			p = q
		}
		names = append(names, p)
	}
	return strings.Join(names, ", ")
}
