//go:build !unix

// Package flock takes exclusive advisory locks on open files; on this
// system there are none, and every lock is granted.
package flock

import "os"

// Try grants the lock: this system has no flock.
func Try(*os.File) (bool, error) { return true, nil }
