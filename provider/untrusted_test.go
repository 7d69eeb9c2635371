package provider_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

// These tests run the client against servers that misbehave on purpose.
// Each would hang, grow without bound or report success without the
// client's limits.

// hostile starts a loopback server answering every request with h, and
// counts the requests.
func hostile(t *testing.T, h func(w http.ResponseWriter, r *http.Request)) (url string, requests *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		io.Copy(io.Discard, r.Body) // so that the server notices when the client goes away
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1", &n
}

// stream calls Stream and fails the test if it has not returned within
// a generous deadline (the client under test would hang forever).
func stream(t *testing.T, c *provider.Client, rec *recorder) (*provider.Response, error) {
	t.Helper()
	type result struct {
		resp *provider.Response
		err  error
	}
	done := make(chan result, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		resp, err := c.Stream(ctx, userRequest("hi"), rec.handler())
		done <- result{resp, err}
	}()
	select {
	case r := <-done:
		return r.resp, r.err
	case <-time.After(60 * time.Second):
		t.Fatal("Stream did not return within 60s")
		return nil, nil
	}
}

// sse starts an event stream.
func sse(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	w.(http.Flusher).Flush()
}

// chunk is one content chunk as a data line.
func chunk(text string) string {
	b, _ := json.Marshal(text)
	return `data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":` + string(b) + `}}]}` + "\n\n"
}

func TestIdleTimeout(t *testing.T) {
	tests := []struct {
		name        string
		handler     func(w http.ResponseWriter, r *http.Request)
		wantWaiting string
		wantText    string
	}{
		{
			name: "hang before the headers",
			handler: func(w http.ResponseWriter, r *http.Request) {
				<-r.Context().Done()
			},
			wantWaiting: "the response headers",
		},
		{
			name: "hang after the headers",
			handler: func(w http.ResponseWriter, r *http.Request) {
				sse(w)
				<-r.Context().Done()
			},
			wantWaiting: "the first chunk",
		},
		{
			name: "hang mid-stream",
			handler: func(w http.ResponseWriter, r *http.Request) {
				sse(w)
				fmt.Fprint(w, chunk("the start"))
				w.(http.Flusher).Flush()
				<-r.Context().Done()
			},
			wantWaiting: "the next chunk",
			wantText:    "the start",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url, _ := hostile(t, tt.handler)
			c := newClient(t, url, func(cfg *provider.Config) { cfg.IdleTimeout = 300 * time.Millisecond })
			var rec recorder
			resp, err := stream(t, c, &rec)
			var te *provider.TimeoutError
			if !errors.As(err, &te) || !errors.Is(err, provider.ErrTimeout) {
				t.Fatalf("err = %v, want a *TimeoutError", err)
			}
			if errors.Is(err, context.Canceled) || provider.KindOf(err) != provider.KindTimeout {
				t.Fatalf("a timeout must read as one, not as an interrupt: %v (kind %q)", err, provider.KindOf(err))
			}
			if te.Waiting != tt.wantWaiting || te.After != 300*time.Millisecond {
				t.Errorf("waiting %q after %s, want %q after 300ms", te.Waiting, te.After, tt.wantWaiting)
			}
			if !strings.Contains(err.Error(), "timed out") || !strings.Contains(err.Error(), url) {
				t.Errorf("message %q does not say it timed out, and where", err)
			}
			if tt.wantText != "" && (resp == nil || resp.Message.Content != tt.wantText) {
				t.Errorf("partial response %+v, want the text %q kept", resp, tt.wantText)
			}
			if len(rec.retries) != 0 {
				t.Errorf("a timeout was retried: %+v", rec.retries)
			}
		})
	}
}

// TestSlowButAliveIsNoTimeout: a server that sends something more often
// than the idle timeout is never cut, however long the whole answer takes.
func TestSlowButAliveIsNoTimeout(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Text: "one two three four five six", ChunkSize: 2, ChunkDelay: 60 * time.Millisecond})
	c := newClient(t, srv.URL, func(cfg *provider.Config) { cfg.IdleTimeout = 250 * time.Millisecond })
	var rec recorder
	resp, err := stream(t, c, &rec)
	if err != nil || resp.Message.Content != "one two three four five six" {
		t.Fatalf("resp %+v, err %v", resp, err)
	}
}

