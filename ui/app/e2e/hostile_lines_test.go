package e2e

import (
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/ui/app"
	"github.com/tick-agent/tick/ui/termsafe"
)

// evilText holds what a hostile model or repository writes to take over a
// terminal: an OSC 8 link, an SGR colour, a C1 CSI and a bidi override.
const evilText = "\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\ \x1b[31mred \u009b2J \u202eevil"

// TestHeadlessEveryLineIsSafe: every line -p writes, on stdout and stderr,
// in every output format and verbose, is safe for a terminal when the
// model's plan, answer and tool names, a mentioned file's name and the
// open items at the end are hostile (the open-items line was not).
func TestHeadlessEveryLineIsSafe(t *testing.T) {
	for _, format := range []string{"text", "json", "stream-json"} {
		t.Run(format, func(t *testing.T) {
			srv := providertest.New(t)
			srv.Enqueue(
				todoReply(todoCall(evilText, "1:in_progress:"+evilText, "2:pending:open "+evilText)),
				providertest.Reply{Text: "Let me look. " + evilText, ToolCalls: []providertest.Call{{Name: "no_such_" + evilText, Args: "{}"}}},
				providertest.Reply{Text: "Done " + evilText},
			)
			name := "f\x1b]8;;evil\x1b\\\u202e.txt"
			args, ws := headless(t, srv, "look at @"+name, "--verbose", "--output-format", format, "--no-session")
			writeFile(t, ws, name, []byte("content\n"))
			r := tick(t, nil, "", args...)
			if r.code != app.ExitUnfinished || !strings.Contains(r.stderr, "open todo item(s)") {
				t.Fatalf("exit %d, want %d with the open items named; stderr:\n%s", r.code, app.ExitUnfinished, r.stderr)
			}
			for stream, text := range map[string]string{"stdout": r.stdout, "stderr": r.stderr} {
				for i, line := range strings.Split(text, "\n") {
					if !termsafe.Safe(line) {
						t.Errorf("%s line %d is not safe: %q", stream, i+1, line)
					}
				}
			}
			if !strings.Contains(r.stderr, "evil") || !strings.Contains(r.stderr+r.stdout, "⟨U+202E⟩") {
				t.Errorf("the hostile text is not shown visibly:\n%s", r.stderr)
			}
		})
	}
}
