package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
)

// startClipboardApp starts tick in tmux with set-clipboard on (tmux takes
// an application's OSC 52 into its paste buffer) against srv, with a
// context window of 64,000 tokens.
func startClipboardApp(t *testing.T, srv *providertest.Server, ws string) *tmuxPane {
	t.Helper()
	needTmux(t)
	home := t.TempDir()
	conf := filepath.Join(t.TempDir(), "tmux.conf")
	if err := os.WriteFile(conf, []byte("set -g set-clipboard on\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{
		"PATH=" + os.Getenv("PATH"), "TERM=xterm-256color", "HOME=" + home,
		"XDG_STATE_HOME=" + filepath.Join(home, "state"),
		"OPENAI_BASE_URL=" + srv.URL, "OPENAI_API_KEY=test-key",
	}
	p := startTmuxConf(t, conf, env, sharedTick(t), "-C", ws, "--context-window", "64000")
	p.waitFor(placeholder)
	p.waitReady()
	return p
}

// pasteBuffer is tmux's newest paste buffer ("" when there is none).
func (p *tmuxPane) pasteBuffer() string {
	out, err := p.tmux("show-buffer")
	if err != nil {
		return ""
	}
	return string(out)
}

// waitBuffer waits until tmux's paste buffer holds want.
func (p *tmuxPane) waitBuffer(want string) {
	p.t.Helper()
	if !waitFor(screenTimeout, func() bool { return strings.Contains(p.pasteBuffer(), want) }) {
		p.t.Fatalf("tmux's paste buffer never held %q; it holds %q\nscreen:\n%s", want, p.pasteBuffer(), p.screen())
	}
}

// TestTUIUsageAndCopy drives the real binary in tmux: after a few turns
// the status bar shows the context in use against the window; /usage
// shows the sums of what the server reported, with OpenRouter's cost;
// /copy and /copy N reach tmux's paste buffer through OSC 52, and so does
// a mouse drag over the chat; /export writes the conversation.
func TestTUIUsageAndCopy(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	costs := []float64{0.0011, 0.0022, 0.0033}
	n := 0
	srv.SetFunc(func(r providertest.Request) providertest.Reply {
		c := costs[min(n, len(costs)-1)]
		n++
		return providertest.Reply{
			Text:  "Answer " + r.LastUser() + ":\n\n```sh\necho copied-" + r.LastUser() + "\n```\n",
			Usage: &providertest.Usage{PromptTokens: 10_000 * n, CompletionTokens: 1000, TotalTokens: 10_000*n + 1000, Details: &providertest.PromptDetails{CachedTokens: 500}, Cost: c},
		}
	})
	ws := t.TempDir()
	p := startClipboardApp(t, srv, ws)
	p.resize(180, 40) // room in the status bar beside the notice that the server does not list the model
	for _, w := range []string{"one", "two", "three"} {
		p.typeText(w)
		p.send("Enter")
		p.waitFor("Answer " + w)
	}
	// 30,000 in + 1,000 out of 64,000: 48%.
	p.waitFor("31k/64k · 48% · compacts at 51k")

	p.typeText("/usage")
	p.send("Enter")
	p.waitFor("Usage this session: 3 calls · 60.0k in (1.5k cached) · 3.0k out · $0.0066 (reported by the server)")
	p.waitFor("Turn 3: 1 call · 30.0k in (500 cached) · 1.0k out · $0.0033")

	p.typeText("/copy 1")
	p.send("Enter")
	p.waitBuffer("echo copied-three")
	p.typeText("/copy")
	p.send("Enter")
	p.waitBuffer("Answer three:\n\n```sh")

	// A drag over the answer's first line, as the terminal reports it
	// (SGR mouse: press, motion with the button held, release).
	scr := p.waitFor("Answer three")
	y, x := -1, -1
	for i, l := range strings.Split(scr, "\n") {
		if j := strings.Index(l, "Answer three"); j >= 0 {
			y, x = i, j
		}
	}
	if out, err := p.tmux("set-buffer", "(emptied)"); err != nil {
		t.Fatalf("tmux set-buffer: %v\n%s", err, out)
	}
	p.typeText(sgrMouse(0, x, y, 'M') + sgrMouse(32, x+5, y, 'M') + sgrMouse(0, x+11, y, 'm'))
	if !waitFor(screenTimeout, func() bool { return p.pasteBuffer() == "Answer three" }) {
		t.Fatalf("the drag over \"Answer three\" put %q in the paste buffer\n%s", p.pasteBuffer(), p.screen())
	}
	p.waitFor("copied the selection")

	p.typeText("/export conv.md")
	p.send("Enter")
	p.waitFor("exported the conversation to")
	data, err := os.ReadFile(filepath.Join(ws, "conv.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## User\n\nthree\n", "## Assistant\n\nAnswer three:"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("export lacks %q:\n%s", want, data)
		}
	}
}

// sgrMouse is an SGR mouse report of button b at the 0-based cell (x, y);
// final is 'M' for a press or motion, 'm' for a release.
func sgrMouse(b, x, y int, final byte) string {
	return "\x1b[<" + strconv.Itoa(b) + ";" + strconv.Itoa(x+1) + ";" + strconv.Itoa(y+1) + string(final)
}

// mouseFlag is whether the program in the pane asked the terminal for
// mouse reports (tmux's mouse_button_flag).
func (p *tmuxPane) mouseFlag() string {
	out, _ := p.tmux("display-message", "-p", "-t", p.name, "#{mouse_button_flag}")
	return strings.TrimSpace(string(out))
}

// TestTUIMouseSetting: tick takes the mouse by default (the wheel scrolls,
// a drag selects); mouse = false in the user's config leaves it to the
// terminal, whose own selection then works.
func TestTUIMouseSetting(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		config, want string
	}{{"", "1"}, {"mouse = false\n", "0"}} {
		srv := providertest.New(t)
		home, ws := t.TempDir(), t.TempDir()
		if tc.config != "" {
			path := filepath.Join(home, ".config", "tick", "config.toml")
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(tc.config), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		p := startAppAt(t, srv, home, ws)
		if !waitFor(screenTimeout, func() bool { return p.mouseFlag() == tc.want }) {
			t.Errorf("config %q: mouse_button_flag = %q, want %s", tc.config, p.mouseFlag(), tc.want)
		}
	}
}

// TestTUIServedWindowLocalCost: against a local Ollama-like server that
// serves the model with a context of 65,536 tokens, the status bar's
// window is the served one and /usage says the local server costs
// nothing; -p --verbose prints the same.
func TestTUIServedWindowLocalCost(t *testing.T) {
	t.Parallel()
	needTmux(t)
	srv := providertest.New(t)
	srv.SetFunc(func(providertest.Request) providertest.Reply {
		return providertest.Reply{Text: "ok", Usage: &providertest.Usage{PromptTokens: 6000, CompletionTokens: 100, TotalTokens: 6100}}
	})
	base := fakeOllama(t, srv, `{"parameters":"num_ctx 65536"}`, `{"models":[]}`)
	home := t.TempDir()
	env := []string{
		"PATH=" + os.Getenv("PATH"), "TERM=xterm-256color", "HOME=" + home,
		"XDG_STATE_HOME=" + filepath.Join(home, "state"),
		"OPENAI_BASE_URL=" + base, "OPENAI_API_KEY=test-key",
	}
	p := startTmux(t, env, sharedTick(t), "--model", "m", "-C", t.TempDir())
	p.waitFor(placeholder)
	p.waitReady()
	p.typeText("hi")
	p.send("Enter")
	p.waitFor("6.1k/65k · 9% · compacts at 52k")
	p.typeText("/cost")
	p.send("Enter")
	p.waitFor("Usage this session: 1 call · 6.0k in · 100 out · free (local server)")

	r := tick(t, nil, "", "-p", "hi", "--verbose", "--base-url", base, "--model", "m", "-C", t.TempDir(), "--no-session")
	if !strings.Contains(r.stderr, "usage: 1 call, 6000 tokens in, 100 out · free (local server)") {
		t.Errorf("-p --verbose stderr lacks the turn's usage:\n%s", r.stderr)
	}
}
