package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider/providertest"
)

// TestE2EKillWithTaskWorkThenContinue (issue 31 §8) kills the real binary
// with SIGKILL while a task holds finished work in its copy (it wrote a
// file and waits on the model), then resumes with tick -c: tick names the
// copy and its file is there, the model is told the call was cut by a
// kill (never "interrupted by the user"), and a week-old copy of another
// session is removed with a notice.
func TestE2EKillWithTaskWorkThenContinue(t *testing.T) {
	bin := sharedTick(t)
	srv := providertest.New(t)
	srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if strings.HasPrefix(r.Messages[1].Content, "CHILD") {
			if r.Last().Role == "user" {
				return call("write_file", map[string]any{"path": "work.txt", "content": "finished work\n"})
			}
			return providertest.Reply{Text: "still thinking", Hang: true}
		}
		if r.Last().Content == "continue" {
			return providertest.Reply{Text: "resumed"}
		}
		if r.Last().Role == "user" {
			return providertest.Reply{ToolCalls: []providertest.Call{{Name: "task", Args: `{"description":"make hooks","prompt":"CHILD"}`}}}
		}
		return providertest.Reply{Text: "done"}
	})
	ws, tmp, home, state := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	old := filepath.Join(tmp, "tick-tasks-elsewhere", "tick-task-1")
	if err := os.MkdirAll(old, 0o700); err != nil {
		t.Fatal(err)
	}
	weekAgo := time.Now().Add(-8 * 24 * time.Hour)
	if err := os.Chtimes(old, weekAgo, weekAgo); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_STATE_HOME=" + state, "TMPDIR=" + tmp, "OPENAI_BASE_URL=" + srv.URL}
	cmd := exec.Command(bin, "-p", "make the hooks", "--yolo", "-C", ws)
	cmd.Env = env
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatalf("start tick: %v", err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	held := func() bool { return len(srv.Requests()) >= 3 && srv.WaitOpen(1, time.Second) }
	if !waitForFast(60*time.Second, held) {
		t.Fatalf("the task never held its work; stderr:\n%s", errb.String())
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	copies, _ := filepath.Glob(filepath.Join(tmp, "tick-tasks-*", "tick-task-*", "work.txt"))
	if len(copies) != 1 {
		t.Fatalf("copies holding the task's work after the kill: %v", copies)
	}
	re := exec.Command(bin, "-c", "-p", "continue", "--yolo", "-C", ws)
	re.Env = env
	var rerr bytes.Buffer
	re.Stderr = &rerr
	_ = re.Run()
	copyDir := filepath.Dir(copies[0])
	if !strings.Contains(rerr.String(), copyDir) {
		t.Errorf("tick -c does not name the task's copy %s; stderr:\n%s", copyDir, rerr.String())
	}
	if !strings.Contains(rerr.String(), "older than a week") {
		t.Errorf("tick -c does not say it removed the week-old copy; stderr:\n%s", rerr.String())
	}
	if _, err := os.Stat(old); err == nil {
		t.Error("the week-old copy was not removed")
	}
	var last providertest.Request
	for _, r := range srv.Requests() {
		if r.Last().Content == "continue" {
			last = r
		}
	}
	tools := 0
	for _, m := range last.Messages {
		if m.Role == "tool" {
			tools++
		}
		if m.Role == "tool" && strings.Contains(m.Content, "interrupted by the user") {
			t.Errorf("the model was told the killed task was interrupted by the user: %q", m.Content)
		}
		if m.Role == "tool" && !strings.Contains(m.Content, "killed") {
			t.Errorf("the killed task's result does not say tick was killed: %q", m.Content)
		}
	}
	if tools != 1 {
		t.Errorf("the resumed request holds %d tool results, want the task call's one", tools)
	}
}
