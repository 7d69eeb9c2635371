package app

import (
	"context"
	"fmt"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// clipboardTimeout bounds one run of the system clipboard tool.
const clipboardTimeout = 2 * time.Second

// clipboardTool is a command that takes text on stdin into the system
// clipboard, and when it applies.
type clipboardTool struct {
	name string
	args []string
	when func(env func(string) string) bool
}

// clipboardTools are tried in order; the first found on PATH whose
// display is there is used.
var clipboardTools = []clipboardTool{
	{"pbcopy", nil, func(func(string) string) bool { return runtime.GOOS == "darwin" }},
	{"wl-copy", nil, func(env func(string) string) bool { return env("WAYLAND_DISPLAY") != "" }},
	{"xclip", []string{"-selection", "clipboard"}, func(env func(string) string) bool { return env("DISPLAY") != "" }},
	{"xsel", []string{"--clipboard", "--input"}, func(env func(string) string) bool { return env("DISPLAY") != "" }},
}

// systemClipboard returns the writer of ui.Services.CopyText: it puts text
// on the system clipboard with the first tool that applies (see
// clipboardTools) and names it; with none, it returns "" and no error
// (OSC 52 then does the work alone).
func systemClipboard(env func(string) string) func(string) (string, error) {
	return func(text string) (string, error) {
		for _, t := range clipboardTools {
			if !t.when(env) {
				continue
			}
			path, err := exec.LookPath(t.name)
			if err != nil {
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), clipboardTimeout)
			cmd := exec.CommandContext(ctx, path, t.args...)
			cmd.Stdin = strings.NewReader(text)
			err = cmd.Run()
			cancel()
			if err != nil {
				return "", fmt.Errorf("copy with %s: %w", t.name, err)
			}
			return t.name, nil
		}
		return "", nil
	}
}
