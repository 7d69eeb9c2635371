package session

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// MkdirUnderHome makes dir (mode 0700) like os.MkdirAll, except that it
// never creates a missing home directory: when dir lies under home and
// home does not exist (HOME=/nonexistent in a CI job), it creates nothing
// and says so, and the caller goes on without saving.
func MkdirUnderHome(dir, home string) error {
	if home != "" && filepath.IsAbs(home) {
		h := filepath.Clean(home)
		if d := filepath.Clean(dir); d == h || strings.HasPrefix(d, h+string(filepath.Separator)) {
			if st, err := os.Stat(h); err != nil || !st.IsDir() {
				return fmt.Errorf("create %s: the home directory %s does not exist (tick does not create it)", dir, h)
			}
		}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	return nil
}
