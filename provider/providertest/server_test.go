package providertest_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
)

// sseChunk is the part of a chunk these tests look at.
type sseChunk struct {
	Choices []struct {
		Delta struct {
			Role             string  `json:"role"`
			Content          *string `json:"content"`
			ReasoningContent string  `json:"reasoning_content"`
			ToolCalls        []struct {
				Index    *int   `json:"index"`
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *providertest.Usage `json:"usage"`
}

// result is a stream read back by post.
type result struct {
	status  int
	header  http.Header
	body    string   // the whole body for non-streams
	events  []string // data payloads, including [DONE]
	chunks  []sseChunk
	readErr error
}

// text returns the concatenated content deltas.
func (r result) text() string {
	var b strings.Builder
	for _, c := range r.chunks {
		for _, ch := range c.Choices {
			if ch.Delta.Content != nil {
				b.WriteString(*ch.Delta.Content)
			}
		}
	}
	return b.String()
}

// serverErrorEvent is the error event the real API sends inside a stream.
const serverErrorEvent = `{"error":{"message":"The server had an error while processing your request.","type":"server_error"}}`

// rawDeltas returns the raw JSON of the delta of every chunk with a choice.
func rawDeltas(t *testing.T, r result) []string {
	t.Helper()
	var out []string
	for _, e := range r.events {
		var c struct {
			Choices []struct {
				Delta json.RawMessage `json:"delta"`
			} `json:"choices"`
		}
		if e == "[DONE]" || json.Unmarshal([]byte(e), &c) != nil || len(c.Choices) == 0 {
			continue
		}
		out = append(out, string(c.Choices[0].Delta))
	}
	return out
}

// post sends body to the chat endpoint and reads the answer.
func post(t *testing.T, ctx context.Context, url, body string) result {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/chat/completions", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer test")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST: %v", err)
	}
	defer resp.Body.Close()
	res := result{status: resp.StatusCode, header: resp.Header}
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		b, err := io.ReadAll(resp.Body)
		res.body, res.readErr = string(b), err
		return res
	}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		res.events = append(res.events, line)
		if line == "[DONE]" {
			continue
		}
		var c sseChunk
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("bad chunk %q: %v", line, err)
		}
		res.chunks = append(res.chunks, c)
	}
	res.readErr = sc.Err()
	return res
}

const userOnly = `{"model":"m","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hi"}]}`

