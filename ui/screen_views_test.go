package ui

import (
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/todo"
	"github.com/tick-agent/tick/ui/dialog"
)

// screenView opens one view of the TUI with hostile strings in it; visible
// is text that must stay readable on the screen.
type screenView struct {
	name    string
	open    func(t *testing.T) *Model
	visible []string
}

// conversationViews are the @ popup, the chat, the panel, the plan editor and the
// approval dialog, with evil in what they show.
func conversationViews(evil string) []screenView {
	return []screenView{
		{"@ popup", func(t *testing.T) *Model {
			m, _ := newTestModel(t, 100, 30)
			m.cfg.Services = fakeServices{files: func() ([]string, bool) { return hostileList(8), true }}
			for _, r := range "see @t" {
				runCmd(m, update(m, keyPress(string(r))))
			}
			return m
		}, []string{"HIDDEN.txt", "link.txt", "red.txt", "⟨U+202E⟩txt.exe", "@new line.txt", "fill⟨U+3164⟩er⟨U+2800⟩.txt"}},
		{"@ popup, inserted", func(t *testing.T) *Model {
			m, _ := newTestModel(t, 100, 30)
			m.cfg.Services = fakeServices{files: func() ([]string, bool) { return hostileList(1), true }}
			for _, r := range "see @t" {
				runCmd(m, update(m, keyPress(string(r))))
			}
			runCmd(m, press(m, "tab"))
			return m
		}, []string{"see @gHIDDEN.txt"}},
		{"chat, tool lines and notices", func(t *testing.T) *Model {
			m, a := newTestModel(t, 120, 40)
			submit(m, "look at "+evil)
			deliver(t, m, a,
				agent.ToolStart{ID: "c1", Name: "read_file", Args: "{}", Summary: evil},
				agent.ToolEnd{ID: "c1", Name: "read_file", Output: hostileText()},
				agent.ToolStart{ID: "c2", Name: "bash", Args: "{}", Summary: "cat " + evil},
				agent.ToolOutput{ID: "c2", Tail: hostileText(), Total: 100},
				agent.Notice{Text: "notice " + evil},
				agent.Retry{Attempt: 1, Max: 3, Wait: time.Second, Err: "server " + evil},
			)
			update(m, NoticeMsg{Text: "command notice " + evil})
			return m
		}, []string{"HIDDEN.txt", "command notice"}},
		{"answer and error", func(t *testing.T) *Model {
			m, a := newTestModel(t, 120, 40)
			submit(m, "hi")
			deliver(t, m, a, agent.AssistantDone{Text: "Files: `" + evil + "`\n\n- " + evil + "\n", Final: true})
			endTurn(t, m, a, agent.TurnEnd{Reason: agent.ReasonError, Err: fmt.Errorf("server said %s", evil)})
			return m
		}, []string{"HIDDEN.txt", "server said"}},
		{"panel and plan", func(t *testing.T) *Model {
			m, a := newTestModel(t, 120, 40)
			submit(m, "plan")
			list := todo.List{Goal: "Fix " + evil, Items: []todo.Item{
				{ID: "1", Text: "Edit " + evil, Status: todo.InProgress, ActiveForm: "Editing " + evil},
				{ID: "2", Text: "Drop " + evil, Status: todo.Cancelled, Note: "because " + evil},
				{ID: "3", Text: "Test " + evil, Status: todo.Pending},
			}}
			deliver(t, m, a, agent.TodoUpdate{List: list}, agent.PlanProposed{List: list, Rev: 1})
			return m
		}, []string{"HIDDEN.txt"}},
		{"plan editor", func(t *testing.T) *Model {
			list := todo.List{Goal: "Fix " + evil, Items: []todo.Item{
				{ID: "1", Text: "Edit " + evil, Status: todo.InProgress, ActiveForm: "Editing " + evil},
				{ID: "2", Text: "Test " + evil, Status: todo.Pending},
			}}
			m, _ := newPlanModel(t, list)
			update(m, ResetMsg{Todos: list})
			submit(m, "go")
			press(m, "ctrl+p")
			if overlayOf[*dialog.PlanEditor](m) == nil {
				t.Fatal("ctrl+p did not open the plan editor")
			}
			press(m, "a") // an edit: the agent's list comes back to the panel
			typeText(m, "ZULU")
			press(m, "enter")
			return m
		}, []string{"HIDDEN.txt", "ZULU"}},
		{"approval dialog", func(t *testing.T) *Model {
			m, a := newTestModel(t, 120, 40)
			submit(m, "go")
			deliver(t, m, a, agent.ToolStart{ID: "c1", Name: "bash", Args: "{}", Summary: "rm " + evil},
				agent.ApprovalRequest{ID: "c1", Tool: "bash", Summary: "rm " + evil, Detail: "rm " + hostileText(), Scope: "rm " + evil, Reply: make(chan agent.Approval, 1)})
			return m
		}, []string{"HIDDEN.txt"}},
	}
}

