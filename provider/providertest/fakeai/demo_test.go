package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

// converse runs prompt against the demo the way the agent would, answering
// each tool call with a canned result, and returns the calls made in order
// ("name args") and the final text.
func converse(t *testing.T, c *provider.Client, history []provider.Message, prompt string) ([]string, string, []provider.Message) {
	t.Helper()
	history = append(history, provider.Message{Role: provider.RoleUser, Content: prompt})
	var calls []string
	for round := 0; round < 20; round++ {
		resp, err := c.Stream(context.Background(), provider.Request{Messages: history}, provider.Handler{})
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		history = append(history, resp.Message)
		if len(resp.Message.ToolCalls) == 0 {
			return calls, resp.Message.Content, history
		}
		for _, tc := range resp.Message.ToolCalls {
			calls = append(calls, tc.Name+" "+tc.Arguments)
			out := "[>] #1: something" // what a todo result looks like
			if tc.Name == "bash" {
				var a struct{ Command string }
				if err := json.Unmarshal([]byte(tc.Arguments), &a); err != nil {
					t.Fatalf("bad bash args %q", tc.Arguments)
				}
				out = "output of " + a.Command
			}
			history = append(history, provider.Message{Role: provider.RoleTool, ToolCallID: tc.ID, Content: out})
		}
	}
	t.Fatal("the demo never finished")
	return nil, "", nil
}

func TestDemo(t *testing.T) {
	srv := providertest.New(t)
	srv.SetFunc(func(r providertest.Request) providertest.Reply { return Demo(r, 0) })
	c, err := provider.New(provider.Config{BaseURL: srv.URL, Model: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		prompt    string
		wantCalls []string // name and a fragment of the arguments
		wantText  []string // fragments of the final answer
	}{
		{
			prompt: "Please make a plan and do it",
			wantCalls: []string{
				`todo "status":"in_progress","active_form":"Looking around the workspace"`,
				`bash "command":"ls"`,
				`todo "id":"2","text":"Say hi from the shell","status":"in_progress"`,
				`bash "command":"echo hi"`,
				`todo "id":"3","text":"Check the operating system","status":"in_progress"`,
				`bash "command":"uname -s"`,
				`todo "id":"4","text":"Write the summary","status":"in_progress"`,
				`todo "id":"4","text":"Write the summary","status":"completed"`,
			},
			wantText: []string{"## Summary", "output of echo hi"},
		},
		{prompt: "sleep a while", wantCalls: []string{`bash {"command":"sleep 30"}`}, wantText: []string{"output of sleep 30"}},
		{prompt: "a long one please", wantText: []string{"# A long answer", "## Section 40"}},
		{prompt: "hello", wantText: []string{"```go"}},
	}
	var history []provider.Message
	for _, tt := range tests {
		t.Run(tt.prompt, func(t *testing.T) {
			var calls []string
			var text string
			calls, text, history = converse(t, c, history, tt.prompt) // follow-up turns share the history
			if len(calls) != len(tt.wantCalls) {
				t.Fatalf("calls:\n%s\nwant %d", strings.Join(calls, "\n"), len(tt.wantCalls))
			}
			for i, w := range tt.wantCalls {
				name, frag, _ := strings.Cut(w, " ")
				if !strings.HasPrefix(calls[i], name+" ") || !strings.Contains(calls[i], frag) {
					t.Errorf("call %d = %s\nwant %s", i, calls[i], w)
				}
			}
			for _, w := range tt.wantText {
				if !strings.Contains(text, w) {
					t.Errorf("answer lacks %q:\n%.300s", w, text)
				}
			}
		})
	}
	if errs := srv.Errors(); len(errs) != 0 {
		t.Errorf("the conversation was not valid: %v", errs)
	}
}

func TestDemoDetails(t *testing.T) {
	if n := len(longAnswer(20000)); n < 20000 || n > 21000 {
		t.Errorf("long answer has %d characters", n)
	}
	r := Demo(providertest.Request{Messages: []providertest.Message{{Role: "user", Content: "think about it"}}}, 2000)
	if r.Reasoning == "" || r.ChunkSize != 20 || r.ChunkDelay != 10*time.Millisecond {
		t.Errorf("think reply %+v", r)
	}
	r = Demo(providertest.Request{Messages: []providertest.Message{
		{Role: "user", Content: "plan it"},
		{Role: "assistant", ToolCalls: []providertest.Call{{ID: "a", Name: "todo"}}},
		{Role: "tool", ToolCallID: "a", Content: "ok"},
		{Role: "user", Content: "<reminder>Update your todos.</reminder>"},
	}}, 0)
	if len(r.ToolCalls) != 1 || r.ToolCalls[0].Name != "bash" {
		t.Errorf("a reminder broke the scenario: %+v", r)
	}
}

func TestLoadScript(t *testing.T) {
	tests := []struct {
		name, script, wantErr string
	}{
		{"valid", `[{"text":"hi","chunk_delay":"5ms","raw":"data: [DONE]\n\n"},{"tool_calls":[{"name":"bash","args":"{}"}],"status":0}]`, ""},
		{"bad delay", `[{"chunk_delay":"soon"}]`, "chunk_delay"},
		{"not an array", `{"text":"hi"}`, "parse script"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "s.json")
			if err := os.WriteFile(p, []byte(tt.script), 0o600); err != nil {
				t.Fatal(err)
			}
			got, err := loadScript(p)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 2 || got[0].ChunkDelay != 5*time.Millisecond || string(got[0].Raw) != "data: [DONE]\n\n" || got[1].ToolCalls[0].Name != "bash" {
				t.Errorf("loaded %+v", got)
			}
		})
	}
}
