// Package tools holds tick's base tools: bash, read_file, write_file,
// edit_file and web_fetch. Each tool's description for the model is an embedded Markdown
// file beside its Go file.
//
// Tools never panic on model input: bad arguments, missing files and paths
// outside the workspace come back as errors, which the agent turns into an
// "Error: ..." tool result the model can act on.
package tools

import (
	"context"
	"encoding/json"

	"github.com/tick-agent/tick/provider"
)

// Tool is one capability offered to the model.
type Tool interface {
	// Spec is the name, description and JSON schema sent to the model.
	Spec() provider.ToolSpec
	// Run executes one call with the model's raw JSON arguments. The
	// returned text is the tool result; an error becomes "Error: <err>".
	// Run must return promptly once ctx is cancelled.
	Run(ctx context.Context, args json.RawMessage) (string, error)
}

// Approvable is implemented by tools that change something and so may need
// the user's approval before they run.
type Approvable interface {
	// Preview describes what the call would do: a one-line summary and the
	// detail to show (the command, or a unified diff of a file change). An
	// error means the call is invalid and would fail anyway.
	Preview(args json.RawMessage) (summary, detail string, err error)
}

// Egress is implemented by tools that reach the network from tick's own
// process, outside the command sandbox (web_fetch): a way out that the
// sandbox cannot contain. Such a call asks every time (no "allow always",
// no auto mode) unless its host is on the user's allow list or the
// approval mode allows everything, and plan mode offers the tool only
// for allowed hosts.
type Egress interface {
	Tool
	Approvable
	// HostAllowed reports whether the call's host is on the allow list.
	HostAllowed(args json.RawMessage) bool
	// HasAllowList reports whether any host is allowed.
	HasAllowList() bool
}
