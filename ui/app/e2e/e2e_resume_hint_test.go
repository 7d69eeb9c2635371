package e2e

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

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
	p.send("C-c")
	p.send("C-c")
	if !waitFor(screenTimeout, func() bool { gone, _ := p.dead(); return gone }) {
		t.Fatalf("tick did not quit:\n%s", p.screen())
	}
	out, _ := p.tmux("capture-pane", "-p", "-J", "-S", "-100", "-t", p.name) // wrapped rows joined, with what scrolled off
	screen := string(out)
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
