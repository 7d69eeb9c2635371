package main

import (
	"encoding/json"
	"os/exec"
	"testing"
)

// TestGoModInstallable keeps `go install github.com/tick-agent/tick@VERSION`
// working: the go command refuses, for go install and go run with a
// version, a module whose go.mod has a replace or an exclude directive
// (and a replace would also make anyone importing tick's packages build
// something other than what tick tests).
func TestGoModInstallable(t *testing.T) {
	out, err := exec.Command("go", "mod", "edit", "-json").Output()
	if err != nil {
		t.Fatalf("go mod edit -json: %v", err)
	}
	var mod struct {
		Replace []struct {
			Old, New struct{ Path, Version string }
		}
		Exclude []struct{ Path, Version string }
	}
	if err := json.Unmarshal(out, &mod); err != nil {
		t.Fatalf("read the output of go mod edit -json: %v\n%s", err, out)
	}
	for _, r := range mod.Replace {
		t.Errorf("go.mod replaces %s by %s: go install tick@VERSION would refuse the module",
			atVersion(r.Old.Path, r.Old.Version), atVersion(r.New.Path, r.New.Version))
	}
	for _, x := range mod.Exclude {
		t.Errorf("go.mod excludes %s: go install tick@VERSION would refuse the module", atVersion(x.Path, x.Version))
	}
}

// atVersion is path@version, or path alone when version is empty.
func atVersion(path, version string) string {
	if version == "" {
		return path
	}
	return path + "@" + version
}
