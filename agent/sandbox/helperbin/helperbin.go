// Package helperbin carries a build of the sandbox helper on its own
// (./helper: sandbox.Main and nothing else of tick, no cgo), so that a
// command the model runs starts that small program instead of re-running
// tick's whole binary as `tick __sandbox`: the helper then pays neither
// the initialisers of tick's other packages that Go runs before
// agent/sandbox/entry's (the MCP SDK's encoding/gob, the HTML parser's
// tables, ...) nor the C library's start-up nor the page faults of a
// large binary, which together were about half of a command's cost.
//
// The images, one per architecture the sandbox supports, are gzipped
// in this directory (helper_linux_ARCH.gz) and made by `go generate
// ./agent/sandbox/helperbin/` (internal/gen), which records the digest of
// the sources they were built from (sources_gen.go); a test fails when
// the sources changed since, so a helper built from older code is never
// shipped. Load puts this architecture's image in a sealed memory file
// (nothing is written to disk, nothing on disk can replace it), checks
// that it runs, and returns the path to execute. Where that fails (no
// image for this architecture, memory files not executable) the caller
// keeps re-running tick itself, which does the same.
package helperbin

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/tick-agent/tick/agent/sandbox"
)

//go:generate go run ./internal/gen

// ErrNoImage is returned by Load on an architecture tick carries no
// helper image for.
var ErrNoImage = errors.New("no sandbox helper image for this architecture")

// maxImage bounds the unpacked image (it is about 2.5 MiB): a longer one
// is cut there, and the cut image fails the trial run.
const maxImage = 64 << 20

// checkTimeout bounds Load's trial run of the helper.
const checkTimeout = 5 * time.Second

// Load unpacks this architecture's helper into a sealed, read-only memory
// file and returns the path that executes it (/proc/self/fd/N), after a
// trial run. The descriptor stays open for the rest of the process (the
// path names it): call Load once per process. It takes a few
// milliseconds; it fails with ErrNoImage where there is no image, and
// when the kernel refuses to make or run the memory file.
func Load() (string, error) {
	if len(image) == 0 {
		return "", ErrNoImage
	}
	r, err := gzip.NewReader(bytes.NewReader(image))
	if err != nil {
		return "", fmt.Errorf("unpack the sandbox helper: %w", err)
	}
	fd, err := memExecutable(io.LimitReader(r, maxImage))
	if err != nil {
		return "", err
	}
	path := "/proc/self/fd/" + strconv.Itoa(fd)
	if err := check(path); err != nil {
		closeFD(fd)
		return "", err
	}
	return path, nil
}

// check runs the helper at path once and expects its answer.
func check(path string) error {
	ctx, cancel := context.WithTimeout(context.Background(), checkTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, sandbox.HelperArg+"-check").Output()
	if err != nil {
		return fmt.Errorf("run the sandbox helper %s: %w", path, err)
	}
	if strings.TrimSpace(string(out)) != "ok" {
		return fmt.Errorf("run the sandbox helper %s: it answered %q", path, out)
	}
	return nil
}
