package sandbox

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// smallHelperEnv makes the tests of this package run their commands
// through the small helper tick carries (helperbin's image for this
// architecture, unpacked) instead of the test binary (see helperFor).
const smallHelperEnv = "TICK_TEST_SMALL_HELPER"

// helperFor returns the helper the tests start commands through: the
// test binary (which is `tick __sandbox` in all but its name), or with
// smallHelperEnv set the small helper tick runs in practice, unpacked
// from its image into a file of the test's own.
func helperFor(t testing.TB) string {
	t.Helper()
	if os.Getenv(smallHelperEnv) == "" {
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		return exe
	}
	gz, err := os.ReadFile(filepath.Join("helperbin", "helper_linux_"+runtime.GOARCH+".gz"))
	if err != nil {
		t.Fatalf("read the small helper's image: %v", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatalf("unpack the small helper: %v", err)
	}
	bin, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("unpack the small helper: %v", err)
	}
	path := filepath.Join(t.TempDir(), "helper")
	if err := os.WriteFile(path, bin, 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// escapeTests are the tests that try to leave the sandbox, run again
// under the small helper by TestEscapesUnderTheSmallHelper.
var escapeTests = []string{
	"TestEscapes", "TestLoopbackNetwork", "TestForeignArchitectureKilled", "TestFallbackWithoutNamespaces",
	"TestHelperOutOfReach", "TestOtherProcessesOutOfSight", "TestTerminalOutOfReach", "TestKilledHelperEndsTheCommand",
	"TestForkBombHeld", "TestLeftoversAreKilled", "TestInheritedDescriptorsClosed", "TestHelperReportsExitAndSignal", "TestTickFilesHidden",
	"TestReadOnlyWritesOnlyTemp", "TestWorkspaceWriteAllowsWorkspaceAndTemp", "TestGitExtraHeaderHidden",
	"TestGitMeta(WithoutNamespaces|ReportsPlanted|Bound)", "TestNestedGitMetaReadOnly", "TestGitInitWithoutRepository",
	"TestQuarantine", "TestProtectedPaths.*", "Test.*ProtectedPathIsReported", "TestGitGuardInLinkedWorkspace",
}

// TestEscapesUnderTheSmallHelper runs this package's escape tests again
// with their commands started through the small helper tick carries
// (the image helperbin loads), not the test binary: every guarantee
// (file rules, seccomp, namespaces, the git binds, hidden directories,
// the kill of leftovers, the exit status) must hold under the helper
// tick really runs.
func TestEscapesUnderTheSmallHelper(t *testing.T) {
	if os.Getenv(smallHelperEnv) != "" {
		t.Fatalf("%s is already set: run with -run that leaves this test out", smallHelperEnv)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run", "^("+strings.Join(escapeTests, "|")+")$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), smallHelperEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the escape tests under the small helper failed: %v\n%s", err, out)
	}
	for _, name := range []string{"TestEscapes", "TestHelperOutOfReach", "TestLoopbackNetwork"} {
		if !bytes.Contains(out, []byte("--- PASS: "+name+" ")) {
			t.Errorf("%s did not run under the small helper:\n%s", name, out)
		}
	}
}
