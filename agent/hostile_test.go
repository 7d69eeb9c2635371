package agent_test

import (
	"bytes"
	"fmt"
	"image"
	pngpkg "image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

// usageRaw is a streamed answer "ok" whose usage chunk is usage (JSON).
func usageRaw(usage string) providertest.Reply {
	return providertest.Reply{Raw: []byte(`data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}` + "\n\n" +
		`data: {"choices":[],"usage":` + usage + `}` + "\n\ndata: [DONE]\n\n")}
}

// TestHostileUsage: a server reporting "cost": 0 for a model with a known
// price is charged the price (so --max-cost still fires), and negative
// token counts are treated as absent (estimated), never summed.
func TestHostileUsage(t *testing.T) {
	price := func(string) (provider.Price, agent.CostFrom) {
		return provider.Price{Input: 2, Output: 8}, agent.CostConfig
	}
	for _, tt := range []struct {
		name      string
		usage     string
		cost      float64
		from      agent.CostFrom
		estimated bool
	}{
		{"cost 0 with a price", `{"prompt_tokens":1000,"completion_tokens":10,"total_tokens":1010,"cost":0}`, (1000*2 + 10*8) / 1e6, agent.CostConfig, false},
		{"negative counts", `{"prompt_tokens":-1000000,"completion_tokens":-5,"total_tokens":-1000005,"cost":0}`, -1, agent.CostConfig, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, func(cfg *agent.Config) { cfg.Pricing = price })
			h.srv.Enqueue(usageRaw(tt.usage))
			te := end(t, h.run("go"))
			u := te.Usage
			if u == nil || u.CostFrom != tt.from || u.Estimated != tt.estimated || u.PromptTokens < 0 || u.CompletionTokens < 0 || u.Cost < 0 {
				t.Fatalf("usage %+v", u)
			}
			if tt.cost >= 0 && math.Abs(u.Cost-tt.cost) > 1e-12 {
				t.Errorf("cost %v, want %v", u.Cost, tt.cost)
			}
			if tt.estimated && (u.PromptTokens == 0 || u.Cost <= 0) {
				t.Errorf("estimated usage %+v: want the estimate priced", u)
			}
		})
	}
}

// TestMentionedImageOutOfTime: a mentioned image still decoding when the
// time budget runs out is abandoned and the turn ends on the budget, with
// no model call and a history the next turn can send.
func TestMentionedImageOutOfTime(t *testing.T) {
	h := newHarness(t, func(cfg *agent.Config) { cfg.Mentions = true; cfg.Budget.MaxTime = time.Nanosecond })
	var png bytes.Buffer
	if err := pngpkg.Encode(&png, image.NewGray(image.Rect(0, 0, 2100, 10))); err != nil { // over MaxSide: decoded
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(h.dir, "wide.png"), png.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	te := end(t, h.run("look at @wide.png"))
	if te.Reason != agent.ReasonError || !strings.Contains(fmt.Sprint(te.Err), "--max-time") {
		t.Fatalf("turn ended %s (%v), want the time budget", te.Reason, te.Err)
	}
	if n := len(h.srv.Requests()); n != 0 {
		t.Errorf("%d model calls after the budget ran out", n)
	}
	hist := h.ag.History()
	if len(hist) != 1 || hist[0].Role != provider.RoleUser || !strings.Contains(hist[0].Content, "decoding abandoned") {
		t.Errorf("history %+v: want the prompt alone, saying the image was abandoned", hist)
	}
}
