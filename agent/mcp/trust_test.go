package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTrustPerProjectAndDefinition(t *testing.T) {
	dir := t.TempDir()
	tr := NewTrust(dir)
	servers := []Server{{Name: "a", Command: "node", Args: []string{"a.js"}, Headers: map[string]string{"Authorization": "Bearer tok"}}}
	if ok, err := tr.Approved("/p", servers); ok || err != nil {
		t.Fatalf("Approved before Approve = %v, %v", ok, err)
	}
	if err := tr.Approve("/p", servers); err != nil {
		t.Fatal(err)
	}
	if ok, err := NewTrust(dir).Approved("/p", servers); !ok || err != nil {
		t.Fatalf("Approved after Approve = %v, %v", ok, err)
	}
	changed := []Server{{Name: "a", Command: "node", Args: []string{"evil.js"}}}
	for _, tc := range []struct {
		project string
		servers []Server
	}{{"/other", servers}, {"/p", changed}} {
		if ok, _ := tr.Approved(tc.project, tc.servers); ok {
			t.Errorf("Approved(%s, %+v) = true; only the approved definitions are trusted", tc.project, tc.servers)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "mcp-trusted.json"))
	if err != nil || strings.Contains(string(b), "tok") {
		t.Fatalf("trust file %q, %v: must exist and hold no secret", b, err)
	}
}

func TestTrustBrokenFile(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "mcp-trusted.json"), []byte("{"), 0o600)
	if _, err := NewTrust(dir).Approved("/p", nil); err == nil || !strings.Contains(err.Error(), "mcp-trusted.json") {
		t.Fatalf("err = %v, want one naming the file", err)
	}
}

// TestTrustNeverApprovesUnencodable: a definition that cannot be encoded
// (a func in it) has no fingerprint and is never approved, instead of
// sharing the fingerprint of every other such definition.
func TestTrustNeverApprovesUnencodable(t *testing.T) {
	tr := NewTrust(t.TempDir())
	bad := struct{ F func() }{func() {}}
	if err := tr.Approve("/p", bad); err == nil {
		t.Error("an unencodable definition was recorded")
	}
	if ok, _ := tr.Approved("/p", bad); ok {
		t.Error("an unencodable definition is approved")
	}
}
