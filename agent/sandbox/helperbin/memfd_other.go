//go:build !linux

package helperbin

import "io"

// memExecutable is Linux's only: elsewhere there is no image to run.
func memExecutable(bin io.Reader) (int, error) { return -1, ErrNoImage }

// closeFD has nothing to close where memExecutable makes nothing.
func closeFD(int) {}
