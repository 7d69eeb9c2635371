package app

import (
	"os"

	"github.com/tick-agent/tick/agent/mention"
	"github.com/tick-agent/tick/ui"
)

// appServices is the full-screen app's ui.Services: the sandbox's status
// line, the saved sessions, the current session's id and the /model
// picker's models of the server in use and of the config file's other
// providers (ts), the
// workspace's file index for the @ picker, and the system clipboard's
// tools (ctrl+v reads images only when the run has a paste directory).
type appServices struct {
	sandbox   func() string // sandboxStatus
	ts        *tuiSession
	files     func() ([]string, bool)      // mention.Lazy
	copyText  func(string) (string, error) // systemClipboard
	clipImage func() (string, error)       // clipboardImage; nil without a paste directory
}

// newAppServices returns the services of cfg's run over the conversation ts.
func newAppServices(cfg config, ts *tuiSession) appServices {
	s := appServices{sandbox: sandboxStatus(cfg), ts: ts, files: mention.Lazy(cfg.Workspace), copyText: systemClipboard(os.Getenv)}
	if cfg.pasteDir != "" {
		s.clipImage = clipboardImage(cfg.pasteDir, os.Getenv)
	}
	return s
}

var _ ui.Services = appServices{}

// SandboxStatus is the sandbox's status line once its probe finished.
func (s appServices) SandboxStatus() string { return s.sandbox() }

// SessionName is the id of the session being recorded ("" when none is).
func (s appServices) SessionName() string {
	if _, rec := s.ts.Current(); rec != nil {
		return rec.ID()
	}
	return ""
}

// Offers offers every feature; ctrl+v's images need a paste directory.
func (s appServices) Offers() ui.Offers {
	return ui.Offers{Models: true, Sessions: true, Resume: true, Fork: true, Files: true, CopyText: true, ClipboardImage: s.clipImage != nil}
}

// ListSessions lists the workspace's saved sessions (Session.Sessions).
func (s appServices) ListSessions() ([]ui.SessionInfo, error) { return s.ts.Sessions() }

// ResumeSession opens session id (Session.Resume).
func (s appServices) ResumeSession(id string) (ui.ResetMsg, error) { return s.ts.Resume(id) }

// ForkSession forks session id into a new one (Session.Fork).
func (s appServices) ForkSession(id string) (ui.ResetMsg, error) { return s.ts.Fork(id) }

// ListModels lists the models of the server in use and of the config
// file's other providers.
func (s appServices) ListModels() ([]string, error) { return s.ts.listModels() }

// SwitchModel switches the conversation to the picker's label.
func (s appServices) SwitchModel(label string) error { return s.ts.switchModel(label) }

// DefaultModelFile is the user's config file ("" without one).
func (s appServices) DefaultModelFile() string { return s.ts.cfg.Settings.UserFile }

// SaveDefaultModel writes label's model and provider into the user file.
func (s appServices) SaveDefaultModel(label string) (string, error) { return s.ts.saveDefault(label) }

// Files is the workspace's file index so far.
func (s appServices) Files() ([]string, bool) { return s.files() }

// CopyText writes text with the first system clipboard tool that applies.
func (s appServices) CopyText(text string) (string, error) { return s.copyText(text) }

// ClipboardImage saves the clipboard's image into the paste directory
// (offered only with one).
func (s appServices) ClipboardImage() (string, error) { return s.clipImage() }
