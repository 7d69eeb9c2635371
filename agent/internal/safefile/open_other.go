//go:build !unix

package safefile

// openFlags: this system has no named pipes that block an open; the
// checks before and after the open still apply.
const openFlags = 0

// dirFlags: as openFlags.
const dirFlags = openFlags
