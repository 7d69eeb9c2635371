// Package input is the TUI's prompt box, a part the root ui routes to: a
// Model around a textarea that grows with its content, the prompt history
// walked with up and down, large pastes folded into tokens, and its two
// popups, the @ file picker (mention.go) and the / command completion
// (complete.go), whose state it owns. The root gives it the keys the
// popups and the root's own keys do not take (Update), asks the popups
// first (MentionKey, CompleteKey), and hands the popups what they read
// with each call: the app's file index (FileIndex) and its command list
// (Commands). It imports the style leaf, never the root ui.
package input

import (
	"github.com/tick-agent/tick/ui/style"

	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// Placeholders of the input.
const (
	PlaceholderIdle    = "Ask tick to do something…"
	PlaceholderRunning = "enter to steer · tab to queue · esc to interrupt"
)

// inputMaxLines is the most lines the input grows to. Large pastes
// (style.LargePaste) are kept aside and shown as one short token in the
// input, so that the textarea stays fast; the token is replaced by the
// text when the input is sent (Value).
const inputMaxLines = 10

// Model is the prompt box: a textarea that grows with its content, a prompt
// history walked with up/down on an empty input, large pastes folded
// into tokens, and the @ and / popups.
type Model struct {
	ta      textarea.Model
	keys    KeyMap
	width   int
	maxH    int
	hist    []string
	unsaved []string // remembered, not yet written to the history file
	pos     int      // index into hist while walking it; len(hist) otherwise
	draft   string   // what was typed before walking the history
	pastes  map[string]string
	nPaste  int

	// The input's popups: the @ file picker and the / completion.
	mention  mentionState
	complete completion

	// The last view and cursor, valid until the textarea changes.
	cache     string
	cacheCur  *tea.Cursor
	cacheGood bool
}

// New returns an empty, focused input drawn with st, taking keys.
func New(st *style.Styles, keys KeyMap) *Model {
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.Prompt = ""
	ta.Placeholder = PlaceholderIdle
	ta.DynamicHeight = true
	ta.MinHeight = 1
	ta.MaxHeight = inputMaxLines
	ta.MaxContentHeight = 5000
	ta.CharLimit = 0
	ta.EndOfBufferCharacter = ' '
	ta.SetPromptFunc(lipgloss.Width(st.Glyphs.InputPrompt), func(pi textarea.PromptInfo) string {
		if pi.LineNumber == 0 {
			return st.InputPrompt.Render(st.Glyphs.InputPrompt)
		}
		return st.Glyphs.InputCont
	})
	ta.SetStyles(inputStyles(st))
	ta.SetVirtualCursor(false)

	km := textarea.DefaultKeyMap()
	km.InsertNewline = keys.Newline
	km.LinePrevious = keys.LineUp
	km.LineNext = keys.LineDown
	km.DeleteCharacterForward = keys.DeleteForward
	for _, b := range []*key.Binding{&km.TransposeCharacterBackward, &km.SelectAll, &km.PageUp, &km.PageDown, &km.DeleteBeforeCursor} {
		b.Unbind()
	}
	ta.KeyMap = km
	ta.Focus()
	ta.SetHeight(1)
	in := &Model{ta: ta, keys: keys, pastes: map[string]string{}, maxH: inputMaxLines}
	in.mention.keys = keys.Mention
	return in
}

// inputStyles are the textarea's styles for st.
func inputStyles(st *style.Styles) textarea.Styles {
	s := textarea.DefaultStyles(st.Dark)
	s.Focused.CursorLine = lipgloss.NewStyle()
	s.Focused.Placeholder = st.Placeholder
	s.Blurred.Placeholder = st.Placeholder
	s.Focused.Text = lipgloss.NewStyle()
	s.Blurred.Text = st.Placeholder
	s.Blurred.CursorLine = st.Placeholder
	s.Cursor.Color = st.CursorColor
	s.Cursor.Blink = true // the terminal blinks the real cursor; no ticks here
	return s
}

// Restyle follows a change of the shared Styles.
func (in *Model) Restyle(st *style.Styles) {
	in.ta.SetStyles(inputStyles(st))
	in.cacheGood = false
}

// SetSize sets the width and the most lines the input may grow to.
func (in *Model) SetSize(w, maxH int) {
	maxH = max(min(maxH, inputMaxLines), 1)
	if maxH != in.maxH {
		in.cacheGood = false
		in.maxH = maxH
		in.ta.MaxHeight = maxH
		in.ta.SetHeight(in.ta.Height())
	}
	if w != in.width {
		in.cacheGood = false
		in.width = w
		in.ta.SetWidth(w)
	}
}

// Height is the number of lines the input shows now.
func (in *Model) Height() int { return max(in.ta.Height(), 1) }

// Update passes a key or a paste to the textarea (a large paste folded
// into a token).
func (in *Model) Update(msg tea.Msg) (*Model, tea.Cmd) {
	in.cacheGood = false
	if p, ok := msg.(tea.PasteMsg); ok && style.LargePaste(p.Content) {
		in.ta.InsertString(in.fold(p.Content))
		return in, nil
	}
	var cmd tea.Cmd
	in.ta, cmd = in.ta.Update(msg)
	return in, cmd
}

// fold keeps s aside and returns the token that stands for it.
func (in *Model) fold(s string) string {
	in.nPaste++
	tok := fmt.Sprintf("[Pasted text #%d · %s]", in.nPaste, style.Plural(strings.Count(strings.TrimRight(s, "\n"), "\n")+1, "line"))
	in.pastes[tok] = s
	return tok
}

// Raw is the textarea's text, with paste tokens.
func (in *Model) Raw() string { return in.ta.Value() }

// Value is the text to send: paste tokens replaced by what they stand for.
func (in *Model) Value() string {
	v := in.Raw()
	for tok, s := range in.pastes {
		v = strings.ReplaceAll(v, tok, s)
	}
	return v
}

// Empty reports whether nothing is typed.
func (in *Model) Empty() bool { return in.Raw() == "" }

// Reset clears the input.
func (in *Model) Reset() {
	in.cacheGood = false
	in.ta.Reset()
	in.pastes = map[string]string{}
	in.pos = len(in.hist)
	in.draft = ""
}

// SetValue replaces the input with s; a large s is folded into a token.
func (in *Model) SetValue(s string) {
	in.cacheGood = false
	in.Reset()
	if style.LargePaste(s) {
		s = in.fold(s)
	}
	in.ta.SetValue(s)
}

// Remember adds a sent prompt to the history.
func (in *Model) Remember(s string) {
	if strings.TrimSpace(s) == "" {
		return
	}
	if n := len(in.hist); n == 0 || in.hist[n-1] != s {
		in.hist = append(in.hist, s)
		in.unsaved = append(in.unsaved, s)
	}
	in.pos = len(in.hist)
}

// Load puts prompts saved by earlier runs before this run's history.
func (in *Model) Load(saved []string) {
	if len(saved) == 0 {
		return
	}
	walking := in.pos < len(in.hist)
	in.hist = append(append([]string(nil), saved...), in.hist...)
	if walking {
		in.pos += len(saved)
	} else {
		in.pos = len(in.hist)
	}
}

// Walking reports whether the input shows an unchanged history entry.
func (in *Model) Walking() bool {
	return in.pos < len(in.hist) && in.Value() == in.hist[in.pos]
}

// CanPrev reports whether up walks the history now.
func (in *Model) CanPrev() bool {
	return len(in.hist) > 0 && (in.Empty() || in.Walking())
}

// Prev shows the previous prompt.
func (in *Model) Prev() {
	if !in.Walking() {
		in.draft = in.Value()
		in.pos = len(in.hist)
	}
	if in.pos > 0 {
		in.pos--
		in.show(in.hist[in.pos])
	}
}

// Next shows the next prompt, or what was typed before walking.
func (in *Model) Next() {
	if !in.Walking() {
		return
	}
	in.pos++
	if in.pos >= len(in.hist) {
		in.pos = len(in.hist)
		in.show(in.draft)
		return
	}
	in.show(in.hist[in.pos])
}

// show puts s in the textarea, folding it when large.
func (in *Model) show(s string) {
	in.cacheGood = false
	if style.LargePaste(s) {
		s = in.fold(s)
	}
	in.ta.SetValue(s)
}

// SetRunning switches the placeholder between idle and running.
func (in *Model) SetRunning(running bool) {
	in.cacheGood = false
	if running {
		in.ta.Placeholder = PlaceholderRunning
	} else {
		in.ta.Placeholder = PlaceholderIdle
	}
}

// SetPlaceholder shows text as the empty input's placeholder.
func (in *Model) SetPlaceholder(text string) {
	in.cacheGood = false
	in.ta.Placeholder = text
}

// Focus and blur the textarea (blurred while a dialog is open).
func (in *Model) Focus() {
	in.cacheGood = false
	in.ta.Focus()
}

// Blur takes the focus away (see Focus).
func (in *Model) Blur() {
	in.cacheGood = false
	in.ta.Blur()
}

// View renders the input; it is drawn again only after a change.
func (in *Model) View() string {
	in.refresh()
	return in.cache
}

// Cursor is the terminal cursor, relative to the input's top-left cell,
// or nil when the input has no focus.
func (in *Model) Cursor() *tea.Cursor {
	in.refresh()
	if in.cacheCur == nil {
		return nil
	}
	c := *in.cacheCur
	return &c
}

func (in *Model) refresh() {
	if in.cacheGood {
		return
	}
	in.cache, in.cacheCur, in.cacheGood = in.ta.View(), in.ta.Cursor(), true
}

// NormalizeNewlines makes every line break LF: CRLF and a lone CR (what
// terminals send for enter inside a paste) become "\n".
func NormalizeNewlines(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// Placeholder is the placeholder the empty input shows now.
func (in *Model) Placeholder() string { return in.ta.Placeholder }

// TakeUnsaved returns the prompts remembered since the last call, for the
// history file, and forgets them.
func (in *Model) TakeUnsaved() []string {
	u := in.unsaved
	in.unsaved = nil
	return u
}

// PasteKey is the textarea's paste binding (ctrl+v), which the root
// checks for a clipboard image first.
func (in *Model) PasteKey() key.Binding { return in.ta.KeyMap.Paste }

// Insert types s at the cursor.
func (in *Model) Insert(s string) {
	in.cacheGood = false
	in.ta.InsertString(s)
}
