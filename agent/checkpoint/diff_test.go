package checkpoint

import (
	"context"
	"strings"
	"testing"
)

// TestDiffTextAndBinary: Diff shows a text file's change as a unified diff
// although the store marks every file binary for git, and a file with NUL
// bytes as binary, not as its bytes.
func TestDiffTextAndBinary(t *testing.T) {
	ctx := context.Background()
	s, ws := open(t)
	write(t, ws, "a.txt", "one\n")
	write(t, ws, "bin.dat", "x\x00y")
	before := save(t, s, "before")
	write(t, ws, "a.txt", "two\n")
	write(t, ws, "bin.dat", "x\x00z")
	write(t, ws, "new.txt", "new\n")
	after := save(t, s, "after")
	cs, patch, err := s.Diff(ctx, before.ID, after.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 3 || cs[0] != (Change{Kind: Changed, Path: "a.txt"}) || cs[2] != (Change{Kind: Created, Path: "new.txt"}) {
		t.Errorf("changes = %+v", cs)
	}
	for _, want := range []string{"-one\n+two\n", "Binary files a/bin.dat and b/bin.dat differ", "+new\n"} {
		if !strings.Contains(patch, want) {
			t.Errorf("the patch lacks %q:\n%s", want, patch)
		}
	}
	if strings.Contains(patch, "\x00") {
		t.Errorf("the patch holds a NUL byte:\n%q", patch)
	}
	now, _, err := s.Diff(ctx, after.ID, "")
	if err != nil || len(now) != 0 {
		t.Errorf("diff to an unchanged workspace = %+v, %v", now, err)
	}
	since, err := s.Since(ctx, []string{before.ID, after.ID})
	if err != nil || len(since) != 2 || len(since[0]) != 3 || len(since[1]) != 0 {
		t.Errorf("since = %+v, %v", since, err)
	}
}
