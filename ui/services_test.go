package ui

import "testing"

// fakeServices is a Services whose answers the test gives as functions:
// it offers the features whose functions are set, and a nil answer
// function answers as NoServices does.
type fakeServices struct {
	NoServices
	sandbox     func() string
	sessionName func() string
	sessions    func() ([]SessionInfo, error)
	resume      func(id string) (ResetMsg, error)
	fork        func(id string) (ResetMsg, error)
	files       func() ([]string, bool)
	copyText    func(text string) (string, error)
	clipImage   func() (string, error)
	models      *fakeModels
}

// fakeModels is fakeServices' ModelStore: List and Switch offer /model,
// SaveDefault and Path the "save as default" question.
type fakeModels struct {
	List        func() ([]string, error)
	Switch      func(name string) error
	SaveDefault func(name string) (string, error)
	Path        string
}

func (f fakeServices) SandboxStatus() string { return call(f.sandbox) }
func (f fakeServices) SessionName() string   { return call(f.sessionName) }

func (f fakeServices) Offers() Offers {
	return Offers{Models: f.models != nil, Sessions: f.sessions != nil, Resume: f.resume != nil, Fork: f.fork != nil,
		Files: f.files != nil, CopyText: f.copyText != nil, ClipboardImage: f.clipImage != nil}
}

func (f fakeServices) ListSessions() ([]SessionInfo, error)      { return f.sessions() }
func (f fakeServices) ResumeSession(id string) (ResetMsg, error) { return f.resume(id) }
func (f fakeServices) ForkSession(id string) (ResetMsg, error)   { return f.fork(id) }
func (f fakeServices) ListModels() ([]string, error)             { return f.models.List() }
func (f fakeServices) SwitchModel(name string) error             { return f.models.Switch(name) }
func (f fakeServices) SaveDefaultModel(name string) (string, error) {
	return f.models.SaveDefault(name)
}
func (f fakeServices) DefaultModelFile() string {
	if f.models == nil {
		return ""
	}
	return f.models.Path
}
func (f fakeServices) Files() ([]string, bool)              { return f.files() }
func (f fakeServices) CopyText(text string) (string, error) { return f.copyText(text) }
func (f fakeServices) ClipboardImage() (string, error)      { return f.clipImage() }

// call returns f(), or "" for a nil f.
func call(f func() string) string {
	if f == nil {
		return ""
	}
	return f()
}

// TestNoServicesByDefault: a Config without Services gets NoServices,
// which offers nothing: no /sessions, no @ picker, no sandbox line, no
// session name for /export.
func TestNoServicesByDefault(t *testing.T) {
	m := New(Config{Model: "m"})
	if _, ok := m.cfg.Services.(NoServices); !ok {
		t.Fatalf("Config.Services = %T, want NoServices", m.cfg.Services)
	}
	if got := m.cfg.Services.Offers(); got != (Offers{}) {
		t.Errorf("NoServices offers %+v, want nothing", got)
	}
	if _, ok := m.commands["sessions"]; ok {
		t.Error("/sessions is offered without a SessionStore")
	}
	if got := m.modeText(); got != "" {
		t.Errorf("modeText() = %q without an agent or services, want \"\"", got)
	}
	if got := m.cfg.Services.SessionName(); got != "" {
		t.Errorf("SessionName() = %q with NoServices, want \"\"", got)
	}
	m.input.SetValue("look at @mai")
	if _, _, ok := m.input.MentionQuery(m.fileIndex()); ok {
		t.Error("the @ picker opens without a file index")
	}
}
