package provider_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

func TestRetriesAndErrors(t *testing.T) {
	const maxBackoff = 20 * time.Millisecond
	tests := []struct {
		name        string
		replies     []providertest.Reply
		maxRetries  int
		wantErr     string // substring of the error; empty means success
		wantStatus  int    // status of the *APIError, when wantErr is set
		wantCut     bool
		cutAPI      bool // the cut error also carries an *APIError
		wantText    string
		wantReqs    int
		wantRetries []time.Duration // the Wait of each retry event
	}{
		{
			name:        "500 then success",
			replies:     []providertest.Reply{{Status: 500, Body: `{"error":{"message":"boom"}}`}, {Text: "recovered"}},
			wantText:    "recovered",
			wantReqs:    2,
			wantRetries: []time.Duration{time.Millisecond},
		},
		{
			name:        "429 with Retry-After is honoured (capped)",
			replies:     []providertest.Reply{{Status: 429, RetryAfter: "30"}, {Text: "ok now"}},
			wantText:    "ok now",
			wantReqs:    2,
			wantRetries: []time.Duration{maxBackoff},
		},
		{
			name:        "backoff doubles until retries run out",
			replies:     []providertest.Reply{{Status: 503}, {Status: 502}, {Status: 500}, {Status: 503, Body: `{"error":{"message":"overloaded"}}`}},
			wantErr:     "503 Service Unavailable from URL: overloaded — the server failed; try again later",
			wantStatus:  503,
			wantReqs:    4,
			wantRetries: []time.Duration{time.Millisecond, 2 * time.Millisecond, 4 * time.Millisecond},
		},
		{
			name:       "MaxRetries limits the attempts",
			replies:    []providertest.Reply{{Status: 500}, {Status: 500}, {Text: "never"}},
			maxRetries: 1,
			wantErr:    "500 Internal Server Error from URL",
			wantStatus: 500,
			wantReqs:   2,
			wantRetries: []time.Duration{
				time.Millisecond,
			},
		},
		{
			name:       "401 fails fast with a clear message",
			replies:    []providertest.Reply{{Status: 401, Body: `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`}, {Text: "never"}},
			wantErr:    "401 Unauthorized from URL: Incorrect API key provided — check OPENAI_API_KEY",
			wantStatus: 401,
			wantReqs:   1,
		},
		{
			name:       "400 is not retried",
			replies:    []providertest.Reply{{Status: 400, Body: `{"error":{"message":"bad thing"}}`}, {Text: "never"}},
			wantErr:    "400 Bad Request from URL: bad thing",
			wantStatus: 400,
			wantReqs:   1,
		},
		{
			name:       "string error body keeps its status and message",
			replies:    []providertest.Reply{{Status: 404, Body: `{"error":"model 'qwen9' not found, try pulling it first"}`}},
			wantErr:    "404 Not Found from URL: model 'qwen9' not found, try pulling it first — check the model name",
			wantStatus: 404,
			wantReqs:   1,
		},
		{
			name:        "string error body on a 500 is retried",
			replies:     []providertest.Reply{{Status: 500, Body: `{"error":"TypeError","message":"Cannot read properties of null","status":500}`}, {Text: "back"}},
			wantText:    "back",
			wantReqs:    2,
			wantRetries: []time.Duration{time.Millisecond},
		},
		{
			name:       "string error body on a 401 keeps the key hint",
			replies:    []providertest.Reply{{Status: 401, Body: `{"error":"Unauthorized"}`}},
			wantErr:    "401 Unauthorized from URL: Unauthorized — check OPENAI_API_KEY",
			wantStatus: 401,
			wantReqs:   1,
		},
		{
			name:       "404 model hints at --model",
			replies:    []providertest.Reply{{Status: 404, Body: `{"error":{"message":"The model 'gpt-9' does not exist"}}`}},
			wantErr:    "404 Not Found from URL: The model 'gpt-9' does not exist — check the model name (--model or TICK_MODEL)",
			wantStatus: 404,
			wantReqs:   1,
		},
		{
			name:       "non-JSON error body",
			replies:    []providertest.Reply{{Status: 403, Body: "<html>\n<body>Forbidden</body></html>"}},
			wantErr:    "403 Forbidden from URL: <html> <body>Forbidden</body></html> — check OPENAI_API_KEY",
			wantStatus: 403,
			wantReqs:   1,
		},
		{
			name:     "cut mid-answer keeps the partial text and is not retried",
			replies:  []providertest.Reply{{Text: "The first part of a long answer", CutAfter: 4}, {Text: "never"}},
			wantErr:  "the stream was cut",
			wantCut:  true,
			wantText: "The first pa", // the role chunk and three text chunks
			wantReqs: 1,
		},
		{
			name:     "closed without [DONE] or finish reason is a cut",
			replies:  []providertest.Reply{{Text: "half an answer", OmitFinish: true, NoUsage: true, NoDone: true}, {Text: "never"}},
			wantErr:  "without [DONE]",
			wantCut:  true,
			wantText: "half an answer",
			wantReqs: 1,
		},
		{
			name:     "cut after the finish reason is still an answer",
			replies:  []providertest.Reply{{Text: "complete answer", CutAfter: 6}}, // role, 4 text chunks, finish
			wantText: "complete answer",
			wantReqs: 1,
		},
		{
			name:        "cut before any answer is retried",
			replies:     []providertest.Reply{{CutAfter: -1}, {Text: "second try"}},
			wantText:    "second try",
			wantReqs:    2,
			wantRetries: []time.Duration{time.Millisecond},
		},
		{
			name:        "server_error event before any content is retried",
			replies:     []providertest.Reply{{Text: "never", ErrorEvent: serverErrorEvent}, {Text: "recovered"}},
			wantText:    "recovered",
			wantReqs:    2,
			wantRetries: []time.Duration{time.Millisecond},
		},
		{
			name:        "error event after the role chunk is retried",
			replies:     []providertest.Reply{{Text: "never", ErrorEvent: serverErrorEvent, ErrorAfter: 1}, {Text: "recovered"}},
			wantText:    "recovered",
			wantReqs:    2,
			wantRetries: []time.Duration{time.Millisecond},
		},
		{
			name: "rate limit event is retried",
			replies: []providertest.Reply{
				{ErrorEvent: `{"error":{"message":"Rate limit reached for requests","type":"requests","param":null,"code":"rate_limit_exceeded"}}`},
				{ErrorEvent: `{"error":{"message":"Rate limit reached for tokens","type":"tokens","param":null,"code":null}}`},
				{Text: "ok now"},
			},
			wantText:    "ok now",
			wantReqs:    3,
			wantRetries: []time.Duration{time.Millisecond, 2 * time.Millisecond},
		},
		{
			name:        "server_error events until retries run out",
			replies:     []providertest.Reply{{ErrorEvent: serverErrorEvent}, {ErrorEvent: serverErrorEvent}, {ErrorEvent: serverErrorEvent}, {ErrorEvent: `{"error":{"message":"model overloaded","type":"server_error"}}`}},
			wantErr:     "error event from URL: model overloaded — the server failed; try again later",
			wantReqs:    4,
			wantRetries: []time.Duration{time.Millisecond, 2 * time.Millisecond, 4 * time.Millisecond},
		},
		{
			name:     "error event after content is a cut keeping the partial text",
			replies:  []providertest.Reply{{Text: "The first part of a long answer", ErrorEvent: serverErrorEvent, ErrorAfter: 4}, {Text: "never"}},
			wantErr:  "the stream was cut before the answer was complete: error event from URL: The server had an error while processing your request. — the server failed; try again later",
			wantCut:  true,
			cutAPI:   true,
			wantText: "The first pa",
			wantReqs: 1,
		},
		{
			name:     "error event after the finish reason is ignored",
			replies:  []providertest.Reply{{Text: "complete answer", ErrorEvent: serverErrorEvent, ErrorAfter: 6}}, // role, 4 text chunks, finish
			wantText: "complete answer",
			wantReqs: 1,
		},
		{
			name:     "invalid_api_key event hints at the key",
			replies:  []providertest.Reply{{ErrorEvent: `{"error":{"message":"Incorrect API key provided: sk-test.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`}, {Text: "never"}},
			wantErr:  "error event from URL: Incorrect API key provided: sk-test. — check OPENAI_API_KEY",
			wantReqs: 1,
		},
		{
			name:     "other error events fail fast",
			replies:  []providertest.Reply{{ErrorEvent: `{"error":{"message":"Invalid schema for function","type":"invalid_request_error"}}`}, {Text: "never"}},
			wantErr:  "error event from URL: Invalid schema for function",
			wantReqs: 1,
		},
		{
			name: "error event after keep-alive comments",
			replies: []providertest.Reply{{Raw: []byte(": PROCESSING\n\n: PROCESSING\n\n" +
				`data: {"error":{"message":"Incorrect API key provided","code":"invalid_api_key"}}` + "\n\n")}, {Text: "never"}},
			wantErr:  "error event from URL: Incorrect API key provided — check OPENAI_API_KEY",
			wantReqs: 1,
		},
		{
			name: "spaced error event is still an error event",
			replies: []providertest.Reply{{Raw: []byte(`data: { "error": { "message": "overloaded", "type": "server_error" } }` + "\n\n")},
				{Text: "back"}},
			wantText:    "back",
			wantReqs:    2,
			wantRetries: []time.Duration{time.Millisecond},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.New(t)
			srv.Enqueue(tt.replies...)
			c := newClient(t, srv.URL, func(c *provider.Config) {
				c.MaxRetries = tt.maxRetries
				c.MaxBackoff = maxBackoff
			})
			var rec recorder
			resp, err := c.Stream(context.Background(), userRequest("hi"), rec.handler())
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("Stream: %v", err)
				}
				if resp.Message.Content != tt.wantText {
					t.Errorf("content = %q, want %q", resp.Message.Content, tt.wantText)
				}
			} else {
				want := strings.ReplaceAll(tt.wantErr, "URL", srv.URL)
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Fatalf("err = %v\nwant it to contain %q", err, want)
				}
				var ae *provider.APIError
				if isAPI := errors.As(err, &ae); isAPI != (!tt.wantCut || tt.cutAPI) {
					t.Errorf("errors.As APIError = %v", isAPI)
				} else if isAPI && (ae.StatusCode != tt.wantStatus || ae.URL != srv.URL) {
					t.Errorf("APIError %+v", ae)
				}
				if errors.Is(err, provider.ErrStreamCut) != tt.wantCut {
					t.Errorf("errors.Is(err, ErrStreamCut) = %v", !tt.wantCut)
				}
				if tt.wantCut && (resp == nil || resp.Message.Content != tt.wantText) {
					t.Errorf("partial response = %+v, want text %q", resp, tt.wantText)
				}
			}
			if got := len(srv.Requests()); got != tt.wantReqs {
				t.Errorf("%d requests, want %d", got, tt.wantReqs)
			}
			var waits []time.Duration
			for i, r := range rec.retries {
				waits = append(waits, r.Wait)
				once := errors.Is(r.Err, provider.ErrStreamCut) && r.Max == r.Attempt // retried once, and said so
				if r.Attempt != i+1 || r.Err == nil || r.Max != max(tt.maxRetries, 3) && tt.maxRetries == 0 && !once {
					t.Errorf("retry event %d = %+v", i, r)
				}
			}
			if len(waits) != len(tt.wantRetries) || len(waits) > 0 && !equalDurations(waits, tt.wantRetries) {
				t.Errorf("retry waits %v, want %v", waits, tt.wantRetries)
			}
		})
	}
}

