package e2e

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tick-agent/tick/ui/app"

	"github.com/tick-agent/tick/provider/providertest"
)

// A server that misbehaves must end a headless run with a clear message
// and the right exit status, never hang it, and never put a secret or a
// control sequence on the terminal.

func TestHeadlessIdleTimeout(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		<-r.Context().Done() // the headers, then nothing
	}))
	defer srv.Close()
	fileEnv, _ := userConfig(t, "idle_timeout = \"1s\"\n")
	tests := []struct {
		name string
		env  map[string]string
		args []string
	}{
		{"flag", nil, []string{"--idle-timeout", "1s"}},
		{"config file", fileEnv, nil},
		{"the flag wins", fileEnv, []string{"--idle-timeout", "2s"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"-p", "hi", "--base-url", srv.URL + "/v1", "-C", t.TempDir(), "--no-session", "--context-window", "32000"}, tt.args...)
			r := tick(t, tt.env, "", args...)
			want := "1s"
			if len(tt.args) > 0 {
				want = tt.args[1]
			}
			if r.code != app.ExitTimeout || !strings.Contains(r.stderr, "timed out: no answer for "+want+" while waiting for the first chunk") {
				t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
			}
		})
	}
}

func TestHeadlessEmptyStream(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Raw: []byte("data: [DONE]\n\n")}, providertest.Reply{Raw: []byte("data: [DONE]\n\n")})
	args, _ := headless(t, srv, "hi", "--no-session")
	r := tick(t, nil, "", args...)
	if r.code != app.ExitError || !strings.Contains(r.stderr, "the stream carried no answer: it held only [DONE]") {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
}

func TestHeadlessBadConfig(t *testing.T) {
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"no scheme", []string{"--base-url", "localhost:11434/v1"}, nil, "must start with http:// or https://"},
		{"bad port, secret", []string{"--base-url", "http://u:hunter2@localhost:99x/v1"}, nil, "does not parse"},
		{"line break in the key", []string{"--base-url", "http://127.0.0.1:1/v1"}, map[string]string{"OPENAI_API_KEY": "sk-abc\nX-Evil: 1"}, "line break"},
		{"bad idle timeout", []string{"--base-url", "http://127.0.0.1:1/v1", "--idle-timeout", "soon"}, nil, "--idle-timeout needs a duration"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"-p", "hi", "-C", t.TempDir(), "--no-session"}, tt.args...)
			r := tick(t, tt.env, "", args...)
			if r.code != app.ExitUsage || !strings.Contains(r.stderr, tt.want) {
				t.Fatalf("exit %d, stderr %q; want exit 2 and %q", r.code, r.stderr, tt.want)
			}
			if strings.Contains(r.stderr, "hunter2") || strings.Contains(r.stderr, "sk-abc") {
				t.Fatalf("a secret on stderr: %q", r.stderr)
			}
		})
	}
}

func TestHeadlessRefusedNamesRedactedURL(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	r := tick(t, nil, "", "-p", "hi", "-C", t.TempDir(), "--no-session", "--base-url", "http://bob:hunter2@"+addr+"/v1?api_key=s3cret")
	want := fmt.Sprintf("cannot reach http://xxxxx@%s/v1?api_key=xxxxx: connection refused", addr)
	if r.code != app.ExitError || !strings.Contains(r.stderr, want) {
		t.Fatalf("exit %d, stderr %q; want %q", r.code, r.stderr, want)
	}
	if strings.Contains(r.stderr, "hunter2") || strings.Contains(r.stderr, "s3cret") {
		t.Fatalf("a secret on stderr: %q", r.stderr)
	}
}

func TestHeadlessHostileServer(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(
		providertest.Reply{Text: "done \x1b]52;c;cm0gLXJmIH4K\x07 \x1b[2J\u009b8m \u202Etxt.exe"},
		providertest.Reply{Status: 400, Body: `{"error":{"message":"bad \u001b]8;;http://evil\u0007link\u001b]8;;\u0007 \u001b[8mhidden"}}`},
	)
	for _, want := range []int{app.ExitOK, app.ExitError} {
		args, _ := headless(t, srv, "hi", "--no-session", "--verbose")
		r := tick(t, nil, "", args...)
		if r.code != want {
			t.Fatalf("exit %d, want %d; stderr %q", r.code, want, r.stderr)
		}
		for name, s := range map[string]string{"stdout": r.stdout, "stderr": r.stderr} {
			if strings.ContainsAny(s, "\x1b\x07\u009b\u202E") {
				t.Fatalf("%s holds a control sequence: %q", name, s)
			}
		}
	}
}
