package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/ui"
)

// TestE2EBackgroundColour runs tick in a tmux pane with a white and with a
// default (black) background. The first frame does not wait for the
// terminal's answer to the background query, so keys typed as soon as the
// prompt shows reach the input; the answer then restyles the app: the
// welcome notice ends up in the light styles' colour on white and in the
// dark styles' colour on black.
func TestE2EBackgroundColour(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		style string // tmux window-style; "" keeps tmux's default
		dark  bool
	}{
		{"white", "bg=#ffffff,fg=#000000", false},
		{"default", "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			needTmux(t)
			srv := providertest.New(t)
			home := t.TempDir()
			conf := filepath.Join(t.TempDir(), "tmux.conf")
			text := ""
			if tc.style != "" {
				text = fmt.Sprintf("set -g window-style %q\n", tc.style)
			}
			if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
			env := []string{
				"PATH=" + os.Getenv("PATH"), "TERM=xterm-256color", "HOME=" + home,
				"XDG_STATE_HOME=" + filepath.Join(home, "state"),
				"OPENAI_BASE_URL=" + srv.URL, "OPENAI_API_KEY=test-key",
			}
			p := startTmuxConf(t, conf, env, sharedTick(t), "-C", t.TempDir())
			p.waitFor(placeholder)
			p.typeText("typed at once")
			p.waitFor("typed at once")

			want := noticeSGR(ui.DefaultStyles(tc.dark))
			p.waitUntil("the welcome notice in the "+tc.name+" background's colour", func(string) bool {
				out, err := p.tmux("capture-pane", "-e", "-p", "-t", p.name)
				return err == nil && strings.Contains(welcomeLine(string(out)), want)
			})
		})
	}
}

// noticeSGR is the colour sequence a notice is drawn with in st on a
// 256-colour terminal.
func noticeSGR(st ui.Styles) string {
	c := colorprofile.ANSI256.Convert(st.Notice.GetForeground())
	if i, ok := c.(ansi.IndexedColor); ok {
		return fmt.Sprintf("38;5;%dm", i)
	}
	return fmt.Sprintf("unexpected colour %v", c)
}

// welcomeLine is the line of a capture that holds the welcome notice.
func welcomeLine(capture string) string {
	for _, l := range strings.Split(capture, "\n") {
		if strings.Contains(l, "Welcome to tick") {
			return l
		}
	}
	return ""
}
