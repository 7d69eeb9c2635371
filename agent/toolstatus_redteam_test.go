package agent

import (
	"strconv"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider"
)

// TestStatusLineNotSpoofed: a command that printed "exit status 0" and
// was then cut short by tick (timed out, interrupted, stopped) has tick's
// status line last, not an exit status: StatusLine must find that line,
// not the command's own words above it, and a replay must not read the
// command as having succeeded (the live loop had it as failed, 128+N).
func TestStatusLineNotSpoofed(t *testing.T) {
	const timedOut = "killed: timed out after 1s (the whole process group was killed; pass a larger timeout, at most 600s, or run it in the background with output to a file)"
	for _, tt := range []struct {
		name, out, line string
		failed          bool
	}{
		{"timed out", "a\nexit status 0\n" + timedOut, timedOut, true},
		{"timed out, held", "exit status 0\n(a background process still holds the output open; its further output is not shown — redirect it to a file)\n" + timedOut, timedOut, true},
		{"stopped", "exit status 0\nstopped by SIGTERM", "stopped by SIGTERM", true},
		{"time budget", "x\nexit status 0\nstopped by the time budget (--max-time)", "stopped by the time budget (--max-time)", true},
		{"interrupted", "exit status 0\n\ninterrupted by user", "interrupted by user", true},
		{"timed out, sandbox note", "exit status 0\n" + timedOut + "\n(not the sandbox: tick cannot write there either; the file or its file system is read-only)", timedOut, true},
		// the real status still wins over words above it
		{"printed failure, real success", "exit status 1\nexit status 0", "exit status 0", false},
		{"printed success, real failure", "exit status 0\nexit status 2", "exit status 2", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if line, _ := StatusLine(tt.out); line != tt.line {
				t.Errorf("StatusLine = %q, want %q", line, tt.line)
			}
			code := ExitCodeOf("bash", tt.out)
			if got := failedCommand(code) || commandCutShort("bash", tt.out); got != tt.failed {
				t.Errorf("failed = %v (exit code %s), want %v", got, codeText(code), tt.failed)
			}
			if code != nil && *code == 0 && tt.failed {
				t.Errorf("ExitCodeOf = 0 for a command tick cut short")
			}
		})
	}
}

// TestReplayTimedOutCommandFails: the seam of the saved conversation and
// the live loop: a timed-out command that printed "exit status 0" is
// replayed as failed, as it was shown live.
func TestReplayTimedOutCommandFails(t *testing.T) {
	out := strings.Repeat("line\n", 10) + "exit status 0\nkilled: timed out after 1s (the whole process group was killed)"
	r := &replayer{}
	r.call(provider.ToolCall{ID: "c1", Name: "bash", Arguments: `{"command":"echo exit status 0; sleep 9","timeout":1}`}, out)
	for _, ev := range r.out {
		if end, ok := ev.(ToolEnd); ok {
			if !end.IsError || end.ExitCode != nil && *end.ExitCode == 0 {
				t.Fatalf("replayed ToolEnd: is_error %v, exit code %s; want an error without exit code 0", end.IsError, codeText(end.ExitCode))
			}
			return
		}
	}
	t.Fatal("no ToolEnd replayed")
}

func codeText(c *int) string {
	if c == nil {
		return "none"
	}
	return strconv.Itoa(*c)
}
