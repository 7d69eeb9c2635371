package ui

import (
	"strings"
	"testing"
)

func TestMentionPicker(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	m.cfg.Services = fakeServices{files: func() ([]string, bool) {
		return []string{"README.md", "cmd/tick/main.go", "ui/chat.go", "main.go"}, true
	}}
	for _, r := range "fix @mai" {
		runCmd(m, update(m, keyPress(string(r))))
	}
	scr := screen(m)
	if !strings.Contains(scr, "@main.go") || !strings.Contains(scr, "@cmd/tick/main.go") || strings.Contains(scr, "@ui/chat.go") {
		t.Fatalf("picker:\n%s", scr)
	}
	runCmd(m, press(m, "down"))
	runCmd(m, press(m, "tab"))
	if got := m.input.Raw(); got != "fix @cmd/tick/main.go " {
		t.Errorf("input %q, want the second match inserted", got)
	}
	if strings.Contains(screen(m), "tab/enter inserts") {
		t.Errorf("the picker stayed open:\n%s", screen(m))
	}
	// An e-mail address opens nothing.
	m.input.SetValue("mail me@ex")
	runCmd(m, update(m, keyPress("a")))
	if strings.Contains(screen(m), "tab/enter inserts") {
		t.Errorf("an e-mail address opened the picker:\n%s", screen(m))
	}
}
