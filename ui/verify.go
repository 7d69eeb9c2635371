package ui

import (
	"fmt"
	"github.com/tick-agent/tick/ui/style"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/agent"
)

// verifyState is what the TUI shows of the verify check (--verify,
// /verify): the command, and what its last run came to this turn.
type verifyState struct {
	command  string
	running  bool
	ran      bool // it ran since the command was set
	passed   bool
	attempt  int
	max      int
	code     *int
	final    bool // the turn ended with this run
	glyphsOK string
	glyphsNo string
}

// text is the verify state in a few words for the status bar and the
// panel's last line ("" when there is no check): "verify: go test ./...
// · running 1/3", "verify ✓", "verify ✗ exit 1 · 2/3".
func (v verifyState) text() string {
	switch {
	case v.command == "":
		return ""
	case v.running:
		return fmt.Sprintf("verify: running %d/%d", v.attempt, v.max)
	case !v.ran:
		return "verify: " + style.OneLine(v.command)
	case v.passed:
		return "verify " + v.glyphsOK
	}
	status := "did not finish"
	if v.code != nil {
		status = fmt.Sprintf("exit %d", *v.code)
	}
	return fmt.Sprintf("verify %s %s · %d/%d", v.glyphsNo, status, v.attempt, v.max)
}

// verifyEvent applies a verify event of the running turn; it reports
// whether ev was one.
func (m *Model) verifyEvent(ev agent.Event) bool {
	v := &m.verify
	switch e := ev.(type) {
	case agent.VerifyStarted:
		v.command, v.running, v.attempt, v.max, v.final = e.Command, true, e.Attempt, e.Max, false
	case agent.Verified:
		v.command, v.running, v.ran, v.passed, v.attempt, v.max, v.code, v.final = e.Command, false, true, e.Passed, e.Attempt, e.Max, e.ExitCode, e.Final
		if !e.Passed {
			m.chat.AddNotice(verifyNotice(e))
		}
	default:
		return false
	}
	v.glyphsOK, v.glyphsNo = m.st.Glyphs.ToolOK, m.st.Glyphs.ToolError
	m.setVerify(*v)
	return true
}

// verifyNotice is the chat's line for a failed check.
func verifyNotice(e agent.Verified) string {
	status := "did not run to an end"
	if e.ExitCode != nil {
		status = fmt.Sprintf("exited %d", *e.ExitCode)
	}
	if e.Final {
		return fmt.Sprintf("verify: %s %s (check %d of %d): the work is not done", style.OneLine(e.Command), status, e.Attempt, e.Max)
	}
	return fmt.Sprintf("verify: %s %s (check %d of %d): sent back to the model", style.OneLine(e.Command), status, e.Attempt, e.Max)
}

// verifyCommand is /verify [CMD]: with a command it sets the check for
// the session's next turns ("off" turns it off); without, it says what
// the check is.
func (m *Model) verifyCommand(args string) tea.Cmd {
	ta := m.cfg.Agent
	if m.agentless() {
		m.chat.AddNotice(errNoAgent.Error())
		return nil
	}
	cmd := strings.TrimSpace(args)
	switch cmd {
	case "":
		if cur := ta.Verify().Command; cur != "" {
			m.chat.AddNotice("verify: " + style.OneLine(cur) + " runs when the model ends its turn (/verify CMD to change it, /verify off)")
		} else {
			m.chat.AddNotice("no verify check (/verify CMD: a command a turn must pass to be done)")
		}
		return nil
	case "off":
		cmd = ""
	}
	ta.SetVerify(cmd)
	m.setVerify(verifyState{command: cmd})
	if cmd == "" {
		m.chat.AddNotice("verify: off")
		return nil
	}
	m.chat.AddNotice("verify: " + style.OneLine(cmd) + " runs when the model ends its turn, from the next turn on")
	return nil
}

// joinNonEmpty joins the non-empty parts with sep.
func joinNonEmpty(sep string, parts ...string) string {
	var kept []string
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, sep)
}

// initialVerify is the verify check of the agent the app starts with.
func initialVerify(a Agent) verifyState {
	return verifyState{command: a.Verify().Command}
}

// setVerify makes v the verify state the status bar and the panel's last
// line show.
func (m *Model) setVerify(v verifyState) {
	m.verify = v
	m.panel.SetVerify(v.text())
}
