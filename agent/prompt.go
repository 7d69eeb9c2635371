package agent

import (
	_ "embed"
	"runtime"
	"strings"
	"time"
)

//go:embed prompts/system.md
var systemTemplate string

//go:embed prompts/subagent.md
var subagentTemplate string

// systemPrompt returns the parent's system prompt: Config.SystemPrompt, or
// the embedded one filled in with the workspace, OS and date.
func (a *Agent) systemPrompt() string {
	if a.cfg.SystemPrompt != "" {
		return a.withInstructions(a.cfg.SystemPrompt)
	}
	return a.withInstructions(a.fill(systemTemplate))
}

// subagentPrompt returns the system prompt of a task subagent.
func (a *Agent) subagentPrompt() string { return a.withInstructions(a.fill(subagentTemplate)) }

// withInstructions appends Config.Instructions to a system prompt.
func (a *Agent) withInstructions(prompt string) string {
	if a.cfg.Instructions == "" {
		return prompt
	}
	return strings.TrimRight(prompt, "\n") + "\n\n" + a.cfg.Instructions
}

// dateLayout is how the date is written into the system prompt.
const dateLayout = "2006-01-02"

// fill writes the workspace, the OS, the session's date and what the
// command sandbox allows into tmpl.
// Nothing in it changes during a session (see Config.Date).
func (a *Agent) fill(tmpl string) string {
	a.mu.Lock()
	date := a.date
	a.mu.Unlock()
	box := a.sandboxLines()
	if box != "" {
		box += "\n"
	}
	return strings.NewReplacer(
		"{{workspace}}", a.cfg.Workspace,
		"{{os}}", runtime.GOOS+"/"+runtime.GOARCH,
		"{{date}}", date,
		"{{sandbox}}\n", box,
	).Replace(tmpl)
}

// SetPromptDate sets the day the system prompt names: a resumed session's
// start (session.Info.Started), so that a session continued on another
// day sends the same system prompt and the server's prompt cache still
// fits. The zero time is ignored.
func (a *Agent) SetPromptDate(day time.Time) {
	if day.IsZero() {
		return
	}
	a.mu.Lock()
	a.date = day.Format(dateLayout)
	a.mu.Unlock()
}
