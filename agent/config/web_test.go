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
	user := localUser + "\n[web]\nallow = [\"docs.example.org\", \"*.go.dev\"]\nallow_private = [\"intranet.example\"]\n"
	s, err := Load(setup(t, user, "[web]\nallow = [\"evil.example\"]\nallow_private = [\"evil.example\"]\n", nil))
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
	if want := []string{"intranet.example"}; !reflect.DeepEqual(s.Web.AllowPrivate, want) || s.Sources["web.allow_private"].Kind != SourceUser {
		t.Errorf("web.allow_private = %q from %v, want %q from the user file", s.Web.AllowPrivate, s.Sources["web.allow_private"], want)
	}
	if w := strings.Join(s.Warnings, "\n"); !strings.Contains(w, "[web] allow_private in a project file is ignored") {
		t.Errorf("no warning about the project's [web] allow_private:\n%s", w)
	}
}

// TestImagesOff: images = false in a provider's table turns images off
// for it; unset or true leaves them on.
func TestImagesOff(t *testing.T) {
	s, err := Load(setup(t, localUser+"images = false\n\n[providers.other]\nbase_url = \"http://127.0.0.1:9/v1\"\nimages = true\n", "", nil))
	if err != nil {
		t.Fatal(err)
	}
	if !s.ImagesOff("local") || s.ImagesOff("other") || s.ImagesOff("openai") {
		t.Errorf("ImagesOff: local %v, other %v, openai %v; want true, false, false", s.ImagesOff("local"), s.ImagesOff("other"), s.ImagesOff("openai"))
	}
}
