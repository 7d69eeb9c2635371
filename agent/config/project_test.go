//go:build unix

package config

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestProjectProviderWaitsForTrust: a project file that picks a provider
// would send the conversation (and a key) wherever that provider listens,
// so it waits for the user's approval; a model name alone does not.
func TestProjectProviderWaitsForTrust(t *testing.T) {
	const project = "provider = \"lmstudio\"\nmodel = \"project-model\"\n"
	tests := []struct {
		name     string
		project  string
		approved bool
		flag     string
		provider string // want
		base     string
		pending  string
	}{
		{"untrusted", project, false, "", "local", "http://127.0.0.1:11434/v1", "lmstudio"},
		{"trusted", project, true, "", "lmstudio", "http://127.0.0.1:1234/v1", "lmstudio"},
		{"same as the user's", "provider = \"local\"\n", false, "", "local", "http://127.0.0.1:11434/v1", ""},
		{"the flag decides", project, false, "local", "local", "http://127.0.0.1:11434/v1", ""},
		{"model alone", "model = \"project-model\"\n", false, "", "local", "http://127.0.0.1:11434/v1", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := setup(t, localUser, tt.project, nil)
			opts.Flags.Provider = tt.flag
			var asked []any
			opts.Approved = func(def any) bool { asked = append(asked, def); return tt.approved }
			s, err := Load(opts)
			if err != nil {
				t.Fatal(err)
			}
			if s.Provider != tt.provider || s.BaseURL != tt.base {
				t.Errorf("provider %q at %q, want %q at %q", s.Provider, s.BaseURL, tt.provider, tt.base)
			}
			if s.Pending.Provider != tt.pending {
				t.Errorf("pending provider %q, want %q", s.Pending.Provider, tt.pending)
			}
			if strings.Contains(tt.project, "model") && s.Model != "project-model" {
				t.Errorf("model %q, want the project's", s.Model)
			}
			warn := strings.Join(s.Warnings, "\n")
			if tt.pending != "" && !tt.approved && !strings.Contains(warn, "provider "+tt.pending) {
				t.Errorf("no warning names the pending provider:\n%s", warn)
			}
			var out bytes.Buffer
			if err := s.Describe(&out); err != nil {
				t.Fatal(err)
			}
			if shown := strings.Contains(out.String(), "awaiting approval") && strings.Contains(out.String(), "  provider "+tt.pending+"\n"); shown != (tt.pending != "" && !tt.approved) {
				t.Errorf("tick config shows the pending provider: %v, want %v:\n%s", shown, tt.pending != "" && !tt.approved, out.String())
			}
			if tt.pending != "" && (len(asked) != 1 || !reflect.DeepEqual(asked[0], s.Pending.Definition())) {
				t.Errorf("Approved was asked %v, want once about the pending definition", asked)
			}
		})
	}
}

// TestProjectFileSpecial is issue 18 item 4 for the project's config
// file: a named pipe, a link to /dev/zero or out of the workspace, or a
// huge file is skipped with a warning, without blocking; the user's
// settings stand.
func TestProjectFileSpecial(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "other.toml")
	writeFile(t, secret, "provider = \"openai\"\n", 0o644)
	tests := []struct {
		name string
		make func(path string) error
		want string
	}{
		{"fifo", func(p string) error { return syscall.Mkfifo(p, 0o644) }, "not a regular file (a named pipe)"},
		{"dev zero", func(p string) error { return os.Symlink("/dev/zero", p) }, "it leads outside"},
		{"outside", func(p string) error { return os.Symlink(secret, p) }, "it leads outside"},
		{"huge", func(p string) error { return os.WriteFile(p, make([]byte, maxFileSize+1), 0o644) }, "too large"},
		{"not a directory", func(p string) error {
			dir := filepath.Dir(p)
			if err := os.Remove(dir); err != nil {
				return err
			}
			return syscall.Mkfifo(dir, 0o644)
		}, "not a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := setup(t, localUser, "", nil)
			path := ProjectPath(opts.Workspace)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := tt.make(path); err != nil {
				t.Fatal(err)
			}
			var s *Settings
			var err error
			done := make(chan struct{})
			go func() { defer close(done); s, err = Load(opts) }()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("Load blocked on the project file")
			}
			if err != nil {
				t.Fatalf("Load = %v, want the project file skipped with a warning", err)
			}
			if s.Provider != "local" || s.ProjectFileExist {
				t.Errorf("provider %q, project file used %v", s.Provider, s.ProjectFileExist)
			}
			if w := strings.Join(s.Warnings, "\n"); !strings.Contains(w, path+": "+tt.want) {
				t.Errorf("warnings lack %q:\n%s", path+": "+tt.want, w)
			}
		})
	}
}
