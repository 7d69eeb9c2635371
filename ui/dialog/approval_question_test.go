package dialog

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/ui/style"
)

// TestApprovalQuestion: a request with its own question (keeping the git
// metadata a command created) shows that question and a plain yes, and
// offers nothing for the session.
func TestApprovalQuestion(t *testing.T) {
	st := style.DefaultStyles(true)
	req := agent.ApprovalRequest{ID: "1", Tool: "bash", Once: true, Question: "Keep the git metadata this command created?",
		Summary: "keep the git metadata this command created? .git", Detail: "The command created .git."}
	view := ansi.Strip(strings.Join(newApproval(&st, req, goldenT0).view(&st, style.DefaultKeyMap(), 80, 20), "\n"))
	for _, want := range []string{"Keep the git metadata this command created?", "yes", "The command created .git."} {
		if !strings.Contains(view, want) {
			t.Errorf("dialog lacks %q:\n%s", want, view)
		}
	}
	for _, bad := range []string{"Allow bash?", "allow this write only", "session"} {
		if strings.Contains(view, bad) {
			t.Errorf("dialog shows %q:\n%s", bad, view)
		}
	}
}
