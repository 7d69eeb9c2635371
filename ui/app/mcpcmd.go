package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/tick-agent/tick/agent/mcp"
	"github.com/tick-agent/tick/ui/termsafe"
)

// runMCPCmd is `tick mcp list` and `tick mcp trust`. list starts the
// configured MCP servers, waits for them (up to the start timeout), prints
// each one's state and tools (as JSON with --json) and stops them; trust
// records the user's approval of the project file's servers and hooks.
func runMCPCmd(cfg config, env func(string) string, stdout, stderr io.Writer) int {
	x, err := newExtensions(cfg, env, cfg.Cmd == "mcp list")
	printWarnings(cfg, stderr) // after newExtensions, which drops those trust answered
	if err != nil {
		return fail(stderr, err)
	}
	defer x.close()
	if cfg.Cmd == "mcp trust" {
		msg, err := x.trustProject()
		if err != nil {
			return fail(stderr, err)
		}
		fmt.Fprintln(stdout, termsafe.Text(msg))
		return ExitOK
	}
	for _, n := range x.notices {
		fmt.Fprintf(stderr, "tick: %s\n", termsafe.Text(n))
	}
	var statuses []mcp.Status
	if x.mcp != nil {
		x.mcp.Wait(context.Background())
		statuses = x.mcp.Status()
	}
	if cfg.JSON {
		enc := json.NewEncoder(stdout)
		for _, st := range statuses {
			if err := enc.Encode(mcpJSON(st)); err != nil {
				return fail(stderr, fmt.Errorf("write the MCP server list: %w", err))
			}
		}
		return ExitOK
	}
	fmt.Fprintln(stdout, termsafe.Text(mcp.Report(statuses)))
	for _, st := range statuses {
		if st.State != mcp.Ready {
			return ExitError
		}
	}
	return ExitOK
}

// mcpServerJSON is one line of `tick mcp list --json`.
type mcpServerJSON struct {
	Name      string   `json:"name"`
	State     string   `json:"state"`
	Transport string   `json:"transport"`
	Target    string   `json:"target"`
	Project   bool     `json:"project"`
	Error     string   `json:"error,omitempty"`
	Stderr    string   `json:"stderr,omitempty"`
	Tools     []string `json:"tools"`
	Skipped   []string `json:"skipped,omitempty"`
}

func mcpJSON(st mcp.Status) mcpServerJSON {
	tools := st.Tools
	if tools == nil {
		tools = []string{}
	}
	return mcpServerJSON{Name: st.Name, State: st.State.String(), Transport: st.Transport, Target: st.Target, Project: st.Project, Error: st.Err, Stderr: st.Stderr, Tools: tools, Skipped: st.Skipped}
}
