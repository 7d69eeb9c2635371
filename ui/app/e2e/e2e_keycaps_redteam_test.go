package e2e

import (
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
)

// TestE2EKeycapsWrapOnScreen: an answer whose paragraph is full of
// keycaps ("1️⃣ go", as models number steps) shows every word in tmux at
// 120x40 and after a resize to 80x24: ansi's wrap took a keycap for one
// cell, so each line came out a cell too long per keycap and the frame
// cut its end off (words lost from the screen).
func TestE2EKeycapsWrapOnScreen(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	para := strings.Repeat("1️⃣ go ", 24) + "ENDA"
	script(t, srv, textStep(para+"\n\n- "+strings.Repeat("2️⃣ go ", 24)+"ENDB"))
	p := startApp(t, srv, "--yolo")
	p.prompt("number them")
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		if size[0] != 120 {
			p.resize(size[0], size[1])
		}
		scr := p.waitFor("ENDA", "ENDB")
		n := 0
		for _, f := range strings.Fields(scr) {
			if f == "go" {
				n++
			}
		}
		if n != 48 {
			t.Errorf("%dx%d: %d of the 48 words are on the screen:\n%s", size[0], size[1], n, scr)
		}
	}
}