func TestEndlessStreamIsCapped(t *testing.T) {
	url, _ := hostile(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w)
		piece := chunk(strings.Repeat("x", 4096))
		for r.Context().Err() == nil {
			if _, err := fmt.Fprint(w, piece); err != nil {
				return
			}
		}
	})
	c := newClient(t, url, func(cfg *provider.Config) { cfg.MaxResponse = 4 << 20 })
	var rec recorder
	resp, err := stream(t, c, &rec)
	if !errors.Is(err, provider.ErrTooLarge) || provider.KindOf(err) != provider.KindTooLarge {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	if !strings.Contains(err.Error(), "4 MiB") {
		t.Errorf("message %q does not name the cap", err)
	}
	if resp == nil || len(resp.Message.Content) > 70<<10 || !strings.Contains(resp.Message.Content, "the answer was cut here") {
		t.Fatalf("the kept text is not the cut start of the answer: %d bytes", len(resp.Message.Content))
	}
}

func TestLongLineIsCapped(t *testing.T) {
	url, _ := hostile(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w)
		fmt.Fprint(w, `data: {"choices":[{"index":0,"delta":{"content":"`)
		block := strings.Repeat("x", 1<<20)
		for range 300 { // a 300 MB line, unless the client stops reading
			if _, err := fmt.Fprint(w, block); err != nil {
				return
			}
		}
		fmt.Fprint(w, "\"}}]}\n\n")
	})
	c := newClient(t, url, nil) // the default cap
	var rec recorder
	_, err := stream(t, c, &rec)
	if !errors.Is(err, provider.ErrTooLarge) || !strings.Contains(err.Error(), "one line of the stream is over the limit of 8 MiB") {
		t.Fatalf("err = %v, want ErrTooLarge for the line", err)
	}
}

func TestEndlessCommentsAreCapped(t *testing.T) {
	url, _ := hostile(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w)
		line := ": " + strings.Repeat("keep-alive ", 1000) + "\n"
		for r.Context().Err() == nil {
			if _, err := fmt.Fprint(w, line); err != nil {
				return
			}
		}
	})
	c := newClient(t, url, nil)
	var rec recorder
	_, err := stream(t, c, &rec)
	if !errors.Is(err, provider.ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
}

func TestStreamsThatSayNothing(t *testing.T) {
	tests := []struct {
		name, raw, want string
	}{
		{"only [DONE]", "data: [DONE]\n\n", "only [DONE]"},
		{"a line that is not JSON", "data: Internal hiccup, please hold\n\ndata: [DONE]\n\n", `"Internal hiccup, please hold", which is not a JSON chunk`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.New(t)
			srv.Enqueue(providertest.Reply{Raw: []byte(tt.raw)}, providertest.Reply{Raw: []byte(tt.raw)}, providertest.Reply{Text: "never asked for"})
			c := newClient(t, srv.URL, nil)
			var rec recorder
			_, err := stream(t, c, &rec)
			if !errors.Is(err, provider.ErrEmptyStream) || provider.KindOf(err) != provider.KindEmptyStream || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want ErrEmptyStream saying %q", err, tt.want)
			}
			if len(rec.retries) != 1 || len(srv.Requests()) != 2 {
				t.Errorf("%d retries and %d requests, want it retried once", len(rec.retries), len(srv.Requests()))
			}
		})
	}
}

// TestEmptyStreamRetrySucceeds: the one retry of an empty stream gets the
// answer.
func TestEmptyStreamRetrySucceeds(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Raw: []byte("data: [DONE]\n\n")}, providertest.Reply{Text: "here it is"})
	c := newClient(t, srv.URL, nil)
	var rec recorder
	resp, err := stream(t, c, &rec)
	if err != nil || resp.Message.Content != "here it is" {
		t.Fatalf("resp %+v, err %v", resp, err)
	}
}

// TestCutBeforeContentRetriedOnce: a stream cut right after the headers is
// retried once, not MaxRetries times.
func TestCutBeforeContentRetriedOnce(t *testing.T) {
	srv := providertest.New(t)
	for range 4 {
		srv.Enqueue(providertest.Reply{Text: "x", CutAfter: -1})
	}
	c := newClient(t, srv.URL, nil)
	var rec recorder
	_, err := stream(t, c, &rec)
	if !errors.Is(err, provider.ErrStreamCut) {
		t.Fatalf("err = %v, want ErrStreamCut", err)
	}
	if len(rec.retries) != 1 || rec.retries[0].Max != 1 {
		t.Errorf("retries %+v, want one, saying it is the only one", rec.retries)
	}
}

