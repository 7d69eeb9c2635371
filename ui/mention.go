package ui

import (
	"regexp"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tick-agent/tick/agent/mention"
	"github.com/tick-agent/tick/ui/termsafe"
)

// Limits of the @ picker.
const (
	mentionMax     = 8                      // rows shown
	mentionResults = 50                     // matches kept per query
	mentionRetry   = 250 * time.Millisecond // next look while the index grows
)

// mentionTail finds an @ mention being typed at the end of the input.
var mentionTail = regexp.MustCompile(`(?:^|\s)@([^\s@]*)$`)

// mentionState is the @ picker: the query being typed after @, the
// matches found for it off the update loop, and the selection.
type mentionState struct {
	keys    MentionKeyMap
	asked   string // the query last searched (or being searched)
	asking  bool
	query   string   // the query the results are for
	results []string // best first
	done    bool     // the index was complete for these results
	sel     int
	closed  string // the input for which esc closed the picker
}

// mentionResultsMsg carries the matches for query.
type mentionResultsMsg struct {
	query   string
	results []string
	done    bool
}

// mentionRetryMsg asks for the matches of query again (the index grew).
type mentionRetryMsg struct{ query string }

// mentionQuery returns the query after an @ at the end of the input, and
// where the @ starts; ok is false when none is being typed.
func (m *Model) mentionQuery() (query string, at int, ok bool) {
	if !m.cfg.Services.Offers().Files {
		return "", 0, false
	}
	raw := m.input.raw()
	if raw == m.input.mention.closed {
		return "", 0, false
	}
	loc := mentionTail.FindStringSubmatchIndex(raw)
	if loc == nil {
		return "", 0, false
	}
	return raw[loc[2]:loc[3]], loc[2] - 1, true
}

// mentionRefresh starts a search when the query changed; nil otherwise.
// The root calls it after every message.
func (m *Model) mentionRefresh() tea.Cmd {
	q, _, ok := m.mentionQuery()
	if !ok || (q == m.input.mention.asked && (m.input.mention.asking || q == m.input.mention.query)) {
		return nil
	}
	return m.mentionSearch(q)
}

// mentionSearch matches q against the index off the update loop.
func (m *Model) mentionSearch(q string) tea.Cmd {
	m.input.mention.asked, m.input.mention.asking = q, true
	svc := m.cfg.Services
	return func() tea.Msg {
		paths, done := svc.Files()
		return mentionResultsMsg{query: q, results: mention.Match(paths, q, mentionResults), done: done}
	}
}

// handleMentionMsg applies the picker's messages; ok is false for others.
func (m *Model) handleMentionMsg(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case mentionResultsMsg:
		ms := &m.input.mention
		if msg.query == ms.asked {
			ms.asking = false
		}
		if msg.query != ms.query {
			ms.sel = 0
		}
		ms.query, ms.results, ms.done = msg.query, msg.results, msg.done
		if !msg.done {
			q := msg.query
			return tea.Tick(mentionRetry, func(time.Time) tea.Msg { return mentionRetryMsg{q} }), true
		}
	case mentionRetryMsg:
		if q, _, ok := m.mentionQuery(); ok && q == msg.query && !m.input.mention.asking {
			return m.mentionSearch(q), true
		}
	default:
		return nil, false
	}
	return nil, true
}

// mentionOpen reports whether the picker shows matches for the input.
func (m *Model) mentionOpen() bool {
	q, _, ok := m.mentionQuery()
	return ok && q == m.input.mention.query && len(m.input.mention.results) > 0
}

// mentionKey handles a key while the picker is open; ok is false when it
// is closed or has no use for the key.
func (m *Model) mentionKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	if !m.mentionOpen() {
		return nil, false
	}
	ms := &m.input.mention
	n := len(ms.results)
	ms.sel = min(ms.sel, n-1)
	switch {
	case key.Matches(k, ms.keys.Up):
		ms.sel = (ms.sel + n - 1) % n
	case key.Matches(k, ms.keys.Down):
		ms.sel = (ms.sel + 1) % n
	case key.Matches(k, ms.keys.Close):
		ms.closed = m.input.raw()
	case key.Matches(k, ms.keys.Insert):
		_, at, _ := m.mentionQuery()
		raw := m.input.raw()
		m.input.setValue(raw[:at] + "@" + termsafe.Line(ms.results[ms.sel]) + " ") // a file name is untrusted
		ms.sel, ms.results, ms.query = 0, nil, ""
	default:
		return nil, false
	}
	return nil, true
}

// mentionView renders the picker as a box of width w and at most h lines,
// drawn at the bottom of the area above the input; nil when closed.
func (m *Model) mentionView(w, h int) []string {
	if !m.mentionOpen() || h < 3 {
		return nil
	}
	st, ms := m.st, &m.input.mention
	iw := max(w-4, 1)
	sel := min(ms.sel, len(ms.results)-1)
	n := min(len(ms.results), mentionMax, h-3)
	first := max(sel-n+1, 0)
	var lines []string
	for i := first; i < first+n; i++ {
		mark := "  "
		if i == sel {
			mark = st.Glyphs.UserPrompt
		}
		l := ansi.Truncate(mark+"@"+termsafe.Line(ms.results[i]), iw, st.Glyphs.Ellipsis) // a file name is untrusted
		l += strings.Repeat(" ", max(iw-ansi.StringWidth(l), 0))
		if i == sel {
			lines = append(lines, st.PickerSel.Render(l))
		} else {
			lines = append(lines, st.DialogText.Render(l))
		}
	}
	foot := "tab/enter inserts · esc closes"
	if !ms.done {
		foot = "still indexing the workspace… · " + foot
	}
	lines = append(lines, st.DialogDesc.Render(ansi.Truncate(foot, iw, st.Glyphs.Ellipsis)))
	return strings.Split(st.DialogBox.Render(strings.Join(lines, "\n")), "\n")
}
