package provider_test

import (
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider"
)

// TestTimeoutErrorSaysHowLong: the message names the idle timeout as the
// user would write it to --idle-timeout, sub-second ones included.
func TestTimeoutErrorSaysHowLong(t *testing.T) {
	for _, tt := range []struct {
		after time.Duration
		want  string
	}{
		{5 * time.Minute, "no answer for 5m0s "},
		{90*time.Second + 400*time.Millisecond, "no answer for 1m30s "},
		{1500 * time.Millisecond, "no answer for 2s "},
		{250 * time.Millisecond, "no answer for 250ms "},
		{500*time.Millisecond + 300*time.Microsecond, "no answer for 500ms "},
	} {
		err := &provider.TimeoutError{URL: "http://127.0.0.1:1/v1", After: tt.after, Waiting: "the first chunk"}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("After %s: message %q, want it to say %q", tt.after, err, tt.want)
		}
	}
}
