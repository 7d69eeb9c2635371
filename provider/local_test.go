package provider_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

// localDir holds streams in the formats of local servers (see its README.md
// for the source each is derived from).
const localDir = "testdata/local"

func TestStreamReasoningFormats(t *testing.T) {
	tests := []struct {
		file          string
		wantText      string
		wantReasoning string
		streamed      bool // the deltas carry exactly the text and the reasoning
	}{
		{"ollama-reasoning.sse", "4", "The user asks for 2+2. Easy.", true},
		{"vllm-both-fields.sse", "4", "Check the sum.", true},
		{"llamacpp-think-in-content.sse", "The answer is 4.", "\nThe user wants 2+2.", true},
		{"llamacpp-template-opened-think.sse", "It is 4.", "Okay, the user wants 2+2.\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			srv := providertest.New(t)
			srv.Enqueue(providertest.Reply{Raw: readLocal(t, tt.file)})
			var rec recorder
			resp, err := newClient(t, srv.URL, nil).Stream(context.Background(), userRequest("2+2?"), rec.handler())
			if err != nil {
				t.Fatalf("Stream: %v", err)
			}
			if resp.Message.Content != tt.wantText || resp.Message.Reasoning != tt.wantReasoning {
				t.Errorf("message: content %q reasoning %q, want %q and %q", resp.Message.Content, resp.Message.Reasoning, tt.wantText, tt.wantReasoning)
			}
			text, reasoning := rec.text()
			if tt.streamed && (text != tt.wantText || reasoning != tt.wantReasoning) {
				t.Errorf("deltas: content %q reasoning %q, want %q and %q", text, reasoning, tt.wantText, tt.wantReasoning)
			}
			if !tt.streamed {
				checkRethought(t, rec.deltas, tt.wantText, tt.wantReasoning)
			}
		})
	}
}

func TestWholeAnswerReasoningField(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Body: `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"qwen3:8b","system_fingerprint":"fp_ollama","choices":[{"index":0,"message":{"role":"assistant","content":"4","reasoning":"Two and two."},"finish_reason":"stop"}]}`})
	resp, err := newClient(t, srv.URL, nil).Stream(context.Background(), userRequest("2+2?"), provider.Handler{})
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	if resp.Message.Reasoning != "Two and two." || resp.Message.Content != "4" {
		t.Errorf("got content %q reasoning %q", resp.Message.Content, resp.Message.Reasoning)
	}
}

func readLocal(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(localDir, name))
	if err != nil {
		t.Fatalf("read the local-server fixture: %v", err)
	}
	return b
}

// checkRethought checks the deltas of an answer whose thoughts came first
// as text: the text before the Rethought delta is withdrawn, that delta
// carries all the thoughts so far, and the text after it is the answer.
func checkRethought(t *testing.T, deltas []provider.Delta, wantText, wantReasoning string) {
	t.Helper()
	var text, reasoning string
	n := 0
	for _, d := range deltas {
		if d.Rethought {
			n++
			text, reasoning = "", ""
		}
		text += d.Content
		reasoning += d.Reasoning
	}
	if n != 1 || text != wantText || reasoning != wantReasoning {
		t.Errorf("%d Rethought deltas, then content %q reasoning %q; want 1, %q and %q", n, text, reasoning, wantText, wantReasoning)
	}
}
