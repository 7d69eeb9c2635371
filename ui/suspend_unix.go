//go:build unix

package ui

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
)

// runSuspender suspends the program on a request or a SIGTSTP, one at a
// time, until ctx ends. Without a shell's job control above tick (tick is
// its session's leader, as when tmux or a terminal runs it directly) a
// stopped tick could never be continued: there it returns false and
// ctrl+z only says so.
func runSuspender(ctx context.Context, p releaser, ts *terminalState, req <-chan struct{}) bool {
	if sid, err := unix.Getsid(0); err != nil || sid == os.Getpid() {
		return false
	}
	go func() {
		tstp := make(chan os.Signal, 1)
		for {
			signal.Notify(tstp, syscall.SIGTSTP)
			select {
			case <-ctx.Done():
				signal.Stop(tstp)
				return
			case <-tstp:
			case <-req:
			}
			suspendOnce(p, ts, stopJob)
		}
	}()
	return true
}

// stopJob stops the job as the terminal's ctrl+z would, the whole
// process group, and returns when it is continued. It sends SIGSTOP: once
// a Go program has been notified of SIGTSTP, the runtime keeps its
// handler and a SIGTSTP would no longer stop it.
func stopJob() {
	cont := make(chan os.Signal, 1)
	signal.Notify(cont, syscall.SIGCONT)
	defer signal.Stop(cont)
	if err := syscall.Kill(0, syscall.SIGSTOP); err != nil {
		return
	}
	<-cont
}
