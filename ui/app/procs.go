package app

import "runtime"

// tuiProcs runs the full-screen app's Go code on one thread at a time
// (GOMAXPROCS 1) unless the user set GOMAXPROCS (env is its value), and
// returns the previous setting. The app mostly waits (on the terminal,
// the model server, the commands it runs); with a second P the Go
// scheduler wakes and parks another thread for nearly every streamed
// delta, which cost ~15% of the CPU of an answer streamed at a reader's
// pace (peerbench stream10s, 3 runs each: 1.37 -> 1.15 CPU-s median).
func tuiProcs(env string) (prev int) {
	if env != "" {
		return runtime.GOMAXPROCS(0)
	}
	return runtime.GOMAXPROCS(1)
}
