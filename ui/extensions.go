package ui

import (
	"github.com/tick-agent/tick/ui/style"

	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// CustomCommand is one of the user's own slash commands (from Markdown
// files): typing /NAME, optionally followed by text, sends Expand(text) to
// the model as the prompt. Description is shown by the / completion popup
// and /help.
type CustomCommand struct {
	Name        string
	Description string
	Expand      func(args string) string
}

// MCPStatus is what the TUI shows of the MCP servers: Counts gives how many
// are ready of how many there are (the status bar shows "mcp 2/3" until all
// are ready, and keeps it when one failed); Report is the /mcp listing
// (servers, states, tools, a failed server's stderr); Updates receives a
// value whenever they change. *mcp.Manager, through a small adapter in
// main, implements it.
type MCPStatus interface {
	Counts() (ready, total int)
	Report() string
	Updates() <-chan struct{}
}

// mcpChangedMsg says the MCP servers changed state.
type mcpChangedMsg struct{}

// watchMCP waits for the next change of the MCP servers.
func watchMCP(s MCPStatus) tea.Cmd {
	if s == nil {
		return nil
	}
	ch := s.Updates()
	return func() tea.Msg {
		<-ch
		return mcpChangedMsg{}
	}
}

// mcpField is the status bar's MCP text: "mcp R/T" while a server is not
// ready, "" when all are (or there are none).
func mcpField(s MCPStatus) string {
	if s == nil {
		return ""
	}
	ready, total := s.Counts()
	if total == 0 || ready == total {
		return ""
	}
	return fmt.Sprintf("mcp %d/%d", ready, total)
}

// addExtensions registers /mcp (when there are MCP servers) and the custom
// commands, noting the ones a built-in shadows.
func (m *Model) addExtensions() {
	if m.cfg.MCP != nil {
		m.commands["mcp"] = command{builtin: true, desc: "MCP servers: state, tools, errors", run: (*Model).showMCP}
	}
	var notices []string
	m.custom, notices = addCustom(m.commands, m.cfg.Custom)
	for _, n := range notices {
		m.chat.AddNotice(n)
	}
}

// addCustom registers the custom commands in cmds, under the names not
// taken by a built-in or an extra command, and returns notices for those
// it could not register.
func addCustom(cmds map[string]command, custom []CustomCommand) (map[string]CustomCommand, []string) {
	byName := map[string]CustomCommand{}
	var notices []string
	for _, c := range custom {
		name := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(c.Name), "/"))
		if !isCommandName(name) || c.Expand == nil {
			continue
		}
		if _, taken := cmds[name]; taken {
			notices = append(notices, fmt.Sprintf("your command /%s is not available: tick's own /%s comes first (rename the file)", name, name))
			continue
		}
		byName[name] = c
		desc := style.OneLine(c.Description)
		if desc == "" {
			desc = "(your command)"
		}
		cmds[name] = command{desc: desc, run: func(m *Model) tea.Cmd { return m.startCustom(c, "") }}
	}
	return byName, notices
}

// runCustom runs "/NAME text" when NAME is a custom command.
func (m *Model) runCustom(t string) (tea.Cmd, bool) {
	word, args, _ := strings.Cut(t[1:], " ")
	if i := strings.IndexAny(word, "\t\n"); i >= 0 {
		word, args = word[:i], word[i+1:]+" "+args
	}
	c, ok := m.custom[strings.ToLower(word)]
	if !ok {
		return nil, false
	}
	m.input.Remember(t)
	m.input.Reset()
	if m.turn != nil {
		m.chat.AddNotice("/" + word + " waits for the running turn: press esc to interrupt it first")
		return nil, true
	}
	return m.startCustom(c, args), true
}

// startCustom sends a custom command's prompt as a turn.
func (m *Model) startCustom(c CustomCommand, args string) tea.Cmd {
	prompt := c.Expand(args)
	if strings.TrimSpace(prompt) == "" {
		m.chat.AddNotice("/" + c.Name + " expands to an empty prompt: nothing sent")
		return nil
	}
	return m.startTurn(prompt)
}

// showMCP is /mcp: the servers, their states and tools, as a notice.
func (m *Model) showMCP() tea.Cmd {
	m.chat.AddNotice(m.cfg.MCP.Report())
	m.chat.ToBottom()
	return nil
}