func TestStreams(t *testing.T) {
	tests := []struct {
		name  string
		reply providertest.Reply
		check func(t *testing.T, r result)
	}{
		{
			name:  "text in small chunks with usage and done",
			reply: providertest.Reply{Text: "hello there, world"},
			check: func(t *testing.T, r result) {
				if got := r.text(); got != "hello there, world" {
					t.Errorf("text = %q", got)
				}
				if len(r.chunks) < 5 {
					t.Errorf("only %d chunks; want the text split", len(r.chunks))
				}
				last := r.chunks[len(r.chunks)-1]
				if last.Usage == nil || len(last.Choices) != 0 || last.Usage.TotalTokens == 0 {
					t.Errorf("last chunk is not a usage chunk with empty choices: %+v", last)
				}
				fin := r.chunks[len(r.chunks)-2].Choices[0].FinishReason
				if fin == nil || *fin != "stop" {
					t.Errorf("finish reason = %v", fin)
				}
				if r.events[len(r.events)-1] != "[DONE]" {
					t.Errorf("no [DONE] at the end")
				}
			},
		},
		{
			name:  "tool call split over chunks",
			reply: providertest.Reply{ToolCalls: []providertest.Call{{Name: "bash", Args: `{"command":"ls -la"}`}}},
			check: func(t *testing.T, r result) {
				var args strings.Builder
				var first string
				frags := 0
				for _, c := range r.chunks {
					for _, ch := range c.Choices {
						for _, tc := range ch.Delta.ToolCalls {
							if tc.Index == nil || *tc.Index != 0 {
								t.Errorf("fragment without index 0: %+v", tc)
							}
							if frags == 0 {
								first = tc.ID + "/" + tc.Function.Name
							}
							frags++
							args.WriteString(tc.Function.Arguments)
						}
					}
				}
				if !strings.HasPrefix(first, "call_") || !strings.HasSuffix(first, "/bash") {
					t.Errorf("first fragment = %q, want generated id and name", first)
				}
				if frags < 3 || args.String() != `{"command":"ls -la"}` {
					t.Errorf("%d fragments, args %q", frags, args.String())
				}
			},
		},
		{
			name:  "whole calls the way Ollama sends them",
			reply: providertest.Reply{WholeCalls: true, ToolCalls: []providertest.Call{{ID: "a", Name: "x", Args: `{"k":1}`}, {ID: "b", Name: "y", Args: "{}"}}},
			check: func(t *testing.T, r result) {
				want := []string{
					`{"role":"assistant","content":"","tool_calls":[{"index":0,"id":"a","type":"function","function":{"name":"x","arguments":"{\"k\":1}"}}]}`,
					`{"role":"assistant","content":"","tool_calls":[{"index":1,"id":"b","type":"function","function":{"name":"y","arguments":"{}"}}]}`,
					`{"role":"assistant","content":""}`,
				}
				deltas := rawDeltas(t, r)
				if len(deltas) != len(want) {
					t.Fatalf("deltas %q\nwant %q", deltas, want)
				}
				for i := range want {
					if deltas[i] != want[i] {
						t.Errorf("delta %d = %s\nwant %s", i, deltas[i], want[i])
					}
				}
				if fin := r.chunks[2].Choices[0].FinishReason; fin == nil || *fin != "tool_calls" {
					t.Errorf("finish reason = %v", fin)
				}
				for _, e := range r.events[:3] {
					if !strings.Contains(e, `"system_fingerprint":"fp_ollama"`) || strings.Contains(e, "logprobs") {
						t.Errorf("not an Ollama-style chunk: %s", e)
					}
				}
			},
		},
		{
			name:  "legacy whole calls in one delta without index",
			reply: providertest.Reply{WholeCalls: true, NoIndex: true, ToolCalls: []providertest.Call{{ID: "a", Name: "x", Args: "{}"}, {ID: "b", Name: "y", Args: "{}"}}},
			check: func(t *testing.T, r result) {
				n := 0
				for _, c := range r.chunks {
					for _, ch := range c.Choices {
						if len(ch.Delta.ToolCalls) > 0 {
							n++
							if len(ch.Delta.ToolCalls) != 2 || ch.Delta.ToolCalls[0].Index != nil || ch.Delta.ToolCalls[1].Index != nil {
								t.Errorf("want both calls in one chunk without index: %+v", ch.Delta.ToolCalls)
							}
						}
					}
				}
				if n != 1 {
					t.Errorf("%d chunks with calls, want 1", n)
				}
			},
		},
		{
			name:  "OpenAI-style first chunk of a tool-call answer",
			reply: providertest.Reply{ToolCalls: []providertest.Call{{ID: "c", Name: "x", Args: "{}"}}},
			check: func(t *testing.T, r result) {
				if d := rawDeltas(t, r)[0]; d != `{"role":"assistant","content":null,"refusal":null}` {
					t.Errorf("first delta = %s", d)
				}
				for _, e := range r.events[:len(r.events)-1] {
					if !strings.Contains(e, `"system_fingerprint":"fp_`) {
						t.Errorf("no system_fingerprint: %s", e)
					}
					if strings.Contains(e, `"choices":[{`) && !strings.Contains(e, `"logprobs":null`) {
						t.Errorf("no logprobs: %s", e)
					}
				}
			},
		},
		{
			name:  "OpenAI-style first chunk of a text answer",
			reply: providertest.Reply{Text: "hi"},
			check: func(t *testing.T, r result) {
				if d := rawDeltas(t, r)[0]; d != `{"role":"assistant","content":"","refusal":null}` {
					t.Errorf("first delta = %s", d)
				}
			},
		},
		{
			name:  "error event before the answer",
			reply: providertest.Reply{Text: "never sent", ErrorEvent: serverErrorEvent},
			check: func(t *testing.T, r result) {
				if len(r.events) != 1 || r.events[0] != serverErrorEvent || r.readErr != nil {
					t.Errorf("events %q, read error %v; want only the error event, then a clean end", r.events, r.readErr)
				}
			},
		},
		{
			name:  "error event after three events",
			reply: providertest.Reply{Text: "some text that is cut short", ErrorEvent: serverErrorEvent, ErrorAfter: 3},
			check: func(t *testing.T, r result) {
				if len(r.events) != 4 || r.events[3] != serverErrorEvent || r.text() != "some tex" {
					t.Errorf("events %q; want the role chunk, two pieces of text and the error event", r.events)
				}
			},
		},
		{
			name:  "reasoning before text",
			reply: providertest.Reply{Reasoning: "think", Text: "answer"},
			check: func(t *testing.T, r result) {
				if r.chunks[1].Choices[0].Delta.ReasoningContent == "" {
					t.Errorf("second chunk has no reasoning: %+v", r.chunks[1])
				}
				if r.text() != "answer" {
					t.Errorf("text = %q", r.text())
				}
			},
		},
		{
			name:  "error status with retry-after",
			reply: providertest.Reply{Status: 429, RetryAfter: "2"},
			check: func(t *testing.T, r result) {
				if r.status != 429 || r.header.Get("Retry-After") != "2" || !strings.Contains(r.body, `"error"`) {
					t.Errorf("got %d %q %s", r.status, r.header.Get("Retry-After"), r.body)
				}
			},
		},
		{
			name:  "cut after 3 chunks",
			reply: providertest.Reply{Text: "partial text here", CutAfter: 3},
			check: func(t *testing.T, r result) {
				if len(r.chunks) != 3 || !errors.Is(r.readErr, io.ErrUnexpectedEOF) {
					t.Errorf("%d chunks, read error %v; want 3 and unexpected EOF", len(r.chunks), r.readErr)
				}
			},
		},
		{
			name:  "omit finish",
			reply: providertest.Reply{Text: "x", OmitFinish: true, NoUsage: true},
			check: func(t *testing.T, r result) {
				for _, c := range r.chunks {
					for _, ch := range c.Choices {
						if ch.FinishReason != nil {
							t.Errorf("finish reason %q sent", *ch.FinishReason)
						}
					}
					if c.Usage != nil {
						t.Errorf("usage sent")
					}
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.New(t)
			srv.Enqueue(tt.reply)
			r := post(t, context.Background(), srv.URL, userOnly)
			tt.check(t, r)
			if errs := srv.Errors(); len(errs) != 0 {
				t.Errorf("server errors: %v", errs)
			}
		})
	}
}
