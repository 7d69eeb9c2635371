package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tick-agent/tick/ui/app"

	"github.com/tick-agent/tick/provider/providertest"
)

// watchWriter is a stderr that runs once when what it was written holds
// want.
type watchWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	want string
	once sync.Once
	then func()
}

func (w *watchWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.want) {
		w.once.Do(w.then)
	}
	return len(p), nil
}

// TestHeadlessVerboseLiveOutput: with -p --verbose a running command's
// output reaches stderr while it runs: the command waits for a file that
// the test creates only once its first line is on stderr.
func TestHeadlessVerboseLiveOutput(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(
		call("bash", map[string]any{"command": "echo progress-1; for i in $(seq 200); do [ -f go-on ] && break; sleep 0.05; done; [ -f go-on ] && echo saw-the-file; echo progress-2", "timeout": 30}),
		providertest.Reply{Text: "Done."},
	)
	args, ws := headless(t, srv, "run it", "--yolo", "--verbose")
	w := &watchWriter{want: "│ progress-1\n", then: func() {
		_ = os.WriteFile(filepath.Join(ws, "go-on"), nil, 0o600)
	}}
	var out bytes.Buffer
	code := app.Main(args, strings.NewReader(""), &out, w, func(string) string { return "" })
	stderr := w.buf.String()
	if code != app.ExitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	res := toolResults(srv.Requests())
	if len(res) != 1 || !strings.Contains(res[0], "saw-the-file") {
		t.Fatalf("tool results %q: the first line did not reach stderr while the command ran; stderr:\n%s", res, stderr)
	}
	if !strings.Contains(stderr, "│ progress-2") || strings.Index(stderr, "│ progress-1") > strings.Index(stderr, "✓") {
		t.Fatalf("live lines missing or after the result line; stderr:\n%s", stderr)
	}
}
