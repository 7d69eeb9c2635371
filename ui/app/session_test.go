package app

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/session"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/ui"
)

// fixture is a Session on real agents talking to a fake server over HTTP,
// saving into a temporary sessions directory.
type fixture struct {
	srv  *providertest.Server
	dir  string
	ws   string
	made []string // the models NewAgent was asked for
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	return &fixture{srv: providertest.New(t), dir: t.TempDir(), ws: t.TempDir()}
}

// options returns the Options main would give, switching a resumed
// session to "switched" when it ran on "other".
func (f *fixture) options(t *testing.T) Options {
	return Options{
		Workspace: f.ws,
		Model:     "fake",
		NewAgent: func(model string, window int, rec *session.Recorder) (*agent.Agent, error) {
			f.made = append(f.made, model)
			client, err := provider.New(provider.Config{BaseURL: f.srv.URL, Model: model, MaxRetries: -1})
			if err != nil {
				return nil, err
			}
			cfg := agent.Config{Model: client, ModelName: model, ContextWindow: window, Workspace: f.ws, Approval: agent.ApproveAll}
			if rec != nil {
				cfg.Recorder = rec
			}
			return agent.New(cfg)
		},
		SessionModel: func(ld *session.Loaded, model string, window int) (string, int) {
			return model + "+resumed", window
		},
	}
}

// start returns a Session saving into f.dir.
func (f *fixture) start(t *testing.T) *Session {
	t.Helper()
	opts := f.options(t)
	rec := session.NewRecorder(f.dir, f.ws, opts.Model)
	ag, err := opts.NewAgent(opts.Model, 0, rec)
	if err != nil {
		t.Fatal(err)
	}
	s := New(opts, ag, rec)
	t.Cleanup(s.Close)
	return s
}

// turn runs prompt on the session's agent, answered with answer.
func (f *fixture) turn(s *Session, prompt, answer string) {
	f.srv.Enqueue(providertest.Reply{Text: answer})
	ag, _ := s.Current()
	for range ag.Run(context.Background(), prompt) {
	}
}

// TestSessionNewAndResume: /new starts a new agent and file naming the
// previous one, the listing marks the session in use, and resuming the
// first gives its transcript, the session model and an agent that carries
// on in its file.
func TestSessionNewAndResume(t *testing.T) {
	f := newFixture(t)
	s := f.start(t)
	f.turn(s, "first prompt", "First answer.")
	_, rec := s.Current()
	firstID := rec.ID()
	if firstID == "" {
		t.Fatal("the first turn saved no session")
	}

	msg := s.NewSession()()
	reset, ok := msg.(ui.ResetMsg)
	if !ok || reset.Agent == nil || !strings.Contains(reset.Notice, firstID) {
		t.Fatalf("NewSession() = %#v", msg)
	}
	if cur, _ := s.Current(); cur != reset.Agent {
		t.Fatal("NewSession did not switch to its agent")
	}
	f.turn(s, "second prompt", "Second answer.")

	list, err := s.Sessions()
	if err != nil || len(list) != 2 || !list[0].Current || list[0].FirstPrompt != "second prompt" || list[0].Title != "second prompt" || list[1].ID != firstID || list[1].Current {
		t.Fatalf("Sessions() = %+v, %v", list, err)
	}

	back, err := s.Resume(firstID)
	if err != nil {
		t.Fatal(err)
	}
	if back.Model != "fake+resumed" || !strings.Contains(back.Notice, "resumed session "+firstID) || len(back.History) == 0 {
		t.Fatalf("Resume() = %+v", back)
	}
	if m, _ := s.Model(); m != "fake+resumed" {
		t.Fatalf("Model() after resume = %q", m)
	}
	f.turn(s, "carry on", "Carried on.")
	if _, rec := s.Current(); rec.ID() != firstID {
		t.Fatalf("the resumed agent saves into %q, want %q", rec.ID(), firstID)
	}
	req := f.srv.Requests()
	if sent := req[len(req)-1]; !strings.Contains(dumpRequest(sent), "first prompt") || strings.Contains(dumpRequest(sent), "second prompt") {
		t.Fatalf("the resumed agent sent %+v", sent)
	}
	if _, err := s.Resume("nope"); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("Resume(nope) = %v", err)
	}
}

