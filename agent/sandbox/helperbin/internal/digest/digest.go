// Package digest computes what the sandbox helper's images are built
// from, as one digest: helperbin's generator records it beside the
// images, and helperbin's test recomputes it, so that a change to the
// sandbox that was not followed by `go generate` fails the tests instead
// of shipping a helper built from older code.
package digest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// Arches are the architectures the images are built for.
var Arches = []string{"amd64", "arm64"}

// pkg is what `go list -json` says of a package, as far as the digest
// needs it.
type pkg struct {
	ImportPath string
	Dir        string
	Standard   bool
	GoFiles    []string
	EmbedFiles []string
	Module     *struct {
		Path, Version string
		Main          bool
	}
}

// Sources returns the digest of the helper command in dir/helper for
// linux on every architecture of Arches: the content of each of its
// module's Go files it builds from, and the module path and version of
// every other non-standard package. The standard library and the Go
// version are left out (a newer toolchain builds the same code).
func Sources(dir string) (string, error) {
	lines := map[string]bool{}
	for _, arch := range Arches {
		pkgs, err := list(dir, arch)
		if err != nil {
			return "", err
		}
		for _, p := range pkgs {
			if err := describe(p, lines); err != nil {
				return "", err
			}
		}
	}
	out := make([]string, 0, len(lines))
	for l := range lines {
		out = append(out, l)
	}
	sort.Strings(out)
	h := sha256.Sum256([]byte(strings.Join(out, "\n")))
	return hex.EncodeToString(h[:]), nil
}

// list runs `go list -deps -json ./helper` in dir for linux/arch.
func list(dir, arch string) ([]pkg, error) {
	cmd := exec.Command("go", "list", "-deps", "-json", "./helper")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+arch, "GOFLAGS=")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("list the helper's packages for linux/%s: %w: %s", arch, err, stderr.String())
	}
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(b)))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			return pkgs, nil
		} else if err != nil {
			return nil, fmt.Errorf("read go list's output: %w", err)
		}
		pkgs = append(pkgs, p)
	}
}

// describe adds p's lines to lines: its files' digests for a package of
// the main module, its module's version for another.
func describe(p pkg, lines map[string]bool) error {
	switch {
	case p.Standard:
		return nil
	case p.Module == nil || !p.Module.Main:
		mod := "?"
		if p.Module != nil {
			mod = p.Module.Path + "@" + p.Module.Version
		}
		lines[p.ImportPath+" "+mod] = true
		return nil
	}
	for _, f := range append(append([]string(nil), p.GoFiles...), p.EmbedFiles...) {
		b, err := os.ReadFile(filepath.Join(p.Dir, f))
		if err != nil {
			return fmt.Errorf("read %s: %w", f, err)
		}
		h := sha256.Sum256(b)
		lines[p.ImportPath+"/"+f+" "+hex.EncodeToString(h[:])] = true
	}
	return nil
}
