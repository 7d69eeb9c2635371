package sandbox

import (
	"fmt"
	"os"
	"testing"
)

// TestSpareKeepsTheBytes: a command handed to a spare helper gets its
// environment and arguments byte for byte, as execve gives a helper
// started for it: a value that is not UTF-8 (a path in Latin-1 in the
// user's environment) is not rewritten on the way.
func TestSpareKeepsTheBytes(t *testing.T) {
	for _, mode := range []Mode{WorkspaceWrite, FullAccess} {
		for _, how := range []string{"spare", ownHelper} {
			t.Run(string(mode)+"/"+how, func(t *testing.T) {
				r, _ := testRunner(t, mode)
				value := "caf\xe9-\xff\xfe-\xed\xa0\x80"
				cmd := r.Command("", `printf '%s|%s' "$TICK_BYTES" "$1" | od -An -tx1 | tr -d ' \n'`,
					[]string{"PATH=" + os.Getenv("PATH"), "TICK_BYTES=" + value})
				cmd.Args = append(cmd.Args, "bash", value)
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("the command: %v\n%s", err, out)
				}
				if inSpare := cmd.spare != nil; inSpare != (how == "spare") {
					t.Errorf("the command ran in a spare: %v", inSpare)
				}
				if want := fmt.Sprintf("%x", value+"|"+value); string(out) != want {
					t.Errorf("the command got the bytes %s, want %s", out, want)
				}
			})
		}
	}
}
