package agent_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/checkpoint"
	"github.com/tick-agent/tick/provider/providertest"
)

// writingServer answers the parent with the tasks' calls, then "parent
// done"; subagent "CHILD n" first waits for its sibling (both open at
// once), then writes writes[n] (path -> content) with write_file, then
// reports.
func writingServer(h *harness, writes map[string]map[string]string, first providertest.Reply) {
	child := parentFunc(h, writes)
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if !strings.HasPrefix(r.Messages[1].Content, "CHILD ") && r.Last().Role == "user" {
			return first
		}
		return child(r)
	})
}

func TestIsolatedTasksWritesMerged(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // where the copies go
	h := newHarness(t)
	writingServer(h, map[string]map[string]string{"1": {"a.txt": "from one"}, "2": {"sub/b.txt": "from two"}},
		calls(taskCall(1, ""), taskCall(2, "")))
	evs := h.run("PARENT: write two files")
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()
	for path, want := range map[string]string{"a.txt": "from one", "sub/b.txt": "from two"} {
		if b, err := os.ReadFile(filepath.Join(h.dir, path)); err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q merged back", path, b, err, want)
		}
	}
	for i, m := range toolResults(h) {
		if !strings.Contains(m.Content, "Its changes were applied to the workspace") {
			t.Errorf("result %d = %q, want it to say its changes were applied", i, m.Content)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "tick-task-*")); len(left) > 0 {
		t.Errorf("the copies of merged tasks were kept: %v", left)
	}
	noLoopGoroutines(t)
}

func TestIsolatedConflictAppliesNothing(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	h := newHarness(t)
	if err := os.WriteFile(filepath.Join(h.dir, "a.txt"), []byte("original"), 0o644); err != nil {
		t.Fatal(err)
	}
	writingServer(h, map[string]map[string]string{
		"1": {"a.txt": "from one"},
		"2": {"a.txt": "from two", "c.txt": "only two"},
	}, calls(taskCall(1, ""), taskCall(2, "")))
	evs := h.run("PARENT: both change a.txt")
	if te := end(t, evs); te.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %s: %v", te.Reason, te.Err)
	}
	h.checkValid()
	a, _ := os.ReadFile(filepath.Join(h.dir, "a.txt"))
	_, cErr := os.Stat(filepath.Join(h.dir, "c.txt"))
	var loser string
	switch string(a) {
	case "from one": // task 1 merged first
		loser = "2"
		if cErr == nil {
			t.Error("c.txt of the conflicting task was applied: its patch was half-applied")
		}
	case "from two":
		loser = "1"
	default:
		t.Fatalf("a.txt = %q, want one task's version", a)
	}
	var out string
	for i, m := range toolResults(h) {
		if fmt.Sprint(i+1) == loser {
			out = m.Content
		}
	}
	kept := regexp.MustCompile(`kept at (\S+?);`).FindStringSubmatch(out)
	if !strings.Contains(out, "None of its changes were applied: these files changed in the workspace meanwhile: a.txt") || kept == nil {
		t.Fatalf("the conflicting task's result = %q, want the conflicting file and where its copy is", out)
	}
	if b, err := os.ReadFile(filepath.Join(kept[1], "a.txt")); err != nil || string(b) != "from "+map[string]string{"1": "one", "2": "two"}[loser] {
		t.Errorf("the kept copy's a.txt = %q, %v", b, err)
	}
	var told bool
	for _, ev := range evs {
		if n, ok := ev.(agent.Notice); ok && strings.Contains(n.Text, "none of its changes were applied") && strings.Contains(n.Text, "a.txt") {
			told = true
		}
	}
	if !told {
		t.Error("the user was not told of the conflict")
	}
}

func TestReadOnlyTaskWorksInPlace(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	h := newHarness(t)
	writingServer(h, map[string]map[string]string{"1": {"x.txt": "no"}, "2": {}},
		calls(taskCall(1, `,"read_only":true`), taskCall(2, `,"read_only":true`)))
	h.run("PARENT: look only")
	h.checkValid()
	if _, err := os.Stat(filepath.Join(h.dir, "x.txt")); err == nil {
		t.Error("a read-only task wrote a file")
	}
	if left, _ := filepath.Glob(filepath.Join(os.Getenv("TMPDIR"), "tick-task-*")); len(left) > 0 {
		t.Errorf("read-only tasks got copies: %v", left)
	}
}

