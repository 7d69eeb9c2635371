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

func (a *Agent) fill(tmpl string) string {
	return strings.NewReplacer(
		"{{workspace}}", a.cfg.Workspace,
		"{{os}}", runtime.GOOS+"/"+runtime.GOARCH,
		"{{date}}", time.Now().Format("2006-01-02"),
	).Replace(tmpl)
}
