package e2e

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/ui/app"
)

// TestE2EMaxTurnsCountsTasks (issue 31 §4): tick -p --max-turns 2 with
// three tasks of four commands each makes at most two model calls in all
// and exits 6 (the budget).
func TestE2EMaxTurnsCountsTasks(t *testing.T) {
	bin := sharedTick(t)
	srv := providertest.New(t)
	srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if strings.HasPrefix(r.Messages[1].Content, "CHILD") {
			answers := 0
			for _, m := range r.Messages {
				if m.Role == "assistant" {
					answers++
				}
			}
			if answers < 4 {
				return call("bash", map[string]any{"command": "echo step"})
			}
			return providertest.Reply{Text: "child done"}
		}
		if r.Last().Role == "user" {
			var cs []providertest.Call
			for i := 1; i <= 3; i++ {
				cs = append(cs, providertest.Call{Name: "task", Args: fmt.Sprintf(`{"description":"part %d","prompt":"CHILD %d"}`, i, i)})
			}
			return providertest.Reply{ToolCalls: cs}
		}
		return providertest.Reply{Text: "done"}
	})
	cmd := exec.Command(bin, "-p", "three parts", "--max-turns", "2", "--yolo", "-C", t.TempDir())
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "TMPDIR=" + t.TempDir(), "OPENAI_BASE_URL=" + srv.URL}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != app.ExitBudget {
		t.Errorf("tick ended with %v, want exit status %d (budget); stderr:\n%s", err, app.ExitBudget, errb.String())
	}
	if n := len(srv.Requests()); n > 2 {
		t.Errorf("tick made %d model calls with --max-turns 2", n)
	}
}
