package dialog

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/ui/style"
)

// RewindStep is where the /rewind dialog is: choosing a point, choosing
// what to restore, or confirming.
type RewindStep int

// The steps of /rewind, in order.
const (
	RewindList    RewindStep = iota // choosing a point
	RewindScope                     // choosing what goes back
	RewindConfirm                   // the deliberate confirmation
)

// Rewind is /rewind: the points newest first (each message and each item,
// with the files restoring it would change), then what to restore, then
// the undo confirmation's deliberate key. Only that last step changes
// anything (it returns RewindTo); like the undo confirmation it takes its
// key only after a pause (see AnswerPause), and text typed meanwhile goes
// to the input.
type Rewind struct {
	keys     style.RewindKeyMap
	confirm  style.UndoKeyMap
	pts      []agent.RewindPoint
	sel      int
	step     RewindStep
	scopes   []agent.RewindScope // what the selected point can restore
	scopeSel int
	shown    time.Time // when the confirmation showed
	diverted bool      // keys typed while it was open went to the input
}

// RewindTo rewinds Scope to before the point whose ID is Point, off the
// update loop; the root applies what the rewind did.
type RewindTo struct {
	Point string
	Scope agent.RewindScope
}

func (RewindTo) action() {}

// NewRewind returns /rewind's list of pts (newest first); confirm are the
// undo confirmation's keys, which answer its last step.
func NewRewind(keys style.RewindKeyMap, confirm style.UndoKeyMap, pts []agent.RewindPoint) *Rewind {
	return &Rewind{keys: keys, confirm: confirm, pts: pts}
}

// Layer puts /rewind with the undo confirmation.
func (r *Rewind) Layer() int { return LayerUndo }

// AsksNow reports whether the confirmation shows: only then does a single
// key answer.
func (r *Rewind) AsksNow() bool { return r.step == RewindConfirm }

// Step reports where the dialog is.
func (r *Rewind) Step() RewindStep { return r.step }

// Update takes the keys while the dialog is open; a paste and the wheel
// pass to the screen below.
func (r *Rewind) Update(c Context, msg tea.Msg) (Action, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, false
	}
	if r.step == RewindConfirm {
		return r.confirmKey(c, k), true
	}
	return r.chooseKey(c, k), true
}

// chooseKey handles a key while a point or a scope is chosen (nothing
// changes yet); text the dialog has no use for goes to the input.
func (r *Rewind) chooseKey(c Context, k tea.KeyPressMsg) Action {
	keys := r.keys
	switch {
	case key.Matches(k, keys.Back):
		if r.step == RewindScope {
			r.step = RewindList
			return nil
		}
		return cancelRewind()
	case key.Matches(k, keys.Up):
		r.move(-1)
	case key.Matches(k, keys.Down):
		r.move(1)
	case key.Matches(k, keys.Choose) && r.step == RewindList:
		r.chooseScope()
	case key.Matches(k, keys.Choose):
		r.ask(c, r.scopes[r.scopeSel])
	case r.step == RewindScope && key.Matches(k, keys.Files, keys.Conversation, keys.Both):
		want := agent.RewindFiles
		if key.Matches(k, keys.Conversation) {
			want = agent.RewindConversation
		} else if key.Matches(k, keys.Both) {
			want = agent.RewindBoth
		}
		for _, s := range r.scopes {
			if s == want {
				r.ask(c, s)
			}
		}
	case IsTyping(k, c.Keys) && !key.Matches(k, c.Keys.Send), IsErasing(k, c.Keys):
		return TypeAside{k}
	}
	return nil
}

// move moves the selection of the current step by d.
func (r *Rewind) move(d int) {
	if r.step == RewindScope {
		r.scopeSel = min(max(r.scopeSel+d, 0), len(r.scopes)-1)
		return
	}
	r.sel = min(max(r.sel+d, 0), len(r.pts)-1)
}

// chooseScope goes on to the choice of what to restore for the selected
// point: a point without a snapshot of the files offers the conversation
// only.
func (r *Rewind) chooseScope() {
	if len(r.pts) == 0 {
		return
	}
	r.scopes = []agent.RewindScope{agent.RewindFiles, agent.RewindConversation, agent.RewindBoth}
	if r.pts[r.sel].NoFiles {
		r.scopes = []agent.RewindScope{agent.RewindConversation}
	}
	r.scopeSel, r.step = 0, RewindScope
}

// ask shows the confirmation for scope.
func (r *Rewind) ask(c Context, scope agent.RewindScope) {
	r.scopes, r.scopeSel = []agent.RewindScope{scope}, 0
	r.step, r.shown = RewindConfirm, c.Now
}

// confirmKey is the undo confirmation's key handling (see Ask): only a
// deliberate key answers.
func (r *Rewind) confirmKey(c Context, k tea.KeyPressMsg) Action {
	yes, no, act := Ask(c, k, r.confirm, r.shown, &r.diverted)
	switch {
	case yes:
		return Seq{Close{}, FocusInput{}, RewindTo{Point: r.pts[r.sel].ID, Scope: r.scopes[0]}}
	case no:
		return cancelRewind()
	}
	return act
}

// cancelRewind closes the dialog, having changed nothing.
func cancelRewind() Action {
	return Seq{Close{}, FocusInput{}, Notice{"/rewind cancelled: nothing changed"}}
}

// View draws the dialog over the bottom of the area (Height).
func (r *Rewind) View(c Context, w, h int) []string {
	st := c.St
	h = Height(h)
	iw := max(w-4, 10)
	var lines []string
	switch r.step {
	case RewindList:
		lines = r.listLines(st, iw, max(h-5, 2))
	case RewindScope:
		lines = r.scopeLines(st, iw)
	default:
		lines = r.confirmLines(st, iw, h)
	}
	return strings.Split(st.DialogBox.Render(strings.Join(lines, "\n")), "\n")
}

