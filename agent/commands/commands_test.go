package commands

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadShadowsAndDescribes(t *testing.T) {
	user, project := t.TempDir(), t.TempDir()
	write(t, user, "review.md", "user review of $ARGUMENTS")
	write(t, user, "fix.md", "---\ndescription: Fix an issue by number\n---\nFix issue #$1 ($2).\n")
	write(t, project, "review.md", "---\r\ndescription: \"Review a file\"\r\n---\r\nReview $ARGUMENTS carefully.\r\n")
	write(t, project, "notes.txt", "not a command")
	write(t, project, "bad name.md", "x")
	write(t, project, "empty.md", "---\ndescription: nothing\n---\n")
	cmds, warnings := Load(user, project)
	var names []string
	for _, c := range cmds {
		names = append(names, c.Name)
	}
	if got := strings.Join(names, ","); got != "fix,review" {
		t.Fatalf("commands %s, want fix,review", got)
	}
	if len(warnings) != 2 || !strings.Contains(strings.Join(warnings, "\n"), "bad name.md") || !strings.Contains(strings.Join(warnings, "\n"), "empty.md: skipped: the command has no text") {
		t.Errorf("warnings %q", warnings)
	}
	fix, review := cmds[0], cmds[1]
	if fix.Description != "Fix an issue by number" || fix.Project {
		t.Errorf("fix = %+v", fix)
	}
	if !review.Project || review.Description != "Review a file" {
		t.Errorf("review = %+v, want the project's", review)
	}
	if got := review.Expand(" main.go "); got != "Review main.go carefully." {
		t.Errorf("Expand = %q", got)
	}
}

func TestLoadMissingDirs(t *testing.T) {
	if cmds, warns := Load("", filepath.Join(t.TempDir(), "none")); len(cmds) != 0 || len(warns) != 0 {
		t.Fatalf("Load of nothing = %v, %v", cmds, warns)
	}
}

func TestExpand(t *testing.T) {
	tests := []struct {
		body, args, want string
	}{
		{"Review $ARGUMENTS now", "a.go b.go", "Review a.go b.go now"},
		{"Fix #$1 in $2, not $3.", "12 parser", "Fix #12 in parser, not ."},
		{"Explain this code", "", "Explain this code"},
		{"Explain this code\n", "focus on errors", "Explain this code\n\nfocus on errors"},
		{"Cost: $5 and $$ and $X", "", "Cost:  and $$ and $X"},
		{"Twice: $ARGUMENTS / $ARGUMENTS", "x", "Twice: x / x"},
	}
	for _, tc := range tests {
		if got := (Command{Body: tc.body}).Expand(tc.args); got != tc.want {
			t.Errorf("Expand(%q, %q) = %q, want %q", tc.body, tc.args, got, tc.want)
		}
	}
}
