package app

import (
	"testing"

	tickcfg "github.com/tick-agent/tick/agent/config"
)

// TestThemeSetting: TICK_THEME wins over the config's theme, for a
// terminal that does not answer the background query.
func TestThemeSetting(t *testing.T) {
	cfg := config{Run: configpkgRun("light", "dark")}
	if got := themeSetting(cfg); got != "light" {
		t.Errorf("TICK_THEME=light, theme=dark: %q", got)
	}
	cfg = config{Run: configpkgRun("", "dark")}
	if got := themeSetting(cfg); got != "dark" {
		t.Errorf("theme=dark: %q", got)
	}
}

// configpkgRun is a resolved run with TICK_THEME env and the config's theme.
func configpkgRun(env, file string) tickcfg.Run {
	s := &tickcfg.Settings{}
	s.Theme = file
	return tickcfg.Run{ThemeEnv: env, Settings: s}
}
