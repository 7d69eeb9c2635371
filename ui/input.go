package ui

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
	placeholderIdle    = "Ask tick to do something…"
	placeholderRunning = "enter to steer · tab to queue · esc to interrupt"
)

// Large pastes (style.LargePaste) are kept aside and shown as one short
// token in the input, so that the textarea stays fast; the token is
// replaced by the text when the input is sent.
const inputMaxLines = 10 // most lines the input grows to

// input is the prompt box: a textarea that grows with its content, a prompt
// history walked with up/down on an empty input, and large pastes folded
// into tokens.
type input struct {
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

func newInput(st *Styles, keys KeyMap) *input {
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.Prompt = ""
	ta.Placeholder = placeholderIdle
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
	km.InsertNewline = key.NewBinding(key.WithKeys(keys.Newline.Keys()...))
	km.LinePrevious = key.NewBinding(key.WithKeys("up"))
	km.LineNext = key.NewBinding(key.WithKeys("down"))
	km.DeleteCharacterForward = key.NewBinding(key.WithKeys("delete"))
	for _, b := range []*key.Binding{&km.TransposeCharacterBackward, &km.SelectAll, &km.PageUp, &km.PageDown, &km.DeleteBeforeCursor} {
		b.Unbind()
	}
	ta.KeyMap = km
	ta.Focus()
	ta.SetHeight(1)
	return &input{ta: ta, keys: keys, pastes: map[string]string{}, maxH: inputMaxLines}
}

// inputStyles are the textarea's styles for st.
func inputStyles(st *Styles) textarea.Styles {
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

// restyle follows a change of the shared Styles.
func (in *input) restyle(st *Styles) {
	in.ta.SetStyles(inputStyles(st))
	in.cacheGood = false
}

// setSize sets the width and the most lines the input may grow to.
func (in *input) setSize(w, maxH int) {
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

// height is the number of lines the input shows now.
func (in *input) height() int { return max(in.ta.Height(), 1) }

// update passes a key or a paste to the textarea.
func (in *input) update(msg tea.Msg) tea.Cmd {
	in.cacheGood = false
	if p, ok := msg.(tea.PasteMsg); ok && style.LargePaste(p.Content) {
		in.ta.InsertString(in.fold(p.Content))
		return nil
	}
	var cmd tea.Cmd
	in.ta, cmd = in.ta.Update(msg)
	return cmd
}

// fold keeps s aside and returns the token that stands for it.
func (in *input) fold(s string) string {
	in.nPaste++
	tok := fmt.Sprintf("[Pasted text #%d · %s]", in.nPaste, style.Plural(strings.Count(strings.TrimRight(s, "\n"), "\n")+1, "line"))
	in.pastes[tok] = s
	return tok
}

// raw is the textarea's text, with paste tokens.
func (in *input) raw() string { return in.ta.Value() }

// value is the text to send: paste tokens replaced by what they stand for.
func (in *input) value() string {
	v := in.raw()
	for tok, s := range in.pastes {
		v = strings.ReplaceAll(v, tok, s)
	}
	return v
}

// empty reports whether nothing is typed.
func (in *input) empty() bool { return in.raw() == "" }

// reset clears the input.
func (in *input) reset() {
	in.cacheGood = false
	in.ta.Reset()
	in.pastes = map[string]string{}
	in.pos = len(in.hist)
	in.draft = ""
}

// setValue replaces the input with s; a large s is folded into a token.
func (in *input) setValue(s string) {
	in.cacheGood = false
	in.reset()
	if style.LargePaste(s) {
		s = in.fold(s)
	}
	in.ta.SetValue(s)
}

// remember adds a sent prompt to the history.
func (in *input) remember(s string) {
	if strings.TrimSpace(s) == "" {
		return
	}
	if n := len(in.hist); n == 0 || in.hist[n-1] != s {
		in.hist = append(in.hist, s)
		in.unsaved = append(in.unsaved, s)
	}
	in.pos = len(in.hist)
}

// load puts prompts saved by earlier runs before this run's history.
func (in *input) load(saved []string) {
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

// walking reports whether the input shows an unchanged history entry.
func (in *input) walking() bool {
	return in.pos < len(in.hist) && in.value() == in.hist[in.pos]
}

// canPrev reports whether up walks the history now.
func (in *input) canPrev() bool {
	return len(in.hist) > 0 && (in.empty() || in.walking())
}

// prev shows the previous prompt.
func (in *input) prev() {
	if !in.walking() {
		in.draft = in.value()
		in.pos = len(in.hist)
	}
	if in.pos > 0 {
		in.pos--
		in.show(in.hist[in.pos])
	}
}

// next shows the next prompt, or what was typed before walking.
func (in *input) next() {
	if !in.walking() {
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
func (in *input) show(s string) {
	in.cacheGood = false
	if style.LargePaste(s) {
		s = in.fold(s)
	}
	in.ta.SetValue(s)
}

// setRunning switches the placeholder between idle and running.
func (in *input) setRunning(running bool) {
	in.cacheGood = false
	if running {
		in.ta.Placeholder = placeholderRunning
	} else {
		in.ta.Placeholder = placeholderIdle
	}
}

// setPlaceholder shows text as the empty input's placeholder.
func (in *input) setPlaceholder(text string) {
	in.cacheGood = false
	in.ta.Placeholder = text
}

// focus and blur the textarea (blurred while a dialog is open).
func (in *input) focus() {
	in.cacheGood = false
	in.ta.Focus()
}

func (in *input) blur() {
	in.cacheGood = false
	in.ta.Blur()
}

// view renders the input; it is drawn again only after a change.
func (in *input) view() string {
	in.refresh()
	return in.cache
}

// cursor is the terminal cursor, relative to the input's top-left cell,
// or nil when the input has no focus.
func (in *input) cursor() *tea.Cursor {
	in.refresh()
	if in.cacheCur == nil {
		return nil
	}
	c := *in.cacheCur
	return &c
}

func (in *input) refresh() {
	if in.cacheGood {
		return
	}
	in.cache, in.cacheCur, in.cacheGood = in.ta.View(), in.ta.Cursor(), true
}

// normalizeNewlines makes every line break LF: CRLF and a lone CR (what
// terminals send for enter inside a paste) become "\n".
func normalizeNewlines(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}
