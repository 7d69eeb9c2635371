package e2e

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/ui/app"
)

// Hostile inputs of issue 28, built here rather than stored: what a
// repository or a web page can hand tick must not crash it, and a turn
// stuck on one still ends with --max-time and SIGTERM.

// riffChunk is one RIFF chunk: id, little-endian length, body, padding.
func riffChunk(id string, body []byte) []byte {
	b := binary.LittleEndian.AppendUint32([]byte(id), uint32(len(body)))
	b = append(b, body...)
	if len(body)%2 == 1 {
		b = append(b, 0)
	}
	return b
}

// panicWebP is a WebP whose 4096×1 canvas with an alpha plane frames a
// smaller lossy picture of two rows (partitions of zero bits): decoding
// and scaling it indexed past the alpha plane and took tick down.
func panicWebP() []byte {
	canvas := []byte{0x10, 0, 0, 0, 0xff, 0x0f, 0, 0, 0, 0}
	frame := make([]byte, 10+64+256)
	tag := uint32(1<<4 | 64<<5)
	frame[0], frame[1], frame[2] = byte(tag), byte(tag>>8), byte(tag>>16)
	copy(frame[3:], "\x9d\x01\x2a")
	binary.LittleEndian.PutUint16(frame[6:], 150)
	binary.LittleEndian.PutUint16(frame[8:], 2)
	body := []byte("WEBP")
	body = append(body, riffChunk("VP8X", canvas)...)
	body = append(body, riffChunk("ALPH", make([]byte, 4097))...)
	body = append(body, riffChunk("VP8 ", frame)...)
	return append(binary.LittleEndian.AppendUint32([]byte("RIFF"), uint32(len(body))), body...)
}

// scanBombJPEG is a progressive 8192×8192 grayscale JPEG of a DC scan and
// 2000 AC scans of end-of-band runs, each walking a million blocks again
// (about 400 KB; it decoded for minutes).
func scanBombJPEG() []byte {
	const side, scans = 8192, 2000
	seg := func(b []byte, marker byte, body ...byte) []byte {
		return append(binary.BigEndian.AppendUint16(append(b, 0xff, marker), uint16(len(body)+2)), body...)
	}
	b := seg([]byte{0xff, 0xd8}, 0xdb, append([]byte{0}, bytes.Repeat([]byte{1}, 64)...)...)
	b = seg(b, 0xc2, 8, side>>8, side&0xff, side>>8, side&0xff, 1, 1, 0x11, 0)
	one := append([]byte{1}, make([]byte, 15)...)
	b = seg(b, 0xc4, append(append([]byte{0x00}, one...), 0x00)...)
	b = seg(b, 0xc4, append(append([]byte{0x10}, one...), 0xe0)...)
	blocks := (side / 8) * (side / 8)
	b = append(seg(b, 0xda, 1, 1, 0, 0, 0, 0), make([]byte, blocks/8)...)
	for range scans {
		b = append(seg(b, 0xda, 1, 1, 0, 1, 63, 0), make([]byte, (blocks/16384*15+7)/8)...)
	}
	return append(b, 0xff, 0xd9)
}

// nestedQuotesPage is 5 MiB of quotes nested 505 deep: it converted to
// Markdown for minutes.
func nestedQuotesPage() []byte {
	one := strings.Repeat("<blockquote>", 505) + "<p>deep</p>" + strings.Repeat("</blockquote>", 505)
	return []byte("<html><body>" + strings.Repeat(one, (5<<20)/len(one)) + "</body></html>")
}

// writeFile writes data to dir/name.
func writeFile(t *testing.T, dir, name string, data []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestHeadlessCraftedImageMention: the WebP that panicked the decoder,
// named .png and mentioned with @ in -p, is refused with a message naming
// it; the turn goes on and the model is told.
func TestHeadlessCraftedImageMention(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Text: "I could not see it."})
	args, ws := headless(t, srv, "what is in @evil.png?", "--no-session")
	writeFile(t, ws, "evil.png", panicWebP())
	r := tick(t, nil, "", args...)
	if r.code != app.ExitOK || !strings.Contains(r.stderr, "evil.png (image not attached: image evil.png: ") {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || !strings.Contains(reqs[0].LastUser(), "(an image tick could not attach: image evil.png: ") || len(reqs[0].Last().Images) != 0 {
		t.Fatalf("the model got %+v", reqs)
	}
	checkValid(t, srv)
}

// TestE2ECraftedImageMentionApp: the same file mentioned in the app is
// refused in a notice; the app stays up and the turn ends.
func TestE2ECraftedImageMentionApp(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Text: "Nothing to see."})
	ws := t.TempDir()
	writeFile(t, ws, "evil.png", panicWebP())
	p := startAppAt(t, srv, t.TempDir(), ws)
	p.prompt("what is in @evil.png ?")
	p.waitFor("image not attached", "Nothing to see.")
	if dead, status := p.dead(); dead {
		t.Fatalf("tick died: %s\n%s", status, p.screen())
	}
}

