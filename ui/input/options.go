package input

import (
	"charm.land/bubbles/v2/key"

	"github.com/tick-agent/tick/ui/style"
)

// KeyMap is the input's keys: the line break, the textarea's own that
// differ from its defaults, and its popups' (the @ picker's; the / popup's
// complete, select, close and run).
type KeyMap struct {
	Newline       key.Binding
	LineUp        key.Binding // the line above, in a prompt of several lines
	LineDown      key.Binding // the line below
	DeleteForward key.Binding // the character under the cursor
	Mention       style.MentionKeyMap
	Complete      key.Binding // the / popup: complete the selected command, a space after it
	Prev          key.Binding // the / popup: select the one above
	Next          key.Binding // the / popup: select the one below
	Dismiss       key.Binding // the / popup: close it until the input changes
	Run           key.Binding // the / popup: run the selected command
}

// NewKeyMap is the input's part of the TUI's keys k.
func NewKeyMap(k style.KeyMap) KeyMap {
	return KeyMap{
		Newline:       key.NewBinding(key.WithKeys(k.Newline.Keys()...)),
		LineUp:        key.NewBinding(key.WithKeys("up")),
		LineDown:      key.NewBinding(key.WithKeys("down")),
		DeleteForward: key.NewBinding(key.WithKeys("delete")),
		Mention:       style.DefaultMentionKeyMap(),
		Complete:      k.Queue, Prev: k.HistoryPrev, Next: k.HistoryNext, Dismiss: k.Dismiss, Run: k.Send,
	}
}

// FileIndex is the app's index of the workspace's files that the @ picker
// matches against: paths, and done when the index is complete. Files is
// called off the update loop.
type FileIndex interface {
	Files() (paths []string, done bool)
}

// Command is a slash command the / popup offers.
type Command struct{ Name, Desc string }

// Commands lists the commands whose names start with prefix (lower case,
// "" for all), sorted by name; none when prefix cannot start a command's
// name.
type Commands func(prefix string) []Command
