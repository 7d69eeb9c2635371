// Package proctest is test support shared by the packages that run
// commands (the sandbox, its loaded helper, the bash tool): it runs a
// command for its output and exit code, and looks in the process table for
// what a command may have left running (Named reads /proc, so it answers
// only on Linux; elsewhere it fails the test). It imports nothing of the
// project, so the sandbox's own tests can use it.
package proctest

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"testing"
)

// Named lists the pids whose command line starts with name; it fails t
// when the process table cannot be read.
func Named(t testing.TB, name string) []string {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && bytes.HasPrefix(b, []byte(name)) {
			out = append(out, e.Name())
		}
	}
	return out
}

// Cmd is a command Run runs: an exec.Cmd, or the sandbox's Cmd.
type Cmd interface {
	CombinedOutput() ([]byte, error)
}

// Run runs cmd with its output and errors in one buffer and returns what
// it wrote and its exit code; it fails t ("run <script>: ...") when cmd
// could not run at all.
func Run(t testing.TB, cmd Cmd, script string) (string, int) {
	t.Helper()
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return string(out), 0
	case errors.As(err, &ee):
		return string(out), ee.ExitCode()
	}
	t.Fatalf("run %q: %v", script, err)
	return "", -1
}
