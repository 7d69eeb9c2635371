//go:build !linux

package sandbox

import (
	"errors"
	"os"
	"os/exec"
)

// spareRequest is the command for a spare helper (see spare_linux.go).
type spareRequest struct{}

// newSpareRequest: outside Linux there is no spare helper.
func newSpareRequest([]string, []string, string) spareRequest { return spareRequest{} }

// answered: outside Linux there is no spare helper.
func answered(*os.File) error { return errors.New("no sandbox helper outside Linux") }

// startSpare: outside Linux there is no helper to keep spare.
func startSpare(string, bool) (*exec.Cmd, *os.File, error) {
	return nil, nil, errors.New("no sandbox helper outside Linux")
}

// hand: outside Linux there is no spare helper.
func hand(*os.File, spareRequest, [3]*os.File) error {
	return errors.New("no sandbox helper outside Linux")
}
