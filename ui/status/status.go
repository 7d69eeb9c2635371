// Package status draws the one-line status bar at the foot of the TUI:
// what the turn does, the model, the workspace, the context in use and
// the key to press, shortened and dropped by priority on a narrow
// terminal. It knows nothing of the root model: the root fills an Info.
package status

import (
	"github.com/tick-agent/tick/agent/humanize"

	"github.com/tick-agent/tick/ui/style"

	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Activity is what a running turn is doing, for the status bar.
type Activity uint8

const (
	ActIdle Activity = iota
	ActThinking
	ActAnswering
	ActTool
	ActApproval
	ActInterrupting
	ActCompacting // a compaction (/compact) runs as the turn
	ActPaused     // paused at a gate; tool holds the item ("#2")
)

// QuietAfter is how long a model call may go without any event before the
// status bar says that tick is waiting for the server.
const QuietAfter = 5 * time.Second

// Info is everything the status bar shows.
type Info struct {
	Model, Workspace string
	Act              Activity
	Tool             string // the running tool (ActTool)
	Spin             string // spinner frame, unstyled
	Elapsed          time.Duration
	Quiet            time.Duration // a model call's silence, once past QuietAfter
	Running          bool
	Ctx              Context // the context in use (window 0: no share known)
	Cost             string  // the session's cost ("$0.0042", "≈$1.20"); "" when unknown
	Queued           int
	Steering         int
	Yolo             bool   // approvals are off (--yolo)
	Notice           string // a transient hint ("ctrl+c again to quit")
	MCP              string // "mcp 2/3" while MCP servers start
	Mode             string // "auto · sandbox: workspace-write"; "" for none
}

// sgr is a style reduced to the escape sequences around a one-line text,
// so that drawing the status bar, every frame, costs no lipgloss Render.
type sgr struct{ pre, post string }

// newSGR reduces s to its escape sequences.
func newSGR(s lipgloss.Style) sgr {
	r := s.Render("x")
	i := strings.IndexByte(r, 'x') // SGR sequences hold no letter x
	return sgr{r[:i], r[i+1:]}
}

func (g sgr) render(text string) string {
	if text == "" {
		return ""
	}
	return g.pre + text + g.post
}

// Bar holds the status bar's styles, reduced once (the styles never
// change while the program runs). Every one carries the bar's background,
// so the parts of the bar join into one band.
type Bar struct {
	bar, model, state, dim, key, warn sgr
	sep, ellipsis                     string
}

// NewBar reduces the status bar's styles of st once.
func NewBar(st *style.Styles) *Bar {
	return &Bar{
		bar: newSGR(st.StatusBar), model: newSGR(st.StatusModel), state: newSGR(st.StatusState),
		dim: newSGR(st.StatusDim), key: newSGR(st.StatusKey), warn: newSGR(st.StatusWarn),
		sep: st.Glyphs.Separator, ellipsis: st.Glyphs.Ellipsis,
	}
}

// statusPart is a run of status bar text in one style.
type statusPart struct {
	text  string
	style sgr
}

// statusField is one field of the status bar: its parts, shorter forms to
// try before the field is dropped, and its priority (the highest is
// shortened or dropped first; prioKeep is never touched). A kept field is
// shortened through its alts but never dropped.
type statusField struct {
	parts []statusPart
	alts  [][]statusPart
	prio  int
	keep  bool
}

// The status bar's priorities: when the line is too narrow, the field of
// the highest one is shortened (through its alts), then dropped, first.
// What the user must see to steer the turn stays: the state, the key that
// interrupts, and the counts of steering and queued messages.
const (
	prioKeep       = iota // never shortened or dropped: the counts, a notice
	prioState             // shortened (a long tool name), never dropped
	prioMode              // auto, plan or ask
	prioElapsed           // the turn's time
	prioModel             // the model's name (with --yolo shortened to "yolo", kept)
	prioKeyHint           // "esc to interrupt" → "esc stops", never dropped
	prioModeDetail        // the sandbox's status beside the mode
	prioMCP               // the MCP servers starting
	prioTokens            // the context's token count
	prioCost              // the session's cost, beside the context
	prioWorkspace         // the workspace, shortened first
	prioHelpHint          // "? help" on an idle screen
)

func (f *statusField) width() int {
	n := 0
	for _, p := range f.parts {
		n += textWidth(p.text)
	}
	return n
}

// textWidth is the cells of the unstyled text s: its length when it is
// printable ASCII (most of the bar, every frame), else ansi.StringWidth.
func textWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// plainAlts makes shorter plain forms in one style.
func plainAlts(style sgr, texts ...string) [][]statusPart {
	out := make([][]statusPart, len(texts))
	for i, t := range texts {
		out[i] = []statusPart{{t, style}}
	}
	return out
}

// View renders the one-line status bar at width w: one band in the
// bar's background, exactly w cells wide. Fields are shortened, then
// dropped, from the least important when the line is too narrow (see the
// priorities above).
func View(st *Bar, s Info, w int) string {
	if w <= 0 {
		return ""
	}
	left := []statusField{modelField(st, s), {
		parts: []statusPart{{s.Workspace, st.dim}}, alts: plainAlts(st.dim, pathAlts(s.Workspace, st.ellipsis)...), prio: prioWorkspace,
	}, stateField(st, s)}
	if s.Running && !(s.Quiet > 0 && s.Elapsed-s.Quiet < time.Second) { // not the same time twice
		left = append(left, statusField{parts: []statusPart{{style.Duration(s.Elapsed), st.dim}}, prio: prioElapsed})
	}
	right := rightFields(st, s)
	fitStatus(st.sep, left, right, w)
	var b strings.Builder
	n := 0
	emit := func(fs []statusField) {
		first := true
		for _, f := range fs {
			if f.width() == 0 {
				continue
			}
			if !first {
				b.WriteString(st.dim.render(st.sep))
				n += textWidth(st.sep)
			}
			first = false
			for _, p := range f.parts {
				b.WriteString(p.style.render(p.text))
				n += textWidth(p.text)
			}
		}
	}
	b.WriteString(st.bar.render(" "))
	n++
	emit(left)
	gap := w - 1 - n - fieldsWidth(right, st.sep)
	b.WriteString(st.bar.render(strings.Repeat(" ", max(gap, 1))))
	n += max(gap, 1)
	emit(right)
	line := b.String()
	if n > w { // the fields that stay do not fit: cut
		line = style.TruncateWidth(line, max(w-ansi.StringWidth(st.ellipsis), 0), "") + st.bar.render(st.ellipsis)
		n = ansi.StringWidth(line)
	}
	return line + st.bar.render(strings.Repeat(" ", max(w-n, 0)))
}

// modelField is the model's name; with --yolo it says so, and when space
// is short only "yolo" stays.
func modelField(st *Bar, s Info) statusField {
	if !s.Yolo {
		return statusField{parts: []statusPart{{s.Model, st.model}}, prio: prioModel}
	}
	return statusField{parts: []statusPart{{s.Model + " (yolo)", st.model}}, alts: plainAlts(st.model, "yolo"), prio: prioModel, keep: true}
}

// stateField says what the turn does, behind the spinner while it runs;
// its shorter forms cut a long tool name or drop the detail.
func stateField(st *Bar, s Info) statusField {
	var state string
	var alts []string
	switch s.Act {
	case ActThinking:
		state = "thinking"
	case ActAnswering:
		state = "answering"
	case ActTool:
		state = "running " + s.Tool
		if ansi.StringWidth(s.Tool) > statusToolMax {
			alts = append(alts, "running "+style.TruncateWidth(s.Tool, statusToolMax, st.ellipsis))
		}
		alts = append(alts, "running")
	case ActApproval:
		state, alts = "waiting for approval", []string{"approval"}
	case ActInterrupting:
		state = "interrupting"
	case ActCompacting:
		state = "compacting"
	case ActPaused:
		state, alts = "paused after "+s.Tool+" — enter to continue", []string{"paused after " + s.Tool, "paused"}
	default:
		state = "idle"
	}
	if s.Quiet > 0 {
		state, alts = "waiting for the server"+st.sep+style.Duration(s.Quiet), []string{"waiting for the server", "waiting"}
	}
	spin := func(text string) []statusPart {
		if s.Running && s.Spin != "" {
			return []statusPart{{s.Spin + " ", st.state}, {text, st.state}}
		}
		return []statusPart{{text, st.state}}
	}
	f := statusField{parts: spin(state), prio: prioState, keep: true}
	for _, a := range alts {
		f.alts = append(f.alts, spin(a))
	}
	return f
}

// statusToolMax is the most cells of a tool's name in a shortened state.
const statusToolMax = 16

// rightFields are the fields at the right of the bar: tokens, cost, mode, MCP,
// the steering and queued counts, and a notice or the key to press.
func rightFields(st *Bar, s Info) []statusField {
	var right []statusField
	if f, ok := contextField(st, s); ok {
		right = append(right, f)
	}
	if s.Cost != "" {
		right = append(right, statusField{parts: []statusPart{{s.Cost, st.dim}}, prio: prioCost})
	}
	if s.Mode != "" {
		mode, detail, _ := strings.Cut(s.Mode, " · ")
		right = append(right, statusField{parts: []statusPart{{mode, st.dim}}, prio: prioMode},
			statusField{parts: []statusPart{{detail, st.dim}}, prio: prioModeDetail})
	}
	if s.MCP != "" {
		right = append(right, statusField{parts: []statusPart{{s.MCP, st.dim}}, prio: prioMCP})
	}
	if s.Steering > 0 {
		right = append(right, statusField{parts: []statusPart{{strconv.Itoa(s.Steering) + " steering", st.state}}})
	}
	if s.Queued > 0 {
		right = append(right, statusField{parts: []statusPart{{strconv.Itoa(s.Queued) + " queued", st.state}}})
	}
	switch {
	case s.Notice != "":
		right = append(right, statusField{parts: []statusPart{{s.Notice, st.key}}})
	case s.Running:
		right = append(right, statusField{
			parts: []statusPart{{"esc", st.key}, {" to interrupt", st.dim}},
			alts:  [][]statusPart{{{"esc", st.key}, {" stops", st.dim}}},
			prio:  prioKeyHint, keep: true,
		})
	default:
		right = append(right, statusField{parts: []statusPart{{"?", st.key}, {" help", st.dim}}, prio: prioHelpHint})
	}
	return right
}

// contextField is the context in use: "31k/128k · 24% · compacts at 102k"
// (shortened to the share, then "24%"), coloured from WarnAt; only
// the count when the window is not known ("~1.5k tokens").
func contextField(st *Bar, s Info) (statusField, bool) {
	c := s.Ctx
	if c.Window <= 0 {
		if c.Used <= 0 {
			return statusField{}, false
		}
		tok := humanize.Tokens(c.Used) + " tokens"
		if c.Estimated {
			tok = "~" + tok
		}
		return statusField{parts: []statusPart{{tok, st.dim}}, prio: prioTokens}, true
	}
	look := st.dim
	if percent(c) >= WarnAt {
		look = st.warn
	}
	pct := strconv.Itoa(percent(c)) + "%"
	return statusField{
		parts: []statusPart{{ContextText(c, true), look}},
		alts:  plainAlts(look, ContextText(c, false), pct),
		prio:  prioTokens,
	}, true
}

// fieldsWidth is the width of the non-empty fields joined by sep.
func fieldsWidth(fs []statusField, sep string) int {
	n, k := 0, 0
	for i := range fs {
		if fw := fs[i].width(); fw > 0 {
			n += fw
			k++
		}
	}
	if k > 1 {
		n += (k - 1) * textWidth(sep)
	}
	return n
}

// fitStatus shortens and drops fields, the highest priority first, until
// both groups fit in w cells with a margin cell at each end and at least
// one cell between them. Fields of prioKeep, and kept fields at their
// shortest, stay even when they do not fit (the line is then cut).
func fitStatus(sep string, left, right []statusField, w int) {
	for w-3-fieldsWidth(left, sep)-fieldsWidth(right, sep) < 0 {
		var worst *statusField
		for _, fs := range [][]statusField{left, right} {
			for i := range fs {
				if f := &fs[i]; f.width() > 0 && f.prio > prioKeep && (len(f.alts) > 0 || !f.keep) && (worst == nil || f.prio > worst.prio) {
					worst = f
				}
			}
		}
		if worst == nil {
			return
		}
		if len(worst.alts) > 0 {
			worst.parts, worst.alts = worst.alts[0], worst.alts[1:]
			continue
		}
		worst.parts = nil
	}
}

// ShortPath shows dir with the home directory as "~".
func ShortPath(dir string) string {
	if dir == "" {
		return ""
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		if rel, err := filepath.Rel(home, dir); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			if rel == "." {
				return "~"
			}
			return filepath.Join("~", rel)
		}
	}
	return dir
}

// pathAlts returns shorter forms of the path p for a narrow status bar,
// longest first: its first and last elements around an ellipsis
// ("~/…/proj", "/…/proj"), then the last element alone. Forms no shorter
// than the one before are left out.
func pathAlts(p, ellipsis string) []string {
	sep := string(filepath.Separator)
	elems := strings.Split(p, sep)
	if len(elems) < 2 {
		return nil
	}
	last := elems[len(elems)-1]
	var alts []string
	prev := ansi.StringWidth(p)
	for _, a := range []string{elems[0] + sep + ellipsis + sep + last, last} {
		if n := ansi.StringWidth(a); n < prev && last != "" {
			alts = append(alts, a)
			prev = n
		}
	}
	return alts
}
