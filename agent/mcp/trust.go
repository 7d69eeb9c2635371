package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tick-agent/tick/agent/atomicfile"
)

// Trust remembers the projects whose MCP servers (and hooks) the user
// approved. A project's .tick/config.toml may start programs, so they run
// only after the user said yes once for that project and exactly those
// definitions: changing a definition asks again.
//
// The record is one JSON file in tick's state directory holding
// fingerprints (hashes of the project path and the definitions), never the
// definitions themselves, so no header token is stored.
type Trust struct {
	path string
}

// NewTrust returns the trust record kept in stateDir.
func NewTrust(stateDir string) *Trust {
	return &Trust{path: filepath.Join(stateDir, "mcp-trusted.json")}
}

// Fingerprint identifies project together with def, the definitions the
// user approves (servers, hooks: any value that marshals to JSON; maps
// marshal with sorted keys, so equal definitions match).
// A def that cannot be marshalled has no fingerprint (""), which is never
// approved.
func Fingerprint(project string, def any) string {
	b, err := json.Marshal(struct {
		Project string
		Def     any
	}{project, def})
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Approved reports whether the user approved def for project.
func (t *Trust) Approved(project string, def any) (bool, error) {
	set, err := t.load()
	if err != nil {
		return false, err
	}
	fp := Fingerprint(project, def)
	return fp != "" && set[fp], nil
}

// Approve records the user's approval of def for project, and of each of
// also (a part of def the caller asks about separately).
func (t *Trust) Approve(project string, def any, also ...any) error {
	set, err := t.load()
	if err != nil {
		return err
	}
	for _, d := range append([]any{def}, also...) {
		fp := Fingerprint(project, d)
		if fp == "" {
			return fmt.Errorf("record the MCP trust: the definitions cannot be encoded")
		}
		set[fp] = true
	}
	b, err := json.MarshalIndent(set, "", "  ")
	if err != nil {
		return fmt.Errorf("encode the MCP trust record: %w", err)
	}
	if err := atomicfile.WritePrivate(t.path, b); err != nil {
		return fmt.Errorf("save the MCP trust record: %w", err)
	}
	return nil
}

// load reads the set of approved fingerprints; a missing file is empty.
func (t *Trust) load() (map[string]bool, error) {
	set := map[string]bool{}
	b, err := os.ReadFile(t.path)
	if errors.Is(err, fs.ErrNotExist) {
		return set, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the MCP trust record: %w", err)
	}
	if err := json.Unmarshal(b, &set); err != nil {
		return nil, fmt.Errorf("read the MCP trust record %s: %w", t.path, err)
	}
	return set, nil
}
