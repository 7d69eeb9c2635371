package e2e

import (
	"github.com/tick-agent/tick/ui/app/apptest"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/ui/app"
)

// TestResumeByPathAndElsewhere: --resume takes a session file's path as
// well as an id; an id of another workspace's session is not found here,
// and the message names the workspace it belongs to.
func TestResumeByPathAndElsewhere(t *testing.T) {
	srv := providertest.New(t)
	env, state := apptest.StateEnv(t)
	ws, other := t.TempDir(), t.TempDir()
	srv.Enqueue(providertest.Reply{Text: "first"}, providertest.Reply{Text: "carried on"})
	mustRun(t, env, "-p", "first", "--base-url", srv.URL, "-C", ws)
	info := apptest.ListSessions(t, state, ws)[0]
	r := mustRun(t, env, "--resume", info.Path, "-p", "again", "--base-url", srv.URL, "-C", ws)
	if !strings.Contains(r.stdout, "carried on") || len(apptest.ListSessions(t, state, ws)) != 1 {
		t.Fatalf("resume by path: stdout %q, %d sessions\nstderr:\n%s", r.stdout, len(apptest.ListSessions(t, state, ws)), r.stderr)
	}
	r = tick(t, env, "", "--resume", info.ID, "-p", "here?", "--base-url", srv.URL, "-C", other)
	if r.code == app.ExitOK || !strings.Contains(r.stderr, "belongs to the workspace "+info.Workspace) {
		t.Errorf("resume of another workspace's id: exit %d, stderr %q; want the workspace named", r.code, r.stderr)
	}
}