// listLines draws the points, two lines each (the point, the files
// restoring it would change), the selection kept in view in h lines.
func (r *Rewind) listLines(st *style.Styles, w, h int) []string {
	out := []string{st.DialogTitle.Render("Rewind to before… (newest first)")}
	per := max((h-2)/2, 1)
	first := min(max(r.sel-per+1, 0), max(len(r.pts)-per, 0))
	for i := first; i < len(r.pts) && i < first+per; i++ {
		p := r.pts[i]
		mark := "  "
		look := st.DialogText
		if i == r.sel {
			mark, look = st.Glyphs.Selected+" ", st.PlanSelected
		}
		label := "“" + style.OneLine(p.Text) + "”"
		switch p.Kind {
		case agent.PointItem:
			label = "item #" + style.OneLine(p.Item) + " " + style.OneLine(p.Text)
		case agent.PointApply:
			label = style.OneLine(p.Text)
		}
		head := mark + p.At.Local().Format("15:04") + "  " + label
		out = append(out, look.Render(style.TruncateWidth(head, w, st.Glyphs.Ellipsis)),
			st.DialogDesc.Render(style.TruncateWidth("     "+filesSummary(p), w, st.Glyphs.Ellipsis)))
	}
	k := r.keys
	return append(out, style.HelpLine(st, k.Up, k.Down, k.Choose, k.Back))
}

// filesSummary says which files going back to p would change.
func filesSummary(p agent.RewindPoint) string {
	if p.NoFiles {
		return "no snapshot of the files (interrupted): conversation only"
	}
	sum := "no file changed since"
	if len(p.Files) > 0 {
		names := make([]string, 0, min(len(p.Files), 8))
		for i, c := range p.Files {
			if i == 8 {
				break
			}
			names = append(names, style.TermText(c.Path))
		}
		sum = style.Plural(len(p.Files), "file") + ": " + strings.Join(names, ", ")
	}
	for _, k := range p.NotKept {
		sum += "; " + style.TermText(k.Path) + " " + style.TermText(k.Why)
	}
	return sum
}

// scopeLines draws the choice of what to restore.
func (r *Rewind) scopeLines(st *style.Styles, w int) []string {
	p := r.pts[r.sel]
	out := []string{st.DialogTitle.Render(style.TruncateWidth("Rewind to before "+PointLabel(p), w, st.Glyphs.Ellipsis)),
		st.DialogText.Render("What goes back?")}
	for i, s := range r.scopes {
		mark, look := "  ", st.DialogText
		if i == r.scopeSel {
			mark, look = st.Glyphs.Selected+" ", st.PlanSelected
		}
		out = append(out, look.Render(style.TruncateWidth(mark+scopeText(s, p), w, st.Glyphs.Ellipsis)))
	}
	k := r.keys
	return append(out, style.HelpLine(st, k.Files, k.Conversation, k.Both, k.Choose, k.Back))
}

// scopeText describes what restoring scope to p does.
func scopeText(s agent.RewindScope, p agent.RewindPoint) string {
	switch s {
	case agent.RewindFiles:
		return fmt.Sprintf("files         the workspace as it was (%s); the conversation stays", style.Plural(len(p.Files), "file"))
	case agent.RewindConversation:
		return fmt.Sprintf("conversation  drop the %s after it; the files stay as they are", style.Plural(p.Messages, "message"))
	}
	return fmt.Sprintf("both          the files (%s) and the conversation (%s dropped)", style.Plural(len(p.Files), "file"), style.Plural(p.Messages, "message"))
}

// confirmLines draws the confirmation in at most h lines.
func (r *Rewind) confirmLines(st *style.Styles, w, h int) []string {
	p, scope := r.pts[r.sel], r.scopes[0]
	what := map[agent.RewindScope]string{agent.RewindFiles: "the files", agent.RewindConversation: "the conversation",
		agent.RewindBoth: "the files and the conversation"}[scope]
	out := []string{st.DialogTitle.Render(style.TruncateWidth("Rewind "+what+" to before "+PointLabel(p), w, st.Glyphs.Ellipsis))}
	out = append(out, GuardLines(st, r.diverted, w)...)
	if scope != agent.RewindFiles {
		out = append(out, st.DialogText.Render(style.TruncateWidth(fmt.Sprintf("The conversation drops the %s after it.", style.Plural(p.Messages, "message")), w, st.Glyphs.Ellipsis)))
	}
	if scope != agent.RewindConversation {
		out = append(out, st.DialogText.Render("The workspace goes back to its state then:"))
		out = append(out, ChangeLines(st, p.Files, w, max(h-4-len(out)-len(p.NotKept), 1), "  no file changed since")...)
		for _, k := range p.NotKept { // left as they are: say so, not "no file changed"
			out = append(out, st.DialogDesc.Render(style.TruncateWidth("  "+style.TermText(k.Path)+"  "+style.TermText(k.Why), w, st.Glyphs.Ellipsis)))
		}
	}
	yes := key.NewBinding(key.WithHelp(r.confirm.Confirm.Help().Key, "rewind"))
	return append(out, style.HelpLine(st, yes, r.confirm.Cancel))
}

// PointLabel names a point: the message "…", item #N text, or the apply
// of a task.
func PointLabel(p agent.RewindPoint) string {
	switch p.Kind {
	case agent.PointItem:
		return style.OneLine("item #" + p.Item + " " + p.Text)
	case agent.PointApply:
		return style.OneLine(p.Text)
	}
	return "the message “" + style.OneLine(p.Text) + "”"
}
