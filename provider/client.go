package provider

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// DefaultBaseURL is the OpenAI API, used when Config.BaseURL is empty.
const DefaultBaseURL = "https://api.openai.com/v1"

// DefaultModel is the model used when Config.Model is empty.
const DefaultModel = "gpt-4.1-mini"

// emptyLinesLimit is how many non-data lines (keep-alive comments, blank
// lines) may come between two chunks; some servers send comments while a
// long prompt is processed.
const emptyLinesLimit = 100000

// localKey is sent as the API key to servers that need none.
const localKey = "sk-no-key-required"

// Config configures a Client. APIKey or BaseURL is required.
type Config struct {
	// APIKey is sent as a bearer token (OPENAI_API_KEY). With a BaseURL
	// and no key, a dummy key is sent: local servers need none.
	APIKey string
	// BaseURL is the API root, e.g. http://localhost:11434/v1
	// (OPENAI_BASE_URL); empty means DefaultBaseURL.
	BaseURL string
	// Model is the default model name; empty means DefaultModel.
	Model string
	// HTTPClient sends the requests; nil means a client without timeout
	// (streams can be long; cancel through the context).
	HTTPClient *http.Client
	// MaxRetries is the most retries of one call after 429, 5xx or a
	// connection error; 0 means 3, negative means none.
	MaxRetries int
	// MinBackoff is the first wait before a retry, doubled each time;
	// 0 means 1s.
	MinBackoff time.Duration
	// MaxBackoff caps every wait, including a server's Retry-After; 0
	// means 60s.
	MaxBackoff time.Duration
	// OmitReasoning stops sending received reasoning back to the server as
	// reasoning_content on assistant messages.
	OmitReasoning bool
}

// Client streams chat completions from one OpenAI-compatible server. It is
// safe for concurrent use.
type Client struct {
	cfg   Config
	key   string
	base  string
	nonce string       // makes generated call ids unique across clients
	ids   atomic.Int64 // counter for generated call ids

	noStreamOptions atomic.Bool // the server refused stream_options once
}

// New checks cfg and returns a Client. It fails with ErrNoConfig when
// neither APIKey nor BaseURL is set.
func New(cfg Config) (*Client, error) {
	cfg.APIKey = strings.TrimSpace(cfg.APIKey)
	cfg.BaseURL = strings.TrimRight(strings.TrimSpace(cfg.BaseURL), "/")
	if cfg.APIKey == "" && cfg.BaseURL == "" {
		return nil, ErrNoConfig
	}
	if cfg.BaseURL != "" && !strings.HasPrefix(cfg.BaseURL, "http://") && !strings.HasPrefix(cfg.BaseURL, "https://") {
		return nil, fmt.Errorf("create model client: base URL %q must start with http:// or https://", cfg.BaseURL)
	}
	c := &Client{cfg: cfg, key: cfg.APIKey, base: cfg.BaseURL}
	if c.key == "" {
		c.key = localKey
	}
	if c.base == "" {
		c.base = DefaultBaseURL
	}
	if c.cfg.Model == "" {
		c.cfg.Model = DefaultModel
	}
	if c.cfg.HTTPClient == nil {
		c.cfg.HTTPClient = &http.Client{}
	}
	switch {
	case c.cfg.MaxRetries == 0:
		c.cfg.MaxRetries = 3
	case c.cfg.MaxRetries < 0:
		c.cfg.MaxRetries = 0
	}
	if c.cfg.MinBackoff <= 0 {
		c.cfg.MinBackoff = time.Second
	}
	if c.cfg.MaxBackoff <= 0 {
		c.cfg.MaxBackoff = time.Minute
	}
	var b [3]byte
	_, _ = rand.Read(b[:])
	c.nonce = hex.EncodeToString(b[:])
	return c, nil
}

// Model returns the default model name.
func (c *Client) Model() string { return c.cfg.Model }

// BaseURL returns the API root requests go to.
func (c *Client) BaseURL() string { return c.base }

