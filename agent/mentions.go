package agent

import (
	"strings"

	"github.com/tick-agent/tick/agent/mention"
	"github.com/tick-agent/tick/agent/tools"
)

// withMentions attaches the files and directories a prompt mentions with
// @path (see package mention) when Config.Mentions is set, and says what
// it attached in a Notice.
func (a *Agent) withMentions(prompt string, emit func(Event)) string {
	if !a.cfg.Mentions || !strings.Contains(prompt, "@") {
		return prompt
	}
	ws, err := tools.NewWorkspace(a.cfg.Workspace)
	if err != nil {
		return prompt
	}
	out, att := mention.Expand(prompt, ws.Resolve)
	if len(att) == 0 {
		return prompt
	}
	names := make([]string, len(att))
	for i, at := range att {
		names[i] = at.Path
		switch {
		case at.Dir:
			names[i] += " (listing)"
		case at.Cut:
			names[i] += " (cut)"
		}
	}
	emit(Notice{Text: "attached " + strings.Join(names, ", ")})
	return out
}
