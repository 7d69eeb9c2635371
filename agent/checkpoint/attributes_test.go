package checkpoint

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// original is what the workspace holds at the checkpoint: line endings of
// both kinds, a keyword git's ident would expand, and bytes that are not
// UTF-8 (what working-tree-encoding would choke on).
var original = map[string]string{
	"keep.txt":  "one\ntwo\n",
	"crlf.txt":  "dos\r\nline\r\n",
	"ident.txt": "$Id$\n",
	"raw.bin":   "\xff\xfe\x00bytes\n",
}

// TestRestoreBytesUnderHostileAttributes writes attribute files a model
// could write, before and after the checkpoint, and checks that later
// checkpoints still succeed and that undo restores every file byte for
// byte.
func TestRestoreBytesUnderHostileAttributes(t *testing.T) {
	for _, tc := range []struct {
		name   string
		before string // .gitattributes at the checkpoint ("" none)
		after  string // .gitattributes written after it
	}{
		{name: "crlf after", after: "* text eol=crlf\n"},
		{name: "crlf before", before: "* text eol=crlf\n", after: "* text eol=crlf\n"},
		{name: "lf and ident", before: "* text eol=lf ident\n", after: "* text eol=lf ident\n"},
		{name: "utf-16 after", after: "* text eol=crlf working-tree-encoding=UTF-16\n"},
		{name: "utf-16 before", before: "* working-tree-encoding=UTF-16\n", after: "* working-tree-encoding=UTF-16\n"},
		{name: "filter", after: "* filter=evil diff=evil merge=evil\n"},
		{name: "nested crlf", after: "* -text\n", before: "* binary\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			s, ws := open(t)
			for rel, c := range original {
				write(t, ws, rel, c)
			}
			if tc.before != "" {
				write(t, ws, ".gitattributes", tc.before)
				write(t, ws, "sub/.gitattributes", tc.before)
			}
			cp, err := s.Save(ctx, "before")
			if err != nil {
				t.Fatalf("checkpoint: %v", err)
			}
			write(t, ws, ".gitattributes", tc.after)
			write(t, ws, "sub/.gitattributes", tc.after)
			write(t, ws, "keep.txt", "changed\n")
			write(t, ws, "crlf.txt", "changed\r\n")
			if _, err := s.Save(ctx, "after"); err != nil {
				t.Fatalf("a checkpoint after the attributes changed: %v", err)
			}
			if _, err := s.Restore(ctx, cp.ID); err != nil {
				t.Fatalf("restore: %v", err)
			}
			for rel, want := range original {
				got, err := os.ReadFile(filepath.Join(ws, rel))
				if err != nil || !bytes.Equal(got, []byte(want)) {
					t.Errorf("%s after undo = %q (%v), want %q", rel, got, err, want)
				}
			}
			if got, want := read(t, ws, ".gitattributes"), or(tc.before, "<missing>"); got != want {
				t.Errorf(".gitattributes after undo = %q, want %q", got, want)
			}
		})
	}
}

// TestUserGitConfigCannotReachShadow gives the user's git configuration
// through every channel git reads (environment, the global attributes
// file, a global config) line-ending conversion, a filter and an
// fsmonitor, and checks that none of them changes what undo restores or
// runs anything.
func TestUserGitConfigCannotReachShadow(t *testing.T) {
	home := t.TempDir()
	marker := filepath.Join(home, "ran")
	hook := "touch " + marker
	write(t, home, ".config/git/attributes", "* text eol=crlf filter=evil\n")
	write(t, home, ".gitconfig", "[core]\n\tautocrlf = true\n\tfsmonitor = "+hook+"\n\thooksPath = "+home+"\n[filter \"evil\"]\n\tclean = "+hook+"\n\tsmudge = "+hook+"\n")
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_COUNT", "2")
	t.Setenv("GIT_CONFIG_KEY_0", "core.autocrlf")
	t.Setenv("GIT_CONFIG_VALUE_0", "true")
	t.Setenv("GIT_CONFIG_KEY_1", "core.fsmonitor")
	t.Setenv("GIT_CONFIG_VALUE_1", hook)
	t.Setenv("GIT_CONFIG_PARAMETERS", "'core.autocrlf'='true' 'core.fsmonitor'='"+hook+"'")
	t.Setenv("GIT_ATTR_SOURCE", "HEAD")

	ctx := context.Background()
	s, ws := open(t)
	for rel, c := range original {
		write(t, ws, rel, c)
	}
	cp, err := s.Save(ctx, "before")
	if err != nil {
		t.Fatalf("checkpoint: %v", err)
	}
	write(t, ws, "keep.txt", "changed\n")
	write(t, ws, "crlf.txt", "changed\n")
	if _, err := s.Restore(ctx, cp.ID); err != nil {
		t.Fatalf("restore: %v", err)
	}
	for rel, want := range original {
		if got := read(t, ws, rel); got != want {
			t.Errorf("%s after undo = %q, want %q", rel, got, want)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("the user's git configuration ran a command in the checkpoint repository")
	}
}

// or returns s, or def when s is empty.
func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
