package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// setupHarness drives a Setup screen by hand, running each command's
// message through Update synchronously.
type setupHarness struct {
	t     *testing.T
	m     *Setup
	saved []SetupChoice
	keys  []string // API keys ListModels was called with
	quit  bool
}

func newSetupHarness(t *testing.T, found []SetupServer) *setupHarness {
	h := &setupHarness{t: t}
	h.m = NewSetup(SetupConfig{
		ConfigPath: "/home/me/.config/tick/config.toml",
		FindLocal:  func(context.Context) []SetupServer { return found },
		Hosted:     []SetupProvider{{Name: "openrouter", Title: "OpenRouter", BaseURL: "https://openrouter.ai/api/v1"}},
		ListModels: func(_ context.Context, base, key string) ([]string, error) {
			h.keys = append(h.keys, key)
			if key == "bad" {
				return nil, fmt.Errorf("list models at %s: 401: %w", base, ErrKeyRefused)
			}
			return []string{"anthropic/claude", "openai/gpt-4.1-mini", "qwen/qwen3-coder"}, nil
		},
		Save: func(c SetupChoice) error { h.saved = append(h.saved, c); return nil },
	})
	h.m.width, h.m.height = 100, 30
	h.run(h.m.Init())
	return h
}

// run runs cmd and feeds its message back, as the program would.
func (h *setupHarness) run(cmd tea.Cmd) {
	for cmd != nil {
		msg := cmd()
		if _, ok := msg.(tea.QuitMsg); ok {
			h.quit = true
			return
		}
		_, cmd = h.m.Update(msg)
	}
}

func (h *setupHarness) press(name string) {
	k := keyPress(name)
	if name == "backspace" {
		k = tea.KeyPressMsg{Code: tea.KeyBackspace}
	}
	_, cmd := h.m.Update(k)
	h.run(cmd)
}

func (h *setupHarness) typeText(s string) {
	for _, r := range s {
		_, cmd := h.m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
		h.run(cmd)
	}
}

func (h *setupHarness) screen() string { return ansi.Strip(h.m.View().Content) }

func (h *setupHarness) want(wants ...string) {
	h.t.Helper()
	scr := h.screen()
	for _, w := range wants {
		if !strings.Contains(scr, w) {
			h.t.Fatalf("screen lacks %q:\n%s", w, scr)
		}
	}
}

func TestSetupLocalServer(t *testing.T) {
	h := newSetupHarness(t, []SetupServer{{
		Name: "ollama", Title: "Ollama", BaseURL: "http://127.0.0.1:11434/v1",
		Models: []string{"llama3.2:3b", "qwen2.5-coder:7b", "qwen2.5:14b"},
	}})
	h.want("Ollama", "127.0.0.1:11434", "3 models", "OpenRouter", "Custom URL")
	h.press("enter")
	h.want("llama3.2:3b", "qwen2.5-coder:7b")
	h.typeText("qwen coder")
	if scr := h.screen(); strings.Contains(scr, "llama3.2") || strings.Contains(scr, "qwen2.5:14b") {
		t.Fatalf("filter did not narrow the list:\n%s", scr)
	}
	h.press("enter")
	if !h.quit || !h.m.done || len(h.saved) != 1 {
		t.Fatalf("quit %v done %v saved %v", h.quit, h.m.done, h.saved)
	}
	want := SetupChoice{Provider: "ollama", Title: "Ollama", BaseURL: "http://127.0.0.1:11434/v1", Model: "qwen2.5-coder:7b", Local: true}
	if h.saved[0] != want {
		t.Errorf("saved %+v, want %+v", h.saved[0], want)
	}
}

