package config

import (
	"fmt"
	"strings"
)

// Pending are settings from the project file that would run commands, skip
// approvals or send the conversation elsewhere; they take effect only once
// the user approves them (/trust, tick mcp trust).
type Pending struct {
	Path       string // the project file
	MCPServers map[string]MCPServer
	Hooks      Hooks
	Allow      []string
	// Verify is the project's verify command: it runs a program, so it
	// waits for the user's approval like hooks.
	Verify string
	// Provider is the project's choice of provider when it differs from
	// the user's and no --provider flag decides: it picks the server the
	// conversation (and a key) goes to. "" when there is none.
	Provider string
	// RunFiles are the workspace files the hooks and servers run, with
	// their digests when the file was loaded: the approval covers them
	// too.
	RunFiles RunFiles
	// Approved is set by Load when Options.Approved said the user
	// approved all of the above (the provider is then applied).
	Approved bool
	// Stale is set by Load when the user approved the definitions but
	// not the files they run as they are now (one changed since, or the
	// approval predates tick's check of them).
	Stale bool
}

// Warning is the warning Load adds for a project file with pending
// settings; main drops it once the user has approved them.
func (p Pending) Warning() string {
	var parts []string
	if p.Provider != "" {
		parts = append(parts, "provider "+p.Provider+" (where the conversation goes)")
	}
	if len(p.MCPServers) > 0 {
		parts = append(parts, "MCP servers")
	}
	if !p.Hooks.Empty() {
		parts = append(parts, "hooks")
	}
	if len(p.Allow) > 0 {
		parts = append(parts, "allow rules")
	}
	if p.Verify != "" {
		parts = append(parts, "verify command")
	}
	if p.Stale {
		return fmt.Sprintf("%s: the files its hooks and MCP servers run (%s) changed since you trusted them: its %s need your approval again before they take effect", p.Path, strings.Join(p.RunFiles.Paths(), ", "), strings.Join(parts, ", "))
	}
	return fmt.Sprintf("%s: its %s need your approval before they take effect", p.Path, strings.Join(parts, ", "))
}

// Empty reports whether nothing awaits approval.
func (p Pending) Empty() bool {
	return len(p.MCPServers) == 0 && p.Hooks.Empty() && len(p.Allow) == 0 && p.Provider == "" && p.Verify == ""
}

// Definition is what an approval covers, as a value that marshals to JSON
// with stable field names (the trust record keeps a hash of it): the
// servers, hooks, allow rules, provider and verify command. Allow,
// Provider and Verify are left out when empty, so approvals recorded
// before they were covered still hold; a project that picks a provider
// must be approved again. So are the digests of the files the hooks,
// servers and verify command run (RunFiles): a changed script asks again.
func (p Pending) Definition() any {
	return struct {
		MCPServers map[string]MCPServer
		Hooks      Hooks
		Allow      []string `json:",omitempty"`
		Provider   string   `json:",omitempty"`
		RunFiles   RunFiles `json:",omitempty"`
		Verify     string   `json:",omitempty"`
	}{p.MCPServers, p.Hooks, p.Allow, p.Provider, p.RunFiles, p.Verify}
}

// DefinitionWithoutFiles is Definition without the run files' digests:
// an approval records it too, so that a later change of a file alone is
// told as such (Stale).
func (p Pending) DefinitionWithoutFiles() any {
	p.RunFiles = nil
	return p.Definition()
}

// holdProject collects the project file's pending settings and applies
// its provider only when opts.Approved says the user approved them all;
// otherwise it warns.
func (s *Settings) holdProject(f *file, opts Options) {
	c := f.cfg
	s.Pending = Pending{Path: f.path, MCPServers: c.MCPServers, Hooks: c.Hooks, Allow: c.Allow, Verify: c.Verify}
	s.Pending.RunFiles = findRunFiles(opts.Workspace, c.Hooks, c.MCPServers)
	if c.Provider != "" && c.Provider != s.Provider && opts.Flags.Provider == "" {
		s.Pending.Provider = c.Provider
	}
	if s.Pending.Empty() {
		return
	}
	if opts.Approved == nil || !opts.Approved(s.Pending.Definition()) {
		s.Pending.Stale = opts.Approved != nil && len(s.Pending.RunFiles) > 0 && opts.Approved(s.Pending.DefinitionWithoutFiles())
		s.Warnings = append(s.Warnings, s.Pending.Warning())
		return
	}
	s.Pending.Approved = true
	if s.Pending.Verify != "" {
		s.Config.Verify = s.Pending.Verify
		s.Sources["verify"] = Source{Kind: SourceProject, Detail: f.path}
	}
	if s.Pending.Provider != "" {
		s.Provider = s.Pending.Provider
		s.Sources["provider"] = Source{Kind: SourceProject, Detail: f.path}
	}
}

// ReadRunFiles reads the files the hooks and servers run again under
// workspace, for an approval of them as they are now.
func (p *Pending) ReadRunFiles(workspace string) {
	p.RunFiles = findRunFiles(workspace, p.Hooks, p.MCPServers)
	p.Stale = false
}
