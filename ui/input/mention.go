package input

import (
	"regexp"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tick-agent/tick/agent/mention"
	"github.com/tick-agent/tick/ui/style"
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
	keys    style.MentionKeyMap
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

// MentionQuery returns the query after an @ at the end of the input, and
// where the @ starts; ok is false when none is being typed or the app has
// no file index (files nil).
func (in *Model) MentionQuery(files FileIndex) (query string, at int, ok bool) {
	if files == nil {
		return "", 0, false
	}
	raw := in.Raw()
	if raw == in.mention.closed {
		return "", 0, false
	}
	loc := mentionTail.FindStringSubmatchIndex(raw)
	if loc == nil {
		return "", 0, false
	}
	return raw[loc[2]:loc[3]], loc[2] - 1, true
}

// MentionRefresh starts a search of files (nil: the app has no index)
// when the query changed; nil otherwise. The root calls it after every
// message.
func (in *Model) MentionRefresh(files FileIndex) tea.Cmd {
	q, _, ok := in.MentionQuery(files)
	if !ok || (q == in.mention.asked && (in.mention.asking || q == in.mention.query)) {
		return nil
	}
	return in.mentionSearch(q, files)
}

// mentionSearch matches q against the index off the update loop.
func (in *Model) mentionSearch(q string, files FileIndex) tea.Cmd {
	in.mention.asked, in.mention.asking = q, true
	return func() tea.Msg {
		paths, done := files.Files()
		return mentionResultsMsg{query: q, results: mention.Match(paths, q, mentionResults), done: done}
	}
}

// HandleMentionMsg applies the picker's messages (a search of files);
// ok is false for others.
func (in *Model) HandleMentionMsg(msg tea.Msg, files FileIndex) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case mentionResultsMsg:
		ms := &in.mention
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
		if q, _, ok := in.MentionQuery(files); ok && q == msg.query && !in.mention.asking {
			return in.mentionSearch(q, files), true
		}
	default:
		return nil, false
	}
	return nil, true
}

// mentionOpen reports whether the picker shows matches for the input.
func (in *Model) mentionOpen(files FileIndex) bool {
	q, _, ok := in.MentionQuery(files)
	return ok && q == in.mention.query && len(in.mention.results) > 0
}

// MentionKey handles a key while the picker (of files) is open; ok is
// false when it is closed or has no use for the key.
func (in *Model) MentionKey(k tea.KeyPressMsg, files FileIndex) (tea.Cmd, bool) {
	if !in.mentionOpen(files) {
		return nil, false
	}
	ms := &in.mention
	n := len(ms.results)
	ms.sel = min(ms.sel, n-1)
	switch {
	case key.Matches(k, ms.keys.Up):
		ms.sel = (ms.sel + n - 1) % n
	case key.Matches(k, ms.keys.Down):
		ms.sel = (ms.sel + 1) % n
	case key.Matches(k, ms.keys.Close):
		ms.closed = in.Raw()
	case key.Matches(k, ms.keys.Insert):
		_, at, _ := in.MentionQuery(files)
		raw := in.Raw()
		in.SetValue(raw[:at] + "@" + termsafe.Line(ms.results[ms.sel]) + " ") // a file name is untrusted
		ms.sel, ms.results, ms.query = 0, nil, ""
	default:
		return nil, false
	}
	return nil, true
}

// MentionView renders the picker (of files) with st as a box of width w
// and at most h lines, drawn at the bottom of the area above the input;
// nil when closed.
func (in *Model) MentionView(st *style.Styles, files FileIndex, w, h int) []string {
	if !in.mentionOpen(files) || h < 3 {
		return nil
	}
	ms := &in.mention
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
		l := style.TruncateWidth(mark+"@"+termsafe.Line(ms.results[i]), iw, st.Glyphs.Ellipsis) // a file name is untrusted
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
	lines = append(lines, st.DialogDesc.Render(style.TruncateWidth(foot, iw, st.Glyphs.Ellipsis)))
	return strings.Split(st.DialogBox.Render(strings.Join(lines, "\n")), "\n")
}
