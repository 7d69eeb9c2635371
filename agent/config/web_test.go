package config

import (
	"reflect"
	"strings"
	"testing"
)

// TestWebAllow: [web] allow comes from the user file only; a project
// file's is ignored with a warning (it would let a repository open a way
// out without asking).
func TestWebAllow(t *testing.T) {
	user := localUser + "\n[web]\nallow = [\"docs.example.org\", \"*.go.dev\"]\n"
	s, err := Load(setup(t, user, "[web]\nallow = [\"evil.example\"]\n", nil))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"docs.example.org", "*.go.dev"}; !reflect.DeepEqual(s.Web.Allow, want) {
		t.Errorf("web.allow = %q, want %q", s.Web.Allow, want)
	}
	if s.Sources["web.allow"].Kind != SourceUser {
		t.Errorf("web.allow source = %v, want the user file", s.Sources["web.allow"])
	}
	if w := strings.Join(s.Warnings, "\n"); !strings.Contains(w, "[web] allow in a project file is ignored") {
		t.Errorf("no warning about the project's [web] allow:\n%s", w)
	}
}
