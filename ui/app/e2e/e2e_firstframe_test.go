package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
)

// TestE2EKeysRightAfterTheFirstFrame: keys typed the moment the prompt
// shows are read as later ones. The first frame is drawn before Bubble
// Tea starts; the terminal goes raw before it, so enter is enter (in the
// terminal's cooked mode it would arrive as ctrl+j, a new line in the
// input) and nothing typed is echoed over the frame. Three launches, each
// typing at once.
func TestE2EKeysRightAfterTheFirstFrame(t *testing.T) {
	t.Parallel()
	needTmux(t)
	bin := sharedTick(t)
	for range 3 {
		srv := providertest.New(t)
		script(t, srv, textStep("Got it."))
		home := t.TempDir()
		env := []string{
			"PATH=" + os.Getenv("PATH"), "TERM=xterm-256color", "HOME=" + home,
			"XDG_STATE_HOME=" + filepath.Join(home, "state"),
			"OPENAI_BASE_URL=" + srv.URL, "OPENAI_API_KEY=test-key",
		}
		p := startTmux(t, env, bin, "-C", t.TempDir())
		p.waitFor(placeholder)
		p.typeText("hello")
		p.send("Enter")
		p.waitFor("Got it.")
		if reqs := srv.Requests(); len(reqs) != 1 || reqs[0].LastUser() != "hello" {
			t.Fatalf("the model got %d requests, want one with the prompt typed at once", len(reqs))
		}
	}
}
