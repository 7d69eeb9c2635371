//go:build !unix

package ui

import "context"

// runSuspender does nothing where there is no job control.
func runSuspender(context.Context, releaser, *terminalState, <-chan struct{}) bool { return false }
