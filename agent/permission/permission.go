// Package permission holds tick's permission rules: "tool" or
// "tool(pattern)", as in the config file's allow and deny lists
// (`bash(go test *)`, `write_file(.env)`) and the choices the user makes
// in the approval dialog for the session.
//
// A pattern is a glob where * matches any run of characters (spaces and
// slashes included); "go test *" also matches "go test" alone. For bash
// the subject is the command: an allow rule matches a compound command
// (one with ;, &, |, `, $(, <, > or a newline) only when the rule spells it
// out whole, while a deny rule matches when the whole command or any of
// its simple commands matches. For the file tools the subject is the path
// relative to the workspace; a pattern without a slash also matches the
// file's base name, so write_file(.env) covers sub/.env.
package permission

import (
	"fmt"
	"path"
	"regexp"
	"strings"
)

// Rule is one permission rule. An empty Pattern covers every call of Tool.
type Rule struct {
	Tool    string
	Pattern string
}

// Parse reads "tool" or "tool(pattern)".
func Parse(s string) (Rule, error) {
	s = strings.TrimSpace(s)
	open := strings.IndexByte(s, '(')
	if open < 0 {
		if !validTool(s) {
			return Rule{}, fmt.Errorf("permission rule %q: want tool or tool(pattern), e.g. bash(go test *)", s)
		}
		return Rule{Tool: s}, nil
	}
	if !strings.HasSuffix(s, ")") || !validTool(s[:open]) {
		return Rule{}, fmt.Errorf("permission rule %q: want tool or tool(pattern), e.g. bash(go test *)", s)
	}
	return Rule{Tool: s[:open], Pattern: strings.TrimSpace(s[open+1 : len(s)-1])}, nil
}

func validTool(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '-' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// String is the rule in the form Parse reads.
func (r Rule) String() string {
	if r.Pattern == "" {
		return r.Tool
	}
	return r.Tool + "(" + r.Pattern + ")"
}

// compound holds what makes a shell command more than one simple command.
var compound = regexp.MustCompile("[;&|`<>\n]|\\$\\(")

// Matches reports whether the rule covers a call of tool with subject
// (see the package doc); deny says the rule is a deny rule.
func (r Rule) Matches(tool, subject string, deny bool) bool {
	if r.Tool != tool {
		return false
	}
	if r.Pattern == "" {
		return true
	}
	subject = strings.TrimSpace(subject)
	if tool != "bash" {
		if glob(r.Pattern, subject) {
			return true
		}
		return !strings.Contains(r.Pattern, "/") && glob(r.Pattern, path.Base(subject))
	}
	if glob(r.Pattern, subject) {
		return !compound.MatchString(subject) || !strings.Contains(r.Pattern, "*") || deny
	}
	if !deny {
		return false
	}
	for _, part := range compound.Split(subject, -1) {
		if p := strings.TrimSpace(strings.Trim(strings.TrimSpace(part), "()")); p != "" && glob(r.Pattern, p) {
			return true
		}
	}
	return false
}

// glob matches s against pattern, where * is any run of characters and
// "X *" also matches "X".
func glob(pattern, s string) bool {
	if strings.HasSuffix(pattern, " *") && s == strings.TrimSuffix(pattern, " *") {
		return true
	}
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return s == pattern
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	for i, p := range parts[1:] {
		if i == len(parts)-2 {
			return strings.HasSuffix(s, p)
		}
		j := strings.Index(s, p)
		if j < 0 {
			return false
		}
		s = s[j+len(p):]
	}
	return true
}

// Decision is what the rules say about a call.
type Decision int

// The decisions.
const (
	Ask Decision = iota // no rule matched
	Allow
	Deny
)

// Rules are allow and deny lists; deny wins.
type Rules struct {
	Allow, Deny []Rule
}

// ParseRules reads the config file's lists.
func ParseRules(allow, deny []string) (Rules, error) {
	var rs Rules
	for _, s := range allow {
		r, err := Parse(s)
		if err != nil {
			return Rules{}, fmt.Errorf("allow: %w", err)
		}
		rs.Allow = append(rs.Allow, r)
	}
	for _, s := range deny {
		r, err := Parse(s)
		if err != nil {
			return Rules{}, fmt.Errorf("deny: %w", err)
		}
		rs.Deny = append(rs.Deny, r)
	}
	return rs, nil
}

// Decide returns Deny and the rule when a deny rule matches, else Allow
// and the rule when an allow rule does, else Ask.
func (rs Rules) Decide(tool, subject string) (Decision, Rule) {
	for _, r := range rs.Deny {
		if r.Matches(tool, subject, true) {
			return Deny, r
		}
	}
	for _, r := range rs.Allow {
		if r.Matches(tool, subject, false) {
			return Allow, r
		}
	}
	return Ask, Rule{}
}

// subcommands are programs whose first argument names what they do, so
// that allowing "go test" for the session does not allow "go run".
var subcommands = map[string]bool{
	"go": true, "npm": true, "pnpm": true, "yarn": true, "bun": true, "deno": true, "npx": true,
	"cargo": true, "git": true, "docker": true, "podman": true, "kubectl": true, "pip": true,
	"pip3": true, "uv": true, "poetry": true, "dotnet": true, "mvn": true, "gradle": true,
	"make": true, "just": true, "bundle": true, "rails": true, "mix": true, "swift": true,
	"zig": true, "composer": true, "brew": true, "apt": true, "apt-get": true, "systemctl": true,
}

// BashScope returns the rule that "allow for the session" adds for a bash
// command, and how the dialog shows it: "go test ./..." gives
// bash(go test *) and "go test …"; "ls -la" gives bash(ls *) and "ls …".
// Leading VAR=value assignments are skipped. A command with no program
// word gives the exact command.
func BashScope(command string) (Rule, string) {
	words := strings.Fields(command)
	for len(words) > 0 && strings.Contains(words[0], "=") && !strings.HasPrefix(words[0], "=") {
		words = words[1:]
	}
	if len(words) == 0 || compound.MatchString(words[0]) {
		c := strings.TrimSpace(command)
		return Rule{Tool: "bash", Pattern: c}, c
	}
	prefix := words[0]
	if subcommands[path.Base(words[0])] && len(words) > 1 && !strings.HasPrefix(words[1], "-") && !compound.MatchString(words[1]) {
		prefix += " " + words[1]
	}
	return Rule{Tool: "bash", Pattern: prefix + " *"}, prefix + " …"
}
