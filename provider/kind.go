package provider

import (
	"context"
	"errors"
	"net/http"
	"strings"
)

// Kind classifies why a model call failed, so that a front-end can say what
// to do about it without reading the message. The zero Kind (KindNone)
// means no error.
type Kind string

// The kinds of failure KindOf tells apart.
const (
	KindNone          Kind = ""
	KindUnknown       Kind = "unknown"        // none of the below
	KindConfig        Kind = "config"         // no key and no base URL (ErrNoConfig)
	KindAuth          Kind = "auth"           // 401: the key is missing or wrong
	KindForbidden     Kind = "forbidden"      // 403: the key may not use this model
	KindNotFound      Kind = "not_found"      // 404: the model or the URL is wrong
	KindRateLimit     Kind = "rate_limit"     // 429: rate limit or quota
	KindBadRequest    Kind = "bad_request"    // another 4xx: the server refused the request
	KindServer        Kind = "server"         // 5xx or an error event the server named as its own
	KindContextWindow Kind = "context_window" // the request is larger than the model's context
	KindNetwork       Kind = "network"        // the server could not be reached
	KindStreamCut     Kind = "stream_cut"     // the stream ended before the answer was complete
	KindTimeout       Kind = "timeout"        // the server went quiet for too long
	KindTooLarge      Kind = "too_large"      // the response went past a size cap
	KindEmptyStream   Kind = "empty_stream"   // the stream carried no answer at all
	KindCanceled      Kind = "canceled"       // the caller cancelled the call
)

// Kinder is implemented by errors that know their own Kind (*APIError
// does). KindOf asks it through errors.As, so a new error type only has to
// implement it; a new sentinel error gets a line in kindOfSentinel.
type Kinder interface {
	Kind() Kind
}

// kindOfSentinel maps sentinel errors to their kind. Errors added to this
// package that are plain values get a line here.
var kindOfSentinel = []struct {
	err  error
	kind Kind
}{
	{ErrNoConfig, KindConfig},
	{ErrBadConfig, KindConfig},
	{ErrStreamCut, KindStreamCut},
	{ErrTimeout, KindTimeout},
	{ErrTooLarge, KindTooLarge},
	{ErrEmptyStream, KindEmptyStream},
}

// KindOf returns the kind of a failed call's error (KindNone for nil). It
// looks through wrapping, so errors returned by Stream and wrapped by
// callers keep their kind.
func KindOf(err error) Kind {
	if err == nil {
		return KindNone
	}
	// A cut stream may wrap the server's error event: the cut is what the
	// user can act on (the partial answer is kept), so sentinels come first.
	for _, s := range kindOfSentinel {
		if errors.Is(err, s.err) {
			return s.kind
		}
	}
	var k Kinder // *APIError among others
	if errors.As(err, &k) {
		if kind := k.Kind(); kind != KindNone {
			return kind
		}
	}
	var ce *connError
	switch {
	case errors.As(err, &ce):
		return KindNetwork
	case errors.Is(err, context.Canceled):
		return KindCanceled
	case errors.Is(err, context.DeadlineExceeded):
		return KindTimeout
	case isConnError(err):
		return KindNetwork
	}
	return KindUnknown
}

// Kind classifies the server's error by its status, or by the type and
// code it named when it sent an error event inside a stream.
func (e *APIError) Kind() Kind {
	if isContextWindow(e.Code, e.Type, e.Message) {
		return KindContextWindow
	}
	switch code := e.status(); {
	case code == http.StatusUnauthorized:
		return KindAuth
	case code == http.StatusForbidden:
		return KindForbidden
	case code == http.StatusNotFound:
		return KindNotFound
	case code == http.StatusTooManyRequests:
		return KindRateLimit
	case code >= 500:
		return KindServer
	case code >= 400:
		return KindBadRequest
	}
	return KindUnknown
}

// isContextWindow reports whether a server error says the request does not
// fit the model's context. Servers say so in their own words: OpenAI names
// the code, llama.cpp, vLLM and Ollama only write it in the message.
func isContextWindow(code, typ, msg string) bool {
	if code == "context_length_exceeded" || typ == "context_length_exceeded" || typ == "exceed_context_size_error" {
		return true
	}
	m := strings.ToLower(msg)
	for _, w := range []string{"context length", "context window", "maximum context", "context size", "context_length"} {
		if strings.Contains(m, w) {
			return true
		}
	}
	return false
}
