package agent_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider/providertest"
)

// TestWebFetchApproval: web_fetch asks every time in auto and ask modes
// (no "allow always") unless its host is in the allow list; --yolo runs
// it; -p refuses it without an allow entry or --yolo; plan mode offers it
// only with an allow list, for the allowed hosts.
func TestWebFetchApproval(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<p>the page</p>"))
	}))
	defer site.Close()
	args, _ := json.Marshal(map[string]string{"url": site.URL + "/doc"})
	other := `{"url":"http://example.invalid/"}`
	for _, tt := range []struct {
		name     string
		mode     agent.Mode
		approval agent.ApprovalMode
		headless bool
		allow    []string
		asks     int
		want     []string // in the two results, in order
		offered  bool
	}{
		{"auto, allowed host", agent.ModeAuto, agent.ApproveAsk, false, []string{"127.0.0.1"}, 1, []string{"the page", "denied"}, true},
		{"auto asks every time", agent.ModeAuto, agent.ApproveAsk, false, nil, 2, []string{"denied", "denied"}, true},
		{"ask asks every time", agent.ModeAsk, agent.ApproveAsk, false, nil, 2, []string{"denied", "denied"}, true},
		{"-p refuses", agent.ModeAuto, agent.ApproveNone, true, nil, 0, []string{"[web] allow", "--yolo"}, true},
		{"-p with an allow entry", agent.ModeAuto, agent.ApproveNone, true, []string{"127.0.0.1"}, 0, []string{"the page", "[web] allow"}, true},
		{"--yolo runs, the address check still holds", agent.ModeAuto, agent.ApproveAll, true, nil, 0, []string{"refused to connect to 127.0.0.1", "example.invalid"}, true},
		{"plan mode without an allow list", agent.ModePlan, agent.ApproveAll, false, nil, 0, []string{"plan mode is on", "plan mode is on"}, false},
		{"plan mode with an allow list", agent.ModePlan, agent.ApproveAsk, false, []string{"127.0.0.1"}, 0, []string{"the page", "plan mode is on"}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, func(c *agent.Config) {
				c.Approval, c.Headless = tt.approval, tt.headless
				c.ToolOptions.Web.Allow = tt.allow
			})
			h.ag.SetMode(tt.mode)
			h.srv.Enqueue(calls(call("web_fetch", string(args)), call("web_fetch", other)), providertest.Reply{Text: "ok"})
			reqs, ends := turn(t, h, func(r agent.ApprovalRequest) agent.Approval {
				if !r.Once {
					t.Errorf("the request offers more than this call: %+v", r)
				}
				return agent.Approval{}
			})
			if len(reqs) != tt.asks {
				t.Errorf("asked %d times, want %d", len(reqs), tt.asks)
			}
			if len(ends) != 2 {
				t.Fatalf("%d tool ends, want 2", len(ends))
			}
			for i, w := range tt.want {
				if !strings.Contains(ends[i].Output, w) {
					t.Errorf("result %d = %q, want it to contain %q", i, ends[i].Output, w)
				}
			}
			if tt.headless && tt.approval == agent.ApproveNone {
				if ends[0].Refused == (len(tt.allow) > 0) || !ends[1].Refused {
					t.Errorf("refused flags %v, %v; want the calls -p could not ask about marked", ends[0].Refused, ends[1].Refused)
				}
			}
			if got := slices.Contains(h.srv.Requests()[0].Tools, "web_fetch"); got != tt.offered {
				t.Errorf("web_fetch offered = %v, want %v", got, tt.offered)
			}
		})
	}
}
