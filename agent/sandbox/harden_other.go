//go:build !linux

package sandbox

// HardenProcess does nothing outside Linux yet.
func HardenProcess() {}
