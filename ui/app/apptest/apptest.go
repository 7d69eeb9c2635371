// Package apptest holds the test helpers that the tests of ui/app and of
// ui/app/e2e share: a state directory to run tick in, its sessions, and
// the fake server's last request. It is imported by tests only.
package apptest

import (
	"path/filepath"
	"testing"

	"github.com/tick-agent/tick/agent/session"
	"github.com/tick-agent/tick/provider/providertest"
)

// StateEnv returns an environment with a fresh state directory
// (XDG_STATE_HOME) and home directory, and the state directory.
func StateEnv(t testing.TB) (env map[string]string, state string) {
	t.Helper()
	state = t.TempDir()
	return map[string]string{"XDG_STATE_HOME": state, "HOME": t.TempDir()}, state
}

// SessionsIn returns the sessions directory under a state directory.
func SessionsIn(state string) string { return filepath.Join(state, "tick", "sessions") }

// ListSessions lists ws's sessions under state, failing the test on error.
func ListSessions(t testing.TB, state, ws string) []session.Info {
	t.Helper()
	all, err := session.List(SessionsIn(state), ws)
	if err != nil {
		t.Fatalf("list sessions: %v", err)
	}
	return all
}

// LastRequest is the last request srv received, failing the test when
// there was none.
func LastRequest(t testing.TB, srv *providertest.Server) providertest.Request {
	t.Helper()
	reqs := srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("the server received no request")
	}
	return reqs[len(reqs)-1]
}
