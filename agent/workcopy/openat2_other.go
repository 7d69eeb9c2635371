//go:build unix && !linux

package workcopy

// openBeneath always leaves the walk to openat one component at a time
// (openat2 is Linux's).
func openBeneath(int, string) (int, error) { return -1, errNoOpenat2 }
