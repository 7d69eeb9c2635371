package provider

import (
	"github.com/tick-agent/tick/agent/humanize"

	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

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

// maxEmptyChunks caps a run of chunks that carry nothing of the answer (an
// endless stream of empty deltas would otherwise never end).
const maxEmptyChunks = 100000

// maxErrorBody caps how much of an error answer's body is read.
const maxErrorBody = 1 << 20

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
	// OmitReasoning stops sending received reasoning back to the server
	// on assistant messages.
	OmitReasoning bool
	// Server is the kind of server, which decides how reasoning goes back
	// and how thinking is switched (see the table in servers.go); empty,
	// or a name not in the table, means ServerOf(BaseURL).
	Server Server

	// IdleTimeout ends a call when the server sends nothing for this long:
	// no response headers, no first byte of the stream, no next byte.
	// 0 means DefaultIdleTimeout; negative means none.
	IdleTimeout time.Duration
	// MaxResponse caps one answer (text, reasoning and tool-call arguments
	// together, in bytes); 0 means DefaultMaxResponse.
	MaxResponse int
	// MaxLine caps one line of the event stream, in bytes; 0 means
	// DefaultMaxLine.
	MaxLine int
	// MaxArgs caps the arguments of one tool call, in bytes; 0 means
	// DefaultMaxArgs. A call past it is returned with "{}" for arguments
	// and ToolCall.ArgsCut set (see ToolCall).
	MaxArgs int
	// NoImages sends a note in place of every image (the config says the
	// model takes none). Without it images are sent until the server
	// refuses one (a 400 that the same request without images does not
	// get); then this client sends notes too, and Handler.OnNotice says
	// so once.
	NoImages bool
}

// Client streams chat completions from one OpenAI-compatible server. It is
// safe for concurrent use.
type Client struct {
	cfg   Config
	key   string
	url   string       // the API root requests go to
	base  string       // the API root as shown in messages: credentials redacted
	nonce string       // makes generated call ids unique across clients
	ids   atomic.Int64 // counter for generated call ids

	noStreamOptions atomic.Bool // the server refused stream_options once
	noEffort        atomic.Bool // the server refused the thinking switch once
	noImages        atomic.Bool // the server refused an image once
	toldImages      atomic.Bool // the user was told images are not sent
	rule            serverRule  // what the server wants (Config.Server)
	images          imageURLs   // the images' data URLs, encoded once

	// opensThink: the last answer's thoughts ended in a lone </think> (the
	// chat template opens the tag): the next answer's text before </think>
	// streams as reasoning, not as an answer to take back.
	opensThink atomic.Bool
}

