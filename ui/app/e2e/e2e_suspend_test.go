package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
)

// TestE2ESuspendAndResume: in a shell with job control, ctrl+z and an
// external SIGTSTP each hand the terminal back (the main screen, no mouse
// reporting) and stop tick as a job; `fg` brings it back, the screen
// repainted with the conversation, and it answers keys again. Fails on
// code where ctrl+z did nothing and a SIGTSTP left the alternate screen
// and the mouse modes on.
func TestE2ESuspendAndResume(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Text: "First answer."})
	home, ws := t.TempDir(), t.TempDir()
	bin := sharedTick(t)
	env := []string{"PATH=" + os.Getenv("PATH"), "TERM=xterm-256color", "HOME=" + home, "PS1=shell$ ",
		"XDG_STATE_HOME=" + filepath.Join(home, "state"), "OPENAI_BASE_URL=" + srv.URL, "OPENAI_API_KEY=test-key"}
	p := startTmux(t, env, "bash", "--norc", "--noprofile", "-i")
	p.waitFor("shell$")
	p.typeText(strings.Join(quoteAll([]string{bin, "--completion-reminder=false", "-C", ws}), " "))
	p.send("Enter")
	p.waitFor(placeholder)
	p.waitReady()
	p.prompt("hello there")
	p.waitFor("First answer.")

	flags := func() string {
		out, _ := p.tmux("display-message", "-p", "-t", p.name, "#{alternate_on} #{mouse_any_flag}#{mouse_button_flag}#{mouse_sgr_flag}")
		return strings.TrimSpace(string(out))
	}
	for _, how := range []string{"ctrl+z", "SIGTSTP"} {
		func() {
			if how == "ctrl+z" {
				p.send("C-z")
			} else {
				pid := childOf(p.program())
				if pid <= 0 {
					t.Fatal("tick's process not found")
				}
				if err := syscall.Kill(pid, syscall.SIGTSTP); err != nil {
					t.Fatal(err)
				}
			}
			p.waitFor("Stopped")
			if !waitFor(screenTimeout, func() bool { return flags() == "0 000" }) {
				t.Fatalf("%s: the terminal was not handed back (alternate screen, mouse flags: %q):\n%s", how, flags(), p.screen())
			}
			p.typeText("fg")
			p.send("Enter")
			p.waitFor(placeholder, "First answer.")
			if f := flags(); !strings.HasPrefix(f, "1 ") || f == "1 000" {
				t.Errorf("%s: after fg the alternate screen and mouse are not back: %q", how, f)
			}
			p.waitReady() // it answers keys again
		}()
	}
}