// Stream sends req and streams the answer: text and reasoning increments
// go to h.OnDelta as they arrive (an empty Delta when only a tool-call
// fragment arrived), and the assembled assistant message comes back in
// the Response. When tool calls are present, FinishReason is "tool_calls"
// even if the server said "stop" or nothing.
//
// Failed attempts are retried (429, 5xx, connection errors, and error
// events inside the stream whose type is server_error or a rate limit)
// while nothing of the answer has been received, at most MaxRetries times,
// calling h.OnRetry before each wait. Errors: *APIError for error answers
// and error events; an error wrapping ErrStreamCut when the stream ends
// early (also wrapping the *APIError when an error event ended it); an error
// satisfying errors.Is(err, context.Canceled) (or DeadlineExceeded) when
// ctx ends. When the stream had started, the Response holds what arrived
// so far even when an error is returned (so partial text can be kept);
// it is nil when no stream started, so check it before use.
func (c *Client) Stream(ctx context.Context, req Request, h Handler) (*Response, error) {
	creq := c.chatRequest(req)
	for attempt := 0; ; attempt++ {
		resp, got, err := c.attempt(ctx, creq, h)
		if err != nil && !got && creq.StreamOptions != nil && rejectsStreamOptions(err) {
			c.noStreamOptions.Store(true) // an older server: ask again without
			creq.StreamOptions = nil
			resp, got, err = c.attempt(ctx, creq, h)
		}
		if err == nil {
			return resp, nil
		}
		if ctx.Err() != nil || got || attempt >= c.cfg.MaxRetries || !retryable(err) {
			return resp, err
		}
		wait := c.backoff(attempt, err)
		if h.OnRetry != nil {
			h.OnRetry(Retry{Attempt: attempt + 1, Max: c.cfg.MaxRetries, Wait: wait, Err: err})
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("model request to %s: %w", c.base, ctx.Err())
		case <-t.C:
		}
	}
}

// retryable reports whether a failed attempt may be retried.
func retryable(err error) bool {
	var ae *APIError
	if errors.As(err, &ae) {
		return ae.Temporary()
	}
	var ce *connError
	return errors.As(err, &ce) || errors.Is(err, ErrStreamCut)
}

// backoff returns the wait before retry number attempt+1: MinBackoff
// doubled per attempt, or the server's Retry-After when it says more,
// capped at MaxBackoff.
func (c *Client) backoff(attempt int, err error) time.Duration {
	wait := c.cfg.MaxBackoff
	if attempt < 30 {
		wait = c.cfg.MinBackoff << attempt
	}
	var ae *APIError
	if errors.As(err, &ae) && ae.retryAfter > wait {
		wait = ae.retryAfter
	}
	if wait > c.cfg.MaxBackoff || wait <= 0 {
		wait = c.cfg.MaxBackoff
	}
	return wait
}

// attempt makes one request and reads its stream. got reports whether any
// part of the answer arrived (then it must not be retried).
func (c *Client) attempt(ctx context.Context, creq openai.ChatCompletionRequest, h Handler) (_ *Response, got bool, _ error) {
	doer := &captureDoer{client: c.cfg.HTTPClient}
	oc := openai.DefaultConfig(c.key)
	oc.BaseURL = c.base
	oc.HTTPClient = doer
	oc.EmptyMessagesLimit = emptyLinesLimit
	stream, err := openai.NewClientWithConfig(oc).CreateChatCompletionStream(ctx, creq)
	if err != nil {
		return nil, false, c.requestError(ctx, err, doer.header)
	}
	defer stream.Close()

	acc := newAccumulator()
	if doer.whole != nil { // the server answered without streaming
		return c.wholeAnswer(acc, doer.whole, h)
	}
	bad := 0
	for {
		raw, err := stream.RecvRaw()
		if err == nil && raw == nil {
			err = errLostEvent // go-openai returns nothing for an error event it cannot parse
		}
		if err != nil {
			return c.endOfStream(ctx, acc, doer, err)
		}
		var chunk openai.ChatCompletionStreamResponse
		if err := json.Unmarshal(raw, &chunk); err != nil {
			if bad++; bad > 20 {
				return c.partial(acc), acc.got, fmt.Errorf("read stream from %s: malformed chunk %.80q: %w", c.base, raw, err)
			}
			continue
		}
		if len(chunk.Choices) == 0 && chunk.Usage == nil {
			// an error object go-openai did not recognise (e.g. spaced JSON)
			if ae, ok := eventError(raw, c.base, "error event"); ok {
				return c.streamFailed(acc, ae)
			}
		}
		d, frag := acc.add(&chunk)
		if h.OnDelta != nil && (d.Content != "" || d.Reasoning != "" || frag) {
			h.OnDelta(d)
		}
	}
}

