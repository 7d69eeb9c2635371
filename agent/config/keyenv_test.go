package config

import (
	"strings"
	"testing"
)

// TestUnsetAPIKeyEnvWarns: api_key_env naming a variable that is not set
// warns once (tick would otherwise send a placeholder without a word);
// set, it does not.
func TestUnsetAPIKeyEnvWarns(t *testing.T) {
	user := `provider = "corp"
model = "m"

[providers.corp]
base_url = "https://llm.corp.example/v1"
api_key_env = "CORP_LLM_KEY"
`
	for _, tt := range []struct {
		env  map[string]string
		warn bool
	}{{nil, true}, {map[string]string{"CORP_LLM_KEY": "k-123456789"}, false}} {
		s, err := Load(setup(t, user, "", tt.env))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, w := range s.Warnings {
			if strings.Contains(w, "CORP_LLM_KEY, which is not set") {
				n++
			}
		}
		if (n == 1) != tt.warn || n > 1 {
			t.Errorf("env %v: %d warnings naming the unset variable in %q", tt.env, n, s.Warnings)
		}
	}
}

// TestProjectVerifyWaitsForTrust: a project file's verify runs a program,
// so it waits for the user's approval like hooks: pending and warned
// until approved, then in effect; --verify wins over it; the project's
// verify_attempts and verify_timeout apply at once.
func TestProjectVerifyWaitsForTrust(t *testing.T) {
	project := "verify = \"make check\"\nverify_attempts = 5\nverify_timeout = \"2m\"\n"
	opts := setup(t, localUser, project, nil)
	s, err := Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	if s.Pending.Verify != "make check" || s.VerifyCheck("").Command != "" || !strings.Contains(strings.Join(s.Warnings, "\n"), "verify command") {
		t.Fatalf("untrusted: pending %q, in effect %q, warnings %q", s.Pending.Verify, s.VerifyCheck("").Command, s.Warnings)
	}
	if v := s.VerifyCheck(""); v.Attempts != 5 || v.Timeout.String() != "2m0s" {
		t.Errorf("verify_attempts, verify_timeout = %d, %v; want 5, 2m", v.Attempts, v.Timeout)
	}
	opts.Approved = func(any) bool { return true }
	if s, err = Load(opts); err != nil {
		t.Fatal(err)
	}
	if got := s.VerifyCheck("").Command; got != "make check" {
		t.Errorf("trusted: verify %q, want make check", got)
	}
	if got := s.VerifyCheck("go test ./...").Command; got != "go test ./..." {
		t.Errorf("--verify: %q, want it to win", got)
	}
}