// floodServer answers the first request with an answer of n calls of
// read_file, written in large pieces (a server sending as fast as it
// can), and later ones with "done"; it keeps the later requests' bodies.
func floodServer(t *testing.T, n int) (url string, later *atomic.Pointer[[]byte]) {
	var calls atomic.Int32
	later = &atomic.Pointer[[]byte]{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
			http.NotFound(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		if calls.Add(1) > 1 {
			later.Store(&body)
			fmt.Fprint(w, `data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"done"},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
			return
		}
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":%d,"id":"call_%d","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"nothing\"}"}}]}}]}`+"\n\n", i, i)
			if b.Len() > 64<<10 {
				if _, err := io.WriteString(w, b.String()); err != nil {
					return
				}
				b.Reset()
			}
		}
		fmt.Fprint(w, b.String()+`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`+"\n\ndata: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv.URL, later
}

// TestHeadlessFloodOfCalls: an answer of 100,000 calls runs at most
// provider.MaxCalls of them; the rest get one error naming the cap, and
// the conversation stays valid.
func TestHeadlessFloodOfCalls(t *testing.T) {
	url, later := floodServer(t, 100_000)
	r := tick(t, nil, "", "-p", "flood", "--base-url", url, "-C", t.TempDir(), "--no-session", "--max-time", "10m") // a backstop: under -race reading 100,000 chunks takes a minute
	if r.code != app.ExitOK {
		t.Errorf("exit %d; stderr ends:\n%s", r.code, r.stderr[max(0, len(r.stderr)-2000):])
	}
	var req struct {
		Messages []struct {
			Role      string            `json:"role"`
			Content   string            `json:"content"`
			ToolCalls []json.RawMessage `json:"tool_calls"`
		} `json:"messages"`
	}
	body := later.Load()
	if body == nil || json.Unmarshal(*body, &req) != nil {
		t.Fatal("no valid request after the flood")
	}
	var asked int
	var results []string
	for _, m := range req.Messages {
		asked += len(m.ToolCalls)
		if m.Role == "tool" {
			results = append(results, m.Content)
		}
	}
	if asked != provider.MaxCalls+1 || len(results) != asked || !strings.Contains(results[len(results)-1], fmt.Sprintf("99,744 more tool calls past the limit of %d calls", provider.MaxCalls)) {
		t.Fatalf("%d calls, %d results: %.500q\nstderr: %s", asked, len(results), results, r.stderr)
	}
}

// stuckRun is the real binary run on a hostile input, with a model that
// never answers the call after it: only --max-time or a signal ends it.
type stuckRun struct {
	cmd    *exec.Cmd
	stderr *bytes.Buffer
	exited chan error
}

// startStuck starts bin with args in ws, its user config holding config.
func startStuck(t *testing.T, bin, ws, config string, args ...string) *stuckRun {
	t.Helper()
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, "tick"), 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(home, "tick"), "config.toml", []byte(config))
	cmd := exec.Command(bin, append(args, "-C", ws, "--no-session", "--completion-reminder=false")...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CONFIG_HOME=" + home, "XDG_STATE_HOME=" + t.TempDir()}
	r := &stuckRun{cmd: cmd, stderr: &bytes.Buffer{}, exited: make(chan error, 1)}
	cmd.Stderr = r.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { r.exited <- cmd.Wait() }()
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	return r
}

// wait returns the exit code, failing the test when the run has not
// ended within a generous bound.
func (r *stuckRun) wait(t *testing.T) int {
	t.Helper()
	select {
	case err := <-r.exited:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		return 0
	case <-time.After(25 * time.Second): // generous: it ends in about --max-time; before issue 28 it took a minute or more
		_ = r.cmd.Process.Kill()
		t.Fatalf("tick did not end; stderr:\n%s", r.stderr.String())
		return -1
	}
}

// TestHostileInputStops: a turn on a scan-bomb JPEG (mentioned) or a page
// of deeply nested quotes (fetched) ends with --max-time and with SIGTERM
// while the model hangs after it; before issue 28 the decoding and the
// conversion ran on for minutes, deaf to both.
func TestHostileInputStops(t *testing.T) {
	bin := sharedTick(t)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write(nestedQuotesPage())
	}))
	defer site.Close()
	fetch, _ := json.Marshal(map[string]string{"url": site.URL + "/quotes"})
	for _, input := range []string{"jpeg", "page"} {
		for _, stop := range []string{"max-time", "SIGTERM"} {
			t.Run(input+" "+stop, func(t *testing.T) {
				srv := providertest.New(t)
				ws := t.TempDir()
				prompt := "what is in @bomb.jpg?"
				if input == "jpeg" {
					writeFile(t, ws, "bomb.jpg", scanBombJPEG())
				} else {
					prompt = "read the page"
					srv.Enqueue(providertest.Reply{ToolCalls: []providertest.Call{{Name: "web_fetch", Args: string(fetch)}}})
				}
				srv.Enqueue(providertest.Reply{Hang: true})
				args := []string{"-p", prompt, "--base-url", srv.URL}
				if stop == "max-time" {
					args = append(args, "--max-time", "5s")
				}
				r := startStuck(t, bin, ws, "[web]\nallow = [\"127.0.0.1\"]\n", args...)
				want := app.ExitBudget
				if stop == "SIGTERM" {
					// The model call after the image or the page means it is
					// behind the turn; before issue 28 none came for minutes,
					// and the signal arrived during the decoding or the
					// conversion.
					calls := map[string]int{"jpeg": 1, "page": 2}[input]
					waitFor(20*time.Second, func() bool { return len(srv.Requests()) >= calls })
					if err := r.cmd.Process.Signal(syscall.SIGTERM); err != nil {
						t.Fatal(err)
					}
					want = app.ExitTerminated
				}
				if code := r.wait(t); code != want {
					t.Errorf("exit %d, want %d; stderr:\n%s", code, want, r.stderr.String())
				}
			})
		}
	}
}
