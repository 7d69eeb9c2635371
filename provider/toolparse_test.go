package provider_test

import (
	"context"
	"errors"
	"testing"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

// ollamaParseError is Ollama's answer to a tool call it cannot parse (see
// testdata/local/README.md for the source).
const ollamaParseError = `{"error":{"message":"error parsing tool call: raw='{\"path\": \"a.go\"', err=unexpected end of JSON input","type":"api_error","param":null,"code":null}}`

func TestToolCallParseError(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Status: 500, Body: ollamaParseError}, providertest.Reply{Text: "never asked"})
	var rec recorder
	_, err := newClient(t, srv.URL, nil).Stream(context.Background(), userRequest("read it"), rec.handler())
	raw, ok := provider.ToolCallParseError(err)
	if !ok || raw != `{"path": "a.go"` {
		t.Fatalf("ToolCallParseError(%v) = %q, %v; want the quoted call", err, raw, ok)
	}
	if len(rec.retries) != 0 || len(srv.Requests()) != 1 {
		t.Errorf("%d retries, %d requests: the same request would repeat the model's mistake", len(rec.retries), len(srv.Requests()))
	}
	if provider.KindOf(err) != provider.KindServer {
		t.Errorf("kind %q, want server (as the status says)", provider.KindOf(err))
	}
	for _, other := range []error{nil, errors.New("error parsing tool call: raw='x'"), &provider.APIError{StatusCode: 500, Message: "model crashed"}} {
		if _, ok := provider.ToolCallParseError(other); ok {
			t.Errorf("ToolCallParseError(%v) = true", other)
		}
	}
}
