package agent_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider/providertest"
)

// TestMentionsStayInWorkspace is issue 21's missing test 4: with mentions
// on, "@/etc/hostname" (and a file of the workspace named by its absolute
// path's way out, and a link out) attaches nothing from outside the
// workspace, while "@inside.txt" is attached.
func TestMentionsStayInWorkspace(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("OUTSIDE-SECRET\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, func(c *agent.Config) { c.Mentions = true })
	if err := os.WriteFile(filepath.Join(h.dir, "inside.txt"), []byte("INSIDE-TEXT\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(h.dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	host, err := os.ReadFile("/etc/hostname")
	if err != nil || strings.TrimSpace(string(host)) == "" {
		host = []byte("OUTSIDE-SECRET") // no /etc/hostname: the other file stands in
	}
	h.srv.Enqueue(providertest.Reply{Text: "ok"})
	evs := h.run("compare @/etc/hostname with @" + outside + " and @link.txt and @../" + filepath.Base(filepath.Dir(outside)) + "/secret.txt and @inside.txt")
	end(t, evs)
	reqs := h.srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	var user string
	for _, m := range reqs[0].Messages {
		if m.Role == "user" {
			user = m.Content
		}
	}
	if !strings.Contains(user, "INSIDE-TEXT") {
		t.Errorf("@inside.txt was not attached:\n%s", user)
	}
	for _, leak := range []string{"OUTSIDE-SECRET", strings.TrimSpace(string(host)) + "\n", `path="/etc/hostname"`} {
		if strings.Contains(user, leak) {
			t.Errorf("the prompt holds %q from outside the workspace:\n%s", leak, user)
		}
	}
	for _, ev := range evs {
		if n, ok := ev.(agent.Notice); ok && strings.Contains(n.Text, "attached") && n.Text != "attached inside.txt" {
			t.Errorf("notice %q, want only inside.txt attached", n.Text)
		}
	}
}
