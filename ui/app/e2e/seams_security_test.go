package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
)

// TestE2EProtectedLinkApp: protected path + git guard + the approval
// dialog. The repository's config includes ../sub/inc.gitconfig, whose
// directory is missing; a sandboxed command makes sub a link to a
// directory of the user's outside the workspace. The git guard sees the
// protected path created, but the path names the user's own file through
// the link: tick must not move it aside and ask whether to keep it (a no
// would delete it); it says it could not move it aside, and the file stays.
// Today the dialog opens with the user's file already moved.
func TestE2EProtectedLinkApp(t *testing.T) {
	t.Parallel()
	ws, outside := t.TempDir(), t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"config", "include.path", "../sub/inc.gitconfig"}} {
		if out, err := exec.Command("git", append([]string{"-C", ws}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	victim := filepath.Join(outside, "inc.gitconfig")
	if err := os.WriteFile(victim, []byte("[user]\n\tname = me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := providertest.New(t)
	script(t, srv, bashStep("ln -s "+outside+" sub && echo linked"), textStep("All done."))
	p := startAppAt(t, srv, t.TempDir(), ws)
	p.waitFor("auto · sandbox: workspace-write")
	p.prompt("link it")
	screen := p.waitUntil("the turn's end or the keep question", func(s string) bool {
		return strings.Contains(s, "All done.") || strings.Contains(s, "Keep the git metadata")
	})
	if strings.Contains(screen, "Keep the git metadata") {
		t.Fatalf("tick asks whether to keep a file it moved through the link:\n%s", screen)
	}
	if b, err := os.ReadFile(victim); err != nil || string(b) != "[user]\n\tname = me\n" {
		t.Fatalf("the user's file outside the workspace: %q, %v", b, err)
	}
	if res := toolResults(srv.Requests()); len(res) != 1 || !strings.Contains(res[0], "could not move aside") {
		t.Errorf("tool results %q, want a note that the created path could not be moved aside", res)
	}
}
