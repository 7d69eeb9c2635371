package app

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/charmbracelet/x/term"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/agent/session"
	"github.com/tick-agent/tick/ui/printer"
)

// maxStdinPrompt caps a prompt read from stdin (-p -).
const maxStdinPrompt = 10 << 20

// runHeadless runs one turn with the -p prompt and prints it (see
// RunHeadless). The first SIGINT or SIGTERM interrupts the turn and
// tick exits 130 or 143 once the turn has ended; a second one exits at
// once. ld, when not nil, is the resumed session (already restored into
// ag); rec is the session being saved (may be nil). An error is a prompt
// that could not be read, before the turn (start returns it).
func runHeadless(cfg config, ag *agent.Agent, rec *session.Recorder, ld *session.Loaded, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	prompt, err := readPrompt(cfg.Prompt, stdin)
	if err != nil {
		return 0, err
	}
	h := Headless{
		Prompt:    prompt,
		Printer:   printer.Options{JSON: cfg.JSON, Format: cfg.Format, Verbose: cfg.Verbose, Color: !cfg.NoColor && isTerminal(stderr)},
		Loaded:    ld,
		Recorder:  rec,
		Model:     cfg.Settings.Model,
		Workspace: cfg.Workspace,
	}
	h.Start.Sandbox, h.Start.SandboxComplete = sandboxState(cfg)
	if cfg.ext != nil {
		h.Notices = cfg.ext.notices
	}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	return RunHeadless(h, ag, sigs, stdout, stderr), nil
}

// readPrompt returns the -p prompt, reading stdin when it is "-"; with a
// prompt, data piped on stdin (a pipe or a file, never a terminal) is
// appended to it, as claude -p does.
func readPrompt(p string, stdin io.Reader) (string, error) {
	if p != "-" {
		return withPiped(p, stdin)
	}
	b, err := io.ReadAll(io.LimitReader(stdin, maxStdinPrompt+1))
	if err != nil {
		return "", fmt.Errorf("read the prompt from stdin: %w", err)
	}
	if len(b) > maxStdinPrompt {
		return "", usagef("the prompt on stdin is larger than %d MiB", maxStdinPrompt>>20)
	}
	if strings.TrimSpace(string(b)) == "" {
		return "", usagef("-p - read an empty prompt from stdin")
	}
	return string(b), nil
}

// isTerminal reports whether w is a terminal.
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// withPiped returns prompt with the data piped on stdin after it (a blank
// line between), or prompt alone when stdin is a terminal, a device
// (/dev/null) or empty.
func withPiped(prompt string, stdin io.Reader) (string, error) {
	if !piped(stdin) {
		return prompt, nil
	}
	b, err := io.ReadAll(io.LimitReader(stdin, maxStdinPrompt+1))
	if err != nil {
		return "", fmt.Errorf("read the data piped on stdin: %w", err)
	}
	if len(b) > maxStdinPrompt {
		return "", usagef("the data piped on stdin is larger than %d MiB", maxStdinPrompt>>20)
	}
	if strings.TrimSpace(string(b)) == "" {
		return prompt, nil
	}
	return prompt + "\n\n" + string(b), nil
}

// piped reports whether stdin carries data to read: a pipe or a regular
// file; any other reader (tests) counts; a terminal or a device does not.
func piped(stdin io.Reader) bool {
	f, ok := stdin.(*os.File)
	if !ok {
		return stdin != nil
	}
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	return fi.Mode()&os.ModeNamedPipe != 0 || fi.Mode().IsRegular()
}
