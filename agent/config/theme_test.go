package config

import (
	"strings"
	"testing"
)

// TestThemeKey: theme is a key of the file format taking "auto", "light"
// or "dark"; another value is refused with the valid ones named.
func TestThemeKey(t *testing.T) {
	for _, v := range []string{"auto", "light", "dark"} {
		s, err := Load(setup(t, "theme = \""+v+"\"\n", "", nil))
		if err != nil || len(s.Warnings) > 0 || s.Theme != v {
			t.Errorf("theme = %q: %v, warnings %q, got %q", v, err, s.Warnings, s.Theme)
		}
	}
	if _, err := Load(setup(t, "theme = \"solarized\"\n", "", nil)); err == nil || !strings.Contains(err.Error(), `"light"`) {
		t.Errorf("theme = solarized: %v", err)
	}
}
