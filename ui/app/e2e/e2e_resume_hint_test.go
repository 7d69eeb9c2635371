package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/ui/app"
)

// TestE2EQuitShowsTheWayBack: after quitting the full-screen app, the
// terminal says how to carry on with the conversation, and the command it
// names works.
func TestE2EQuitShowsTheWayBack(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Text: "First answer."}, providertest.Reply{Text: "Second answer."})
	home, ws := t.TempDir(), t.TempDir()
	p := startAppAt(t, srv, home, ws)
	p.prompt("hello there")
	p.waitFor("First answer.")
	p.quit()
	screen := p.scrollback()
	m := regexp.MustCompile(`tick --resume ([0-9a-z-]+) -C `).FindStringSubmatch(screen)
	if !strings.Contains(screen, "To carry on with this conversation: tick -c -C ") || m == nil {
		t.Fatalf("no way back on the screen after quitting:\n%s", screen)
	}
	r := tick(t, map[string]string{"HOME": home, "XDG_STATE_HOME": filepath.Join(home, "state"), "OPENAI_BASE_URL": srv.URL}, "", "--resume", m[1], "-p", "again", "-C", ws)
	if r.code != app.ExitOK || !strings.Contains(r.stdout, "Second answer.") {
		t.Fatalf("tick --resume %s: exit %d stdout %q stderr %q", m[1], r.code, r.stdout, r.stderr)
	}
	if reqs := srv.Requests(); !strings.Contains(string(reqs[len(reqs)-1].Body), "hello there") {
		t.Error("the resumed run did not carry the conversation on")
	}
}

// TestE2EExitGivesTheTerminalBack: the window title the terminal had
// before tick is there again after quitting (it was cleared), and
// TERM=dumb gets a clear word instead of a full-screen app it cannot show.
func TestE2EExitGivesTheTerminalBack(t *testing.T) {
	srv := providertest.New(t)
	home, ws := t.TempDir(), t.TempDir()
	bin := sharedTick(t)
	env := []string{"PATH=" + os.Getenv("PATH"), "TERM=xterm-256color", "HOME=" + home,
		"XDG_STATE_HOME=" + filepath.Join(home, "state"), "OPENAI_BASE_URL=" + srv.URL, "OPENAI_API_KEY=test-key"}
	script := `printf '\033]2;my-shell-title\007'; exec "$0" "$@"`
	p := startTmux(t, env, "sh", "-c", script, bin, "-C", ws)
	p.waitFor(placeholder)
	title := func() string {
		out, _ := p.tmux("display-message", "-p", "-t", p.name, "#{pane_title}")
		return strings.TrimSpace(string(out))
	}
	if !waitFor(screenTimeout, func() bool { return title() == "tick" }) {
		t.Fatalf("the app's title is %q", title())
	}
	p.waitReady()
	p.quit()
	if got := title(); got != "my-shell-title" {
		t.Errorf("the title after quitting is %q, want the shell's own back", got)
	}

	dumb := startTmux(t, []string{"PATH=" + os.Getenv("PATH"), "TERM=dumb", "HOME=" + home, "OPENAI_BASE_URL=" + srv.URL, "OPENAI_API_KEY=k"}, bin, "-C", ws)
	if !waitFor(screenTimeout, func() bool { gone, _ := dumb.dead(); return gone }) {
		t.Fatalf("tick with TERM=dumb did not end:\n%s", dumb.screen())
	}
	if _, status := dumb.dead(); status != "exit status 2" || !strings.Contains(dumb.scrollback(), "use -p PROMPT") {
		t.Errorf("TERM=dumb: %s\n%s", status, dumb.scrollback())
	}
}

// scrollback is the pane's text with what scrolled off the top, wrapped
// rows joined: what a program printed as it exited.
func (p *tmuxPane) scrollback() string {
	out, _ := p.tmux("capture-pane", "-p", "-J", "-S", "-100", "-t", p.name)
	return string(out)
}

// quit presses ctrl+c until tick has quit: the first may interrupt what
// still runs (a slow first undo snapshot on a loaded machine), the next
// arms the quit and the one after quits.
func (p *tmuxPane) quit() {
	p.t.Helper()
	for range 6 {
		p.send("C-c")
		if waitFor(time.Second, func() bool { gone, _ := p.dead(); return gone }) {
			return
		}
	}
	p.t.Fatalf("tick did not quit on ctrl+c:\n%s", p.screen())
}