// serverErrorEvent is the error event the real API sends inside a stream.
const serverErrorEvent = `{"error":{"message":"The server had an error while processing your request.","type":"server_error"}}`

func equalDurations(a, b []time.Duration) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

// TestConnectionRefused: nothing listens on the port. The error names the
// URL with its credentials redacted, after one quick retry at most (not
// after seconds of backoff meant for a busy server).
func TestConnectionRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	c := newClient(t, "http://alice:s3cret@"+addr+"/v1?api-key=k3y&x=1", func(cfg *provider.Config) {
		cfg.MinBackoff, cfg.MaxBackoff = 10*time.Second, time.Minute // a retry may not wait this long
	})
	var rec recorder
	_, err = c.Stream(context.Background(), userRequest("hi"), rec.handler())
	want := "cannot reach http://xxxxx@" + addr + "/v1?api-key=xxxxx&x=1: connection refused — is the server running? check OPENAI_BASE_URL"
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v\nwant %s", err, want)
	}
	if len(rec.retries) != 1 || rec.retries[0].Wait > 500*time.Millisecond || rec.retries[0].Max != 1 {
		t.Errorf("retries %+v, want one quick retry", rec.retries)
	}
	for _, r := range rec.retries {
		if strings.Contains(r.Err.Error(), "s3cret") || strings.Contains(r.Err.Error(), "k3y") {
			t.Errorf("a retry shows a secret: %v", r.Err)
		}
	}
}

