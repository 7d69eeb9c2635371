package provider

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
	}{
		{"", 0},
		{"7", 7 * time.Second},
		{"0.5", 500 * time.Millisecond},
		{"-3", 0},
		{"soon", 0},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second},
		{now.Add(-time.Minute).Format(http.TimeFormat), 0},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := parseRetryAfter(tt.in, now); got != tt.want {
				t.Errorf("parseRetryAfter(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

// chunks parses SSE-like JSON chunk lines.
func chunks(t *testing.T, lines ...string) []openai.ChatCompletionStreamResponse {
	t.Helper()
	var out []openai.ChatCompletionStreamResponse
	for _, l := range lines {
		var c openai.ChatCompletionStreamResponse
		if err := json.Unmarshal([]byte(l), &c); err != nil {
			t.Fatalf("bad test chunk %s: %v", l, err)
		}
		out = append(out, c)
	}
	return out
}

func TestAccumulatorFragments(t *testing.T) {
	tc := func(frag string) string { return `{"choices":[{"index":0,"delta":{"tool_calls":[` + frag + `]}}]}` }
	tests := []struct {
		name  string
		lines []string
		want  []ToolCall // ID "" means generated
	}{
		{
			name:  "no index, no id: whole calls of the same tool",
			lines: []string{tc(`{"function":{"name":"read_file","arguments":"{\"path\":\"a\"}"}},{"function":{"name":"read_file","arguments":"{\"path\":\"b\"}"}}`)},
			want:  []ToolCall{{Name: "read_file", Arguments: `{"path":"a"}`}, {Name: "read_file", Arguments: `{"path":"b"}`}},
		},
		{
			name:  "no index: fragments continue the last call",
			lines: []string{tc(`{"id":"a","function":{"name":"bash","arguments":"{\"comm"}}`), tc(`{"function":{"arguments":"and\":1}"}}`), tc(`{"id":"b","function":{"name":"todo","arguments":""}}`), tc(`{"function":{"arguments":"{}"}}`)},
			want:  []ToolCall{{ID: "a", Name: "bash", Arguments: `{"command":1}`}, {ID: "b", Name: "todo", Arguments: "{}"}},
		},
		{
			name:  "indexed name in pieces and repeated names",
			lines: []string{tc(`{"index":0,"id":"a","function":{"name":"read_"}}`), tc(`{"index":0,"function":{"name":"file"}}`), tc(`{"index":0,"function":{"arguments":"{}"}}`), tc(`{"index":0,"function":{"name":"read_file","arguments":""}}`)},
			want:  []ToolCall{{ID: "a", Name: "read_file", Arguments: "{}"}},
		},
		{
			name:  "id arrives after the first fragment",
			lines: []string{tc(`{"index":0,"function":{"name":"bash"}}`), tc(`{"index":0,"id":"late","function":{"arguments":"{}"}}`)},
			want:  []ToolCall{{ID: "late", Name: "bash", Arguments: "{}"}},
		},
		{
			name:  "legacy function_call",
			lines: []string{`{"choices":[{"index":0,"delta":{"function_call":{"name":"bash","arguments":"{}"}}}]}`},
			want:  []ToolCall{{Name: "bash", Arguments: "{}"}},
		},
		{
			name:  "second choice ignored",
			lines: []string{`{"choices":[{"index":1,"delta":{"content":"other","tool_calls":[{"index":0,"id":"x","function":{"name":"no"}}]}}]}`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			acc := newAccumulator(DefaultMaxArgs)
			for _, c := range chunks(t, tt.lines...) {
				acc.add(&c)
			}
			n := 0
			resp := acc.response(func() string { n++; return "gen" + strings.Repeat("x", n) })
			if len(resp.Message.ToolCalls) != len(tt.want) || resp.Message.Content != "" {
				t.Fatalf("got %+v, want %+v", resp.Message, tt.want)
			}
			for i, w := range tt.want {
				g := resp.Message.ToolCalls[i]
				if w.ID == "" && strings.HasPrefix(g.ID, "gen") {
					w.ID = g.ID
				}
				if g != w {
					t.Errorf("call %d = %+v, want %+v", i, g, w)
				}
			}
		})
	}
}

func TestTrackBody(t *testing.T) {
	tests := []struct {
		body string
		done bool
	}{
		{"data: {}\n\ndata: [DONE]\n\n", true},
		{"data:[DONE]", true},
		{"data: {}\r\n\r\ndata: [DONE]\r\n", true},
		{"data: {\"content\":\"data: [DONE]\"}\n\n", false},
		{"data: {}\n\n", false},
		{"data: " + strings.Repeat("x", 100) + "[DONE]\n", false},
	}
	for _, tt := range tests {
		b := &trackBody{rc: io.NopCloser(&slowReader{s: tt.body})}
		if _, err := io.ReadAll(b); err != nil {
			t.Fatal(err)
		}
		if b.sawDone() != tt.done {
			t.Errorf("%q: sawDone = %v", tt.body, b.sawDone())
		}
	}
}

// slowReader returns at most 3 bytes per Read, to split lines.
type slowReader struct{ s string }

func (r *slowReader) Read(p []byte) (int, error) {
	if r.s == "" {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), 3)], r.s)
	r.s = r.s[n:]
	return n, nil
}
