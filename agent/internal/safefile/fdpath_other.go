//go:build !linux

package safefile

import "os"

// openedPath is unknown on this system; the check before the open stands.
func openedPath(*os.File) (string, bool) { return "", false }
