package agent

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/tick-agent/tick/agent/mention"
	"github.com/tick-agent/tick/agent/tools"
	"github.com/tick-agent/tick/provider"
)

// withMentions attaches the files and directories a prompt mentions with
// @path (see package mention) when Config.Mentions is set, and says what
// it attached in a Notice. It returns the user message to send: the
// prompt with the files' text, and the mentioned images.
func (a *Agent) withMentions(ctx context.Context, prompt string, emit func(Event)) provider.Message {
	msg := provider.Message{Role: provider.RoleUser, Content: prompt}
	if !a.cfg.Mentions || !strings.Contains(prompt, "@") {
		return msg
	}
	ws, err := tools.NewWorkspace(a.cfg.Workspace)
	if err != nil {
		return msg
	}
	out, att := mention.Expand(ctx, prompt, a.mentionResolver(ws))
	if len(att) == 0 {
		return msg
	}
	msg.Content = out
	names := make([]string, len(att))
	for i, at := range att {
		names[i] = at.Path
		if at.Image != nil {
			msg.Images = append(msg.Images, *at.Image)
		}
		switch {
		case at.Refused != "":
			names[i] += " (image not attached: " + at.Refused + ")"
		case at.Image != nil:
			names[i] += " (image)"
		case at.Dir:
			names[i] += " (listing)"
		case at.Cut:
			names[i] += " (cut)"
		}
	}
	emit(Notice{Text: "attached " + strings.Join(names, ", ")})
	return msg
}

// mentionResolver resolves a mention inside the workspace, or an absolute
// path inside Config.PasteDir (symbolic links followed, and the real path
// still inside it).
func (a *Agent) mentionResolver(ws *tools.Workspace) mention.Resolver {
	dir := a.cfg.PasteDir
	return func(p string) (string, error) {
		real, err := ws.Resolve(p)
		if err == nil || dir == "" || !filepath.IsAbs(p) {
			return real, err
		}
		root, rerr := filepath.EvalSymlinks(dir)
		target, terr := filepath.EvalSymlinks(p)
		if rerr != nil || terr != nil || filepath.Dir(target) != root {
			return "", err
		}
		return target, nil
	}
}
