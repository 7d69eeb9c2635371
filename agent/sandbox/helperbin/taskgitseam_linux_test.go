package helperbin

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/tick-agent/tick/agent/sandbox"
)

// TestLoadedHelperTaskCopiesCannotPlantHooks is the seam of the small
// helper, the git guard and parallel tasks: two task copies' runners (as
// the agent makes them with ForWorkspace) run, at the same time and under
// the loaded helperbin image, commands that reach for the workspace's real
// .git through what a copy holds (its gitfile naming the repository, a
// link the repository carried, git's own -C and --git-dir) and try to plant
// a hook or point core.hooksPath away. Each command may fail or not; what
// matters is that the real .git has no new hook and its config is as it
// was, and that each copy still took its own ordinary write.
func TestLoadedHelperTaskCopiesCannotPlantHooks(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("git is needed: %v", err)
	}
	r, ws := loaded(t, sandbox.WorkspaceWrite)
	if out, err := exec.Command("git", "init", "-q", ws).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	realGit := filepath.Join(ws, ".git")
	configBefore, err := os.ReadFile(filepath.Join(realGit, "config"))
	if err != nil {
		t.Fatal(err)
	}
	hooksBefore := listDir(t, filepath.Join(realGit, "hooks"))
	script := `
echo mine > own.txt
echo x > realgit/hooks/pre-commit; chmod +x realgit/hooks/pre-commit
mkdir -p realgit/hooks/x && echo x > realgit/hooks/post-checkout
d=$(sed 's/^gitdir: //' .git); echo x > "$d/hooks/pre-push"
git --git-dir=realgit config core.hooksPath /tmp/evil-hooks
git -C ` + ws + ` config core.hooksPath /tmp/evil-hooks
ln -sf /tmp/evil realgit/hooks/post-merge
cp own.txt realgit/hooks/pre-rebase
exit 0
`
	var wg sync.WaitGroup
	copies := make([]string, 2)
	outs := make([]string, 2)
	for i := range copies {
		copies[i] = t.TempDir()
		if err := os.WriteFile(filepath.Join(copies[i], ".git"), []byte("gitdir: "+realGit+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(realGit, filepath.Join(copies[i], "realgit")); err != nil {
			t.Fatal(err)
		}
	}
	for i := range copies {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			tr := r.ForWorkspace(copies[i])
			defer tr.Close()
			cmd := tr.Command("", script, []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")})
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			_ = cmd.Run() // the script exits 0 itself; a refusal shows in the files below
			outs[i] = out.String()
		}(i)
	}
	wg.Wait()
	for i, c := range copies {
		if b, err := os.ReadFile(filepath.Join(c, "own.txt")); err != nil || string(b) != "mine\n" {
			t.Errorf("task %d's own write in its copy: %q, %v\n%s", i+1, b, err, outs[i])
		}
	}
	if after := listDir(t, filepath.Join(realGit, "hooks")); after != hooksBefore {
		t.Errorf("the real .git's hooks changed:\nbefore %s\nafter  %s\ncommands said:\n%s\n%s", hooksBefore, after, outs[0], outs[1])
	}
	configAfter, err := os.ReadFile(filepath.Join(realGit, "config"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(configBefore, configAfter) {
		t.Errorf("the real .git's config changed:\n%s", configAfter)
	}
}

// listDir names dir's entries with their sizes and modes, one string.
func listDir(t *testing.T, dir string) string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, e := range ents {
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(e.Name() + ":" + info.Mode().String() + " ")
	}
	return b.String()
}
