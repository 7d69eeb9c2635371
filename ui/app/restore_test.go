package app

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/checkpoint"
	"github.com/tick-agent/tick/agent/session"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/ui"
)

// TestSwitchKeepsPlanAndMode: the /sessions picker's resume and fork give
// the new agent the session's mode and the user's authority over its plan;
// a run started with --plan (KeepMode) stays in plan mode, approving into
// the session's mode.
func TestSwitchKeepsPlanAndMode(t *testing.T) {
	tests := []struct {
		name      string
		fork      bool
		keepMode  bool
		saved     agent.Mode
		want      agent.Mode
		approveTo agent.Mode // the mode after approving a plan
	}{
		{name: "resume in plan mode", saved: agent.ModePlan, want: agent.ModePlan, approveTo: agent.ModeAuto},
		{name: "resume in ask mode", saved: agent.ModeAsk, want: agent.ModeAsk, approveTo: agent.ModeAsk},
		{name: "fork in plan mode", fork: true, saved: agent.ModePlan, want: agent.ModePlan, approveTo: agent.ModeAuto},
		{name: "--plan wins", keepMode: true, saved: agent.ModeAsk, want: agent.ModePlan, approveTo: agent.ModeAsk},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			s := f.start(t)
			if tc.keepMode {
				opts := f.options(t)
				newAgent := opts.NewAgent
				opts.NewAgent = func(model string, window int, rec *session.Recorder) (*agent.Agent, error) {
					ag, err := newAgent(model, window, rec)
					if err == nil {
						ag.SetMode(agent.ModePlan) // as main does for --plan
					}
					return ag, err
				}
				opts.KeepMode = true
				s.opts = opts
			}
			ag, rec := s.Current()
			f.srv.Enqueue(providertest.Reply{ToolCalls: []providertest.Call{{Name: "todo", Args: `{"items":[{"id":"1","text":"ALPHA","status":"pending"}]}`}}}, providertest.Reply{Text: "Planned."}, providertest.Reply{Text: "Planned."})
			for range ag.Run(context.Background(), "plan it") {
			}
			if _, err := ag.EditPlan(agent.PlanEdit{Op: agent.PlanAdd, Text: "ZULU verify"}); err != nil {
				t.Fatal(err)
			}
			ag.SetMode(tc.saved)
			id := rec.ID()
			s.NewSession()()

			var (
				reset ui.ResetMsg
				err   error
			)
			if tc.fork {
				reset, err = s.Fork(id)
			} else {
				reset, err = s.Resume(id)
			}
			if err != nil {
				t.Fatal(err)
			}
			back := reset.Agent.(*agent.Agent)
			if got := back.Mode(); got != tc.want {
				t.Errorf("mode after switching: %v, want %v", got, tc.want)
			}
			_, rec2 := s.Current()
			info, err := session.Find(f.dir, f.ws, rec2.ID())
			if err != nil {
				t.Fatal(err)
			}
			ld, err := session.Load(info.Path)
			if err != nil || ld.Mode != tc.want.String() || (tc.want == agent.ModePlan && ld.BeforePlan != tc.approveTo.String()) {
				t.Errorf("saved mode after switching: %q before %q (%v), want %v before %v", ld.Mode, ld.BeforePlan, err, tc.want, tc.approveTo)
			}
			f.srv.Enqueue(providertest.Reply{ToolCalls: []providertest.Call{{Name: "todo", Args: `{"items":[{"id":"1","text":"ALPHA","status":"completed"}]}`}}}, providertest.Reply{Text: "Done."}, providertest.Reply{Text: "Done."})
			var refused bool
			for ev := range back.Run(context.Background(), "go on") {
				if end, ok := ev.(agent.ToolEnd); ok && end.IsError && strings.Contains(end.Output, "#2 was added by the user") {
					refused = true
				}
			}
			if !refused {
				t.Error("the model dropped the item the user added, after switching")
			}
			if _, err := back.ApprovePlan(); err != nil {
				t.Fatal(err)
			}
			if got := back.Mode(); got != tc.approveTo && tc.want == agent.ModePlan {
				t.Errorf("mode after approving: %v, want %v", got, tc.approveTo)
			}
		})
	}
}

// TestResumedPanelFollowsRewind: a plan proposed in plan mode and then
// rewound away stays away after resuming: the last list the resumed
// screen gets is the agent's (empty), not the replayed proposal's.
func TestResumedPanelFollowsRewind(t *testing.T) {
	f := newFixture(t)
	s := f.start(t)
	opts := f.options(t)
	opts.NewAgent = func(model string, window int, rec *session.Recorder) (*agent.Agent, error) {
		client, err := provider.New(provider.Config{BaseURL: f.srv.URL, Model: model, MaxRetries: -1})
		if err != nil {
			return nil, err
		}
		store, err := checkpoint.Open(context.Background(), filepath.Join(t.TempDir(), "cp"), f.ws)
		if err != nil {
			return nil, err
		}
		cfg := agent.Config{Model: client, ModelName: model, ContextWindow: window, Workspace: f.ws, Approval: agent.ApproveAll, Checkpoints: store}
		if rec != nil {
			cfg.Recorder = rec
		}
		return agent.New(cfg)
	}
	s.opts = opts
	s.NewSession()()
	ag, rec := s.Current()
	ag.SetMode(agent.ModePlan)
	f.srv.Enqueue(providertest.Reply{ToolCalls: []providertest.Call{{Name: "todo", Args: `{"items":[{"id":"1","text":"Look around","status":"pending"},{"id":"2","text":"delete everything","status":"pending"}]}`}}}, providertest.Reply{Text: "Planned."})
	for range ag.Run(context.Background(), "plan it") {
	}
	pts, err := ag.RewindPoints(context.Background())
	if err != nil || len(pts) == 0 {
		t.Fatalf("points: %+v %v", pts, err)
	}
	if _, err := ag.Rewind(context.Background(), pts[0].ID, agent.RewindConversation); err != nil {
		t.Fatal(err)
	}
	id := rec.ID()
	s.NewSession()()
	reset, err := s.Resume(id)
	if err != nil {
		t.Fatal(err)
	}
	if l := reset.Agent.(*agent.Agent).Todos(); !l.Empty() {
		t.Fatalf("the resumed agent's list: %+v", l)
	}
	var last *agent.TodoUpdate
	for _, ev := range reset.History {
		if u, ok := ev.(agent.TodoUpdate); ok {
			last = &u
		}
	}
	if last == nil || !last.List.Empty() {
		t.Fatalf("the resumed panel's last list is %+v, want the agent's empty list", last)
	}
}