func TestDuplicateToolCallIDs(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{ToolCalls: []providertest.Call{
		{ID: "call_1", Name: "read_file", Args: `{"path":"a"}`},
		{ID: "call_1", Name: "read_file", Args: `{"path":"b"}`},
		{ID: "call_1", Name: "bash", Args: `{"command":"ls"}`},
	}})
	c := newClient(t, srv.URL, nil)
	var rec recorder
	resp, err := stream(t, c, &rec)
	if err != nil {
		t.Fatal(err)
	}
	calls := resp.Message.ToolCalls
	if len(calls) != 3 {
		t.Fatalf("calls %+v, want 3", calls)
	}
	seen := map[string]bool{}
	for _, c := range calls {
		if seen[c.ID] || c.ID == "" {
			t.Fatalf("ids not unique: %+v", calls)
		}
		seen[c.ID] = true
	}
	if calls[0].ID != "call_1" || calls[1].Arguments != `{"path":"b"}` || calls[2].Name != "bash" {
		t.Errorf("calls changed beyond their ids: %+v", calls)
	}
}

// TestToolArgumentsCapped: a call past MaxArgs comes back with "{}" and
// ArgsCut (the bytes received and the limit), in every shape servers
// stream calls in, and the call after it is whole.
func TestToolArgumentsCapped(t *testing.T) {
	big := `{"path":"x","content":"` + strings.Repeat("a", 8<<10) + `"}`
	shapes := []struct {
		name  string
		reply providertest.Reply
	}{
		{"streamed fragments", providertest.Reply{ChunkSize: 512}},
		{"whole calls (Ollama)", providertest.Reply{WholeCalls: true}},
		{"no index", providertest.Reply{ChunkSize: 512, NoIndex: true}},
	}
	for _, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			srv := providertest.New(t)
			reply := sh.reply
			reply.ToolCalls = []providertest.Call{
				{ID: "big", Name: "write_file", Args: big},
				{ID: "small", Name: "read_file", Args: `{"path":"a"}`},
			}
			srv.Enqueue(reply)
			c := newClient(t, srv.URL, func(cfg *provider.Config) { cfg.MaxArgs = 4 << 10 })
			resp, err := stream(t, c, &recorder{})
			if err != nil {
				t.Fatal(err)
			}
			calls := resp.Message.ToolCalls
			if len(calls) != 2 {
				t.Fatalf("calls %+v", calls)
			}
			want := provider.ArgsCut{Size: len(big), Limit: 4 << 10}
			if calls[0].Arguments != "{}" || calls[0].ArgsCut == nil || *calls[0].ArgsCut != want {
				t.Errorf("over-cap call = %.200q, cut %+v; want \"{}\" and cut %+v", calls[0].Arguments, calls[0].ArgsCut, want)
			}
			if calls[0].ID != "big" || calls[0].Name != "write_file" {
				t.Errorf("over-cap call lost its id or name: %+v", calls[0])
			}
			if calls[1].Arguments != `{"path":"a"}` || calls[1].ArgsCut != nil {
				t.Errorf("the next call was harmed: %+v", calls[1])
			}
		})
	}
}