// pickerViews are the sessions and model pickers with evil in their lists.
func pickerViews(evil string) []screenView {
	return []screenView{
		{"sessions picker", func(t *testing.T) *Model {
			list := sessionList(3)
			list[1].FirstPrompt = "fix " + evil
			list[2].ID = evil
			mv := New(Config{Agent: &scriptAgent{}, Model: "m", Dark: true,
				Services: fakeServices{sessions: func() ([]SessionInfo, error) { return list, nil },
					resume: func(string) (ResetMsg, error) { return ResetMsg{}, nil }}})
			m := &mv
			update(m, tea.WindowSizeMsg{Width: 120, Height: 40})
			runCmd(m, submit(m, "/sessions"))
			press(m, "down")
			press(m, "down")
			press(m, "enter") // "resuming ID…" while Resume runs
			return m
		}, []string{"HIDDEN.txt"}},
		{"model picker and status bar", func(t *testing.T) *Model {
			m, _ := newTestModel(t, 120, 40)
			m.cfg.Services = fakeServices{models: &fakeModels{
				List:   func() ([]string, error) { return append([]string{"good"}, hostileList(10)...), nil },
				Switch: func(string) error { return nil },
			}}
			m.cfg.Model = evil
			m.addConfigCommands()
			runCmd(m, submit(m, "/model"))
			return m
		}, []string{"HIDDEN.txt", "good"}},
		{"model picker, switching", func(t *testing.T) *Model {
			m, _ := newTestModel(t, 120, 40)
			m.cfg.Services = fakeServices{models: &fakeModels{
				List:   func() ([]string, error) { return hostileList(3), nil },
				Switch: func(string) error { return nil },
			}}
			m.addConfigCommands()
			runCmd(m, submit(m, "/model"))
			press(m, "enter") // "switching to NAME…" while Switch runs
			return m
		}, []string{"switching to gHIDDEN.txt"}},
		{"model picker, saving the default", func(t *testing.T) *Model {
			m, _ := newTestModel(t, 120, 40)
			m.cfg.Services = fakeServices{models: &fakeModels{
				List:        func() ([]string, error) { return hostileList(3), nil },
				Switch:      func(string) error { return nil },
				SaveDefault: func(string) (string, error) { return "", nil },
				Path:        "/home/" + evil,
			}}
			m.addConfigCommands()
			runCmd(m, submit(m, "/model"))
			runCmd(m, press(m, "enter"))
			return m
		}, []string{"Also make gHIDDEN.txt the default"}},
	}
}

// chromeViews are the status bar, the help, the / popup, notices, the undo
// confirmation and a resumed session, with evil in what they show.
func chromeViews(evil string) []screenView {
	return []screenView{
		{"status bar", func(t *testing.T) *Model {
			a := &scriptAgent{}
			mv := New(Config{Agent: a, Model: "model " + evil, Workspace: "/tmp/" + evil, Dark: true, Version: "test",
				Services: fakeServices{sandbox: func() string { return "sandbox " + evil }}, MCP: hostileMCP{}})
			m := &mv
			update(m, tea.WindowSizeMsg{Width: 200, Height: 30})
			return m
		}, []string{"HIDDEN.txt"}},
		{"help and custom commands", func(t *testing.T) *Model {
			a := &scriptAgent{}
			mv := New(Config{Agent: a, Model: "m", Dark: true, Version: "test",
				Commands:    map[string]func() tea.Cmd{"extra": func() tea.Cmd { return nil }},
				CommandHelp: map[string]string{"extra": "does " + evil},
				Custom:      []CustomCommand{{Name: "review", Description: "reviews " + evil, Expand: func(string) string { return "x" }}},
				ConfigPath:  "/home/u/" + evil,
			})
			m := &mv
			update(m, tea.WindowSizeMsg{Width: 120, Height: 60})
			submit(m, "/help")
			return m
		}, []string{"reviews"}},
		{"/ completion popup", func(t *testing.T) *Model {
			a := &scriptAgent{}
			mv := New(Config{Agent: a, Model: "m", Dark: true, Version: "test",
				Commands:    map[string]func() tea.Cmd{"revert": func() tea.Cmd { return nil }},
				CommandHelp: map[string]string{"revert": "reverts " + evil},
				Custom:      []CustomCommand{{Name: "review", Description: "reviews " + evil, Expand: func(string) string { return "x" }}},
			})
			m := &mv
			update(m, tea.WindowSizeMsg{Width: 120, Height: 40})
			typeText(m, "/rev")
			return m
		}, []string{"reviews", "reverts"}},
		{"start-up and late notices, /mcp", func(t *testing.T) *Model {
			a := &scriptAgent{}
			mv := New(Config{Agent: a, Model: "m", Dark: true, Version: "test", Notices: []string{"skipped " + evil}, MCP: hostileMCP{}})
			m := &mv
			update(m, tea.WindowSizeMsg{Width: 120, Height: 40})
			update(m, NoticeMsg{Text: "late " + evil})
			submit(m, "/mcp")
			return m
		}, []string{"skipped", "late"}},
		{"undo confirmation", func(t *testing.T) *Model {
			a := hostileUndo{&scriptAgent{}}
			mv := New(Config{Agent: a, Model: "m", Dark: true, Version: "test"})
			m := &mv
			update(m, tea.WindowSizeMsg{Width: 120, Height: 40})
			runCmd(m, submit(m, "/undo"))
			return m
		}, []string{"HIDDEN.txt", "⟨U+202E⟩txt.exe", "fill⟨U+3164⟩er"}},
		{"resumed session", func(t *testing.T) *Model {
			m, _ := newTestModel(t, 120, 40)
			update(m, ResetMsg{History: []agent.Event{
				agent.UserMessage{Text: "prompt " + evil},
				agent.ToolStart{ID: "c1", Name: "read_file", Args: "{}", Summary: evil},
				agent.ToolEnd{ID: "c1", Name: "read_file", Output: hostileText()},
				agent.AssistantDone{Text: evil, Final: true},
			}, Notice: "resumed " + evil, Model: "model " + evil})
			return m
		}, []string{"HIDDEN.txt", "resumed"}},
	}
}
