package ui

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
	"github.com/tick-agent/tick/ui/internal/uitest"
	"github.com/tick-agent/tick/ui/panel"
)

// bareCells returns the columns of line's cells drawn without a background
// colour, following the SGR sequences in it.
func bareCells(line string) []int {
	var bare []int
	bg, col := false, 0
	for len(line) > 0 {
		if line[0] == 0x1b && len(line) > 1 && line[1] == '[' {
			end := 2
			for end < len(line) && (line[end] < 0x40 || line[end] > 0x7e) {
				end++
			}
			if end < len(line) && line[end] == 'm' {
				bg = sgrBackground(line[2:end], bg)
			}
			line = line[min(end+1, len(line)):]
			continue
		}
		cl, w := ansi.FirstGraphemeCluster(line, ansi.GraphemeWidth)
		for range w {
			if !bg {
				bare = append(bare, col)
			}
			col++
		}
		line = line[len(cl):]
	}
	return bare
}

// sgrBackground applies the SGR parameters params to the state "a
// background colour is set".
func sgrBackground(params string, bg bool) bool {
	ps := strings.Split(params, ";")
	for i := 0; i < len(ps); i++ {
		n, _ := strconv.Atoi(ps[i]) // "" is 0, a reset
		switch {
		case n == 0 || n == 49:
			bg = false
		case n >= 40 && n <= 47 || n >= 100 && n <= 107:
			bg = true
		case n == 48 || n == 38 || n == 58: // extended colour: skip its arguments
			if n == 48 {
				bg = true
			}
			if i+1 < len(ps) && ps[i+1] == "5" {
				i += 2
			} else if i+1 < len(ps) && ps[i+1] == "2" {
				i += 4
			}
		}
	}
	return bg
}

