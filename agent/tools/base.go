package tools

import (
	"encoding/json"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tick-agent/tick/agent/sandbox"
)

// Defaults for the zero fields of Options.
const (
	DefaultBashTimeout    = 120 * time.Second
	DefaultBashMaxTimeout = 600 * time.Second
	DefaultOutputCap      = 30000
)

// Options tunes the base tools. Zero fields take the defaults above.
type Options struct {
	// BashTimeout is the bash tool's timeout when the model names none.
	BashTimeout time.Duration
	// BashMaxTimeout is the most the model may ask for; larger requests
	// are capped to it.
	BashMaxTimeout time.Duration
	// OutputCap is the most bytes of command output kept (head and tail).
	OutputCap int
	// Env is the environment bash commands get ("NAME=value"), already
	// scrubbed of secrets by the caller (see sandbox.ScrubEnv). Nil means
	// tick's own environment without secrets.
	Env []string
	// Sandbox starts bash commands (confined, and with every process a
	// command leaves behind ended when it ends); nil runs plain bash.
	// The mode comes from the call's context (sandbox.WithMode), else
	// the runner's policy.
	Sandbox *sandbox.Runner
	// Web tunes web_fetch: its allow list and caps.
	Web WebOptions
}

func (o Options) withDefaults() Options {
	if o.BashTimeout <= 0 {
		o.BashTimeout = DefaultBashTimeout
	}
	if o.BashMaxTimeout <= 0 {
		o.BashMaxTimeout = DefaultBashMaxTimeout
	}
	if o.BashTimeout > o.BashMaxTimeout {
		o.BashTimeout = o.BashMaxTimeout
	}
	if o.OutputCap <= 0 {
		o.OutputCap = DefaultOutputCap
	}
	if o.Env == nil {
		o.Env = sandbox.ScrubEnv(os.Environ(), []string{"OPENAI_API_KEY"}, nil)
	}
	return o
}

// Base returns the base tools for ws, in this order: bash, read_file,
// write_file, edit_file, web_fetch. The tools are safe for concurrent use;
// bash, write_file, edit_file and web_fetch implement Approvable.
func Base(ws *Workspace, opt Options) []Tool {
	return []Tool{
		NewBash(ws, opt),
		NewReadFile(ws),
		NewWriteFile(ws),
		NewEditFile(ws),
		NewWebFetch(opt.Web),
	}
}

// summaryMax is the most runes Summary returns (plus "…").
const summaryMax = 120

// Summary returns a tool call's key argument for a one-line display: the
// first line of bash's command; the path of read_file, write_file and
// edit_file. For other tools (the agent's own, MCP tools) it picks a likely
// key (path, command, description, ..., goal); for malformed arguments it
// returns a short prefix of the raw text. The result
// is one line of at most about 120 characters; it may be "".
func Summary(name string, args json.RawMessage) string {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(args, &fields); err != nil || fields == nil {
		return rawPrefix(args)
	}
	get := func(key string) string {
		var s string
		if json.Unmarshal(fields[key], &s) != nil {
			return ""
		}
		return firstLine(s, summaryMax)
	}
	switch name {
	case "bash":
		return get("command")
	case "read_file", "write_file", "edit_file":
		return get("path")
	}
	for _, key := range []string{"path", "file_path", "command", "description", "pattern", "query", "url", "goal"} {
		if s := get(key); s != "" {
			return s
		}
	}
	return ""
}

// rawPrefix returns the start of raw as one line.
func rawPrefix(raw []byte) string {
	s := strings.Join(strings.Fields(strings.ToValidUTF8(string(raw), "\uFFFD")), " ")
	if utf8.RuneCountInString(s) > summaryMax/2 {
		s = string([]rune(s)[:summaryMax/2]) + " …"
	}
	return s
}