// TestSessionOpenElsewhere: a session open in another tick cannot be
// resumed (the error wraps ui.ErrSessionOpen) but can be forked into a new
// file; after Close nothing more is resumed.
func TestSessionOpenElsewhere(t *testing.T) {
	f := newFixture(t)
	s := f.start(t)
	f.turn(s, "first prompt", "First answer.")
	_, rec := s.Current()
	firstID := rec.ID()
	s.NewSession()()
	f.turn(s, "second prompt", "Second answer.")

	info, err := session.Find(f.dir, f.ws, firstID)
	if err != nil {
		t.Fatal(err)
	}
	other, _, err := session.Open(info.Path) // another tick holds it
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := s.Resume(firstID); !errors.Is(err, ui.ErrSessionOpen) {
		t.Fatalf("Resume(open elsewhere) = %v; want ui.ErrSessionOpen", err)
	}
	forked, err := s.Fork(firstID)
	if err != nil || forked.Agent == nil {
		t.Fatalf("Fork() = %+v, %v", forked, err)
	}
	f.turn(s, "on the fork", "Forked.")
	if _, rec := s.Current(); rec.ID() == "" || rec.ID() == firstID {
		t.Fatalf("the fork saves into %q", rec.ID())
	}

	s.Close()
	list, _ := s.Sessions()
	if len(list) == 0 {
		t.Fatal("no sessions listed after Close")
	}
	var second string
	for _, in := range list {
		if in.FirstPrompt == "second prompt" {
			second = in.ID
		}
	}
	if _, err := s.Resume(second); err == nil || !strings.Contains(err.Error(), "the app has ended") {
		t.Fatalf("Resume after Close = %v", err)
	}
}

// TestSessionNotSaved: without a recorder the picker's calls say so and
// /new still starts a fresh agent.
func TestSessionNotSaved(t *testing.T) {
	f := newFixture(t)
	opts := f.options(t)
	ag, err := opts.NewAgent(opts.Model, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := New(opts, ag, nil)
	defer s.Close()
	if _, err := s.Sessions(); !errors.Is(err, ErrNotSaved) {
		t.Fatalf("Sessions() = %v", err)
	}
	if _, err := s.Resume("x"); !errors.Is(err, ErrNotSaved) {
		t.Fatalf("Resume() = %v", err)
	}
	if _, err := s.Fork("x"); !errors.Is(err, ErrNotSaved) {
		t.Fatalf("Fork() = %v", err)
	}
	reset, ok := s.NewSession()().(ui.ResetMsg)
	if !ok || reset.Agent == nil || reset.Agent == ag || reset.Notice != "new session" {
		t.Fatalf("NewSession() = %+v", reset)
	}
}

// TestNewSessionError: an agent that cannot be made leaves the session as
// it was and says so in the chat.
func TestNewSessionError(t *testing.T) {
	f := newFixture(t)
	s := f.start(t)
	before, rec := s.Current()
	s.opts.NewAgent = func(string, int, *session.Recorder) (*agent.Agent, error) { return nil, errors.New("no model") }
	msg := s.NewSession()()
	n, ok := msg.(ui.NoticeMsg)
	if !ok || !strings.Contains(n.Text, "could not start a new session: no model") {
		t.Fatalf("NewSession() = %#v", msg)
	}
	if ag, r := s.Current(); ag != before || r != rec {
		t.Fatal("a failed /new replaced the session")
	}
}

func TestResumedLine(t *testing.T) {
	tests := []struct {
		name string
		ld   session.Loaded
		want string
	}{
		{"no todo", session.Loaded{Info: session.Info{ID: "abc"}, History: make([]provider.Message, 3)}, "resumed session abc · 3 messages"},
		{"todo", session.Loaded{Info: session.Info{ID: "abc", Done: 1, Total: 2}}, "resumed session abc · 0 messages · todo 1/2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ResumedLine(&tt.ld); got != tt.want {
				t.Errorf("ResumedLine() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestPIDNote(t *testing.T) {
	for pid, want := range map[int]string{0: "", -1: "", 42: " (pid 42)"} {
		if got := PIDNote(pid); got != want {
			t.Errorf("PIDNote(%d) = %q, want %q", pid, got, want)
		}
	}
}

// dumpRequest flattens a request's messages for a substring check.
func dumpRequest(r providertest.Request) string {
	var b strings.Builder
	for _, m := range r.Messages {
		b.WriteString(m.Role + ": " + m.Content + "\n")
	}
	return b.String()
}
