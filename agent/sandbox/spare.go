package sandbox

import (
	"os"
	"os/exec"
)

// A Runner keeps one spare helper: a helper for its policy's own mode,
// started in the background before it is needed (when the runner's
// support is known and after each command), that waits for its command
// (see spare_linux.go). A command in that mode is then handed to the
// spare over a socket instead of forking and executing a new helper,
// making namespaces and starting the helper's runtime: those are done
// while the model is still answering. Everything the command itself
// brings (the spec with the workspace's .git entries and protected paths
// of the moment, the environment, the directory, the standard streams)
// goes with it, and the helper applies all of the sandbox after it has
// its command, exactly as a helper started for it does.

// spareKind is what a spare helper was started as: which helper, and
// whether in new namespaces. A command fits a spare of its own kind only.
type spareKind struct {
	helper string
	ns     bool
}

// spare is one helper started ahead; ready is closed once its start
// returned (cmd and sock set, or err).
type spare struct {
	kind  spareKind
	ready chan struct{}
	cmd   *exec.Cmd
	sock  *os.File
	err   error
}

// spareKind returns the kind of helper a command in mode m ("" for the
// policy's) runs in: in namespaces when it is confined and they work; and
// false when it runs in none (plain bash).
func (r *Runner) spareKind(m Mode) (spareKind, bool) {
	sup := r.Support()
	if sup.Helper == "" {
		return spareKind{}, false
	}
	return spareKind{helper: sup.Helper, ns: r.Confined(m) && sup.Namespaces}, true
}

// prewarm starts the runner's spare helper in the background, unless it
// has one or is closed. Call it once support is known.
func (r *Runner) prewarm() {
	k, ok := r.spareKind("")
	if !ok {
		return
	}
	r.sparemu.Lock()
	defer r.sparemu.Unlock()
	if r.closed || r.spare != nil {
		return
	}
	s := &spare{kind: k, ready: make(chan struct{})}
	r.spare = s
	go func() {
		s.cmd, s.sock, s.err = startSpare(k.helper, k.ns)
		close(s.ready)
	}()
}

// takeSpare returns the runner's spare helper for a command of kind k,
// waiting for it to have started, or nil when there is none of that kind
// (the command starts a helper of its own).
func (r *Runner) takeSpare(k spareKind) *spare {
	r.sparemu.Lock()
	s := r.spare
	if s == nil || s.kind != k {
		r.sparemu.Unlock()
		return nil
	}
	r.spare = nil
	r.sparemu.Unlock()
	<-s.ready
	if s.err != nil {
		return nil
	}
	return s
}

// dropSpare ends the runner's spare helper, if any, and starts no more.
func (r *Runner) dropSpare() {
	r.sparemu.Lock()
	s := r.spare
	r.spare = nil
	r.closed = true
	r.sparemu.Unlock()
	if s != nil {
		<-s.ready
		s.discard()
	}
}

// discard ends a spare helper that never got its command and reaps it.
func (s *spare) discard() {
	if s.err != nil {
		return
	}
	s.sock.Close()
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
}
