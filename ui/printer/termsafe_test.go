package printer_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/todo"
	"github.com/tick-agent/tick/ui/printer"
)

// hostile are payloads a prompt-injected model or a hostile server sends
// to take over a terminal.
var hostile = []string{
	"\x1b]52;c;cm0gLXJmIH4K\x07",         // OSC 52: write the clipboard
	"\x1b]8;;https://evil.example\x1b\\", // OSC 8: a fake link
	"\x1b[2J\x1b[H",                      // clear the screen
	"\x1b[8m",                            // conceal
	"\u009b2J",                           // C1 CSI
	"\u009d0;title\u009c",                // C1 OSC
	"\u202e",                             // bidi override
	"\u2066",                             // bidi isolate
}

// attack returns a string with every hostile payload around word.
func attack(word string) string {
	return strings.Join(hostile, word) + word
}

// TestTextIsSafe runs every event type carrying model- or server-chosen
// text through the printer, verbose and in colour, and checks the raw bytes
// written to stdout and stderr for anything a terminal would act on other
// than the printer's own colours.
func TestTextIsSafe(t *testing.T) {
	list := todo.List{Goal: attack("goal"), Items: []todo.Item{
		{ID: "1", Text: attack("item"), Status: todo.InProgress, ActiveForm: attack("doing")},
		{ID: "2", Text: "x", Status: todo.Cancelled, Note: attack("note")},
	}}
	evs := []agent.Event{
		agent.ReasoningDelta{Text: attack("thinking")},
		agent.TextDelta{Text: attack("between")},
		agent.AssistantDone{Text: attack("between")},
		agent.ToolStart{ID: "c1", Name: attack("tool"), Args: attack("{}"), Summary: attack("summary")},
		agent.ToolEnd{ID: "c1", Name: attack("tool"), Output: attack("output")},
		agent.ToolStart{ID: "c2", Name: "bash", Summary: attack("cmd")},
		agent.ToolEnd{ID: "c2", Name: "bash", Output: attack("fail"), IsError: true, Duration: time.Second},
		agent.TodoUpdate{List: list},
		agent.Subagent{ParentID: "c1", Event: agent.ToolStart{ID: "s", Name: "bash", Summary: attack("child")}},
		agent.Retry{Attempt: 1, Max: 3, Err: attack("server body")},
		agent.ApprovalRequest{ID: "c3", Tool: attack("tool"), Summary: attack("approve")},
		agent.SteerDelivered{Text: attack("steer")},
		agent.Notice{Text: attack("notice")},
		agent.TextDelta{Text: attack("answer")},
		agent.AssistantDone{Text: attack("answer"), Final: true},
		agent.TurnEnd{Reason: agent.ReasonError, Err: errors.New(attack("error body"))},
	}
	for _, color := range []bool{false, true} {
		var out, errOut bytes.Buffer
		end, err := printer.New(&out, &errOut, printer.Options{Verbose: true, Color: color}).Run(feed(evs...))
		if err != nil {
			t.Fatal(err)
		}
		for name, s := range map[string]string{"stdout": out.String(), "stderr": errOut.String(), "turn end": end.Error} {
			if color && name == "stderr" {
				s = stripOwnColours(s)
			}
			if bad := unsafeAt(s); bad >= 0 {
				t.Fatalf("color %v: %s has a control at byte %d: %q", color, name, bad, s[max(bad-20, 0):min(bad+20, len(s))])
			}
		}
		for _, want := range []string{"answer", "⟨U+202E⟩answer"} {
			if !strings.Contains(out.String(), want) {
				t.Fatalf("stdout lost the visible text %q: %q", want, out.String())
			}
		}
		for _, want := range []string{"summary", "item", "goal", "server body", "notice", "thinking", "output"} {
			if !strings.Contains(errOut.String(), want) {
				t.Fatalf("stderr lost %q: %q", want, errOut.String())
			}
		}
	}
}

// stripOwnColours removes the SGR colour codes the printer itself writes.
func stripOwnColours(s string) string {
	for _, c := range []string{"\x1b[0m", "\x1b[1m", "\x1b[2m", "\x1b[31m", "\x1b[32m", "\x1b[33m"} {
		s = strings.ReplaceAll(s, c, "")
	}
	return s
}

// unsafeAt returns the byte offset of the first ESC, C0 (other than
// newline and tab), DEL, C1 or bidi control in s, or -1.
func unsafeAt(s string) int {
	for i, r := range s {
		switch {
		case r == '\n' || r == '\t':
		case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			return i
		}
	}
	return -1
}

// TestSplitSequenceGoesWhole: an escape sequence split between text deltas
// is removed whole from the answer.
func TestSplitSequenceGoesWhole(t *testing.T) {
	var out, errOut bytes.Buffer
	_, err := printer.New(&out, &errOut, printer.Options{}).Run(feed(
		agent.TextDelta{Text: "Done \x1b]52;c;cm0g"}, agent.TextDelta{Text: "LXJmIH4K\x07 and \x1b"}, agent.TextDelta{Text: "[8mhidden."},
		agent.TurnEnd{Reason: agent.ReasonError, Err: errors.New("cut")},
	))
	if err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "Done  and hidden.\n" {
		t.Fatalf("stdout %q", got)
	}
}
