package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/tick-agent/tick/agent/compact"
	"github.com/tick-agent/tick/provider"
)

// stream makes one model call, forwarding deltas as events, and appends the
// assistant's message to the history. On failure the partial text the user
// already saw is kept in the history (without tool calls, which may be
// incomplete), so the conversation stays valid and honest.
func (l *loop) stream(ctx context.Context) (provider.Message, error) {
	req := provider.Request{
		Model:    l.a.ModelName(),
		Messages: Repair(l.messages()), // no malformed history can wedge the session
		Tools:    l.specs(),
		Effort:   provider.Effort(l.a.Effort()),
	}
	var progressed time.Time // when the last StreamProgress was sent
	h := provider.Handler{
		OnDelta: func(d provider.Delta) {
			if d.Content == "" && d.Reasoning == "" && time.Since(progressed) >= streamProgressEvery {
				progressed = time.Now() // a tool call's arguments are streaming
				l.emit(StreamProgress{})
			}
			if d.Reasoning != "" || d.Rethought {
				l.emit(ReasoningDelta{Text: d.Reasoning, Rethought: d.Rethought})
			}
			if d.Content != "" {
				l.emit(TextDelta{Text: d.Content})
			}
		},
		OnRetry: func(r provider.Retry) {
			l.emit(Retry{Attempt: r.Attempt, Max: r.Max, Wait: r.Wait, Err: r.Err.Error()})
		},
		OnNotice: func(text string) { l.emit(Notice{Text: text}) },
	}
	began := time.Now()
	resp, err := l.a.client().Stream(ctx, req, h)
	if err != nil {
		if resp != nil && resp.Message.Content != "" {
			partial := provider.Message{Role: provider.RoleAssistant, Content: resp.Message.Content}
			l.add(partial)
			l.emit(AssistantDone{Text: partial.Content, Final: true})
		}
		return provider.Message{}, err
	}
	if resp == nil {
		return provider.Message{}, fmt.Errorf("model call returned no response")
	}
	msg := withRepairedArgs(resp.Message)
	msg.Role = provider.RoleAssistant
	l.add(withValidArgs(msg))
	l.emit(AssistantDone{Text: msg.Content, Final: len(msg.ToolCalls) == 0 && !l.remindsNext()})
	if resp.Recovered != "" {
		l.emit(Notice{Text: recoveredNotice(msg.ToolCalls, resp.Recovered)})
	}
	l.reportUsage(req, resp, time.Since(began))
	return msg, nil
}

// reportUsage emits the token use of a call, estimating it when the server
// reported none, and remembers the prompt size for compaction (without the
// arguments of cut calls, which the history does not keep).
func (l *loop) reportUsage(req provider.Request, resp *provider.Response, took time.Duration) {
	u := Usage{Duration: took}
	if resp.Usage != nil {
		u.Usage = *resp.Usage
	} else {
		u.Estimated = true
		u.PromptTokens = compact.Estimate(req.Messages)
		u.CompletionTokens = compact.Estimate([]provider.Message{resp.Message})
		u.TotalTokens = u.PromptTokens + u.CompletionTokens
	}
	u = l.a.priced(u)
	if u.CostFrom != "" {
		l.spent.add(u.CostUSD)
	}
	if !l.child {
		used := u.PromptTokens + u.CompletionTokens
		if hasCutCall(resp.Message) {
			// The arguments past the cap count as completion tokens but
			// are not in the history: count what the history keeps.
			used = u.PromptTokens + compact.Estimate([]provider.Message{resp.Message})
		}
		l.a.mu.Lock()
		l.a.lastPrompt = used
		l.a.mu.Unlock()
		u = l.a.withWindow(u)
	} else {
		l.used = u.PromptTokens + u.CompletionTokens
	}
	l.a.countUsage(u)
	l.emit(u)
}

// withValidArgs returns m with unparsable tool-call arguments replaced by
// "{}" for the history: servers that parse the arguments of earlier calls
// (chat templates of llama.cpp and vLLM) would reject the next request. The
// call still runs with what the model sent, and its error result quotes it.
func withValidArgs(m provider.Message) provider.Message {
	copied := false
	for i, c := range m.ToolCalls {
		if strings.TrimSpace(c.Arguments) == "" || json.Valid([]byte(c.Arguments)) {
			continue
		}
		if !copied { // the caller keeps the original calls
			m.ToolCalls = append([]provider.ToolCall(nil), m.ToolCalls...)
			copied = true
		}
		m.ToolCalls[i].Arguments = "{}"
	}
	return m
}

// recoveredNotice is the line that says calls were read from the model's
// text: "ran bash, read_file that the model wrote as text (Hermes
// <tool_call> JSON)".
func recoveredNotice(calls []provider.ToolCall, format string) string {
	names := make([]string, len(calls))
	for i, c := range calls {
		names[i] = c.Name
	}
	return fmt.Sprintf("recovered %s from the model's text (%s): the server did not parse the call", strings.Join(names, ", "), format)
}

// withRepairedArgs returns m with tool-call arguments that are slightly
// broken JSON (trailing commas, raw newlines in strings, single quotes, a
// missing last brace) mended by provider.RepairJSON; arguments it cannot
// mend are left as they are, for the exact parse error.
func withRepairedArgs(m provider.Message) provider.Message {
	copied := false
	for i, c := range m.ToolCalls {
		fixed, ok := provider.RepairJSON(c.Arguments)
		if !ok || c.ArgsCut != nil {
			continue
		}
		if !copied { // the caller keeps the original calls
			m.ToolCalls = append([]provider.ToolCall(nil), m.ToolCalls...)
			copied = true
		}
		m.ToolCalls[i].Arguments = fixed
	}
	return m
}
