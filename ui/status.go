package ui

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// activity is what a running turn is doing, for the status bar.
type activity uint8

const (
	actIdle activity = iota
	actThinking
	actAnswering
	actTool
	actApproval
	actInterrupting
	actCompacting // a compaction (/compact) runs as the turn
	actPaused     // paused at a gate; tool holds the item ("#2")
)

// quietAfter is how long a model call may go without any event before the
// status bar says that tick is waiting for the server.
const quietAfter = 5 * time.Second

// statusInfo is everything the status bar shows.
type statusInfo struct {
	model, workspace string
	act              activity
	tool             string // the running tool (actTool)
	spin             string // spinner frame, unstyled
	elapsed          time.Duration
	quiet            time.Duration // a model call's silence, once past quietAfter
	running          bool
	ctx              contextUse // the context in use (window 0: no share known)
	queued           int
	steering         int
	yolo             bool   // approvals are off (--yolo)
	notice           string // a transient hint ("ctrl+c again to quit")
	mcp              string // "mcp 2/3" while MCP servers start
	mode             string // "auto · sandbox: workspace-write"; "" for none
}

// sgr is a style reduced to the escape sequences around a one-line text,
// so that drawing the status bar, every frame, costs no lipgloss Render.
type sgr struct{ pre, post string }

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

// statusStyles are the status bar's styles, reduced once (the styles never
// change while the program runs). Every one carries the bar's background,
// so the parts of the bar join into one band.
type statusStyles struct {
	bar, model, state, dim, key, warn sgr
	sep, ellipsis                     string
}

func newStatusStyles(st *Styles) *statusStyles {
	return &statusStyles{
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

// statusView renders the one-line status bar at width w: one band in the
// bar's background, exactly w cells wide. Fields are shortened, then
// dropped, from the least important when the line is too narrow (see the
// priorities above).
func statusView(st *statusStyles, s statusInfo, w int) string {
	if w <= 0 {
		return ""
	}
	left := []statusField{modelField(st, s), {
		parts: []statusPart{{s.workspace, st.dim}}, alts: plainAlts(st.dim, pathAlts(s.workspace, st.ellipsis)...), prio: prioWorkspace,
	}, stateField(st, s)}
	if s.running && !(s.quiet > 0 && s.elapsed-s.quiet < time.Second) { // not the same time twice
		left = append(left, statusField{parts: []statusPart{{formatDuration(s.elapsed), st.dim}}, prio: prioElapsed})
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
		line = ansi.Truncate(line, max(w-ansi.StringWidth(st.ellipsis), 0), "") + st.bar.render(st.ellipsis)
		n = ansi.StringWidth(line)
	}
	return line + st.bar.render(strings.Repeat(" ", max(w-n, 0)))
}

// modelField is the model's name; with --yolo it says so, and when space
// is short only "yolo" stays.
func modelField(st *statusStyles, s statusInfo) statusField {
	if !s.yolo {
		return statusField{parts: []statusPart{{s.model, st.model}}, prio: prioModel}
	}
	return statusField{parts: []statusPart{{s.model + " (yolo)", st.model}}, alts: plainAlts(st.model, "yolo"), prio: prioModel, keep: true}
}

// stateField says what the turn does, behind the spinner while it runs;
// its shorter forms cut a long tool name or drop the detail.
func stateField(st *statusStyles, s statusInfo) statusField {
	var state string
	var alts []string
	switch s.act {
	case actThinking:
		state = "thinking"
	case actAnswering:
		state = "answering"
	case actTool:
		state = "running " + s.tool
		if ansi.StringWidth(s.tool) > statusToolMax {
			alts = append(alts, "running "+ansi.Truncate(s.tool, statusToolMax, st.ellipsis))
		}
		alts = append(alts, "running")
	case actApproval:
		state, alts = "waiting for approval", []string{"approval"}
	case actInterrupting:
		state = "interrupting"
	case actCompacting:
		state = "compacting"
	case actPaused:
		state, alts = "paused after "+s.tool+" — enter to continue", []string{"paused after " + s.tool, "paused"}
	default:
		state = "idle"
	}
	if s.quiet > 0 {
		state, alts = "waiting for the server"+st.sep+formatDuration(s.quiet), []string{"waiting for the server", "waiting"}
	}
	spin := func(text string) []statusPart {
		if s.running && s.spin != "" {
			return []statusPart{{s.spin + " ", st.state}, {text, st.state}}
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

// rightFields are the fields at the right of the bar: tokens, mode, MCP,
// the steering and queued counts, and a notice or the key to press.
func rightFields(st *statusStyles, s statusInfo) []statusField {
	var right []statusField
	if f, ok := contextField(st, s); ok {
		right = append(right, f)
	}
	if s.mode != "" {
		mode, detail, _ := strings.Cut(s.mode, " · ")
		right = append(right, statusField{parts: []statusPart{{mode, st.dim}}, prio: prioMode},
			statusField{parts: []statusPart{{detail, st.dim}}, prio: prioModeDetail})
	}
	if s.mcp != "" {
		right = append(right, statusField{parts: []statusPart{{s.mcp, st.dim}}, prio: prioMCP})
	}
	if s.steering > 0 {
		right = append(right, statusField{parts: []statusPart{{strconv.Itoa(s.steering) + " steering", st.state}}})
	}
	if s.queued > 0 {
		right = append(right, statusField{parts: []statusPart{{strconv.Itoa(s.queued) + " queued", st.state}}})
	}
	switch {
	case s.notice != "":
		right = append(right, statusField{parts: []statusPart{{s.notice, st.key}}})
	case s.running:
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
// (shortened to the share, then "24%"), coloured from contextWarnAt; only
// the count when the window is not known ("~1.5k tokens").
func contextField(st *statusStyles, s statusInfo) (statusField, bool) {
	c := s.ctx
	if c.window <= 0 {
		if c.used <= 0 {
			return statusField{}, false
		}
		tok := formatTokens(c.used) + " tokens"
		if c.estimated {
			tok = "~" + tok
		}
		return statusField{parts: []statusPart{{tok, st.dim}}, prio: prioTokens}, true
	}
	style := st.dim
	if contextPercent(c) >= contextWarnAt {
		style = st.warn
	}
	pct := strconv.Itoa(contextPercent(c)) + "%"
	return statusField{
		parts: []statusPart{{contextText(c, true), style}},
		alts:  plainAlts(style, contextText(c, false), pct),
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

// formatTokens shows a token count: 950, 12.3k, 1.2M.
func formatTokens(n int) string {
	switch {
	case n < 1000:
		return strconv.Itoa(n)
	case n < 1_000_000:
		return strconv.FormatFloat(float64(n)/1000, 'f', 1, 64) + "k"
	default:
		return strconv.FormatFloat(float64(n)/1_000_000, 'f', 1, 64) + "M"
	}
}

// shortPath shows dir with the home directory as "~".
func shortPath(dir string) string {
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

func itoa(n int) string { return strconv.Itoa(n) }