func TestUndoOneTasksItem(t *testing.T) {
	h := twoItemTasks(t)
	h.run("PARENT: plan, then two tasks")
	h.checkValid()
	pre, err := h.ag.PreviewUndo(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	last := pre.Item // the item whose patch was applied last
	other := map[string]string{"1": "2", "2": "1"}[last]
	if _, _, err := h.ag.Undo(context.Background(), last); err != nil {
		t.Fatal(err)
	}
	file := map[string]string{"1": "a.txt", "2": "b.txt"}
	if _, err := os.Stat(filepath.Join(h.dir, file[last])); err == nil {
		t.Errorf("%s survived the undo of #%s", file[last], last)
	}
	if _, err := os.Stat(filepath.Join(h.dir, file[other])); err != nil {
		t.Errorf("undoing #%s took #%s's patch (applied before it) too: %v", last, other, err)
	}
}

// TestRewindToTaskItemKeepsThePlan: the undo point a task makes when its
// item starts keeps the plan as it was then, so rewinding the
// conversation to it brings that plan back, not an empty one.
func TestRewindToTaskItemKeepsThePlan(t *testing.T) {
	h := twoItemTasks(t)
	h.run("PARENT: plan, then two tasks")
	pts, err := h.ag.RewindPoints(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var id string
	for _, p := range pts {
		if p.Kind == agent.PointItem && p.Item == "1" {
			id = p.ID
		}
	}
	if id == "" {
		t.Fatalf("no undo point for #1 among %+v", pts)
	}
	res, err := h.ag.Rewind(context.Background(), id, agent.RewindConversation)
	if err != nil {
		t.Fatal(err)
	}
	var items int
	for _, ev := range res.Events {
		if u, ok := ev.(agent.TodoUpdate); ok {
			items = len(u.List.Items)
		}
	}
	if items != 2 {
		t.Errorf("rewinding to #1's start left a plan of %d items, want the 2 it had", items)
	}
}

// twoItemTasks is a harness with an undo store whose parent model makes
// a plan of two items, then sends a task for each (writing a.txt and
// b.txt in their copies), then is done: its answers are counted, not the
// order the requests arrive in.
func twoItemTasks(t *testing.T) *harness {
	t.Helper()
	t.Setenv("TMPDIR", t.TempDir())
	h := newHarness(t, func(c *agent.Config) {
		s, err := checkpoint.Open(context.Background(), filepath.Join(t.TempDir(), "cp"), c.Workspace)
		if err != nil {
			t.Fatal(err)
		}
		c.Checkpoints = s
	})
	child := parentFunc(h, map[string]map[string]string{"1": {"a.txt": "from one"}, "2": {"b.txt": "from two"}})
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if strings.HasPrefix(r.Messages[1].Content, "CHILD ") {
			return child(r)
		}
		answers := 0
		for _, m := range r.Messages {
			if m.Role == "assistant" {
				answers++
			}
		}
		switch answers {
		case 0:
			return calls(call("todo", `{"items":[{"id":"1","text":"A","status":"pending"},{"id":"2","text":"B","status":"pending"}]}`))
		case 1:
			return calls(taskCall(1, `,"item":"1"`), taskCall(2, `,"item":"2"`))
		}
		return providertest.Reply{Text: "parent done"}
	})
	return h
}

// parentFunc is writingServer's reply function for h, for wrapping.
func parentFunc(h *harness, writes map[string]map[string]string) func(providertest.Request) providertest.Reply {
	return func(r providertest.Request) providertest.Reply {
		n, isChild := strings.CutPrefix(r.Messages[1].Content, "CHILD ")
		switch {
		case isChild && r.Last().Role == "user":
			h.srv.WaitOpen(2, 5*time.Second)
			var cs []providertest.Call
			for path, content := range writes[n] {
				cs = append(cs, call("write_file", fmt.Sprintf(`{"path":%q,"content":%q}`, path, content)))
			}
			return calls(cs...)
		case isChild:
			return providertest.Reply{Text: "report " + n}
		}
		return providertest.Reply{Text: "parent done"}
	}
}
