package provider_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

// TestKindOf checks the kind of what a real (fake) server makes Stream
// return, so that front-ends never have to read the message.
func TestKindOf(t *testing.T) {
	tests := []struct {
		name  string
		reply providertest.Reply
		want  provider.Kind
	}{
		{"401", providertest.Reply{Status: 401, Body: `{"error":{"message":"Incorrect API key provided"}}`}, provider.KindAuth},
		{"403", providertest.Reply{Status: 403}, provider.KindForbidden},
		{"404", providertest.Reply{Status: 404, Body: `{"error":"model 'qwen9' not found"}`}, provider.KindNotFound},
		{"429", providertest.Reply{Status: 429}, provider.KindRateLimit},
		{"400", providertest.Reply{Status: 400, Body: `{"error":{"message":"bad thing"}}`}, provider.KindBadRequest},
		{"400 context length by code", providertest.Reply{Status: 400, Body: `{"error":{"message":"too long","code":"context_length_exceeded"}}`}, provider.KindContextWindow},
		{"400 context length in words", providertest.Reply{Status: 400, Body: `{"error":{"message":"the request exceeds the available context size, try increasing it"}}`}, provider.KindContextWindow},
		{"500", providertest.Reply{Status: 500}, provider.KindServer},
		{"a message saying preset is not a reset", providertest.Reply{Status: 422, Body: `{"error":{"message":"unknown preset"}}`}, provider.KindBadRequest},
		{"error event", providertest.Reply{ErrorEvent: `{"error":{"message":"overloaded","type":"server_error"}}`}, provider.KindServer},
		{"cut after content", providertest.Reply{Text: "partial answer here", ChunkSize: 2, CutAfter: 3}, provider.KindStreamCut},
		{"only [DONE]", providertest.Reply{Raw: []byte("data: [DONE]\n\n")}, provider.KindEmptyStream},
	}
	srv := providertest.NewServer()
	t.Cleanup(srv.Close)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv.Enqueue(tt.reply)
			c := newClient(t, srv.URL, func(c *provider.Config) { c.MaxRetries = -1 })
			_, err := c.Stream(context.Background(), userRequest("hi"), provider.Handler{})
			if err == nil {
				t.Fatal("Stream succeeded")
			}
			if got := provider.KindOf(fmt.Errorf("turn: %w", err)); got != tt.want {
				t.Errorf("KindOf(%v) = %q, want %q", err, got, tt.want)
			}
		})
	}
}

func TestKindOfLocal(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String() + "/v1"
	l.Close()
	c := newClient(t, url, func(c *provider.Config) { c.MaxRetries = -1 })
	_, refused := c.Stream(context.Background(), userRequest("hi"), provider.Handler{})

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, canceled := c.Stream(ctx, userRequest("hi"), provider.Handler{})

	_, noConfig := provider.New(provider.Config{})
	tests := []struct {
		name string
		err  error
		want provider.Kind
	}{
		{"nil", nil, provider.KindNone},
		{"connection refused", refused, provider.KindNetwork},
		{"cancelled", canceled, provider.KindCanceled},
		{"deadline", context.DeadlineExceeded, provider.KindTimeout},
		{"no config", noConfig, provider.KindConfig},
		{"a Kinder", fmt.Errorf("wrapped: %w", kinded(provider.KindTooLarge)), provider.KindTooLarge},
		{"idle timeout", &provider.TimeoutError{URL: "u", After: time.Minute, Waiting: "the first chunk"}, provider.KindTimeout},
		{"empty stream", fmt.Errorf("read stream: %w", provider.ErrEmptyStream), provider.KindEmptyStream},
		{"bad config", fmt.Errorf("%w: header with a newline", provider.ErrBadConfig), provider.KindConfig},
		{"anything else", errors.New("odd"), provider.KindUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := provider.KindOf(tt.err); got != tt.want {
				t.Errorf("KindOf(%v) = %q, want %q", tt.err, got, tt.want)
			}
		})
	}
}

// kinded is an error that names its own kind.
type kinded provider.Kind

func (k kinded) Error() string       { return string(k) }
func (k kinded) Kind() provider.Kind { return provider.Kind(k) }
