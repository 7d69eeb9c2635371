package instructions

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadOrderAndFallback(t *testing.T) {
	top := t.TempDir()
	repo := filepath.Join(top, "repo")
	ws := filepath.Join(repo, "svc", "api")
	user := filepath.Join(top, "config", "tick")
	write(t, filepath.Join(top, "AGENTS.md"), "outside the repo: never read")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(repo, "AGENTS.md"), "root rules")
	write(t, filepath.Join(repo, "CLAUDE.md"), "root claude: shadowed by AGENTS.md")
	write(t, filepath.Join(repo, "svc", "CLAUDE.md"), "svc claude rules")
	write(t, filepath.Join(ws, "AGENTS.md"), "api rules")
	write(t, filepath.Join(user, "AGENTS.md"), "user rules")

	set, err := Load(ws, user)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, want := range []string{"user rules", "root rules", "svc claude rules", "api rules"} {
		i := strings.Index(set.Text, want)
		if i < 0 {
			t.Fatalf("text lacks %q:\n%s", want, set.Text)
		}
		order = append(order, want)
		if len(order) > 1 && i < strings.Index(set.Text, order[len(order)-2]) {
			t.Errorf("%q comes before %q", want, order[len(order)-2])
		}
	}
	for _, not := range []string{"never read", "shadowed"} {
		if strings.Contains(set.Text, not) {
			t.Errorf("text holds %q:\n%s", not, set.Text)
		}
	}
	if !strings.Contains(set.Text, "## "+filepath.Join(ws, "AGENTS.md")) {
		t.Errorf("files are not labelled with their paths:\n%s", set.Text)
	}
	got := set.Summary(ws, top)
	want := "~/config/tick/AGENTS.md, ~/repo/AGENTS.md, ~/repo/svc/CLAUDE.md, AGENTS.md"
	if got != want {
		t.Errorf("Summary = %q, want %q", got, want)
	}
}

func TestLoadWithoutRepo(t *testing.T) {
	ws := t.TempDir()
	set, err := Load(ws, "")
	if err != nil || set.Text != "" || len(set.Files) != 0 {
		t.Fatalf("empty workspace: %+v, %v", set, err)
	}
	write(t, filepath.Join(ws, "AGENTS.md"), "ws rules")
	set, _ = Load(ws, "")
	if len(set.Files) != 1 || !strings.Contains(set.Text, "ws rules") {
		t.Errorf("got %+v", set)
	}
}

func TestLoadCap(t *testing.T) {
	ws := t.TempDir()
	user := t.TempDir()
	write(t, filepath.Join(user, "AGENTS.md"), strings.Repeat("u", MaxBytes-100))
	write(t, filepath.Join(ws, "AGENTS.md"), strings.Repeat("w", 1000))
	set, err := Load(ws, user)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Files) != 2 || set.Files[0].Cut || !set.Files[1].Cut || set.Files[1].Bytes != 100 {
		t.Fatalf("files %+v", set.Files)
	}
	if !strings.Contains(set.Text, "was cut here") || strings.Count(set.Text, "w") < 100 {
		t.Errorf("no cut note or the kept part is missing")
	}
	if n := strings.Count(set.Text, "u") + strings.Count(set.Text, "w"); n > MaxBytes+200 {
		t.Errorf("%d bytes of file text, over the cap", n)
	}
}
