package ui

import (
	"sort"
	"strings"

	"github.com/tick-agent/tick/ui/input"
)

// What the input's popups (ui/input: the @ picker, the / completion) read
// of the root with each call: the app's file index and the commands.

// fileIndex is the @ picker's file index: Services when it offers one,
// else nil, and the picker stays closed.
func (m *Model) fileIndex() input.FileIndex {
	if !m.cfg.Services.Offers().Files {
		return nil
	}
	return m.cfg.Services
}

// completions is the / popup's commands for prefix (input.Commands): none
// unless prefix could start a command's name.
func (m *Model) completions(prefix string) []input.Command {
	if prefix != "" && !isCommandName(prefix) {
		return nil
	}
	return m.commandsFrom(prefix)
}

// commandsFrom lists the commands whose names start with prefix, sorted
// by name ("" lists them all).
func (m *Model) commandsFrom(prefix string) []input.Command {
	var out []input.Command
	for name, c := range m.commands {
		if strings.HasPrefix(name, prefix) {
			out = append(out, input.Command{Name: name, Desc: c.desc})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
