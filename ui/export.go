package ui

import (
	"github.com/tick-agent/tick/ui/dialog"
	"github.com/tick-agent/tick/ui/style"

	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/tick-agent/tick/ui/termsafe"
)

// exportCommand writes the conversation as Markdown (/export [FILE]): to
// FILE, relative to the workspace, or to a name that says the session and
// the date. The writing happens in a tea.Cmd, which reports with a notice.
func (m *Model) exportCommand(args string) tea.Cmd {
	name := strings.TrimSpace(args)
	if name == "" {
		name = exportName(m.cfg.Services.SessionName(), m.clock())
	}
	text := m.exportMarkdown()
	dir := m.cfg.Workspace
	return func() tea.Msg {
		path, err := writeExport(dir, name, []byte(text), false)
		switch {
		case errors.Is(err, errExportExists):
			return exportAskMsg{dir: dir, name: name, path: path, text: text}
		case err != nil:
			return NoticeMsg{Text: "/export: " + err.Error()}
		}
		return NoticeMsg{Text: "exported the conversation to " + path}
	}
}

// exportAskMsg says that /export's file exists: the user is asked before
// it is replaced.
type exportAskMsg struct {
	dir, name string // as /export was given them
	path      string // the file that exists
	text      string // the conversation to write
}

// handleExportAsk opens the question (dialog.Replace); yes writes the
// file over the one that exists.
func (m *Model) handleExportAsk(msg exportAskMsg) tea.Cmd {
	m.over.push(dialog.NewReplace(m.keys.Undo, msg.path, m.now, func() tea.Msg {
		path, err := writeExport(msg.dir, msg.name, []byte(msg.text), true)
		if err != nil {
			return NoticeMsg{Text: "/export: " + err.Error()}
		}
		return NoticeMsg{Text: "exported the conversation to " + path + " (replaced)"}
	}))
	m.input.Blur()
	return nil
}

// exportName is the default file name of /export: "tick-SESSION-DATE.md",
// or "tick-DATE-TIME.md" before the session has an id.
func exportName(session string, now time.Time) string {
	session = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return -1
	}, session)
	if len(session) > 40 {
		session = session[:40]
	}
	if session == "" {
		return "tick-" + now.Format("2006-01-02-150405") + ".md"
	}
	return "tick-" + session + "-" + now.Format("2006-01-02") + ".md"
}

// exportMarkdown is the conversation as Markdown: the prompts, the
// answers as written, each tool call summarised in one line, notices, and
// the plan at the end.
func (m *Model) exportMarkdown() string {
	var b strings.Builder
	b.WriteString("# tick conversation\n\n")
	fmt.Fprintf(&b, "- model: %s\n- workspace: %s\n- exported: %s\n", style.OneLine(m.cfg.Model), style.OneLine(m.cfg.Workspace), m.clock().Format(time.RFC3339))
	if u := m.usage.session; u.Calls > 0 {
		b.WriteString("- usage: " + totalText(u, true) + "\n")
	}
	m.chat.WriteMarkdown(&b)
	if l := m.panel.List(); !l.Empty() {
		b.WriteString("\n## Plan\n\n```\n" + strings.TrimRight(l.Render(), "\n") + "\n```\n")
	}
	return termsafe.Text(b.String())
}

// errExportExists is writeExport's refusal to replace a file without
// being told to.
var errExportExists = errors.New("a file of that name exists")

// writeExport writes data to name, relative to dir unless absolute, and
// returns the path. Something already at the name is replaced only when
// replace says so (else the error is errExportExists, with the path); a
// replaced regular file keeps its mode, a new file is private (0600). The
// write is atomic (a temporary file beside it, renamed over it), never
// follows a symbolic link at the name (a link is replaced, its target
// untouched), and a relative name must stay inside dir once the
// directories' links are resolved: a link planted in a cloned repository
// cannot send the file elsewhere.
func writeExport(dir, name string, data []byte, replace bool) (string, error) {
	path := name
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, name)
	}
	parent, err := filepath.EvalSymlinks(filepath.Dir(path))
	if err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	if !filepath.IsAbs(name) {
		root, err := filepath.EvalSymlinks(dir)
		if err != nil {
			return "", fmt.Errorf("write %s: %w", path, err)
		}
		if rel, err := filepath.Rel(root, parent); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "", fmt.Errorf("write %s: its directory leads outside the workspace (%s); give an absolute path to write there", path, parent)
		}
	}
	target := filepath.Join(parent, filepath.Base(path))
	mode := os.FileMode(0o600) // tool output may hold secrets
	fi, err := os.Lstat(target)
	switch {
	case err == nil && fi.IsDir():
		return "", fmt.Errorf("write %s: it is a directory", target)
	case err == nil && !replace:
		return target, fmt.Errorf("write %s: %w", target, errExportExists)
	case err == nil && fi.Mode().IsRegular():
		mode = fi.Mode().Perm()
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return "", fmt.Errorf("write %s: %w", target, err)
	}
	tmp, err := os.CreateTemp(parent, "."+filepath.Base(target)+".*.tmp")
	if err != nil {
		return "", fmt.Errorf("write %s: %w", target, err)
	}
	_, werr := tmp.Write(data)
	merr := tmp.Chmod(mode)
	cerr := tmp.Close()
	if err := errors.Join(werr, merr, cerr); err != nil {
		_ = os.Remove(tmp.Name())
		return "", fmt.Errorf("write %s: %w", target, err)
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		_ = os.Remove(tmp.Name())
		return "", fmt.Errorf("write %s: %w", target, err)
	}
	return target, nil
}