func TestSetupHostedKeyIsChecked(t *testing.T) {
	h := newSetupHarness(t, nil)
	h.want("no local server answered", "Look again")
	h.press("down") // from "look again" to OpenRouter
	h.press("enter")
	h.want("API key for OpenRouter")
	h.press("enter")
	h.want("OpenRouter needs an API key")
	h.typeText("bad")
	if strings.Contains(h.screen(), "bad") {
		t.Fatalf("the key is shown:\n%s", h.screen())
	}
	h.press("enter")
	h.want("the server refused this key")
	if len(h.saved) != 0 {
		t.Fatalf("a refused key was saved: %+v", h.saved)
	}
	for range 3 {
		h.press("backspace")
	}
	h.typeText("sk-or-good-key")
	h.press("enter")
	h.want("openai/gpt-4.1-mini")
	h.press("down")
	h.press("enter")
	if len(h.saved) != 1 || h.saved[0].APIKey != "sk-or-good-key" || h.saved[0].Model != "openai/gpt-4.1-mini" || h.saved[0].Local {
		t.Fatalf("saved %+v", h.saved)
	}
	if got := strings.Join(h.keys, ","); got != "bad,sk-or-good-key" {
		t.Errorf("keys checked: %s", got)
	}
}

func TestSetupCustomURL(t *testing.T) {
	h := newSetupHarness(t, nil)
	h.press("down")
	h.press("down")
	h.press("enter")
	h.want("API root", "http://")
	h.m.text.SetValue("")
	h.typeText("localhost:8080")
	h.press("enter")
	h.want("must start with http://")
	h.m.text.SetValue("")
	_, cmd := h.m.Update(tea.PasteMsg{Content: "  http://10.0.0.5:8000/v1/\n"})
	h.run(cmd)
	h.press("enter")
	h.want("empty if it needs none")
	h.press("enter") // no key
	h.press("enter")
	if len(h.saved) != 1 || h.saved[0].BaseURL != "http://10.0.0.5:8000/v1" || h.saved[0].Provider != "custom" || h.saved[0].APIKey != "" {
		t.Fatalf("saved %+v", h.saved)
	}
}

// TestSetupFullURL: the URL field starts with "http://"; a full URL typed
// or pasted after it is taken as given, not as "http://http://...".
func TestSetupFullURL(t *testing.T) {
	for _, tc := range []struct{ name, typed, paste, want string }{
		{name: "typed http", typed: "http://127.0.0.1:8080/v1", want: "http://127.0.0.1:8080/v1"},
		{name: "typed https", typed: "https://llm.example.com/v1", want: "https://llm.example.com/v1"},
		{name: "pasted", paste: "http://127.0.0.1:8080/v1", want: "http://127.0.0.1:8080/v1"},
		{name: "pasted capitals", paste: "HTTPS://LLM.example.com/v1/", want: "HTTPS://LLM.example.com/v1"},
		{name: "host only", typed: "127.0.0.1:8080/v1", want: "http://127.0.0.1:8080/v1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newSetupHarness(t, nil)
			h.press("down")
			h.press("down")
			h.press("enter")
			h.want("API root", "http://")
			h.typeText(tc.typed)
			if tc.paste != "" {
				_, cmd := h.m.Update(tea.PasteMsg{Content: tc.paste})
				h.run(cmd)
			}
			if strings.Contains(h.screen(), "http://http") {
				t.Fatalf("the field doubled the scheme:\n%s", h.screen())
			}
			h.press("enter")
			h.press("enter") // no key
			h.press("enter")
			if len(h.saved) != 1 || h.saved[0].BaseURL != tc.want {
				t.Fatalf("saved %+v, want base URL %q", h.saved, tc.want)
			}
		})
	}
}

func TestSetupQuit(t *testing.T) {
	h := newSetupHarness(t, nil)
	h.press("ctrl+c")
	if !h.quit || h.m.done {
		t.Errorf("quit %v done %v", h.quit, h.m.done)
	}
}

// TestSetupViewIsPure: View returns the screen Update drew and changes
// nothing (drawing the model list used to move its scroll offset).
func TestSetupViewIsPure(t *testing.T) {
	var models []string
	for i := range 40 {
		models = append(models, fmt.Sprintf("model-%02d", i))
	}
	h := newSetupHarness(t, []SetupServer{{Name: "ollama", Title: "Ollama", BaseURL: "http://127.0.0.1:11434/v1", Models: models}})
	h.press("enter")
	h.want("model-00")
	l := h.m.models
	l.Move(len(models)) // the last, behind Update's back
	off := l.Offset()
	for range 2 {
		if strings.Contains(h.screen(), "model-39") || l.Offset() != off {
			t.Fatalf("View drew the moved selection (offset %d, was %d):\n%s", l.Offset(), off, h.screen())
		}
	}
	h.m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	h.want("model-39")
}
