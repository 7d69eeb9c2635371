// Package proctest is test support shared by the packages that run
// commands (the sandbox, its loaded helper, the bash tool): it looks in the
// process table for what a command may have left running. It reads /proc,
// so it answers only on Linux; elsewhere it fails the test.
package proctest

import (
	"bytes"
	"os"
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
