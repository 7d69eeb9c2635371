package dialog

import (
	"github.com/tick-agent/tick/agent/checkpoint"

	"fmt"

	"strings"

	"github.com/charmbracelet/x/ansi"

	"charm.land/bubbles/v2/key"

	"github.com/tick-agent/tick/ui/style"

	"charm.land/bubbletea/v2"
	"time"
)

// AnswerPause is how long the keyboard must rest before a question takes
// an answer key (Deliberate): keys typed faster go to the input.
const AnswerPause = 500 * time.Millisecond

// Height is the height of a dialog drawn over the bottom of an area h
// lines high: its bottom two thirds, at least 12 lines (at most h).
func Height(h int) int { return min(h, max(h*2/3, 12)) }

// Deliberate reports whether a key pressed at now answers a question shown
// at shown: the keyboard rested AnswerPause since the question appeared
// and since the previous key, at lastKey.
func Deliberate(now, shown, lastKey time.Time) bool {
	return now.Sub(shown) >= AnswerPause && now.Sub(lastKey) >= AnswerPause
}

// IsTyping reports whether k is text or enter: what a user typing a message
// presses, and what would answer the dialog. esc, ctrl+c and the scroll
// keys are never taken for typing.
func IsTyping(k tea.KeyPressMsg, keys style.KeyMap) bool {
	return k.Text != "" || key.Matches(k, keys.Send)
}

// IsErasing reports whether k edits what the input holds (backspace,
// ctrl+w, ...: keys.Erase): a question that sends typing aside to the
// input sends these after it, so a mistyped character can be taken back
// while the question waits.
func IsErasing(k tea.KeyPressMsg, keys style.KeyMap) bool {
	return key.Matches(k, keys.Erase)
}

// GuardLines is the line under a question's title while it waits for a
// deliberate answer (see AnswerPause), one clause a line when it does not
// fit in w; diverted says keys typed meanwhile went to the input.
func GuardLines(st *style.Styles, diverted bool, w int) []string {
	guard := "waiting for a deliberate answer · keys typed without a pause go to the input"
	if diverted {
		guard = "your typing went to the input · pause, then answer"
	}
	lines := clauseLines(guard, w)
	for i, l := range lines {
		lines[i] = st.DialogDesc.Render(l)
	}
	return lines
}

// clauseLines lays out a sentence of clauses joined by " · " in w cells:
// on one line when it fits, otherwise one clause a line, each wrapped, so
// a narrow dialog shows the whole sentence and breaks it where it reads
// well.
func clauseLines(s string, w int) []string {
	if ansi.StringWidth(s) <= w {
		return []string{s}
	}
	var out []string
	for _, c := range strings.Split(s, " · ") {
		out = append(out, style.WrapHard(c, w)...)
	}
	return out
}

// ChangeLines lists the files a restore changes back, one a line, in at
// most room lines (the last then says how many more are left out); none
// is the line shown when no file changes.
func ChangeLines(st *style.Styles, cs []checkpoint.Change, w, room int, none string) []string {
	out := make([]string, 0, len(cs))
	for _, c := range cs {
		look, what := st.DiffHunk, "changed back"
		switch c.Kind {
		case checkpoint.Created:
			look, what = st.DiffDel, "deleted (created since)"
		case checkpoint.Deleted:
			look, what = st.DiffAdd, "restored (deleted since)"
		}
		out = append(out, look.Render(style.TruncateWidth("  "+style.TermText(c.Path)+"  "+what, w, st.Glyphs.Ellipsis)))
	}
	if len(out) == 0 {
		out = append(out, st.DialogDesc.Render(none))
	}
	if len(out) > room {
		out = append(out[:room-1], st.DialogDesc.Render(fmt.Sprintf("  %s %d more", st.Glyphs.Ellipsis, len(out)-room+1)))
	}
	return out
}

// TypeAside hands a key typed while a question waits to the input.
type TypeAside struct{ Key tea.KeyPressMsg }

func (TypeAside) action() {}

// Ask reads k for a question that waits for a deliberate answer (/undo's
// and /rewind's confirmation; shown is when it appeared). Text typed
// without a pause, or text that is no answer, goes to the input (act is
// TypeAside; enter is held back: nothing is sent while the question is
// open) and sets *diverted, so the question says where the keys went;
// the erasing keys (IsErasing) go to the input too. Otherwise yes or no
// says which answer k gave.
func Ask(c Context, k tea.KeyPressMsg, keys style.UndoKeyMap, shown time.Time, diverted *bool) (yes, no bool, act Action) {
	switch {
	case IsErasing(k, c.Keys):
		return false, false, TypeAside{k}
	case IsTyping(k, c.Keys) && (!Deliberate(c.Now, shown, c.LastKey) || !key.Matches(k, keys.Confirm, keys.Cancel)):
		*diverted = true
		if key.Matches(k, c.Keys.Send) {
			return false, false, nil
		}
		return false, false, TypeAside{k}
	case key.Matches(k, keys.Confirm):
		return true, false, nil
	case key.Matches(k, keys.Cancel):
		return false, true, nil
	}
	return false, false, nil
}

// Asker is a dialog that asks a question a single typed key answers; the
// root holds such a key back a moment (ui.AnswerHold) so that the first
// key of a burst of typing answers nothing. AsksNow reports whether it
// asks now.
type Asker interface {
	Dialog
	AsksNow() bool
}

// ContextAsker is an Asker whose asking depends on the app: a proposed
// plan asks only while no turn runs and the input is empty. AsksIn
// reports whether it asks now, in the app c describes.
type ContextAsker interface {
	Dialog
	AsksIn(c Context) bool
}
