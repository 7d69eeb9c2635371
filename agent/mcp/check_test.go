package mcp

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCheckFailureStartsNothing: a server whose Check fails (a trusted
// project's script changed) is failed with the reason and its program is
// never started; a server whose Check passes starts as usual.
func TestCheckFailureStartsNothing(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "started")
	changed := Server{Name: "changed", Command: "sh", Args: []string{"-c", "touch " + marker},
		Check: func() error {
			return errors.New("tools/x.py changed since you trusted this project's hooks and MCP servers")
		}}
	ok := stdioServer("ok")
	ok.Check = func() error { return nil }
	m := startManager(t, time.Minute, changed, ok)
	ts, _ := m.Tools(context.Background())
	if len(ts) == 0 {
		t.Fatalf("the server whose check passed offers no tools: %+v", m.Status())
	}
	st := m.Status()[0]
	if st.Name != "changed" || st.State != Failed || !strings.Contains(st.Err, "not started: tools/x.py changed") {
		t.Errorf("status %+v, want failed naming the changed file", st)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the changed server's program was started")
	}
}
