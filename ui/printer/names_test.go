package printer_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/todo"
	"github.com/tick-agent/tick/ui/printer"
	"github.com/tick-agent/tick/ui/termsafe"
)

// hostileNames are file names a cloned repository ships or a model
// creates: conceal, a link, a background colour, bidi, a line break, C1,
// DEL and invisible letters.
var hostileNames = []string{
	"g\x1b[8mHIDDEN.txt",
	"\x1b]8;;https://evil.example\x1b\\link.txt\x1b]8;;\x1b\\",
	"\x1b[41mred.txt",
	"\u202Etxt.exe",
	"new\nline.txt",
	"c1\u009b2J\u0085.txt",
	"del\x7f.txt",
	"fill\u3164er\u2800\u115F\uFE0F\U000E0100\u034F.txt",
}

// leak returns the first thing in out that a terminal would act on or that
// hides itself, or "".
func leak(out string) string {
	prev := rune(0)
	for i, r := range out {
		if r != '\n' && r != '\t' && string(termsafe.AppendRune(nil, prev, r)) != string(r) {
			return out[max(i-20, 0):min(i+20, len(out))]
		}
		prev = r
	}
	return ""
}

// TestHostileFileNames: file names carrying escape sequences, bidi
// controls, line breaks and invisible letters reach neither -p's stdout
// and stderr nor --json's lines raw; --json keeps them exactly, escaped.
func TestHostileFileNames(t *testing.T) {
	all := strings.Join(hostileNames, " ")
	list := todo.List{Goal: "Fix " + all, Items: []todo.Item{{ID: "1", Text: "Edit " + all, Status: todo.InProgress, ActiveForm: "Editing " + all}}}
	evs := []agent.Event{
		agent.ToolStart{ID: "c1", Name: "read_file", Args: `{"path":"x"}`, Summary: all},
		agent.ToolEnd{ID: "c1", Name: "read_file", Output: all, Duration: time.Second},
		agent.ToolStart{ID: "c2", Name: "bash", Summary: "cat " + all},
		agent.ToolOutput{ID: "c2", Tail: all, Total: 10},
		agent.ToolEnd{ID: "c2", Name: "bash", Output: all, IsError: true},
		agent.TodoUpdate{List: list},
		agent.Notice{Text: all},
		agent.Retry{Attempt: 1, Max: 3, Err: all},
		agent.TextDelta{Text: all},
		agent.AssistantDone{Text: all, Final: true},
		agent.TurnEnd{Reason: agent.ReasonError, Err: errors.New(all)},
	}
	for _, color := range []bool{false, true} {
		var out, errOut bytes.Buffer
		end, err := printer.New(&out, &errOut, printer.Options{Verbose: true, Color: color}).Run(feed(evs...))
		if err != nil {
			t.Fatal(err)
		}
		for name, s := range map[string]string{"stdout": out.String(), "stderr": stripOwnColours(errOut.String()), "turn end": end.Error} {
			if l := leak(s); l != "" {
				t.Errorf("color %v: %s leaks at %q", color, name, l)
			}
			if !strings.Contains(s, "HIDDEN.txt") {
				t.Errorf("color %v: %s lost the name: %q", color, name, s)
			}
		}
	}
	var out bytes.Buffer
	if _, err := printer.New(&out, &bytes.Buffer{}, printer.Options{JSON: true}).Run(feed(evs...)); err != nil {
		t.Fatal(err)
	}
	if l := leak(out.String()); l != "" {
		t.Errorf("--json leaks at %q", l)
	}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var ev struct {
			Type, Text string
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("--json line %q: %v", line, err)
		}
		if ev.Type == "notice" && ev.Text != all {
			t.Errorf("--json changed the notice: %q, want %q", ev.Text, all)
		}
	}
}
