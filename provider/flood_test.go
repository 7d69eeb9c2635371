package provider_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider"
)

// callChunk is a data line carrying one whole tool call.
func callChunk(i int, id, name string) string {
	return fmt.Sprintf(`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":%d,"id":%q,"type":"function","function":{"name":%q,"arguments":"{}"}}]}}]}`+"\n\n", i, id, name)
}

// TestFloodOfCallsIsCapped: an answer of 20,000 tiny calls keeps
// MaxCalls of them and one call standing for the rest, which is not run.
func TestFloodOfCallsIsCapped(t *testing.T) {
	const n = 20_000 // far past the cap; the e2e test and the report take 100,000 and a million
	url, _ := hostile(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w)
		var b strings.Builder
		for i := range n {
			b.WriteString(callChunk(i, fmt.Sprintf("call_%d", i), "read_file"))
			if b.Len() > 64<<10 {
				if _, err := fmt.Fprint(w, b.String()); err != nil {
					return
				}
				b.Reset()
			}
		}
		fmt.Fprint(w, b.String()+`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`+"\n\ndata: [DONE]\n\n")
	})
	c := newClient(t, url, nil)
	var rec recorder
	resp, err := stream(t, c, &rec)
	if err != nil {
		t.Fatal(err)
	}
	calls := resp.Message.ToolCalls
	if len(calls) != provider.MaxCalls+1 {
		t.Fatalf("%d calls kept, want %d and one standing for the rest", len(calls), provider.MaxCalls+1)
	}
	last := calls[len(calls)-1]
	if last.ArgsCut == nil || last.ArgsCut.Calls != n-provider.MaxCalls || last.ArgsCut.Limit != provider.MaxCalls || last.Name != "read_file" {
		t.Errorf("the last call is %+v (cut %+v), want it to stand for %d dropped calls", last, last.ArgsCut, n-provider.MaxCalls)
	}
	if calls[0].ID != "call_0" || calls[provider.MaxCalls-1].ID != fmt.Sprintf("call_%d", provider.MaxCalls-1) {
		t.Errorf("the kept calls are not the first ones: %s … %s", calls[0].ID, calls[provider.MaxCalls-1].ID)
	}
}

// TestCallNamesAndIDsCount: the bytes of tool-call names and ids count
// toward MaxResponse like arguments do.
func TestCallNamesAndIDsCount(t *testing.T) {
	url, _ := hostile(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w)
		name := strings.Repeat("n", 60<<10)
		for i := 0; r.Context().Err() == nil && i < 200; i++ { // 12 MB of names and ids, no arguments
			if _, err := fmt.Fprint(w, callChunk(0, "id_"+name, name)); err != nil {
				return
			}
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	})
	c := newClient(t, url, func(cfg *provider.Config) { cfg.MaxResponse = 4 << 20 })
	var rec recorder
	_, err := stream(t, c, &rec)
	if !errors.Is(err, provider.ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
}

// TestFloodOfTextCallsIsCapped: calls written as text (Hermes tags) are
// bounded like real ones: never more than MaxCalls run, whatever the text
// holds.
func TestFloodOfTextCallsIsCapped(t *testing.T) {
	const n = provider.MaxCalls + 44
	url, _ := hostile(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w)
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"f%d\"}}\n</tool_call>\n", i)
		}
		fmt.Fprint(w, chunk(b.String())+`data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
	})
	c := newClient(t, url, nil)
	req := userRequest("hi")
	req.Tools = []provider.ToolSpec{{Name: "read_file", Description: "read", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)}}
	var rec recorder
	resp, err := c.Stream(context.Background(), req, rec.handler())
	if err != nil {
		t.Fatal(err)
	}
	run := 0
	for _, c := range resp.Message.ToolCalls {
		if c.ArgsCut == nil {
			run++
		}
	}
	if run == 0 || run > provider.MaxCalls {
		t.Fatalf("%d calls recovered from the text would run, want between 1 and %d", run, provider.MaxCalls)
	}
}