func TestBareCells(t *testing.T) {
	tests := []struct {
		name, line string
		want       []int
	}{
		{"plain", "ab", []int{0, 1}},
		{"truecolour background", "\x1b[48;2;1;2;3ma\x1b[mb", []int{1}},
		{"foreground only", "\x1b[38;2;1;2;3ma\x1b[39;49mb", []int{0, 1}},
		{"indexed background then 49", "\x1b[1;48;5;236mab\x1b[49mc", []int{2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := bareCells(tt.line); !equalInts(got, tt.want) {
				t.Fatalf("bareCells(%q) = %v, want %v", tt.line, got, tt.want)
			}
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// statusLine is the last line of the frame, with its styles.
func statusLine(m *Model) string {
	l := strings.Split(m.View().Content, "\n")
	return l[len(l)-1]
}

func TestStatusBarIsOneBand(t *testing.T) {
	states := []struct {
		name  string
		setup func(t *testing.T, m *Model)
		want  []string
	}{
		{"idle", func(*testing.T, *Model) {}, []string{"test-model", "idle", "? help"}},
		{"thinking with spinner", func(t *testing.T, m *Model) {
			submit(m, "go")
			update(m, m.spin.Tick())
		}, []string{"thinking", "esc to interrupt"}},
		{"tool, tokens, steering and queued", func(t *testing.T, m *Model) {
			submit(m, "go")
			events(t, m, agent.ToolStart{ID: "1", Name: "bash", Summary: "make"}, agent.Usage{Usage: provider.Usage{TotalTokens: 5400}})
			submit(m, "also this")
			typeText(m, "then that")
			press(m, "tab")
		}, []string{"running bash", "esc", "1 steering", "1 queued"}},
		{"notice", func(t *testing.T, m *Model) {
			typeText(m, "draft")
			press(m, "ctrl+c")
		}, []string{"ctrl+c again to quit"}},
	}
	for _, w := range []int{60, 80, 119, 120, 200} {
		for _, s := range states {
			t.Run(s.name+" at "+strconv.Itoa(w), func(t *testing.T) {
				m, _ := newTestModel(t, w, 24)
				s.setup(t, m)
				line := statusLine(m)
				if n := ansi.StringWidth(line); n != w {
					t.Fatalf("status bar is %d cells wide, want %d: %q", n, w, ansi.Strip(line))
				}
				if bare := bareCells(line); len(bare) > 0 {
					t.Fatalf("status bar cells %v have no background: %q", bare, line)
				}
				plain := ansi.Strip(line)
				for _, want := range s.want {
					if !strings.Contains(plain, want) {
						t.Fatalf("status bar lacks %q: %q", want, plain)
					}
				}
			})
		}
	}
}

func TestStatusBarShortensWorkspace(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	ws := filepath.Join(home, "src", "github.com", "someone", "proj")
	a := &scriptAgent{}
	mv := New(Config{Agent: a, Model: "gpt-4.1-mini", Yolo: true, Workspace: ws, Dark: true})
	m := &mv
	update(m, tea.WindowSizeMsg{Width: 160, Height: 40})
	submit(m, "go")
	events(t, m, agent.Usage{Usage: provider.Usage{TotalTokens: 5400}})
	submit(m, "steer")
	typeText(m, "next")
	press(m, "tab")
	tests := []struct {
		w          int
		want, lose string
	}{
		{160, "~/src/github.com/someone/proj", ""},
		{120, "~/…/proj", "github.com"},
		{100, "1 queued", "proj"},
	}
	for _, tt := range tests {
		t.Run(strconv.Itoa(tt.w), func(t *testing.T) {
			update(m, tea.WindowSizeMsg{Width: tt.w, Height: 40})
			s := ansi.Strip(statusLine(m))
			for _, want := range []string{tt.want, "1 steering", "1 queued", "esc to interrupt", "gpt-4.1-mini (yolo)"} {
				if !strings.Contains(s, want) {
					t.Errorf("status bar at %d lacks %q: %q", tt.w, want, s)
				}
			}
			if tt.lose != "" && strings.Contains(s, tt.lose) {
				t.Errorf("status bar at %d still shows %q: %q", tt.w, tt.lose, s)
			}
		})
	}
}

// tourPlan is uitest.TourPlan: typical item lengths in every state.
func tourPlan() todo.List { return uitest.TourPlan() }

func TestPanelShowsWholeItems(t *testing.T) {
	for _, size := range []struct {
		name string
		w, h int
	}{{"120x40 at the right", 120, 40}, {"100x40 above the input", 100, 40}, {"60x30 above the input", 60, 30}} {
		t.Run(size.name, func(t *testing.T) {
			m, _ := newTestModel(t, size.w, size.h)
			now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
			m.clock = func() time.Time { return now }
			submit(m, "plan a quick tour")
			l := tourPlan()
			l.Items[0].Status, l.Items[1].Status, l.Items[2].Status = todo.InProgress, todo.Pending, todo.Pending
			events(t, m, agent.TodoUpdate{List: l})
			now = now.Add(1800 * time.Millisecond)
			events(t, m, agent.ToolStart{ID: "a", Name: "bash"}, agent.ToolEnd{ID: "a", Name: "bash"})
			l = tourPlan()
			events(t, m, agent.TodoUpdate{List: l})
			now = now.Add(2500 * time.Millisecond)
			events(t, m, agent.ToolStart{ID: "b", Name: "bash"})
			update(m, m.spin.Tick())

			frame := m.View().Content
			// Every item's text, the note of the completed one and the
			// running item's active form with the spinner and elapsed time
			// are shown whole (an item may wrap, so compare without line
			// breaks and the chat at the left).
			var shown []string
			for _, line := range strings.Split(ansi.Strip(frame), "\n") {
				if size.w >= panel.WideFrom {
					vr := " " + m.st.Glyphs.VRule + " "
					i := strings.LastIndex(line, vr)
					if i < 0 {
						continue
					}
					line = line[i+len(vr):]
				}
				shown = append(shown, strings.TrimSpace(line))
			}
			joined := strings.Join(shown, " ")
			spin := ansi.Strip(m.spin.View())
			for _, want := range []string{
				"Give a quick tour of this project 2/4",
				"✓ Look around the workspace carefully", "ran ls, found go.mod", "1.8s · 1 call",
				"✓ Say hi from the shell to everybody",
				spin + " Checking the operating system version", "2.5s · 1 call",
				"○ Write the summary of what was found",
				"✗ Drop the old build scripts quickly", "(not needed)",
			} {
				if !strings.Contains(joined, want) {
					t.Errorf("panel lacks %q:\n%s", want, ansi.Strip(frame))
				}
			}
			for i, line := range strings.Split(frame, "\n") {
				if n := ansi.StringWidth(line); n > size.w {
					t.Errorf("line %d is %d cells wide: %q", i, n, ansi.Strip(line))
				}
			}
		})
	}
}

// TestPanelWidth: the panel at the right takes a share of the width
// between its bounds.
func TestPanelWidth(t *testing.T) {
	tests := []struct{ w, panel int }{{120, 45}, {140, 52}, {200, panel.MaxWidth}}
	for _, tt := range tests {
		t.Run(strconv.Itoa(tt.w), func(t *testing.T) {
			m, _ := newTestModel(t, tt.w, 30)
			submit(m, "x")
			events(t, m, agent.TodoUpdate{List: tourPlan()})
			if !m.geo.panelWide || m.geo.panelW != tt.panel || m.geo.chatW != tt.w-tt.panel-3 {
				t.Fatalf("at %d: panel %d wide (wide=%v), chat %d; want panel %d", tt.w, m.geo.panelW, m.geo.panelWide, m.geo.chatW, tt.panel)
			}
		})
	}
}

func TestHelpColumnsAligned(t *testing.T) {
	for _, size := range []struct {
		name string
		w, h int
		cols int
	}{{"one column", 80, 50, 1}, {"two columns", 120, 40, 2}} {
		t.Run(size.name, func(t *testing.T) {
			m, _ := newTestModel(t, size.w, size.h)
			press(m, "?")
			lines := strings.Split(screen(m), "\n")
			kw := 0
			for _, sec := range m.keys.HelpSections() {
				for _, b := range sec.Keys {
					kw = max(kw, ansi.StringWidth(b.Help().Key))
				}
			}
			// Each binding's description starts kw+2 cells after its key, in
			// every group; the key columns start at as many places as there
			// are columns.
			starts := map[int]bool{}
			for _, sec := range m.keys.HelpSections() {
				for _, b := range sec.Keys {
					re := regexp.MustCompile(regexp.QuoteMeta(b.Help().Key) + ` +` + regexp.QuoteMeta(b.Help().Desc))
					found := false
					for _, l := range lines {
						loc := re.FindStringIndex(l)
						if loc == nil {
							continue
						}
						found = true
						key := ansi.StringWidth(l[:loc[0]])
						rest := l[loc[0]+len(b.Help().Key):]
						gap := len(rest) - len(strings.TrimLeft(rest, " "))
						if got := ansi.StringWidth(b.Help().Key) + gap; got != kw+2 {
							t.Errorf("%q: description starts %d cells after the key, want %d:\n%s", b.Help().Key, got, kw+2, strings.Join(lines, "\n"))
						}
						starts[key] = true
						break
					}
					if !found {
						t.Errorf("help lacks %q %q:\n%s", b.Help().Key, b.Help().Desc, strings.Join(lines, "\n"))
					}
				}
			}
			if len(starts) != size.cols {
				t.Errorf("key columns start at %v, want %d places", starts, size.cols)
			}
		})
	}
}

func TestApprovalHint(t *testing.T) {
	m, _ := newTestModel(t, 120, 40)
	submit(m, "edit")
	events(t, m, agent.ToolStart{ID: "1", Name: "bash", Summary: "rm -rf build"},
		agent.ApprovalRequest{ID: "1", Tool: "bash", Summary: "rm -rf build", Reply: make(chan agent.Approval, 1)})
	s := screen(m)
	if !strings.Contains(s, "y allow once") || strings.Contains(s, "(approval)") {
		t.Fatalf("approval hint:\n%s", s)
	}
}

// TestStatusBarNarrowApp: in the app at 60 columns, a running turn with a
// steering message and a queued one shows both counts.
func TestStatusBarNarrowApp(t *testing.T) {
	m, _ := newTestModel(t, 60, 20)
	submit(m, "go")
	events(t, m, agent.ToolStart{ID: "1", Name: "write_file", Summary: "main.go"})
	submit(m, "also this")
	typeText(m, "then that")
	press(m, "tab")
	s := ansi.Strip(statusLine(m))
	for _, want := range []string{"running write_file", "1 steering", "1 queued", "esc"} {
		if !strings.Contains(s, want) {
			t.Errorf("the status bar at 60 lacks %q: %q", want, s)
		}
	}
}
