package e2e

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/ui/app"
)

// mergeFiles is how many files the task of TestE2EDoubleSIGTERMMidMerge
// writes: enough for its patch to take a while to apply.
const mergeFiles = 4000

// TestE2EDoubleSIGTERMMidMerge runs the real binary with -p: a task
// writes mergeFiles files in its copy; while its patch is being applied
// to the workspace, tick gets SIGTERM twice. The patch must be all or
// nothing (every file or none, no staged file left behind) and stderr
// must say which.
func TestE2EDoubleSIGTERMMidMerge(t *testing.T) {
	bin := sharedTick(t)
	srv := providertest.New(t)
	srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if strings.HasPrefix(r.Messages[1].Content, "CHILD") {
			if r.Last().Role == "user" {
				return call("bash", map[string]any{"command": `mkdir out && for i in $(seq ` + itoa(mergeFiles) + `); do echo "file $i" > out/f$i.txt; done`})
			}
			return providertest.Reply{Text: "wrote them"}
		}
		if r.Last().Role == "user" {
			return providertest.Reply{ToolCalls: []providertest.Call{{Name: "task", Args: `{"description":"many files","prompt":"CHILD"}`}}}
		}
		return providertest.Reply{Text: "done"}
	})
	ws, tmp := t.TempDir(), t.TempDir()
	cmd := exec.Command(bin, "-p", "write many files", "--yolo", "-C", ws)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "TMPDIR=" + tmp, "OPENAI_BASE_URL=" + srv.URL}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatalf("start tick: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	out := filepath.Join(ws, "out")
	merging := func() bool {
		ents, _ := os.ReadDir(out)
		return len(ents) > 0
	}
	if !waitForFast(60*time.Second, merging) {
		_ = cmd.Process.Kill()
		<-exited
		t.Fatalf("the task's patch never started; stderr:\n%s", errb.String())
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	time.Sleep(20 * time.Millisecond) // two signals at once would be one
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-exited:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != app.ExitTerminated {
			t.Errorf("tick ended with %v, want exit status 143; stderr:\n%s", err, errb.String())
		}
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("tick did not exit after two SIGTERMs; stderr:\n%s", errb.String())
	}
	ents, _ := os.ReadDir(out)
	var files, staged int
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "f") && strings.HasSuffix(e.Name(), ".txt") {
			files++
		} else {
			staged++
		}
	}
	stderr := errb.String()
	t.Logf("%d files applied; stderr:\n%s", files, stderr)
	switch {
	case staged > 0:
		t.Errorf("%d staged or stray entries left in the workspace (%d files applied)", staged, files)
	case files == mergeFiles:
		if !strings.Contains(stderr, "Its changes were applied to the workspace") && !strings.Contains(stderr, `applied the task "many files"'s changes`) {
			t.Errorf("all files applied, but stderr does not say so:\n%s", stderr)
		}
	case files == 0:
		if !strings.Contains(stderr, "tick was exiting and rolled its patch back") || !strings.Contains(stderr, "copy is kept at") {
			t.Errorf("nothing applied, but stderr does not say it was rolled back and where the copy is:\n%s", stderr)
		}
	default:
		t.Errorf("the patch was half applied: %d of %d files; stderr:\n%s", files, mergeFiles, stderr)
	}
}

// waitForFast polls cond every 2ms until it holds or timeout passes.
func waitForFast(timeout time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(2 * time.Millisecond)
	}
	return true
}

// itoa formats n.
func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// TestE2ETaskMergeThroughLinkIntoGit runs the real binary with -p: two
// tasks side by side, task 1 leaves d -> .git, task 2 (its copy made
// before) writes d/hooks/pre-commit and d/hooks/post-index-change. Task
// 2's patch must be refused, said on stderr, and the user's own git
// status and git commit afterwards, outside any sandbox, run no hook.
func TestE2ETaskMergeThroughLinkIntoGit(t *testing.T) {
	bin := sharedTick(t)
	ws, tmp := t.TempDir(), t.TempDir()
	git := func(args ...string) {
		c := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		c.Dir = ws
		_ = c.Run() // a failing commit is fine: only the marker matters
	}
	git("init", "-q")
	// A local fake server reports no slots: the config allows two tasks at once.
	if err := os.MkdirAll(filepath.Join(ws, ".tick"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, ".tick", "config.toml"), []byte("max_parallel_tasks = 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(t.TempDir(), "ran")
	hooks := `mkdir -p d/hooks && for h in pre-commit post-index-change; do printf '#!/bin/sh\ntouch ` + marker + `\n' > d/hooks/$h; chmod 755 d/hooks/$h; done`
	srv := providertest.New(t)
	srv.SetFunc(func(r providertest.Request) providertest.Reply {
		switch n, child := strings.CutPrefix(r.Messages[1].Content, "CHILD "); {
		case child && r.Last().Role == "user":
			srv.WaitOpen(2, 5*time.Second)
			if n == "1" {
				return call("bash", map[string]any{"command": "ln -s .git d"})
			}
			return call("bash", map[string]any{"command": hooks})
		case child:
			if n == "2" {
				waitFor(20*time.Second, func() bool { _, err := os.Lstat(filepath.Join(ws, "d")); return err == nil })
			}
			return providertest.Reply{Text: "report " + n}
		case r.Last().Role == "user":
			return providertest.Reply{ToolCalls: []providertest.Call{
				{Name: "task", Args: `{"description":"link","prompt":"CHILD 1"}`},
				{Name: "task", Args: `{"description":"hooks","prompt":"CHILD 2"}`},
			}}
		}
		return providertest.Reply{Text: "done"}
	})
	cmd := exec.Command(bin, "-p", "two tasks", "--yolo", "-C", ws)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "TMPDIR=" + tmp, "OPENAI_BASE_URL=" + srv.URL}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != app.ExitUnfinished || !strings.Contains(errb.String(), "were not applied") {
		t.Errorf("tick -p: %v, want exit status %d (a task's changes were kept unapplied); stderr:\n%s", err, app.ExitUnfinished, errb.String())
	}
	if !strings.Contains(errb.String(), `the task "hooks": tick refused the whole patch: d/hooks/post-index-change`) {
		t.Errorf("stderr does not name the refused patch:\n%s", errb.String())
	}
	git("status")
	git("add", "-A")
	git("commit", "-q", "-m", "x")
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("the user's git ran a hook a task wrote; stderr:\n%s", errb.String())
	}
}
