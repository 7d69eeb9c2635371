package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// ErrStreamCut means the server stopped sending before the answer was
// complete (the connection closed without a finish reason or [DONE]).
// Stream returns it wrapped, together with the partial Response.
var ErrStreamCut = errors.New("the stream was cut before the answer was complete")

// ErrNoConfig is returned by New when neither an API key nor a base URL is
// configured.
var ErrNoConfig = errors.New("no API key: set OPENAI_API_KEY (or OPENAI_BASE_URL for a local OpenAI-compatible server)")

// APIError is an error answer from the server. Error reads like
// "401 Unauthorized from http://host/v1: Incorrect API key provided —
// check OPENAI_API_KEY". Use errors.As to get it from Stream's error.
type APIError struct {
	StatusCode int    // the HTTP status, 0 for an error event inside a stream
	Status     string // e.g. "401 Unauthorized"
	URL        string // the base URL the request went to
	Message    string // the server's message
	Type       string // the error type the server named (e.g. "server_error"), may be empty
	Code       string // the error code the server named (e.g. "invalid_api_key"), may be empty
	Hint       string // what the user can do about it, may be empty

	retryAfter time.Duration // from the Retry-After header, 0 if none
}

// Error implements error.
func (e *APIError) Error() string {
	var b strings.Builder
	status := e.Status
	if status == "" {
		status = "error"
	}
	fmt.Fprintf(&b, "%s from %s", status, e.URL)
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	if e.Hint != "" {
		b.WriteString(" — " + e.Hint)
	}
	return b.String()
}

// Temporary reports whether the request may succeed when retried: 429 and
// 5xx answers, and error events (StatusCode 0) whose type is
// "server_error" or whose type or code names a rate limit
// ("rate_limit_exceeded", "requests", "tokens").
func (e *APIError) Temporary() bool {
	code := e.status()
	return code == http.StatusTooManyRequests || code >= 500
}

// status returns the HTTP status, or for an error event the status its
// type and code stand for (0 when they say nothing known).
func (e *APIError) status() int {
	if e.StatusCode != 0 {
		return e.StatusCode
	}
	return kindStatus(e.Type, e.Code)
}

// kindStatus returns the HTTP status that an error type and code stand
// for, 0 when unknown.
func kindStatus(typ, code string) int {
	is := func(names ...string) bool {
		for _, n := range names {
			if typ == n || code == n {
				return true
			}
		}
		return false
	}
	switch {
	case is("invalid_api_key", "authentication_error"):
		return http.StatusUnauthorized
	case is("rate_limit_exceeded", "rate_limit_error", "requests", "tokens"):
		return http.StatusTooManyRequests
	case is("model_not_found"):
		return http.StatusNotFound
	case is("server_error"):
		return http.StatusInternalServerError
	}
	return 0
}

// codeString renders go-openai's error code (a string, a number or nil).
func codeString(code any) string {
	switch c := code.(type) {
	case nil:
		return ""
	case string:
		return c
	default:
		return fmt.Sprint(c)
	}
}

// hintFor returns the advice shown for a status.
func hintFor(code int, msg string) string {
	switch {
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		return "check OPENAI_API_KEY"
	case code == http.StatusNotFound && strings.Contains(strings.ToLower(msg), "model"):
		return "check the model name (--model or TICK_MODEL)"
	case code == http.StatusNotFound:
		return "check the model name (--model or TICK_MODEL) and OPENAI_BASE_URL (it usually ends in /v1)"
	case code == http.StatusTooManyRequests:
		return "rate limit or quota exceeded; wait and try again"
	case code >= 500:
		return "the server failed; try again later"
	}
	return ""
}

// statusText renders "401 Unauthorized" for a code.
func statusText(code int) string {
	if t := http.StatusText(code); t != "" {
		return strconv.Itoa(code) + " " + t
	}
	return strconv.Itoa(code)
}

// apiError converts an error of go-openai's CreateChatCompletionStream into
// an *APIError when it is an HTTP error answer; header is the response's
// header when one was received. The message is the server's text on one
// line with key (the configured API key) and other credentials masked
// (serverText).
func apiError(err error, base, key string, header http.Header) (*APIError, bool) {
	e := &APIError{URL: base}
	var oe *openai.APIError
	var re *openai.RequestError
	// RequestError first: for a body whose "error" is a plain string,
	// go-openai wraps an empty APIError (status 0) in a RequestError that
	// holds the real status and body.
	switch {
	case errors.As(err, &re):
		e.StatusCode, e.Status = re.HTTPStatusCode, re.HTTPStatus
		e.Message = bodyMessage(re.Body)
	case errors.As(err, &oe):
		e.StatusCode, e.Status, e.Message = oe.HTTPStatusCode, oe.HTTPStatus, oe.Message
		e.Type, e.Code = oe.Type, codeString(oe.Code)
	default:
		return nil, false
	}
	e.Message, e.Status = serverText(e.Message, key), serverText(e.Status, key) // the reason phrase is the server's too
	if e.StatusCode != 0 && (e.Status == "" || e.Status == strconv.Itoa(e.StatusCode)) {
		e.Status = statusText(e.StatusCode)
	}
	if e.StatusCode == 0 && e.Status == "" {
		e.Status = "error event"
	}
	e.Hint = hintFor(e.status(), e.Message)
	if header != nil {
		e.retryAfter = parseRetryAfter(header.Get("Retry-After"), time.Now())
	}
	return e, true
}

// bodyMessage returns the message of an error body: the text of the common
// JSON shapes ({"error":{"message":...}}, {"error":"...","message":...},
// {"message":...}, {"detail":...}), or else a short, single-line excerpt.
func bodyMessage(body []byte) string {
	var shape struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  any             `json:"detail"`
	}
	text := string(body)
	if json.Unmarshal(body, &shape) == nil {
		var inner struct {
			Message string `json:"message"`
		}
		var str string
		parts := []string{}
		switch {
		case json.Unmarshal(shape.Error, &inner) == nil && inner.Message != "":
			parts = append(parts, inner.Message)
		case json.Unmarshal(shape.Error, &str) == nil && str != "":
			parts = append(parts, str)
		}
		if shape.Message != "" {
			parts = append(parts, shape.Message)
		}
		if d, ok := shape.Detail.(string); ok && d != "" {
			parts = append(parts, d)
		}
		if len(parts) > 0 {
			text = strings.Join(parts, ": ")
		}
	}
	s := strings.Join(strings.Fields(text), " ")
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

// parseRetryAfter reads a Retry-After value: delay seconds or an HTTP date.
// It returns 0 when the value is missing or unreadable.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs <= 0 {
			return 0
		}
		return time.Duration(secs * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// connError describes a failure to reach the server (no HTTP answer).
type connError struct {
	URL string
	Err error
}

func (e *connError) Error() string {
	cause := e.Err.Error()
	switch {
	case errors.Is(e.Err, syscall.ECONNREFUSED):
		cause = "connection refused"
	case errors.Is(e.Err, syscall.ECONNRESET):
		cause = "connection reset"
	}
	var dns *net.DNSError
	if errors.As(e.Err, &dns) {
		cause = "unknown host " + dns.Name
	}
	return fmt.Sprintf("cannot reach %s: %s — is the server running? check OPENAI_BASE_URL", e.URL, cause)
}

func (e *connError) Unwrap() error { return e.Err }

// isConnError reports whether err is a transport failure worth retrying:
// refused, reset or closed connections and network timeouts.
func isConnError(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var ne net.Error
	return errors.As(err, &ne) ||
		errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, io.EOF) ||
		errors.Is(err, io.ErrUnexpectedEOF)
}
