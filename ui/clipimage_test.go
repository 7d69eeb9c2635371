package ui

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestClipboardImagePaste: ctrl+v asks Config.ClipboardImage off the
// update loop; an image's path goes into the input as its @ mention, an
// error becomes a notice, and no image leaves ctrl+v to the textarea.
func TestClipboardImagePaste(t *testing.T) {
	for _, tt := range []struct {
		name      string
		path      string
		err       error
		wantInput string
		wantChat  string
	}{
		{name: "image", path: "/state/pasted/clip-1.png", wantInput: "@/state/pasted/clip-1.png", wantChat: "pasted the clipboard's image"},
		{name: "error", err: errors.New("xclip: \x1b[31mboom"), wantChat: "could not paste the clipboard's image: xclip:"},
		{name: "no image", wantInput: ""},
		{name: "no clipboard tool", err: fmt.Errorf("%w: install xclip", ErrNoClipboardTool), wantChat: "ctrl+v: no clipboard tool: install xclip"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m, _ := newTestModel(t, 80, 20)
			calls := 0
			m.cfg.Services = fakeServices{clipImage: func() (string, error) { calls++; return tt.path, tt.err }}
			cmd := press(m, "ctrl+v")
			if cmd == nil || calls != 0 {
				t.Fatalf("ctrl+v: cmd %v, calls %d; want the question in a command", cmd != nil, calls)
			}
			msg := cmd()
			if _, ok := msg.(clipImageMsg); !ok || calls != 1 {
				t.Fatalf("the command gave %T after %d calls", msg, calls)
			}
			update(m, msg)
			if got := strings.TrimSpace(m.input.Value()); got != tt.wantInput {
				t.Errorf("input %q, want %q", got, tt.wantInput)
			}
			s := screen(m)
			if tt.wantChat != "" && !strings.Contains(s, tt.wantChat) {
				t.Errorf("the chat lacks %q:\n%s", tt.wantChat, s)
			}
			if strings.Contains(m.View().Content, "\x1b[31mboom") {
				t.Error("the error reached the screen raw")
			}
		})
	}
}
