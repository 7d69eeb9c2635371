package app

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestResumeHintQuotesTheWorkspace: the hint after quitting names a
// workspace other than the shell's directory with -C, quoted so that the
// shell gives back the very path (spaces, a quote, a $), and leaves -C out
// from the workspace itself; nothing saved, no hint.
func TestResumeHintQuotesTheWorkspace(t *testing.T) {
	ws := filepath.Join(t.TempDir(), "it's a $HOME dir")
	if err := os.Mkdir(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := resumeHint("", ws); got != "" {
		t.Errorf("no session: hint %q, want none", got)
	}
	hint := resumeHint("abc123", ws)
	m := regexp.MustCompile(`tick --resume abc123 -C (.+)\)$`).FindStringSubmatch(hint)
	if m == nil || !strings.Contains(hint, "tick -c -C ") {
		t.Fatalf("hint %q: want tick -c -C … and tick --resume abc123 -C …", hint)
	}
	out, err := exec.Command("sh", "-c", "printf %s "+m[1]).Output()
	if err != nil || string(out) != ws {
		t.Errorf("the shell reads -C %s as %q (%v), want %q", m[1], out, err, ws)
	}
	t.Chdir(ws)
	if hint := resumeHint("abc123", ws); strings.Contains(hint, "-C") {
		t.Errorf("from the workspace itself: hint %q, want no -C", hint)
	}
}
