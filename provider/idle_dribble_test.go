package provider_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider"
)

// dribbleGap is the pause between the pieces a dribbling server sends:
// a tenth of dribbleIdle, so that a client restarting its idle clock on
// every byte has ample slack however loaded the machine is.
const (
	dribbleIdle = 250 * time.Millisecond
	dribbleGap  = dribbleIdle / 10
)

// shortChunk is a content chunk as short as a data line gets (about 50
// bytes, so that sending it byte by byte takes 5 idle timeouts).
func shortChunk(text string) string {
	return `data: {"choices":[{"index":0,"delta":{"content":"` + text + `"}}]}` + "\n\n"
}

// dribble writes each piece, flushed, dribbleGap apart; it stops when
// the client goes away.
func dribble(w http.ResponseWriter, r *http.Request, pieces []string) {
	for _, p := range pieces {
		select {
		case <-r.Context().Done():
			return
		case <-time.After(dribbleGap):
		}
		if _, err := w.Write([]byte(p)); err != nil {
			return
		}
		w.(http.Flusher).Flush()
	}
}

// bytesOf splits s into one-byte strings.
func bytesOf(s string) []string { return strings.Split(s, "") }

// TestIdleClockRestartsOnEveryRead: the idle timeout counts silence, not
// the time one event takes. A server that sends one byte at a time, or
// only keep-alive comments between chunks, each piece well within the
// timeout but the whole line or pause taking several timeouts, is never
// cut. (A client that restarted its clock only when a whole event
// arrived, or when the phase of the answer changed, would time out.)
func TestIdleClockRestartsOnEveryRead(t *testing.T) {
	keepAlives := make([]string, int(5*dribbleIdle/dribbleGap))
	for i := range keepAlives {
		keepAlives[i] = ": keep-alive\n"
	}
	for _, tt := range []struct {
		name   string
		pieces []string // sent dribbleGap apart after the headers
	}{
		{"first line byte by byte", append(bytesOf(shortChunk("hello")), "data: [DONE]\n\n")},
		{"later line byte by byte", append(append([]string{shortChunk("hel")}, bytesOf(shortChunk("lo"))...), "data: [DONE]\n\n")},
		{"keep-alive comments between chunks", append(append([]string{shortChunk("hel")}, keepAlives...), shortChunk("lo"), "data: [DONE]\n\n")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if d := time.Duration(len(tt.pieces)) * dribbleGap; d < 4*dribbleIdle {
				t.Fatalf("the dribble takes %s, not several idle timeouts (%s)", d, dribbleIdle)
			}
			url, _ := hostile(t, func(w http.ResponseWriter, r *http.Request) {
				sse(w)
				dribble(w, r, tt.pieces)
			})
			c := newClient(t, url, func(cfg *provider.Config) { cfg.IdleTimeout = dribbleIdle })
			var rec recorder
			resp, err := stream(t, c, &rec)
			if err != nil {
				t.Fatalf("a server that never went silent for %s was cut: %v", dribbleIdle, err)
			}
			if resp.Message.Content != "hello" {
				t.Errorf("content %q, want %q", resp.Message.Content, "hello")
			}
		})
	}
}
