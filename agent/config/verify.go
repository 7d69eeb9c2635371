package config

import (
	"fmt"
	"time"
)

// Defaults of the verify check.
const (
	DefaultVerifyTimeout  = 10 * time.Minute
	DefaultVerifyAttempts = 3
	maxVerifyAttempts     = 20
)

// Verify is the check a turn must pass to be done: Command runs in the
// workspace when the model ends its turn, sandboxed like the model's
// commands, for at most Timeout; a failure goes back to the model, up to
// Attempts runs in all. The zero Command means no check.
type Verify struct {
	Command  string
	Timeout  time.Duration
	Attempts int
}

// VerifyCheck is the verify check in effect: --verify (flag) wins, else
// the files' verify (a project file's only once the user trusted it:
// Pending.Verify until then), with verify_timeout and verify_attempts or
// their defaults.
func (s *Settings) VerifyCheck(flag string) Verify {
	v := Verify{Command: flag, Timeout: DefaultVerifyTimeout, Attempts: DefaultVerifyAttempts}
	if v.Command == "" && s != nil {
		v.Command = s.Config.Verify
	}
	if s == nil {
		return v
	}
	if d, err := time.ParseDuration(s.VerifyTimeout); err == nil && d > 0 {
		v.Timeout = d
	}
	if s.VerifyAttempts > 0 {
		v.Attempts = s.VerifyAttempts
	}
	return v
}

// validateVerify checks verify_timeout and verify_attempts.
func (c Config) validateVerify() (key string, err error) {
	if d, err := time.ParseDuration(c.VerifyTimeout); c.VerifyTimeout != "" && (err != nil || d <= 0) {
		return "verify_timeout", fmt.Errorf("verify_timeout = %q: want a positive duration such as \"10m\"", c.VerifyTimeout)
	}
	if c.VerifyAttempts < 0 || c.VerifyAttempts > maxVerifyAttempts {
		return "verify_attempts", fmt.Errorf("verify_attempts = %d: want 1 to %d (0 or absent: %d)", c.VerifyAttempts, maxVerifyAttempts, DefaultVerifyAttempts)
	}
	return "", nil
}
