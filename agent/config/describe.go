package config

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/tick-agent/tick/provider"
)

// Mask hides a secret for display: the last four characters of a long key,
// nothing of a short one.
func Mask(key string) string {
	switch {
	case key == "":
		return ""
	case len(key) < 12:
		return "****"
	}
	return "****" + key[len(key)-4:]
}

// Describe writes the effective settings, one per line with where each
// came from (keys masked), then the files, the pending project settings
// and the warnings. It is the output of `tick config`.
func (s *Settings) Describe(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	row := func(key, val string) {
		src, ok := s.Sources[key]
		from := "default"
		if ok {
			from = src.String()
		}
		if val == "" {
			val = "(none)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", key, val, from)
	}
	cw := "(from the server or the model name)"
	if s.ContextWindow > 0 {
		cw = fmt.Sprint(s.ContextWindow)
	}
	base := provider.RedactURL(s.BaseURL) // credentials and query keys masked, as error lines do
	if s.BaseURL == "" {
		base = "(the OpenAI API)"
	}
	row("provider", s.Provider)
	row("model", s.Model)
	row("base_url", base)
	row("api_key", Mask(s.APIKey))
	row("context_window", cw)
	row("sandbox", s.Sandbox)
	row("writable_roots", strings.Join(s.WritableRoots, ", "))
	row("network", s.Network)
	row("env_allow", strings.Join(s.EnvAllow, ", "))
	row("allow", strings.Join(s.Allow, ", "))
	row("deny", strings.Join(s.Deny, ", "))
	row("web.allow", strings.Join(s.Web.Allow, ", "))
	row("web.allow_private", strings.Join(s.Web.AllowPrivate, ", "))
	row("idle_timeout", s.IdleTimeout)
	row("reasoning_effort", s.ReasoningEffort)
	row("verify", s.Config.Verify)
	row("completion_reminder", fmt.Sprint(s.CompletionReminderOn()))
	row("max_parallel_tasks", parallelTasks(s.MaxParallelTasks))
	row("mcp_start_timeout", s.MCPStartTimeoutDuration().String())
	s.describeBudget(row)
	row("mcp_servers", strings.Join(sortedKeys(s.MCPServers), ", "))
	row("hooks", hookSummary(s.Hooks))
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write the settings: %w", err)
	}
	fmt.Fprintf(w, "\nuser file     %s%s\n", orNone(s.UserFile), missing(s.UserFile, s.UserFileExists))
	fmt.Fprintf(w, "project file  %s%s\n", orNone(s.ProjectFile), missing(s.ProjectFile, s.ProjectFileExist))
	s.Pending.describe(w)
	if len(s.Warnings) > 0 {
		fmt.Fprintln(w, "\nwarnings:")
		for _, m := range s.Warnings {
			fmt.Fprintf(w, "  %s\n", m)
		}
	}
	return nil
}

// describe lists what p holds, under whether it awaits approval; nothing
// when it is empty.
func (p Pending) describe(w io.Writer) {
	if p.Empty() {
		return
	}
	state := "awaiting approval"
	if p.Approved {
		state = "approved for this project"
	}
	fmt.Fprintf(w, "\n%s (from %s):\n", state, p.Path)
	if p.Provider != "" {
		fmt.Fprintf(w, "  provider %s\n", p.Provider)
	}
	for _, n := range sortedKeys(p.MCPServers) {
		fmt.Fprintf(w, "  mcp server %s\n", n)
	}
	if !p.Hooks.Empty() {
		fmt.Fprintf(w, "  hooks: %s\n", hookSummary(p.Hooks))
	}
	for _, a := range p.Allow {
		fmt.Fprintf(w, "  allow %s\n", a)
	}
}

// hookSummary counts the hooks of each kind, e.g. "pre_tool_use 2, stop 1".
func hookSummary(h Hooks) string {
	var parts []string
	for _, k := range []struct {
		name string
		n    int
	}{{"pre_tool_use", len(h.PreToolUse)}, {"post_tool_use", len(h.PostToolUse)}, {"user_prompt_submit", len(h.UserPromptSubmit)}, {"stop", len(h.Stop)}} {
		if k.n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", k.name, k.n))
		}
	}
	return strings.Join(parts, ", ")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func orNone(p string) string {
	if p == "" {
		return "(none: set XDG_CONFIG_HOME or HOME)"
	}
	return p
}

func missing(p string, exists bool) string {
	if p != "" && !exists {
		return " (not found)"
	}
	return ""
}

// parallelTasks describes max_parallel_tasks.
func parallelTasks(n int) string {
	if n == 0 {
		return "auto (3 hosted; a local server's slots, else 1)"
	}
	return fmt.Sprint(n)
}
