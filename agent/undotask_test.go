package agent_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/checkpoint"
	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/todo"
)

// taskTurns is a harness with an undo store whose parent model, at its
// first turn, makes a plan of as many items as turns' tasks in total and
// sends, at each turn i, a task for each item of turns[i] side by side;
// task n writes writes[n] (path to content) in its copy.
func taskTurns(t *testing.T, turns [][]int, writes map[int]map[string]string) *harness {
	t.Helper()
	t.Setenv("TMPDIR", t.TempDir())
	h := newHarness(t, withStore(t))
	var items []string
	for _, turn := range turns {
		for _, n := range turn {
			items = append(items, fmt.Sprintf(`{"id":"%d","text":"part %d","status":"pending"}`, n, n))
		}
	}
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if n, ok := strings.CutPrefix(r.Messages[1].Content, "CHILD "); ok {
			if r.Last().Role != "user" {
				return providertest.Reply{Text: "report " + n}
			}
			h.srv.WaitOpen(len(turns[0]), 5*time.Second)
			var k int
			fmt.Sscan(n, &k)
			var cs []providertest.Call
			for path, content := range writes[k] {
				cs = append(cs, call("write_file", fmt.Sprintf(`{"path":%q,"content":%q}`, path, content)))
			}
			return calls(cs...)
		}
		users, answers := 0, 0
		for _, m := range r.Messages {
			switch m.Role {
			case "user":
				users++
			case "assistant":
				answers++
			}
		}
		turn := turns[min(users, len(turns))-1]
		switch {
		case answers == 0:
			return calls(call("todo", `{"items":[`+strings.Join(items, ",")+`]}`))
		case r.Last().Role == "user" || (users == 1 && answers == 1):
			var cs []providertest.Call
			for _, n := range turn {
				cs = append(cs, taskCall(n, fmt.Sprintf(`,"item":"%d"`, n)))
			}
			return calls(cs...)
		}
		return providertest.Reply{Text: "parent done"}
	})
	return h
}

// TestUndoTaskItemAlone: three tasks side by side on items 1-3; undoing
// any one of them takes back its task's file alone (it offered "#2 and
// #1, #3" and deleted task 3's file), and only its item goes back to
// pending.
func TestUndoTaskItemAlone(t *testing.T) {
	files := map[int]map[string]string{1: {"a.txt": "one"}, 2: {"b.txt": "two"}, 3: {"c.txt": "three"}}
	for _, target := range []string{"1", "2", "3"} {
		t.Run("#"+target, func(t *testing.T) {
			h := taskTurns(t, [][]int{{1, 2, 3}}, files)
			h.run("PARENT: plan, then three tasks")
			h.checkValid()
			pre, err := h.ag.PreviewUndo(context.Background(), target)
			if err != nil {
				t.Fatal(err)
			}
			mine := map[string]string{"1": "a.txt", "2": "b.txt", "3": "c.txt"}[target]
			if strings.Join(pre.Undone, ",") != target || len(pre.Changes) != 1 || pre.Changes[0].Path != mine {
				t.Fatalf("preview of /undo %s = undone %v, files %v; want #%s alone and %s", target, pre.Undone, pre.Changes, target, mine)
			}
			_, evs, err := h.ag.Undo(context.Background(), target)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{"a.txt", "b.txt", "c.txt"} {
				if gone := readFile(t, h.dir, f) == "<missing>"; gone != (f == mine) {
					t.Errorf("after /undo %s: %s missing = %v", target, f, gone)
				}
			}
			up, note := undoEvents(t, evs)
			for _, it := range up.List.Items {
				if pending := it.Status == todo.Pending; pending != (it.ID == target) {
					t.Errorf("after /undo %s: #%s is %s", target, it.ID, it.Status)
				}
			}
			if note.Text != "#"+target+" is pending again: its changes were taken back" {
				t.Errorf("notice = %q", note.Text)
			}
		})
	}
}

