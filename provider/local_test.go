package provider_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
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

// TestTemplateOpenedThinkLearnt: after one answer whose thoughts ended in
// a lone </think>, the client knows the chat template opens the tag: the
// next answer's thoughts stream as reasoning and are never shown as the
// answer first; an answer with no </think> at all (thinking switched off)
// is given back as the answer at its end.
func TestTemplateOpenedThinkLearnt(t *testing.T) {
	srv := providertest.New(t)
	c := newClient(t, srv.URL, nil)
	srv.Enqueue(
		providertest.Reply{Text: "Okay, 2+2.\n</think>\n\nIt is 4.", ChunkSize: 3},
		providertest.Reply{Text: "Now 3+3.\n</think>\n\nIt is 6.", ChunkSize: 3},
		providertest.Reply{Text: "It is 8.", ChunkSize: 3},
	)
	var first recorder
	if _, err := c.Stream(context.Background(), userRequest("2+2?"), first.handler()); err != nil {
		t.Fatal(err)
	}
	checkRethought(t, first.deltas, "It is 4.", "Okay, 2+2.\n")
	var second recorder
	resp, err := c.Stream(context.Background(), userRequest("3+3?"), second.handler())
	if err != nil {
		t.Fatal(err)
	}
	text, reasoning := second.text()
	if text != "It is 6." || reasoning != "Now 3+3.\n" || resp.Message.Content != "It is 6." {
		t.Errorf("second answer: streamed %q and thoughts %q, content %q", text, reasoning, resp.Message.Content)
	}
	for _, d := range second.deltas {
		if d.Rethought || strings.Contains(d.Content, "3+3") {
			t.Errorf("the thoughts were shown as the answer: %+v", d)
		}
	}
	var third recorder
	resp, err = c.Stream(context.Background(), userRequest("4+4?"), third.handler())
	if err != nil {
		t.Fatal(err)
	}
	if text, _ := third.text(); text != "It is 8." || resp.Message.Content != "It is 8." || resp.Message.Reasoning != "" {
		t.Errorf("an answer without thoughts: streamed %q, content %q, reasoning %q", text, resp.Message.Content, resp.Message.Reasoning)
	}
}
