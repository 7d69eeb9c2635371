package e2e

import (
	"strconv"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
)

// emojiLine holds the sequences terminals measure unlike one another: a
// skin tone, variation selectors, ZWJ sequences and a keycap. tmux 3.3a
// puts "👍🏽" in 4 columns, "❤️" in 1 and "👨‍👩‍👧" in 2; Bubble Tea, until
// the terminal reports mode 2027 (tmux does not), counts 4, 1 and 6; the
// layout 2, 2 and 2.
const emojiLine = "ok 👍🏽 I ❤️ it ☺️ the 👨‍👩‍👧 and 👩‍💻 🏳️‍🌈 step 1️⃣ done"

// TestE2EEmojiKeepsBorders: with emoji sequences in the chat and in the
// plan panel, tmux shows the panel's rule at the same column on every row
// of the chat — counted with tmux's own widths, by printing each row's
// text left of the rule in a window of the same tmux server — at 120x40,
// and after a resize to 80x24 (the panel under the chat) no row is wider
// than the screen and the panel's items are whole.
func TestE2EEmojiKeepsBorders(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	script(t, srv,
		todoStep("Ship 👍🏽 the ❤️ release",
			todoItem{ID: "1", Text: "1 café ☺️ opened", Status: "completed"},
			todoItem{ID: "2", Text: "Family 👨‍👩‍👧 photos 👍🏽 sorted by 👩‍💻 and ❤️ by the year", ActiveForm: "Sorting 👨‍👩‍👧 photos 👍🏽 by 👩‍💻 and ❤️ by the year they were taken", Status: "in_progress"},
			todoItem{ID: "3", Text: "Step 1️⃣ then 🏳️‍🌈 flags", Status: "pending"}),
		textStep("Here it is: "+emojiLine+"\n\n- "+emojiLine+"\n- plain ZULU line"),
	)
	p := startApp(t, srv, "--yolo")
	p.prompt("plan it " + emojiLine)
	scr := p.waitFor("plain ZULU line", "flags")
	tw := tmuxWidths{p: p, seen: map[string]int{}}
	checkRule(t, tw, scr, 120)

	p.resize(80, 24)
	scr = p.waitUntil("the 80-column frame", func(s string) bool {
		return !strings.Contains(s, "│ Ship") && strings.Contains(s, "plain ZULU line") && strings.Contains(s, "flags")
	})
	rows := strings.Split(strings.TrimRight(scr, "\n"), "\n")
	if len(rows) > 24 {
		t.Fatalf("%d rows on a screen of 24:\n%s", len(rows), scr)
	}
	for i, r := range rows {
		if n := tw.cols(strings.TrimRight(r, " ")); n > 80 {
			t.Errorf("row %d is %d columns on a screen of 80: %q", i, n, r)
		}
	}
	for _, want := range []string{"1 café", "opened", "taken", "flags"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the panel's items are cut at 80 columns (no %q):\n%s", want, scr)
		}
	}
}

// checkRule fails unless no row of the screen scr is wider than w by
// tmux's widths and every row that shows the panel's rule has it at the
// same column, with rows holding emoji among them.
func checkRule(t *testing.T, tw tmuxWidths, scr string, w int) {
	t.Helper()
	col, rows, emoji := -1, 0, 0
	for i, r := range strings.Split(scr, "\n") {
		if n := tw.cols(strings.TrimRight(r, " ")); n > w {
			t.Errorf("row %d is %d columns on a screen of %d: %q", i, n, w, r)
		}
		left, _, ok := strings.Cut(r, "│")
		if !ok {
			continue
		}
		rows++
		if strings.ContainsAny(left, "👍❤👨") {
			emoji++
		}
		n := tw.cols(left)
		if col < 0 {
			col = n
		}
		if n != col {
			t.Errorf("row %d has the panel's rule at column %d, the first row at %d: %q", i, n, col, r)
		}
	}
	if rows < 10 || emoji < 2 || col < w/2 {
		t.Fatalf("no panel at the right with emoji beside it (%d rows, %d with emoji, rule at %d):\n%s", rows, emoji, col, scr)
	}
}

// tmuxWidths measures text with tmux's own widths (see cols).
type tmuxWidths struct {
	p    *tmuxPane
	seen map[string]int // by text
}

// cols is how many columns tmux moves the cursor for s: it prints s and a
// marker in a new window of the pane's tmux server and reads the cursor.
func (m tmuxWidths) cols(s string) int {
	p := m.p
	p.t.Helper()
	if n, ok := m.seen[s]; ok {
		return n
	}
	out, err := p.tmux("new-window", "-d", "-P", "-F", "#{pane_id}", "-t", p.name,
		"printf '%s' "+quoteAll([]string{s})[0]+"; printf '#'; sleep 60")
	if err != nil {
		p.t.Fatalf("tmux new-window to measure %q: %v\n%s", s, err, out)
	}
	pane := strings.TrimSpace(string(out))
	defer p.tmux("kill-pane", "-t", pane) //nolint:errcheck // the server's end takes it anyway
	n := -1
	waitFor(screenTimeout, func() bool {
		c, _ := p.tmux("capture-pane", "-p", "-t", pane)
		if !strings.Contains(string(c), "#") {
			return false
		}
		x, err := p.tmux("display-message", "-p", "-t", pane, "#{cursor_y} #{cursor_x}")
		f := strings.Fields(string(x))
		if err != nil || len(f) != 2 {
			return false
		}
		y, _ := strconv.Atoi(f[0])
		cx, _ := strconv.Atoi(f[1])
		w, _ := p.tmux("display-message", "-p", "-t", pane, "#{pane_width}")
		pw, _ := strconv.Atoi(strings.TrimSpace(string(w)))
		n = y*pw + cx - 1 // the marker's column; a long s wraps
		return true
	})
	if n < 0 {
		p.t.Fatalf("tmux never printed %q", s)
	}
	m.seen[s] = n
	return n
}