// endOfStream decides what the error that ended a stream means. An error
// event is handled by streamFailed.
func (c *Client) endOfStream(ctx context.Context, acc *accumulator, doer *captureDoer, err error) (*Response, bool, error) {
	body := doer.body
	if ctx.Err() != nil {
		return c.partial(acc), acc.got, fmt.Errorf("model request to %s: %w", c.base, ctx.Err())
	}
	if ae, ok := apiError(err, c.base, doer.header); ok {
		return c.streamFailed(acc, ae)
	}
	if ev := body.errorEvent(); ev != nil {
		if ae, ok := eventError(ev, c.base, "error event"); ok {
			return c.streamFailed(acc, ae)
		}
	}
	if errors.Is(err, io.EOF) {
		if body.sawDone() || acc.finish != "" {
			return c.partial(acc), acc.got, nil
		}
		return c.partial(acc), acc.got, fmt.Errorf("read stream from %s: %w (the connection closed without [DONE])", c.base, ErrStreamCut)
	}
	if errors.Is(err, openai.ErrTooManyEmptyStreamMessages) {
		return c.partial(acc), acc.got, fmt.Errorf("read stream from %s: %w", c.base, err)
	}
	if acc.finish != "" {
		return c.partial(acc), acc.got, nil // cut after the answer was complete
	}
	return c.partial(acc), acc.got, fmt.Errorf("read stream from %s: %w: %w", c.base, ErrStreamCut, err)
}

// partial builds the Response from what arrived so far.
func (c *Client) partial(acc *accumulator) *Response {
	return acc.response(func() string {
		return fmt.Sprintf("call_%s_%d", c.nonce, c.ids.Add(1))
	})
}

// requestError turns a failure to get a stream started into a readable
// error.
func (c *Client) requestError(ctx context.Context, err error, header http.Header) error {
	if ctx.Err() != nil {
		return fmt.Errorf("model request to %s: %w", c.base, ctx.Err())
	}
	if ae, ok := apiError(err, c.base, header); ok {
		return ae
	}
	if isConnError(err) {
		return &connError{URL: c.base, Err: err}
	}
	return fmt.Errorf("model request to %s: %w", c.base, err)
}

// captureDoer sends requests with client, keeping the response header (for
// Retry-After) and wrapping a successful body to notice [DONE].
type captureDoer struct {
	client *http.Client
	header http.Header
	body   *trackBody
	whole  []byte // a successful non-streamed JSON answer
}

// Do implements go-openai's HTTPDoer.
func (d *captureDoer) Do(req *http.Request) (*http.Response, error) {
	resp, err := d.client.Do(req)
	if err != nil {
		return resp, err
	}
	d.header = resp.Header
	if resp.StatusCode < 300 && strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		b, err := io.ReadAll(io.LimitReader(resp.Body, maxWhole))
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		if !bytes.HasPrefix(bytes.TrimSpace(b), []byte("data:")) {
			d.whole = b
		}
		resp.Body = io.NopCloser(bytes.NewReader(b))
	}
	d.body = &trackBody{rc: resp.Body}
	resp.Body = d.body
	return resp, nil
}
