package app

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent/session"
)

// TestFormatSessions checks the columns and the cut of the first prompt.
func TestFormatSessions(t *testing.T) {
	started := time.Date(2025, 3, 1, 9, 30, 0, 0, time.UTC)
	local := started.Local().Format("2006-01-02 15:04")
	long := strings.Repeat("word ", 30)
	all := []session.Info{
		{ID: "abcd1234", Started: started, Turns: 12, Done: 3, Total: 5, FirstPrompt: long},
		{ID: "efgh5678", Started: started, Turns: 1, FirstPrompt: "short"},
		{ID: "ijkm9012", Started: started},
	}
	tests := []struct {
		name  string
		width int
		want  []string
	}{
		{"not a terminal", 0, []string{
			"abcd1234  " + local + "  12 turns  3/5  " + long[:59] + "…",
			"efgh5678  " + local + "   1 turn   -    short",
			"ijkm9012  " + local + "   0 turns  -    (no prompt)",
		}},
		{"a terminal of 60 columns", 60, []string{
			"abcd1234  " + local + "  12 turns  3/5  " + long[:15] + "…",
			"efgh5678  " + local + "   1 turn   -    short",
			"ijkm9012  " + local + "   0 turns  -    (no prompt)",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.Split(strings.TrimSuffix(FormatSessions(all, tc.width), "\n"), "\n")
			if len(got) != len(tc.want) {
				t.Fatalf("got %d lines, want %d:\n%s", len(got), len(tc.want), strings.Join(got, "\n"))
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("line %d:\n got %q\nwant %q", i+1, got[i], tc.want[i])
				}
				if tc.width > 0 && len([]rune(got[i])) >= tc.width {
					t.Errorf("line %d is %d columns, want less than %d", i+1, len([]rune(got[i])), tc.width)
				}
			}
		})
	}
}

// TestCarryOn opens the latest session and one named by id, reads one
// without saving (its file unchanged), names what is missing, and refuses
// a session open in another tick.
func TestCarryOn(t *testing.T) {
	f := newFixture(t)
	s := f.start(t)
	f.turn(s, "first prompt", "First answer.")
	_, rec := s.Current()
	firstID := rec.ID()
	s.Close()
	c := Carry{Dir: f.dir, Workspace: f.ws, Model: "fake"}

	var errb bytes.Buffer
	rec, ld, err := CarryOn(c, &errb)
	if err != nil || rec == nil || ld.Info.ID != firstID || len(ld.History) == 0 {
		t.Fatalf("CarryOn(latest) = %v, %+v, %v", rec, ld, err)
	}
	if _, _, err := CarryOn(Carry{Dir: f.dir, Workspace: f.ws, ID: firstID}, &errb); err == nil || !strings.Contains(err.Error(), "open in another tick") {
		t.Fatalf("CarryOn(open elsewhere) = %v", err)
	}
	rec.Close()

	info, err := session.Find(f.dir, f.ws, firstID)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(info.Path)
	ro := c
	ro.ID, ro.ReadOnly = firstID[:6], true
	rec, ld, err = CarryOn(ro, &errb)
	if err != nil || rec != nil || ld.Info.ID != firstID {
		t.Fatalf("CarryOn(read-only) = %v, %+v, %v", rec, ld, err)
	}
	if after, _ := os.ReadFile(info.Path); !bytes.Equal(before, after) {
		t.Error("a read-only carry-on changed the file")
	}

	for _, tc := range []struct {
		c    Carry
		want string
	}{
		{Carry{Dir: f.dir, Workspace: f.ws, ID: "nope"}, `no session "nope"`},
		{Carry{Dir: f.dir, Workspace: t.TempDir()}, "no earlier session"},
	} {
		if _, _, err := CarryOn(tc.c, &errb); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("CarryOn(%+v) = %v; want %q", tc.c, err, tc.want)
		}
	}
}
