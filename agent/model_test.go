package agent_test

import (
	"context"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/todo"
)

// modelRec records model changes besides the usual lines.
type modelRec struct{ models []string }

func (r *modelRec) Message(provider.Message) error              { return nil }
func (r *modelRec) Todo(todo.List) error                        { return nil }
func (r *modelRec) Compaction(string, []provider.Message) error { return nil }
func (r *modelRec) Model(name string) error                     { r.models = append(r.models, name); return nil }

func TestSetModel(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Text: "one"}, providertest.Reply{Text: "two"})
	client, err := provider.New(provider.Config{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	rec := &modelRec{}
	ag, err := agent.New(agent.Config{Model: client, ModelName: "first", Workspace: t.TempDir(), Recorder: rec})
	if err != nil {
		t.Fatal(err)
	}
	for range ag.Run(context.Background(), "hi") {
	}
	if err := ag.SetModel("second", 0); err != nil {
		t.Fatal(err)
	}
	if err := ag.SetModel("  ", 0); err == nil {
		t.Error("an empty name was accepted")
	}
	for range ag.Run(context.Background(), "again") {
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[0].Model != "first" || reqs[1].Model != "second" {
		t.Fatalf("requests asked for %q then %q, want first then second", reqs[0].Model, reqs[1].Model)
	}
	if ag.ModelName() != "second" || len(rec.models) != 1 || rec.models[0] != "second" {
		t.Errorf("ModelName %q, recorded %v", ag.ModelName(), rec.models)
	}
}

func TestSetModelOn(t *testing.T) {
	one, two := providertest.New(t), providertest.New(t)
	one.Enqueue(providertest.Reply{Text: "one"})
	two.Enqueue(providertest.Reply{Text: "two"})
	c1, _ := provider.New(provider.Config{BaseURL: one.URL})
	c2, _ := provider.New(provider.Config{BaseURL: two.URL})
	ag, err := agent.New(agent.Config{Model: c1, ModelName: "m1", Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for range ag.Run(context.Background(), "hi") {
	}
	if err := ag.SetModelOn(c2, "m2", 0); err != nil {
		t.Fatal(err)
	}
	for range ag.Run(context.Background(), "again") {
	}
	if len(one.Requests()) != 1 || len(two.Requests()) != 1 || two.Requests()[0].Model != "m2" {
		t.Errorf("requests: first server %d, second %d", len(one.Requests()), len(two.Requests()))
	}
	if n := len(two.Requests()[0].Messages); n < 4 {
		t.Errorf("the other server got %d messages, want the whole conversation", n)
	}
}
