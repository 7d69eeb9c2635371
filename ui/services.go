package ui

import "errors"

// Services is what the app lends the TUI while it runs, besides the
// agent: the answers it asks for about the world around the conversation
// and the optional features (saved sessions, the server's models, the @
// picker's file index, the system clipboard). Offers says which optional features the app
// has; the TUI calls a feature's methods only when it is offered and
// leaves its commands and keys out otherwise. New puts NoServices in when
// Config.Services is nil, so the TUI never checks for a missing service.
// The methods of the features are called off the update loop (in a
// tea.Cmd) and may block; SandboxStatus and SessionName must not.
type Services interface {
	// SandboxStatus is the command sandbox's status line for the status
	// bar ("sandbox: workspace-write", "no sandbox — asking for every
	// command"), "" for none. It is called for every frame.
	SandboxStatus() string
	// SessionName names the conversation for /export's default file name
	// ("" while it has none).
	SessionName() string
	// Offers says which of the optional features below the app has.
	Offers() Offers
	SessionStore
	ModelStore
	Clipboard
	// Files returns the workspace's files found so far (relative,
	// slash-separated) for the @ picker, and whether the index is
	// complete (Offers.Files).
	Files() (paths []string, complete bool)
}

// Offers names the optional features of a Services.
type Offers struct {
	Models         bool // ListModels and SwitchModel: /model
	Sessions       bool // ListSessions: /sessions
	Resume         bool // ResumeSession: the /sessions picker opens a session
	Fork           bool // ForkSession: the picker offers to fork a session open elsewhere
	Files          bool // Files: the @ picker
	CopyText       bool // CopyText: copies go to a system clipboard tool too
	ClipboardImage bool // ClipboardImage: ctrl+v pastes an image from the clipboard
}

// SessionStore is the workspace's saved sessions, for /sessions.
type SessionStore interface {
	// ListSessions lists the saved sessions, most recently used first.
	// It is never called while a turn runs.
	ListSessions() ([]SessionInfo, error)
	// ResumeSession opens session id and returns what replaces the
	// conversation on screen (applied like a ResetMsg); an error wrapping
	// ErrSessionOpen says another tick has it open.
	ResumeSession(id string) (ResetMsg, error)
	// ForkSession copies session id, which another tick has open, into a
	// new session and opens it, like ResumeSession.
	ForkSession(id string) (ResetMsg, error)
}

// ModelStore is the server's models, for the /model picker.
type ModelStore interface {
	// ListModels returns the models the configured server lists.
	ListModels() ([]string, error)
	// SwitchModel makes name the model of the conversation from the next
	// request (and saves it with the session).
	SwitchModel(name string) error
	// DefaultModelFile names the config file SaveDefaultModel writes; ""
	// leaves the picker's "save as default" question out.
	DefaultModelFile() string
	// SaveDefaultModel writes name as the default model into
	// DefaultModelFile and returns what else the user should know of the
	// save, shown after the confirmation ("" for nothing; e.g. that the
	// file was rewritten).
	SaveDefaultModel(name string) (note string, err error)
}

// Clipboard is the system clipboard beyond what the terminal offers.
type Clipboard interface {
	// CopyText writes text to the system clipboard with a tool (such as
	// wl-copy or xclip), besides the terminal's OSC 52, and names the
	// tool ("" when none took it).
	CopyText(text string) (tool string, err error)
	// ClipboardImage is asked on ctrl+v for an image on the clipboard: it
	// saves one and returns its path ("" when the clipboard holds none;
	// ctrl+v then pastes text as usual). An error wrapping
	// ErrNoClipboardTool says which tool to install.
	ClipboardImage() (path string, err error)
}

// errNotOffered is the answer of a feature the app does not offer (the
// TUI asks only for what Offers names).
var errNotOffered = errors.New("not available in this run")

// NoServices is the Services of an app that lends none: no sandbox line,
// no session name, and no optional feature (its methods answer
// errNotOffered or nothing). An app's Services may embed it and offer
// only some features.
type NoServices struct{}

// SandboxStatus returns "".
func (NoServices) SandboxStatus() string { return "" }

// SessionName returns "".
func (NoServices) SessionName() string { return "" }

// Offers offers nothing.
func (NoServices) Offers() Offers { return Offers{} }

// ListSessions answers errNotOffered.
func (NoServices) ListSessions() ([]SessionInfo, error) { return nil, errNotOffered }

// ResumeSession answers errNotOffered.
func (NoServices) ResumeSession(string) (ResetMsg, error) { return ResetMsg{}, errNotOffered }

// ForkSession answers errNotOffered.
func (NoServices) ForkSession(string) (ResetMsg, error) { return ResetMsg{}, errNotOffered }

// ListModels answers errNotOffered.
func (NoServices) ListModels() ([]string, error) { return nil, errNotOffered }

// SwitchModel answers errNotOffered.
func (NoServices) SwitchModel(string) error { return errNotOffered }

// DefaultModelFile returns "": no default to save.
func (NoServices) DefaultModelFile() string { return "" }

// SaveDefaultModel answers errNotOffered.
func (NoServices) SaveDefaultModel(string) (string, error) { return "", errNotOffered }

// CopyText answers errNotOffered.
func (NoServices) CopyText(string) (string, error) { return "", errNotOffered }

// ClipboardImage returns no image.
func (NoServices) ClipboardImage() (string, error) { return "", nil }

// Files returns no files, complete.
func (NoServices) Files() ([]string, bool) { return nil, true }

// orNoServices is s, or NoServices when s is nil.
func orNoServices(s Services) Services {
	if s == nil {
		return NoServices{}
	}
	return s
}
