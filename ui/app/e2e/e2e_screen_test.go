package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
)

// TestE2EHostileFileNamesInMentionPopup: a repository ships files whose
// names hold escape sequences (conceal, a link, a red background), a bidi
// override, a line break and an invisible letter. In a real terminal the
// @ popup shows each name as text: every name readable, no cell concealed
// or given a background the app does not draw, no bidi control applied,
// and the box whole.
func TestE2EHostileFileNamesInMentionPopup(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	for _, name := range []string{
		"g\x1b[8mHIDDEN.txt",
		"\x1b]8;;x\x07link.txt\x1b]8;;\x07",
		"\x1b[41mred.txt",
		"\u202Etxt.exe",
		"new\nline.txt",
		"fill\u3164er.txt",
	} {
		if err := os.WriteFile(filepath.Join(ws, name), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := startAppAt(t, providertest.New(t), t.TempDir(), ws)
	p.typeText("@t")
	scr := p.waitFor("tab/enter inserts", "@gHIDDEN.txt", "@red.txt", "@link.txt", "@⟨U+202E⟩txt.exe", "@new line.txt", "@fill⟨U+3164⟩er.txt")
	if strings.ContainsRune(scr, '\u202e') || strings.ContainsRune(scr, '\u3164') {
		t.Fatalf("a bidi control or an invisible letter reached the screen:\n%s", scr)
	}
	styled, err := p.tmux("capture-pane", "-e", "-p", "-t", p.name)
	if err != nil {
		t.Fatal(err)
	}
	if bad := foreignSGR(string(styled)); bad != "" {
		t.Fatalf("the pane has a cell styled by a file name (%s):\n%q", bad, styled)
	}
}

// sgrSeq finds the SGR sequences of a styled capture.
var sgrSeq = regexp.MustCompile("\x1b\\[([0-9;:]*)m")

// foreignSGR returns an SGR attribute in a styled capture that tick never
// draws (conceal, blink, a basic background colour), or "".
func foreignSGR(styled string) string {
	for _, m := range sgrSeq.FindAllStringSubmatch(styled, -1) {
		params := strings.Split(m[1], ";")
		for k := 0; k < len(params); k++ {
			switch p := params[k]; p {
			case "38", "48", "58":
				if k+1 < len(params) && params[k+1] == "5" {
					k += 2
				} else if k+1 < len(params) && params[k+1] == "2" {
					k += 4
				}
			case "5", "6", "8", "40", "41", "42", "43", "44", "45", "46", "47":
				return "SGR " + m[1]
			}
		}
	}
	return ""
}
