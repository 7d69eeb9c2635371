package prompthist

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestAppendLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "history", "ws.jsonl")
	if got, err := Load(path); err != nil || got != nil {
		t.Fatalf("missing file: %q, %v", got, err)
	}
	for _, p := range []string{"fix the build", "two\nlines", "  ", strings.Repeat("x", MaxEntry+1), `quote " and \ back`} {
		if err := Append(path, p); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"fix the build", "two\nlines", `quote " and \ back`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("loaded %q, want %q", got, want)
	}
	for _, p := range []string{path, filepath.Dir(path)} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		want := os.FileMode(0o600)
		if st.IsDir() {
			want = 0o700
		}
		if st.Mode().Perm() != want {
			t.Errorf("%s has mode %v, want %v", p, st.Mode().Perm(), want)
		}
	}
}

func TestCapAndDamage(t *testing.T) {
	cut := filepath.Join(t.TempDir(), "cut.jsonl")
	if err := os.WriteFile(cut, []byte("\"first\"\n\"cu"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Append(cut, "after"); err != nil {
		t.Fatal(err)
	}
	if got, _ := Load(cut); strings.Join(got, "|") != "first|after" {
		t.Fatalf("after a cut line: %q", got)
	}

	path := filepath.Join(t.TempDir(), "h.jsonl")
	if err := os.WriteFile(path, []byte("\"first\"\nnot json\n\"cut"), 0o600); err != nil {
		t.Fatal(err)
	}
	for i := range 2 * Max {
		if err := Append(path, "p"+strconv.Itoa(i)); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != Max || got[len(got)-1] != "p"+strconv.Itoa(2*Max-1) || got[0] != "p"+strconv.Itoa(Max) {
		t.Fatalf("%d entries, last %q; want the newest %d", len(got), got[len(got)-1], Max)
	}
	data, _ := os.ReadFile(path)
	if n := strings.Count(string(data), "\n"); n > Max+Max/2 {
		t.Fatalf("the file holds %d lines, more than the cap allows", n)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Fatalf("mode after a trim %v", st.Mode().Perm())
	}
}
