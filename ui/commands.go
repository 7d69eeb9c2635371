package ui

import (
	"github.com/tick-agent/tick/ui/style"

	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/todo"
)

// NoticeMsg shows Text as a notice in the chat. Slash commands from
// Config.Commands may return it from their tea.Cmd.
type NoticeMsg struct{ Text string }

// ResetMsg replaces the conversation on screen, for example when a slash
// command starts a new session or resumes another one: the chat shows
// History (the events agent.Replay makes of a saved conversation), the panel shows Todos collapsed, and Agent (when not nil)
// replaces Config.Agent for the next turns. Notice, when set, is shown
// after the restored transcript. It is ignored while a turn runs.
type ResetMsg struct {
	Agent   Agent
	Model   string // the model of the conversation, for the status bar ("" keeps it)
	History []agent.Event
	Todos   todo.List
	Notice  string
}

// command is one slash command: what it does, and one line saying so (for
// the / completion popup and the help overlay).
type command struct {
	run     func(m *Model) tea.Cmd
	desc    string
	builtin bool
	// withArgs, when set, runs the command with the text after its name
	// ("/plan add Write docs"); run is then unused.
	withArgs func(m *Model, args string) tea.Cmd
}

// newCommands returns the built-in commands plus extra: /help, /quit
// (/exit), /compact, and /sessions when sessions lists the saved sessions.
// A built-in replaces an extra command of the same name.
// descs gives the extra commands their one-line descriptions (by name,
// with or without "/"); a command without one says "(no description)".
func newCommands(extra map[string]func() tea.Cmd, descs map[string]string, sessions bool) map[string]command {
	norm := func(name string) string { return strings.ToLower(strings.TrimPrefix(strings.TrimSpace(name), "/")) }
	help := map[string]string{}
	for name, d := range descs {
		help[norm(name)] = style.OneLine(d)
	}
	cmds := map[string]command{}
	for name, f := range extra {
		name = norm(name)
		if name == "" || f == nil {
			continue
		}
		d := help[name]
		if d == "" {
			d = "(no description)"
		}
		cmds[name] = command{desc: d, run: func(*Model) tea.Cmd { return f() }}
	}
	cmds["help"] = command{builtin: true, desc: "the keys and the commands", run: func(m *Model) tea.Cmd {
		m.openHelp()
		return nil
	}}
	quit := command{builtin: true, desc: "quit tick", run: func(m *Model) tea.Cmd { return m.quit() }}
	cmds["quit"], cmds["exit"] = quit, quit
	// These say themselves why they wait while a turn runs.
	cmds["compact"] = command{builtin: true, desc: "summarise old messages", run: (*Model).startCompact}
	cmds["retry"] = command{builtin: true, desc: "resend the failed turn", run: func(m *Model) tea.Cmd { return m.retry(m) }}
	if sessions {
		cmds["sessions"] = command{builtin: true, desc: "resume another session", run: (*Model).openSessions}
	}
	cmds["undo"] = command{builtin: true, desc: "restore the files as they were before the last item (or item N) started", withArgs: (*Model).undoCommand}
	cmds["rewind"] = command{builtin: true, desc: "go back to before a message or an item: files, conversation or both", run: (*Model).rewindCommand}
	cmds["verify"] = command{builtin: true, desc: "the check a turn must pass", withArgs: (*Model).verifyCommand}
	cmds["diff"] = command{builtin: true, desc: "what this session changed, file by file (since message N or item #N)", withArgs: (*Model).diffCommand}
	cmds["tasks"] = command{builtin: true, desc: "kept tasks: apply N over the files (conflicts marked) · patch N shows its patch", withArgs: (*Model).tasksCommand}
	cmds["think"] = command{builtin: true, desc: "thinking: off/low/medium/high", withArgs: (*Model).thinkCommand}
	usage := command{builtin: true, desc: "tokens and cost of this session, per turn and subagent", run: (*Model).showUsage}
	cmds["usage"], cmds["cost"] = usage, usage
	cmds["copy"] = command{builtin: true, desc: "copy the last answer (copy N: its Nth code block)", withArgs: (*Model).copyCommand}
	cmds["export"] = command{builtin: true, desc: "write the conversation as Markdown (export FILE)", withArgs: (*Model).exportCommand}
	cmds["plan"] = command{builtin: true, desc: "edit the plan (add TEXT · cancel N WHY · drop N · move N M)", withArgs: (*Model).planCommand}
	return cmds
}

// commandNames lists the commands as typed, sorted.
func (m *Model) commandNames() []string {
	names := make([]string, 0, len(m.commands))
	for n := range m.commands {
		names = append(names, "/"+n)
	}
	sort.Strings(names)
	return names
}

// runCommand runs text when it is a slash command (one word starting with
// "/"). Text like "/usr/bin is missing" is not a command and is sent; an
// unknown command is refused once (see unknownCommand).
func (m *Model) runCommand(text string) (tea.Cmd, bool) {
	t := strings.TrimSpace(text)
	refused := m.unknownCmd // an unknown command refused by the last enter
	m.unknownCmd = ""
	if !strings.HasPrefix(t, "/") || len(t) < 2 {
		return nil, false
	}
	if cmd, ok := m.runCustom(t); ok {
		return cmd, true
	}
	args := ""
	if name, rest, ok := strings.Cut(t, " "); ok {
		if c, known := m.commands[strings.ToLower(strings.TrimPrefix(name, "/"))]; known && c.withArgs != nil {
			t, args = name, strings.TrimSpace(rest)
		}
	}
	if strings.ContainsAny(t, " \t\n") {
		return m.unknownCommand(t, refused)
	}
	name := strings.ToLower(t[1:])
	c, ok := m.commands[name]
	if !ok {
		return m.unknownCommand(t, refused)
	}
	m.input.Remember(strings.TrimSpace(text))
	m.input.Reset()
	if !c.builtin && m.turn != nil {
		m.chat.AddNotice(t + " waits for the running turn: press esc to interrupt it first")
		return nil, true
	}
	if c.withArgs != nil {
		return c.withArgs(m, args), true
	}
	return c.run(m), true
}

// isCommandName reports whether s looks like a command name (letters,
// digits, dashes), rather than a path.
func isCommandName(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return s != ""
}

// quit ends the program, interrupting a running turn first.
func (m *Model) quit() tea.Cmd {
	m.interrupt()
	m.quitting = true
	return tea.Quit
}

// reset applies a ResetMsg.
func (m *Model) reset(msg ResetMsg) {
	if m.turn != nil {
		m.chat.AddNotice("cannot switch the conversation while a turn runs")
		return
	}
	if msg.Agent != nil {
		m.cfg.Agent = msg.Agent
		m.think = msg.Agent.Effort()
		m.setVerify(initialVerify(msg.Agent))
	}
	if msg.Model != "" {
		m.cfg.Model = msg.Model
	}
	m.planTurnStart() // the previous conversation's proposal and gate
	m.chat.Clear()
	m.usage = usageLedger{}
	m.handed.clear()
	m.panel.Restore(todo.List{})
	m.replay(msg.History, msg.Todos)
	if msg.Notice != "" {
		m.chat.AddNotice(msg.Notice)
	}
}