// TestUndoTaskItemSharedWithLater: when a later item's task changed a
// file of an earlier task's patch, undoing the earlier item alone is
// refused, naming the file and the item; undoing the later one first,
// then the earlier one, works.
func TestUndoTaskItemSharedWithLater(t *testing.T) {
	files := map[int]map[string]string{1: {"a.txt": "one"}, 2: {"b.txt": "two"}, 3: {"a.txt": "three"}}
	h := taskTurns(t, [][]int{{1, 2}, {3}}, files)
	h.run("PARENT: plan, then two tasks")
	h.run("and the third")
	h.checkValid()
	if got := readFile(t, h.dir, "a.txt"); got != "three" {
		t.Fatalf("a.txt = %q after task 3", got)
	}
	_, err := h.ag.PreviewUndo(context.Background(), "1")
	if !errors.Is(err, agent.ErrNoUndo) || !strings.Contains(err.Error(), "a.txt") || !strings.Contains(err.Error(), "#3") {
		t.Fatalf("/undo 1 with a.txt changed by #3 after it: %v; want a refusal naming a.txt and #3", err)
	}
	if _, _, err := h.ag.Undo(context.Background(), "1"); err == nil || readFile(t, h.dir, "a.txt") != "three" {
		t.Fatalf("the refused undo changed a.txt (err %v)", err)
	}
	if _, _, err := h.ag.Undo(context.Background(), "3"); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, h.dir, "a.txt"); got != "one" {
		t.Errorf("a.txt after /undo 3 = %q, want task 1's", got)
	}
	if _, _, err := h.ag.Undo(context.Background(), "1"); err != nil {
		t.Fatal(err)
	}
	if readFile(t, h.dir, "a.txt") != "<missing>" || readFile(t, h.dir, "b.txt") != "two" {
		t.Errorf("after /undo 1: a.txt %q, b.txt %q", readFile(t, h.dir, "a.txt"), readFile(t, h.dir, "b.txt"))
	}
}

// TestUndoPutsCompletedWithItPending: the model completes #1 and #2 in
// one todo call after one write; undoing #1 takes that write back, so #2
// (which never started, and has no point of its own) is pending again
// too, and the notice says so.
func TestUndoPutsCompletedWithItPending(t *testing.T) {
	h := newHarness(t, withStore(t))
	h.srv.Enqueue(
		calls(call("todo", `{"items":[{"id":"1","text":"Edit a","status":"in_progress"},{"id":"2","text":"Test a","status":"pending"}]}`)),
		calls(call("write_file", `{"path":"a.txt","content":"edited and tested\n"}`)),
		calls(call("todo", `{"items":[{"id":"1","text":"Edit a","status":"completed"},{"id":"2","text":"Test a","status":"completed"}]}`)),
		providertest.Reply{Text: "done"},
	)
	h.run("edit and test a")
	h.checkValid()
	pre, err := h.ag.PreviewUndo(context.Background(), "1")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(pre.Undone, ",") != "1,2" {
		t.Errorf("preview undone = %v, want #1 and #2", pre.Undone)
	}
	_, evs, err := h.ag.Undo(context.Background(), "1")
	if err != nil {
		t.Fatal(err)
	}
	up, note := undoEvents(t, evs)
	for _, it := range up.List.Items {
		if it.Status != todo.Pending {
			t.Errorf("#%s is %s after its work was taken back", it.ID, it.Status)
		}
	}
	if note.Text != "#1, #2 are pending again: their changes were taken back" {
		t.Errorf("notice = %q", note.Text)
	}
	h.srv.Enqueue(providertest.Reply{Text: "ok"})
	h.run("what now?")
	reqs := h.srv.Requests()
	if sent := dump(reqs[len(reqs)-1].Messages); !strings.Contains(sent, "(#2)") {
		t.Errorf("the model was not told #2 is undone too:\n%s", sent)
	}
}

// TestRewindListsBigFileNotKept: a command's 10 MB file is over the
// snapshot's cap; /rewind listed the message as "no file changed since".
// The point and the rewind say it is not kept, and why.
func TestRewindListsBigFileNotKept(t *testing.T) {
	h := newHarness(t, withStore(t))
	h.srv.Enqueue(calls(call("bash", `{"command":"yes x | head -c 10485760 > big.txt"}`)), providertest.Reply{Text: "done"})
	h.run("make a big file")
	pts, err := h.ag.RewindPoints(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := checkpoint.Skip{Path: "big.txt", Why: "not kept: 10 MB over the 5 MB cap"}
	if len(pts) != 1 || len(pts[0].NotKept) != 1 || pts[0].NotKept[0] != want {
		t.Fatalf("points = %+v, want big.txt listed as not kept", pts)
	}
	res, err := h.ag.Rewind(context.Background(), pts[0].ID, agent.RewindFiles)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Point.NotKept) != 1 || res.Point.NotKept[0] != want {
		t.Errorf("the rewind's point = %+v, want big.txt listed as not kept", res.Point)
	}
	if readFile(t, h.dir, "big.txt") != strings.Repeat("x\n", 5<<20) {
		t.Error("the rewind changed the file it does not keep")
	}
}