// New checks cfg and returns a Client. It fails with ErrNoConfig when
// neither APIKey nor BaseURL is set, and with an error wrapping ErrBadConfig
// when the base URL is malformed or the key cannot be sent in a header.
func New(cfg Config) (*Client, error) {
	cfg.APIKey = strings.TrimSpace(cfg.APIKey)
	cfg.BaseURL = strings.TrimRight(strings.TrimSpace(cfg.BaseURL), "/")
	if cfg.APIKey == "" && cfg.BaseURL == "" {
		return nil, ErrNoConfig
	}
	if err := checkConfig(cfg); err != nil {
		return nil, err
	}
	c := &Client{cfg: cfg, key: cfg.APIKey, url: cfg.BaseURL}
	c.noImages.Store(cfg.NoImages)
	if c.key == "" {
		c.key = localKey
	}
	if c.url == "" {
		c.url = DefaultBaseURL
	}
	c.base = RedactURL(c.url)
	if _, known := rules[c.cfg.Server]; !known || c.cfg.Server == ServerUnknown {
		c.cfg.Server = ServerOf(c.url) // a name tick does not know says nothing
	}
	c.rule = ruleFor(c.cfg.Server)
	c.setLimits()
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

// setLimits fills in the defaults of the caps and the idle timeout.
func (c *Client) setLimits() {
	switch {
	case c.cfg.IdleTimeout == 0:
		c.cfg.IdleTimeout = DefaultIdleTimeout
	case c.cfg.IdleTimeout < 0:
		c.cfg.IdleTimeout = 0
	}
	if c.cfg.MaxResponse <= 0 {
		c.cfg.MaxResponse = DefaultMaxResponse
	}
	if c.cfg.MaxLine <= 0 {
		c.cfg.MaxLine = DefaultMaxLine
	}
	if c.cfg.MaxArgs <= 0 {
		c.cfg.MaxArgs = DefaultMaxArgs
	}
}

// Server returns the kind of server the client talks to (ServerUnknown
// when neither the Config nor the base URL said).
func (c *Client) Server() Server { return c.cfg.Server }

// Model returns the default model name.
func (c *Client) Model() string { return c.cfg.Model }

// BaseURL returns the API root requests go to, with any credentials in it
// redacted (see RedactURL): it is for showing.
func (c *Client) BaseURL() string { return c.base }

// Stream sends req and streams the answer: text and reasoning increments
// go to h.OnDelta as they arrive (an empty Delta when only a tool-call
// fragment arrived), and the assembled assistant message comes back in
// the Response. When tool calls are present, FinishReason is "tool_calls"
// even if the server said "stop" or nothing. Tool calls have unique ids:
// an id the server repeats within the message is replaced.
//
// Failed attempts are retried while nothing of the answer has been
// received, calling h.OnRetry before each wait: 429, 5xx and error events
// inside the stream whose type is server_error or a rate limit, and
// connection errors other than a refused connection, at most MaxRetries
// times; a refused connection, a stream cut before any content and an
// empty stream once, a refused connection after a short wait.
//
// Errors: *APIError for error answers and error events; an error wrapping
// ErrStreamCut when the stream ends early (also wrapping the *APIError
// when an error event ended it); ErrEmptyStream when the stream carried no
// answer (only [DONE], or a line that is not a JSON chunk); a *TimeoutError
// (ErrTimeout) when the server was silent for IdleTimeout; ErrTooLarge
// when the answer or one line went past its cap; an error satisfying
// errors.Is(err, context.Canceled) (or DeadlineExceeded) when ctx ends.
// When the stream had started, the Response holds what arrived so far even
// when an error is returned (so partial text can be kept): without tool
// calls after ErrTooLarge, and with its text cut to 64 KiB then. It is nil
// when no stream started, so check it before use.
func (c *Client) Stream(ctx context.Context, req Request, h Handler) (*Response, error) {
	creq, refs := c.chatRequest(req)
	if c.cfg.NoImages && hasImages(req) {
		c.tellImages("images are off for this model (images = false in the config): it gets a note in place of each image", h)
	}
	extra := c.effortFields(req.Effort)
	once := 0 // retries of the kind made at most once
	for attempt := 0; ; attempt++ {
		resp, got, err := c.attempt(ctx, creq, refs, extra, req.Tools, h)
		if err != nil && !got && creq.StreamOptions != nil && rejectsStreamOptions(err) {
			c.noStreamOptions.Store(true) // an older server: ask again without
			creq.StreamOptions = nil
			resp, got, err = c.attempt(ctx, creq, refs, extra, req.Tools, h)
		}
		if err != nil && !got && hasImages(req) && !c.noImages.Load() && rejectsRequest(err) {
			first := err // was it the image? ask again with notes instead
			c.noImages.Store(true)
			creq, refs = c.chatRequest(req)
			if resp, got, err = c.attempt(ctx, creq, refs, extra, req.Tools, h); err != nil && !got && rejectsRequest(err) {
				c.noImages.Store(false) // not the image: the request is bad as it is
				creq, refs = c.chatRequest(req)
			} else {
				c.tellImages(fmt.Sprintf("the model refused an image (%v): it gets a note in place of each image from now on", first), h)
			}
		}
		if err != nil && !got && extra != nil && rejectsRequest(err) {
			first := err // was it the thinking switch? ask again without it
			resp, got, err = c.attempt(ctx, creq, refs, nil, req.Tools, h)
			if err == nil || !rejectsRequest(err) {
				extra = c.dropEffort(req.Effort, first, h)
			}
		}
		if err == nil {
			return resp, nil
		}
		if ctx.Err() != nil || got || attempt >= c.cfg.MaxRetries || !retryable(err) {
			return resp, err
		}
		wait, most := c.backoff(attempt, err), c.cfg.MaxRetries
		if retriedOnce(err) {
			if once++; once > 1 {
				return resp, err
			}
			if refused(err) {
				wait = min(wait, quickRetry)
			}
			most = attempt + 1 // this retry is the last
		}
		if h.OnRetry != nil {
			h.OnRetry(Retry{Attempt: attempt + 1, Max: most, Wait: wait, Err: err})
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

// attempt makes one request and reads its stream. got reports whether any
// part of the answer arrived (then it must not be retried).
func (c *Client) attempt(ctx context.Context, creq openai.ChatCompletionRequest, refs imageRefs, extra map[string]any, tools []ToolSpec, h Handler) (_ *Response, got bool, _ error) {
	actx, watch := watchIdle(ctx, c.cfg.IdleTimeout, c.base)
	defer watch.stop()
	doer := &captureDoer{client: c.cfg.HTTPClient, watch: watch, maxLine: c.cfg.MaxLine,
		rewrite: func(b []byte) []byte { return refs.fill(rewriteBody(b, c.rule, extra)) }}
	oc := openai.DefaultConfig(c.key)
	oc.BaseURL = c.url
	oc.HTTPClient = doer
	oc.EmptyMessagesLimit = emptyLinesLimit
	stream, err := openai.NewClientWithConfig(oc).CreateChatCompletionStream(actx, creq)
	if err != nil {
		if te := watch.fired(); te != nil && ctx.Err() == nil {
			return nil, false, te
		}
		return nil, false, c.requestError(ctx, err, doer.header)
	}
	defer stream.Close()

	acc := newAccumulator(c.cfg.MaxArgs)
	acc.tools = tools
	acc.think.guess = c.opensThink.Load()
	if doer.whole != nil { // the server answered without streaming
		return c.wholeAnswer(acc, doer.whole, h)
	}
	empty := 0 // chunks in a row that carried nothing of the answer
	for {
		raw, err := stream.RecvRaw()
		if err == nil && raw == nil {
			err = errLostEvent // go-openai returns nothing for an error event it cannot parse
		}
		if err != nil {
			d := acc.flush()
			c.opensThink.Store(acc.think.lone)
			if h.OnDelta != nil && (d.Content != "" || d.Reasoning != "") {
				h.OnDelta(d)
			}
			if te := watch.fired(); te != nil && ctx.Err() == nil {
				return c.partial(acc), acc.got, te
			}
			return c.endOfStream(ctx, acc, doer, err)
		}
		watch.kick(waitNext)
		if ctx.Err() != nil { // the turn ended (interrupt, budget): stop reading however fast the server sends
			return c.endOfStream(ctx, acc, doer, ctx.Err())
		}
		if len(bytes.TrimSpace(raw)) == 0 {
			continue // "data:" with nothing: a keep-alive
		}
		chunk, err := decodeChunk(raw)
		if err != nil {
			return c.malformed(acc, raw, err)
		}
		if len(chunk.Choices) == 0 && chunk.Usage == nil {
			// an error object go-openai did not recognise (e.g. spaced JSON)
			if ae, ok := eventError(raw, c.base, c.key, "error event"); ok {
				return c.streamFailed(acc, ae)
			}
		}
		d, frag := acc.add(&chunk)
		if chunk.Usage != nil && acc.usage != nil {
			acc.usage.CostUSD = serverCost(raw)
		}
		if empty = empty + 1; d.Content != "" || d.Reasoning != "" || frag {
			empty = 0
		} else if empty > maxEmptyChunks {
			return c.cutTooLarge(acc), acc.got, tooMany(c.base, "the run of chunks without content", maxEmptyChunks)
		}
		if acc.size > c.cfg.MaxResponse {
			return c.cutTooLarge(acc), true, tooLarge(c.base, "the answer (text, reasoning and tool calls)", c.cfg.MaxResponse)
		}
		if h.OnDelta != nil && (d.Content != "" || d.Reasoning != "" || frag) {
			h.OnDelta(d)
		}
	}
}

// malformed ends a stream on a data line that is not a JSON chunk: an
// empty stream when nothing of the answer came before it (retried once),
// else a cut stream that keeps what arrived.
func (c *Client) malformed(acc *accumulator, raw []byte, err error) (*Response, bool, error) {
	if acc.got {
		return c.partial(acc), true, fmt.Errorf("read stream from %s: %w: the server sent %.80q, which is not a JSON chunk (%v)", c.base, ErrStreamCut, raw, err)
	}
	return c.partial(acc), false, fmt.Errorf("read stream from %s: %w: the server sent %.80q, which is not a JSON chunk (%v)", c.base, ErrEmptyStream, raw, err)
}

// cutTooLarge builds the Response of an answer that went past its cap:
// the start of its text, said to be cut, and no tool calls (they may be
// incomplete and must not run).
func (c *Client) cutTooLarge(acc *accumulator) *Response {
	r := c.partial(acc)
	r.Message.ToolCalls, r.Message.Reasoning = nil, ""
	if text := r.Message.Content; len(text) > keptOfTooLarge {
		cut := keptOfTooLarge
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		r.Message.Content = text[:cut] + fmt.Sprintf("\n\n[… the answer was cut here: it went past tick's limit of %s]", humanize.Bytes(int64(c.cfg.MaxResponse)))
	}
	r.FinishReason = "length"
	return r
}

// endOfStream decides what the error that ended a stream means. An error
// event is handled by streamFailed.
func (c *Client) endOfStream(ctx context.Context, acc *accumulator, doer *captureDoer, err error) (*Response, bool, error) {
	body := doer.body
	if ctx.Err() != nil {
		return c.partial(acc), acc.got, fmt.Errorf("model request to %s: %w", c.base, ctx.Err())
	}
	var big *lineError
	if errors.As(err, &big) {
		return c.cutTooLarge(acc), acc.got, tooLarge(c.base, big.what, big.limit)
	}
	if ae, ok := apiError(err, c.base, c.key, doer.header); ok {
		return c.streamFailed(acc, ae)
	}
	if ev := body.errorEvent(); ev != nil {
		if ae, ok := eventError(ev, c.base, c.key, "error event"); ok {
			return c.streamFailed(acc, ae)
		}
	}
	if errors.Is(err, io.EOF) {
		switch {
		case acc.chunks == 0 && body.sawDone():
			return c.partial(acc), false, fmt.Errorf("read stream from %s: %w: it held only [DONE]", c.base, ErrEmptyStream)
		case body.sawDone() || acc.finish != "":
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
	if ae, ok := apiError(err, c.base, c.key, header); ok {
		return ae
	}
	if isConnError(err) {
		return &connError{URL: c.base, Err: err}
	}
	return fmt.Errorf("model request to %s: %w", c.base, err)
}