func TestCancel(t *testing.T) {
	tests := []struct {
		name  string
		reply providertest.Reply
		// cancelOnDelta cancels from the first text delta; otherwise the
		// test cancels once the server has the request.
		cancelOnDelta bool
	}{
		{"mid-stream", providertest.Reply{Text: strings.Repeat("slow words ", 100), ChunkDelay: 20 * time.Millisecond}, true},
		{"hanging server", providertest.Reply{Hang: true}, false},
		{"during retry wait", providertest.Reply{Status: 503, RetryAfter: "30"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.New(t)
			srv.Enqueue(tt.reply)
			c := newClient(t, srv.URL, func(c *provider.Config) { c.MaxBackoff = time.Minute })
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			h := provider.Handler{OnDelta: func(d provider.Delta) {
				if tt.cancelOnDelta && d.Content != "" {
					cancel()
				}
			}}
			if !tt.cancelOnDelta {
				go func() {
					srv.Wait(1, 0)
					time.Sleep(20 * time.Millisecond)
					cancel()
				}()
			}
			resp, err := c.Stream(ctx, userRequest("hi"), h)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want context.Canceled", err)
			}
			if tt.cancelOnDelta && (resp == nil || resp.Message.Content == "") {
				t.Errorf("partial text lost: %+v", resp)
			}
		})
	}
}