// TestRewoundPointItselfDropped: after a rewind to a point, that point
// is gone from the list (its snapshot is the workspace now, and for the
// conversation its message is dropped), the points before it stay, and
// for a files-only rewind the later messages' points stay too.
func TestRewoundPointItselfDropped(t *testing.T) {
	for _, tc := range []struct {
		scope agent.RewindScope
		left  string // the points listed after rewinding to point 2, newest first
	}{
		{agent.RewindBoth, "1"},
		{agent.RewindConversation, "1"},
		{agent.RewindFiles, "3,1"},
	} {
		t.Run(string(tc.scope), func(t *testing.T) {
			h := newHarness(t, withStore(t))
			for i := 1; i <= 3; i++ {
				h.srv.Enqueue(calls(call("write_file", fmt.Sprintf(`{"path":"f%d.txt","content":"%d"}`, i, i))), providertest.Reply{Text: "done"})
				h.run(fmt.Sprintf("write f%d", i))
			}
			if _, err := h.ag.Rewind(context.Background(), "2", tc.scope); err != nil {
				t.Fatal(err)
			}
			pts, err := h.ag.RewindPoints(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, p := range pts {
				ids = append(ids, p.ID)
			}
			if strings.Join(ids, ",") != tc.left {
				t.Errorf("points after rewinding %s to point 2: %v, want %s", tc.scope, ids, tc.left)
			}
			if _, err := h.ag.Rewind(context.Background(), "2", tc.scope); !errors.Is(err, agent.ErrNoUndo) {
				t.Errorf("a second rewind to the rewound point: %v, want ErrNoUndo", err)
			}
		})
	}
}

// TestUndoWithKeptNestedRepository: a sandboxed command's `git init` in
// docs/, kept by the user at the git guard's question, switched undo off
// for good ("no undo point for this message: … 'docs/' does not have a
// commit checked out"). The next message's point is made, and rewinding
// to it restores docs/ file by file and keeps its repository.
func TestUndoWithKeptNestedRepository(t *testing.T) {
	h := newHarness(t, func(c *agent.Config) { c.Approval = agent.ApproveAsk }, withStore(t), withSandbox(t))
	h.ag.SetMode(agent.ModeAuto)
	h.srv.Enqueue(calls(bashCall(t, "git init -q docs && echo one > docs/a.md")), providertest.Reply{Text: "ok"})
	if reqs, _ := turn(t, h, allowOnce); len(reqs) != 1 { // keep the git metadata
		t.Fatalf("requests %+v, want the git guard's question", reqs)
	}
	if _, err := os.Stat(filepath.Join(h.dir, "docs", ".git", "HEAD")); err != nil {
		t.Fatalf("the kept repository is not there: %v", err)
	}
	h.srv.Enqueue(calls(bashCall(t, "echo two > docs/a.md && echo b > docs/b.md")), providertest.Reply{Text: "ok"})
	turn(t, h, allowOnce)
	pts, err := h.ag.RewindPoints(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 2 || pts[0].NoFiles || len(pts[0].Files) != 2 {
		t.Fatalf("points = %+v, want the second message's with docs/a.md and docs/b.md", pts)
	}
	if _, err := h.ag.Rewind(context.Background(), pts[0].ID, agent.RewindFiles); err != nil {
		t.Fatal(err)
	}
	if readFile(t, h.dir, "docs/a.md") != "one\n" || readFile(t, h.dir, "docs/b.md") != "<missing>" {
		t.Errorf("after the rewind: docs/a.md %q, docs/b.md %q", readFile(t, h.dir, "docs/a.md"), readFile(t, h.dir, "docs/b.md"))
	}
	if _, err := os.Stat(filepath.Join(h.dir, "docs", ".git", "HEAD")); err != nil {
		t.Errorf("the rewind took the nested repository: %v", err)
	}
}

// TestItemDiffOfTaskItem: what a task's item changed is its task's patch
// alone, not the other tasks' patches applied after it.
func TestItemDiffOfTaskItem(t *testing.T) {
	files := map[int]map[string]string{1: {"a.txt": "one"}, 2: {"b.txt": "two"}, 3: {"c.txt": "three"}}
	h := taskTurns(t, [][]int{{1, 2, 3}}, files)
	h.run("PARENT: plan, then three tasks")
	for item, want := range map[string]string{"1": "a.txt", "2": "b.txt", "3": "c.txt"} {
		ch, err := h.ag.ItemDiff(context.Background(), item)
		if err != nil {
			t.Fatal(err)
		}
		if len(ch.Files) != 1 || ch.Files[0].Path != want || !strings.Contains(ch.Patch, "+"+files[int(item[0]-'0')][want]) {
			t.Errorf("#%s changed %+v, want %s alone", item, ch.Files, want)
		}
	}
}