// TestArgsCutOnlyFromTheCap: a call whose arguments merely talk about being
// cut (the old in-band marker, a JSON field named like the flag, or a
// field the server adds to the call itself) is an ordinary call; only the
// cap sets ArgsCut.
func TestArgsCutOnlyFromTheCap(t *testing.T) {
	lookalikes := []struct{ name, args string }{
		{"old marker", "[tick cut these arguments: write_file was sent 3145728 bytes of arguments, more than the limit of 1 MiB for one call; make smaller calls, e.g. write a large file in parts]"},
		{"flag as an argument", `{"args_cut":{"size":3145728,"limit":1048576},"path":"a"}`},
	}
	for _, tt := range lookalikes {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.New(t)
			srv.Enqueue(providertest.Reply{ToolCalls: []providertest.Call{{ID: "c1", Name: "write_file", Args: tt.args}}})
			resp, err := stream(t, newClient(t, srv.URL, nil), &recorder{})
			if err != nil {
				t.Fatal(err)
			}
			c := resp.Message.ToolCalls[0]
			if c.ArgsCut != nil || c.Arguments != tt.args {
				t.Errorf("call = %+v (cut %+v), want the arguments as sent and no cut", c, c.ArgsCut)
			}
		})
	}
	t.Run("flag in the server's call object", func(t *testing.T) {
		srv := providertest.New(t)
		srv.Enqueue(providertest.Reply{Raw: []byte("data: " + `{"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"c1","type":"function","args_cut":{"size":9,"limit":1},"function":{"name":"bash","arguments":"{\"command\":\"ls\"}"}}]},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n")})
		resp, err := stream(t, newClient(t, srv.URL, nil), &recorder{})
		if err != nil {
			t.Fatal(err)
		}
		if c := resp.Message.ToolCalls; len(c) != 1 || c[0].ArgsCut != nil || c[0].Arguments != `{"command":"ls"}` {
			t.Errorf("calls = %+v, want one ordinary bash call", c)
		}
	})
}

func TestBadConfigFailsAtOnce(t *testing.T) {
	tests := []struct {
		name string
		cfg  provider.Config
		hide string
	}{
		{"no scheme", provider.Config{BaseURL: "localhost:11434/v1"}, ""},
		{"no host", provider.Config{BaseURL: "http:///v1"}, ""},
		{"bad port", provider.Config{BaseURL: "http://user:s3cret@host:99999999x/v1"}, "s3cret"},
		{"line break in the URL", provider.Config{BaseURL: "http://host/v1\r\nX-Evil: 1"}, ""},
		{"line break in the key", provider.Config{BaseURL: "http://host/v1", APIKey: "sk-abc\r\nX-Evil: 1"}, "sk-abc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := provider.New(tt.cfg)
			if !errors.Is(err, provider.ErrBadConfig) || provider.KindOf(err) != provider.KindConfig {
				t.Fatalf("err = %v, want ErrBadConfig", err)
			}
			if tt.hide != "" && strings.Contains(err.Error(), tt.hide) {
				t.Errorf("the message shows a secret: %v", err)
			}
		})
	}
}

func TestRedactURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://localhost:11434/v1", "http://localhost:11434/v1"},
		{"https://user:pass@host/v1", "https://xxxxx@host/v1"},
		{"https://token@host/v1", "https://xxxxx@host/v1"},
		{"https://host/v1?key=abc&model=x", "https://host/v1?key=xxxxx&model=x"},
		{"https://host/v1?api-key=abc", "https://host/v1?api-key=xxxxx"},
		{"https://host/v1?API_KEY=abc", "https://host/v1?API_KEY=xxxxx"},
		{"https://host/v1?access_token=abc&Token=d", "https://host/v1?Token=xxxxx&access_token=xxxxx"},
		{"http://h:99999x/v1?key=abc", "(unreadable URL)"},
	}
	for _, tt := range tests {
		if got := provider.RedactURL(tt.in); got != tt.want {
			t.Errorf("RedactURL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestSecretsNotInErrors: an error answer from a server whose URL holds
// credentials names the URL without them.
func TestSecretsNotInErrors(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Status: 401})
	base := strings.Replace(srv.URL, "http://", "http://bob:hunter2@", 1) + "?token=t0ken"
	c := newClient(t, base, nil)
	var rec recorder
	_, err := stream(t, c, &rec)
	if err == nil || strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "t0ken") {
		t.Fatalf("err = %v", err)
	}
}

// TestListModelsRedacts: listing the models of a server whose URL holds
// credentials names it without them, whatever fails.
func TestListModelsRedacts(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	_, err = provider.ListModels(context.Background(), "http://bob:hunter2@"+addr+"/v1?key=s3cret", "")
	if err == nil || strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), addr) {
		t.Fatalf("err = %v", err)
	}
}

func TestEndlessEmptyChunksEnd(t *testing.T) {
	url, _ := hostile(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w)
		fmt.Fprint(w, chunk("hi"))
		empty := `data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{}}]}` + "\n\n"
		for r.Context().Err() == nil {
			if _, err := fmt.Fprint(w, empty); err != nil {
				return
			}
		}
	})
	c := newClient(t, url, nil)
	var rec recorder
	resp, err := stream(t, c, &rec)
	if !errors.Is(err, provider.ErrTooLarge) || !strings.Contains(err.Error(), "chunks without content") {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	if resp == nil || resp.Message.Content != "hi" {
		t.Fatalf("resp %+v, want the text kept", resp)
	}
}
