package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
)

// TestE2EServedContextNotice runs the app against a local Ollama-like
// server that serves the model with its small default context. The app
// asks it after its first frame (start-up does not wait for the server),
// and the warning still reaches the chat, under the welcome line.
func TestE2EServedContextNotice(t *testing.T) {
	t.Parallel()
	needTmux(t)
	srv := providertest.New(t)
	base := fakeOllama(t, srv, `{"parameters":"stop x"}`, `{"models":[]}`)
	home := t.TempDir()
	env := []string{
		"PATH=" + os.Getenv("PATH"), "TERM=xterm-256color", "HOME=" + home,
		"XDG_STATE_HOME=" + filepath.Join(home, "state"),
		"OPENAI_BASE_URL=" + base, "OPENAI_API_KEY=test-key",
	}
	p := startTmux(t, env, sharedTick(t), "--model", "m", "-C", t.TempDir())
	scr := p.waitFor(placeholder, "default context", "OLLAMA_CONTEXT_LENGTH=32768")
	if w, n := strings.Index(scr, "Welcome to tick"), strings.Index(scr, "default context"); w < 0 || n < w {
		t.Errorf("the warning is not under the welcome line:\n%s", scr)
	}
}
