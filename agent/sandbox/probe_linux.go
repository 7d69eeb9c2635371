package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// probeTimeout bounds the namespace check.
const probeTimeout = 5 * time.Second

// Probe finds what this machine offers for policy p, running helper (the
// tick executable; "" means none) once to check the namespaces. It takes
// a few milliseconds.
func Probe(helper string, p Policy) Support {
	var s Support
	s.LandlockABI, s.LandlockWhy = landlockABI()
	s.Seccomp, s.SeccompWhy = seccompSupport()
	if helper == "" {
		s.HelperWhy = "tick's own executable was not found, so commands run bash directly"
		s.NamespacesWhy = "no helper"
		return s
	}
	s.Helper = helper
	var rep initReport
	s.Namespaces, s.NamespacesWhy, rep = probeNamespaces(helper, p)
	s.ProcessLimit, s.ProcWhy = rep.ProcessLimit, rep.ProcWhy
	return s
}

// probeNamespaces starts the helper in new namespaces and lets it set up
// the mounts and the process bound a command would get; it returns
// whether that worked, why not, and what the helper reported.
func probeNamespaces(helper string, p Policy) (bool, string, initReport) {
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	b, _ := json.Marshal(spec{Policy: p, Probe: true, Namespaces: true})
	cmd := exec.CommandContext(ctx, helper, HelperArg, string(b), "--", "true")
	cmd.SysProcAttr = sysProcAttr(true)
	cmd.Dir = p.Workspace
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err == nil {
		var rep initReport
		if jerr := json.Unmarshal(stdout.Bytes(), &rep); jerr != nil {
			return false, fmt.Sprintf("cannot make namespaces: read the helper's report %q: %v", stdout.String(), jerr), rep
		}
		return true, "", rep
	}
	why := strings.TrimSpace(stderr.String())
	var ee *exec.ExitError
	if why == "" || !errors.As(err, &ee) {
		why = err.Error()
	}
	if strings.Contains(why, "operation not permitted") || strings.Contains(why, "permission denied") {
		why += " (unprivileged user namespaces are disabled: see the sysctls kernel.unprivileged_userns_clone, user.max_user_namespaces and AppArmor's kernel.apparmor_restrict_unprivileged_userns)"
	}
	return false, fmt.Sprintf("cannot make namespaces: %s", why), initReport{}
}
