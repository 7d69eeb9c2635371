package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
)

// rowOf returns the row of the screen that holds s and the column where
// it starts, or -1, -1.
func rowOf(scr, s string) (y, x int) {
	for i, l := range strings.Split(scr, "\n") {
		if j := strings.Index(l, s); j >= 0 {
			return i, len([]rune(l[:j]))
		}
	}
	return -1, -1
}

// TestTUIMouseCopyLogicalText (issue 35 §11) drives the real binary in
// tmux: a drag over an answer's wrapped paragraph, scrolled up from the
// bottom, puts the paragraph in tmux's paste buffer as one line (no wrap,
// no margin); a drag over a quote and a code block copies the quote
// without its bar and the code as written (its tab, no margin); the view
// stays where it was scrolled to and the chat gains no line, a toast
// says what was copied.
func TestTUIMouseCopyLogicalText(t *testing.T) {
	t.Parallel()
	para := "Zulu-start alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu-end."
	quote := "Quoted-start words that are long enough to wrap around the pane once at least, quoted-end."
	var rows strings.Builder
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&rows, "row %d\n", i)
	}
	answer := para + "\n\n> " + quote + "\n\n```go\nfunc f() {\n\treturn\n}\n```\n\n```\n" + rows.String() + "```\n"
	srv := providertest.New(t)
	srv.SetFunc(func(providertest.Request) providertest.Reply { return providertest.Reply{Text: answer} })
	p := startClipboardApp(t, srv, t.TempDir())
	p.resize(80, 24)
	p.prompt("go")
	p.waitFor("row 40")
	// Up from the bottom until the paragraph shows.
	scr := p.screen()
	for i := 0; i < 20 && !strings.Contains(scr, "Zulu-start"); i++ {
		p.send("PPage")
		scr = p.waitFor("more below")
	}
	scr = p.waitFor("Zulu-start", "zulu-end", "more below")
	y1, _ := rowOf(scr, "Zulu-start")
	y2, x2 := rowOf(scr, "zulu-end")
	if y2 <= y1 {
		t.Fatalf("the paragraph is not wrapped over rows %d..%d:\n%s", y1, y2, scr)
	}
	if out, err := p.tmux("set-buffer", "(emptied)"); err != nil {
		t.Fatalf("tmux set-buffer: %v\n%s", err, out)
	}
	p.typeText(sgrMouse(0, 0, y1, 'M') + sgrMouse(32, 10, y1+1, 'M') + sgrMouse(0, x2+20, y2, 'm'))
	if !waitFor(screenTimeout, func() bool { return p.pasteBuffer() == para }) {
		t.Fatalf("the drag over the wrapped paragraph put %q in the paste buffer, want %q\n%s", p.pasteBuffer(), para, p.screen())
	}
	after := p.waitFor("copied the selection (1 line)")
	if y, _ := rowOf(after, "Zulu-start"); y != y1 || !strings.Contains(after, "more below") {
		t.Errorf("the copy moved the view (the paragraph's row %d, was %d):\n%s", y, y1, after)
	}
	if strings.Count(after, "copied the selection") != 1 {
		t.Errorf("the copy's notice is not one toast:\n%s", after)
	}

	// The quote and the code block under it.
	q1, _ := rowOf(after, "Quoted-start")
	c2, _ := rowOf(after, "return")
	if q1 < 0 || c2 < 0 {
		t.Fatalf("the quote or the code is not on the screen:\n%s", after)
	}
	c3 := c2 + 1 // the closing brace
	p.typeText(sgrMouse(0, 0, q1, 'M') + sgrMouse(32, 5, q1+1, 'M') + sgrMouse(0, 40, c3, 'm'))
	want := quote + "\n\nfunc f() {\n\treturn\n}"
	if !waitFor(screenTimeout, func() bool { return p.pasteBuffer() == want }) {
		t.Fatalf("the drag over the quote and the code put %q in the paste buffer, want %q\n%s", p.pasteBuffer(), want, p.screen())
	}
	if y, _ := rowOf(p.screen(), "Zulu-start"); y != y1 {
		t.Errorf("the second copy moved the view:\n%s", p.screen())
	}
}
