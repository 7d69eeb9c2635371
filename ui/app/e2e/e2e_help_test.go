package e2e

import (
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
)

// TestE2EHelpScrolls80x24: at 80×24 the help overlay is taller than the
// screen. It says that it scrolls and where the view is, keeps its close
// key on screen, scrolls with pgdn and ↑ down to the last command, and esc
// closes it.
func TestE2EHelpScrolls80x24(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	p := startApp(t, srv)
	p.resize(80, 24)
	p.waitUntil("the input at 80 columns", func(s string) bool {
		return strings.Contains(s, placeholder) && !strings.Contains(s, strings.Repeat("─", 81))
	})

	p.typeText("?")
	scr := p.waitFor("Input and turn", "↓ more · lines 1–", "esc close")
	if strings.Contains(scr, "/quit") {
		t.Fatalf("the whole help fits at 80x24; the test needs a taller one:\n%s", scr)
	}

	for range 4 { // past the last page: it stops there
		p.send("PageDown")
	}
	scr = p.waitFor("↑ more", "/quit", "/retry", "esc close")
	if strings.Contains(scr, "Input and turn") {
		t.Errorf("the help's end still shows its top:\n%s", scr)
	}
	p.send("Up")
	p.waitFor("↑↓ more", "esc close")

	p.send("Escape")
	p.waitGone("esc close", "more · lines")
	p.waitFor(placeholder)
}
