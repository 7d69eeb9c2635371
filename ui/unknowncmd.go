package ui

import (
	"github.com/tick-agent/tick/ui/style"

	"sort"
	"strings"
	"unicode"

	tea "charm.land/bubbletea/v2"
)

// unknownCommand handles text t that starts with "/" and is not a command
// tick runs. A first word that looks like a command name ("/foo", "/foo
// bar") and is not one is not sent to the model at once: the chat says it
// is unknown, names the closest command, and keeps the text in the input,
// so that enter again (with t unchanged, refused being the text the last
// enter refused) sends it as a message. A word with a second "/" (a path,
// "/etc/hosts is wrong") and a known command given words it takes none of
// are sent as typed. ok false means: send t.
func (m *Model) unknownCommand(t, refused string) (cmd tea.Cmd, ok bool) {
	word := strings.FieldsFunc(t, unicode.IsSpace)[0]
	name := strings.ToLower(word[1:])
	if !isCommandName(name) || t == refused {
		return nil, false
	}
	if _, known := m.commands[name]; known {
		return nil, false
	}
	m.unknownCmd = t
	note := "unknown command " + style.OneLine(word) + " — enter again to send it as a message"
	if near := m.closestCommand(name); near != "" {
		note += " · did you mean /" + near + "?"
	} else {
		note += " · /help lists the commands"
	}
	m.chat.AddNotice(note)
	m.chat.ToBottom()
	return nil, true
}

// closestCommand returns the command (built-in or the user's) nearest to
// name: one that starts with it, or else one at most two edits away; ""
// when none is that close. Ties go to the first name in sorted order.
func (m *Model) closestCommand(name string) string {
	names := make([]string, 0, len(m.commands)+len(m.custom))
	for n := range m.commands {
		names = append(names, n)
	}
	for n := range m.custom {
		names = append(names, strings.ToLower(n))
	}
	sort.Strings(names)
	best, bestD := "", 3
	for _, n := range names {
		if strings.HasPrefix(n, name) {
			return n
		}
		if d := editDistance(name, n); d < bestD && d < len(name) {
			best, bestD = n, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
