package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

// seenTranscript renders every entry of m's chat, notices included but for
// the ones that say how the screen came to be (the welcome line, "resumed
// session"), with durations left out: a saved session does not keep them.
func seenTranscript(m *Model) string {
	return m.chat.Transcript(func(text string) bool {
		return strings.HasPrefix(text, "Welcome to tick") || strings.HasPrefix(text, "resumed session")
	})
}

// TestGoldenResumedScreenLooksLive (issue 30 §9): a session with an @ mention
// of a file and of an image, a plan and tool calls looks the same resumed
// as it looked live: the prompt as typed with "attached …" under it,
// never the attached text or an <image> tag.
func TestGoldenResumedScreenLooksLive(t *testing.T) {
	srv := providertest.New(t)
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "wc.py"), []byte("SECRET-BODY = 1\nprint('count')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\xff\xff?\x00\x05\xfe\x02\xfe\xa7\x35\x81\x84\x00\x00\x00\x00IEND\xaeB`\x82")
	if err := os.WriteFile(filepath.Join(ws, "shot.png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
	srv.Enqueue(
		providertest.Reply{Text: "Planning.", ToolCalls: []providertest.Call{{Name: "todo", Args: `{"goal":"Count","items":[{"id":"1","text":"Read it","status":"in_progress"},{"id":"2","text":"Report","status":"pending"}]}`}}},
		providertest.Reply{ToolCalls: []providertest.Call{{Name: "bash", Args: `{"command":"wc -l wc.py"}`}}},
		providertest.Reply{ToolCalls: []providertest.Call{{Name: "todo", Args: `{"goal":"Count","items":[{"id":"1","text":"Read it","status":"completed"},{"id":"2","text":"Report","status":"completed"}]}`}}},
		providertest.Reply{Text: "Two lines."},
	)
	client, err := provider.New(provider.Config{BaseURL: srv.URL, Model: "fake", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	ag, err := agent.New(agent.Config{Model: client, Workspace: ws, Approval: agent.ApproveAll, Mentions: true})
	if err != nil {
		t.Fatal(err)
	}
	lv := New(Config{Agent: ag, Model: "fake", Dark: true, Workspace: ws})
	live := &lv
	update(live, tea.WindowSizeMsg{Width: 120, Height: 40})
	submit(live, "count the lines of @wc.py, see @shot.png")
	pump(t, live, idle(live))

	rv := New(Config{Agent: ag, Model: "fake", Dark: true, Workspace: ws, History: agent.Replay(ag.History()), Todos: ag.Todos()})
	resumed := &rv
	update(resumed, tea.WindowSizeMsg{Width: 120, Height: 40})

	want, got := ansi.Strip(seenTranscript(live)), ansi.Strip(seenTranscript(resumed))
	if got != want {
		t.Fatalf("the resumed screen differs from the live one\nlive:\n%s\nresumed:\n%s", want, got)
	}
	golden.RequireEqual(t, []byte(got))
	for _, s := range []string{"› count the lines of @wc.py, see @shot.png", "attached", "wc.py", "bash  wc -l wc.py", "Two lines."} {
		if !strings.Contains(want, s) {
			t.Errorf("the transcript lacks %q:\n%s", s, want)
		}
	}
	for _, bad := range []string{"SECRET-BODY", "<file path", "<image", "Attached by the user"} {
		if strings.Contains(screen(resumed)+got, bad) {
			t.Errorf("the resumed screen shows internal text %q:\n%s", bad, got)
		}
	}
}
