package ui

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

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
)

// statusInfo is everything the status bar shows.
type statusInfo struct {
	model, workspace string
	act              activity
	tool             string // the running tool (actTool)
	spin             string // spinner frame
	elapsed          time.Duration
	running          bool
	tokens           int
	estimated        bool
	queued           int
	steering         int
	notice           string // a transient hint ("ctrl+c again to quit")
}

// statusView renders the one-line status bar at width w. Fields are
// dropped from the least important when the line is too narrow.
func statusView(st *Styles, s statusInfo, w int) string {
	if w <= 0 {
		return ""
	}
	g := st.Glyphs
	sep := st.StatusDim.Render(g.Separator)

	var state string
	switch s.act {
	case actThinking:
		state = "thinking"
	case actAnswering:
		state = "answering"
	case actTool:
		state = "running " + s.tool
	case actApproval:
		state = "waiting for approval"
	case actInterrupting:
		state = "interrupting"
	case actCompacting:
		state = "compacting"
	default:
		state = "idle"
	}
	stateS := st.StatusState.Render(state)
	if s.running && s.spin != "" {
		stateS = st.StatusState.Render(s.spin+" ") + stateS
	}
	if s.running {
		stateS += sep + st.StatusDim.Render(formatDuration(s.elapsed))
	}

	type field struct {
		text string
		prio int // lower is dropped last
	}
	left := []field{
		{st.StatusModel.Render(s.model), 2},
		{st.StatusDim.Render(s.workspace), 4},
		{stateS, 0},
	}
	var right []field
	if s.tokens > 0 {
		tok := formatTokens(s.tokens) + " tokens"
		if s.estimated {
			tok = "~" + tok
		}
		right = append(right, field{st.StatusDim.Render(tok), 3})
	}
	if s.steering > 0 {
		right = append(right, field{st.StatusState.Render(strconv.Itoa(s.steering) + " steering"), 1})
	}
	if s.queued > 0 {
		right = append(right, field{st.StatusState.Render(strconv.Itoa(s.queued) + " queued"), 1})
	}
	switch {
	case s.notice != "":
		right = append(right, field{st.StatusKey.Render(s.notice), 0})
	case s.running:
		right = append(right, field{st.StatusKey.Render("esc") + st.StatusDim.Render(" to interrupt"), 0})
	default:
		right = append(right, field{st.StatusKey.Render("?") + st.StatusDim.Render(" help"), 5})
	}

	join := func(fs []field) string {
		parts := make([]string, 0, len(fs))
		for _, f := range fs {
			if f.text != "" && ansi.StringWidth(f.text) > 0 {
				parts = append(parts, f.text)
			}
		}
		return strings.Join(parts, sep)
	}
	for {
		l, r := join(left), join(right)
		gap := w - 2 - ansi.StringWidth(l) - ansi.StringWidth(r)
		if gap >= 1 {
			return st.StatusBar.Render(" " + l + strings.Repeat(" ", gap) + r + " ")
		}
		// Drop the least important field.
		worst, wl, wi := -1, false, -1
		for i, f := range left {
			if f.text != "" && f.prio > worst {
				worst, wl, wi = f.prio, true, i
			}
		}
		for i, f := range right {
			if f.text != "" && f.prio > worst {
				worst, wl, wi = f.prio, false, i
			}
		}
		if worst <= 0 {
			line := ansi.Truncate(" "+l+" "+r, w, g.Ellipsis)
			return st.StatusBar.Render(line + strings.Repeat(" ", max(w-ansi.StringWidth(line), 0)))
		}
		if wl {
			left[wi].text = ""
		} else {
			right[wi].text = ""
		}
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
		if rel, err := filepath.Rel(home, dir); err == nil && !strings.HasPrefix(rel, "..") {
			if rel == "." {
				return "~"
			}
			return filepath.Join("~", rel)
		}
	}
	return dir
}

func itoa(n int) string { return strconv.Itoa(n) }
