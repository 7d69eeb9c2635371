package e2e

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/ui/app"
)

// Seams of the provider's features and of the tools' bounds with -p: a
// call written as text runs in the sandbox and its markup is never
// printed; a server that echoes the key has it masked; a crafted image is
// refused, mentioned or read; a task's web_fetch refusal counts.

// TestHeadlessRecoveredCallSandboxed: in -p without --yolo, a call the
// model wrote as text (Hermes, streamed in small pieces) is recovered and
// runs in the sandbox: its write outside the workspace fails, its write
// inside lands, stdout carries the answer alone and stderr no markup.
func TestHeadlessRecoveredCallSandboxed(t *testing.T) {
	srv := providertest.New(t)
	args, ws := headless(t, srv, "make a file")
	outside := filepath.Join(filepath.Dir(ws), "escaped-"+filepath.Base(ws))
	t.Cleanup(func() { os.Remove(outside) })
	command := "echo x > " + outside + "; echo inside > made-by-text-call"
	srv.Enqueue(
		providertest.Reply{Text: "Making it.\n<tool_call>\n{\"name\": \"bash\", \"arguments\": {\"command\": \"" + command + "\"}}\n</tool_call>", ChunkSize: 3},
		providertest.Reply{Text: "Made."},
	)
	r := tick(t, nil, "", args...)
	if r.code != app.ExitOK {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	if r.stdout != "Made.\n" || strings.Contains(r.stderr, `"arguments"`) || strings.Contains(r.stderr, "</tool_call>") {
		t.Errorf("stdout = %q, want the answer alone; stderr (no markup wanted):\n%s", r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(ws, "made-by-text-call")); err != nil {
		t.Errorf("the recovered call did not run: %v", err)
	}
	if _, err := os.Stat(outside); err == nil {
		t.Error("the recovered call wrote outside the workspace in -p")
	}
	checkValid(t, srv)
}

// TestHeadlessServerEchoMasked: a server that refuses the key and echoes
// it back (as it is and base64-encoded in a Basic credential) has it
// masked in what -p prints, text and --json alike.
func TestHeadlessServerEchoMasked(t *testing.T) {
	const key = "sk-e2e-secret-0123456789abcdef"
	basic := base64.StdEncoding.EncodeToString([]byte("user:" + key))
	for _, extra := range [][]string{nil, {"--json"}} {
		t.Run(strings.Join(append([]string{"text"}, extra...), " "), func(t *testing.T) {
			srv := providertest.New(t)
			srv.Enqueue(providertest.Reply{Status: 401, Body: `{"error":{"message":"Incorrect API key provided: ` + key + ` (Authorization: Basic ` + basic + `)"}}`})
			args, _ := headless(t, srv, "hi", extra...)
			r := tick(t, map[string]string{"OPENAI_API_KEY": key}, "", args...)
			if r.code != app.ExitAuth {
				t.Fatalf("exit %d, want %d; stderr:\n%s", r.code, app.ExitAuth, r.stderr)
			}
			out := r.stdout + r.stderr
			if strings.Contains(out, key) || strings.Contains(out, basic) || strings.Contains(out, key[8:]) {
				t.Errorf("the key reached the output:\n%s", out)
			}
			if !strings.Contains(out, "Incorrect API key provided: sk-****") {
				t.Errorf("the server's message is not shown masked:\n%s", out)
			}
		})
	}
}

// oddTailWebP is a WebP with a canvas over the side tick sends (so its
// frame is inspected before decoding) whose last chunk has an odd length
// and no pad byte: the frame walk stepped past the end of the file and
// panicked.
func oddTailWebP() []byte {
	canvas := []byte{0, 0, 0, 0, 0xff, 0x0f, 0, 0, 0, 0} // 4096×1
	body := append([]byte("WEBP"), riffChunk("VP8X", canvas)...)
	body = append(body, binary.LittleEndian.AppendUint32([]byte("ALPH"), 3)...)
	body = append(body, 1, 2, 3)
	return append(binary.LittleEndian.AppendUint32([]byte("RIFF"), uint32(len(body))), body...)
}

// TestHeadlessOddChunkImage: image bounds with -p: that file, mentioned
// with @ and then read with read_file, is refused both ways with a message
// naming it; tick does not crash and the turn ends.
func TestHeadlessOddChunkImage(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(call("read_file", map[string]any{"path": "odd.webp"}), providertest.Reply{Text: "It is damaged."})
	args, ws := headless(t, srv, "what is in @odd.webp?", "--no-session")
	writeFile(t, ws, "odd.webp", oddTailWebP())
	r := tick(t, nil, "", args...)
	if r.code != app.ExitOK || !strings.Contains(r.stderr, "odd.webp (image not attached: image odd.webp: ") {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || !strings.Contains(reqs[0].LastUser(), "(an image tick could not attach: image odd.webp: ") {
		t.Fatalf("the model got %+v", reqs)
	}
	if res := toolResults(reqs); len(res) != 1 || !strings.HasPrefix(res[0], "Error: read image \"odd.webp\": image odd.webp: ") {
		t.Errorf("read_file's result = %q, want a refusal naming the file", res)
	}
	checkValid(t, srv)
}

// TestHeadlessTaskWebFetchRefused: web_fetch refusals with parallel tasks
// in -p: a task's web_fetch of a host not on [web] allow is refused
// without reaching the host (the subagent told of [web] allow), while the
// other task's call runs; the refusal counts in -p's exit status like the
// parent's own would.
func TestHeadlessTaskWebFetchRefused(t *testing.T) {
	var hits atomic.Int32
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		_, _ = w.Write([]byte("secret intranet page"))
	}))
	defer site.Close()
	srv := providertest.New(t)
	srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if n, ok := strings.CutPrefix(r.Messages[1].Content, "CHILD "); ok {
			switch {
			case r.Last().Role != "user":
				return providertest.Reply{Text: "report " + n}
			case n == "1":
				return call("web_fetch", map[string]any{"url": site.URL + "/notes"})
			}
			return call("read_file", map[string]any{"path": "notes.txt"})
		}
		if r.Last().Role == "user" {
			var cs []providertest.Call
			for i := 1; i <= 2; i++ {
				b, _ := json.Marshal(map[string]any{"description": fmt.Sprintf("part %d", i), "prompt": fmt.Sprintf("CHILD %d", i)})
				cs = append(cs, providertest.Call{Name: "task", Args: string(b)})
			}
			return providertest.Reply{ToolCalls: cs}
		}
		return providertest.Reply{Text: "parent done"}
	})
	args, ws := headless(t, srv, "two parts", "--no-session")
	writeFile(t, ws, "notes.txt", []byte("local notes\n"))
	r := tick(t, map[string]string{"XDG_CONFIG_HOME": t.TempDir()}, "", args...)
	if r.code != app.ExitRefused || !strings.Contains(r.stderr, "refused") {
		t.Fatalf("exit %d, want %d (a task's call refused); stderr:\n%s", r.code, app.ExitRefused, r.stderr)
	}
	if hits.Load() != 0 {
		t.Errorf("the refused web_fetch reached the host %d times", hits.Load())
	}
	var fetched, read bool
	for _, req := range srv.Requests() {
		for _, m := range req.Messages {
			fetched = fetched || m.Role == "tool" && strings.Contains(m.Content, "[web] allow")
			read = read || m.Role == "tool" && strings.Contains(m.Content, "local notes")
		}
	}
	if !fetched || !read {
		t.Errorf("the subagents were told of the refusal %v, read the file %v; want both", fetched, read)
	}
	checkValid(t, srv)
}
