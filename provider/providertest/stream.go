package providertest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// rawEvents splits a verbatim event stream into its events, each keeping
// its terminating blank line.
func rawEvents(raw []byte) [][]byte {
	var out [][]byte
	for len(raw) > 0 {
		i := bytes.Index(raw, []byte("\n\n"))
		if i < 0 {
			out = append(out, raw)
			break
		}
		out = append(out, raw[:i+2])
		raw = raw[i+2:]
	}
	return out
}

// writeError answers with an error status and body.
func writeError(w http.ResponseWriter, r Reply) {
	if r.RetryAfter != "" {
		w.Header().Set("Retry-After", r.RetryAfter)
	}
	status := r.Status
	if status == 0 {
		status = http.StatusOK
	}
	body := r.Body
	if body == "" {
		body = errorJSON(status, http.StatusText(status), "")
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

// errorJSON renders an OpenAI-style error body.
func errorJSON(status int, msg, param string) string {
	typ := "server_error"
	switch {
	case status == http.StatusUnauthorized:
		typ = "invalid_request_error"
	case status == http.StatusTooManyRequests:
		typ = "rate_limit_error"
	case status >= 400 && status < 500:
		typ = "invalid_request_error"
	}
	e := map[string]any{"message": msg, "type": typ, "param": nil, "code": nil}
	if param != "" {
		e["param"] = param
	}
	b, _ := json.Marshal(map[string]any{"error": e})
	return string(b)
}

// stream writes events (already framed when raw, else payloads to frame
// as "data: ...\n\n") to w, honouring the reply's delay, cut and hang
// options. It returns when the stream is written, cut, or the client or
// server went away.
//
// A Hang reply blocks after the event at index hangAt. release is called
// just before the last event is written.
func (s *Server) stream(w http.ResponseWriter, req *http.Request, r Reply, events [][]byte, raw bool, hangAt int, release func()) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	if r.RetryAfter != "" {
		h.Set("Retry-After", r.RetryAfter)
	}
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	_ = rc.Flush()
	cutAfter := r.CutAfter
	if cutAfter >= len(events) {
		cutAfter = len(events) - 1 // a cut stream never completes
	}
	if r.CutAfter != 0 && cutAfter <= 0 {
		cut(rc)
		return
	}
	for i, ev := range events {
		if i > 0 && r.ChunkDelay > 0 {
			t := time.NewTimer(r.ChunkDelay)
			select {
			case <-t.C:
			case <-req.Context().Done():
				t.Stop()
				return
			case <-s.quit:
				t.Stop()
				return
			}
		}
		if i == len(events)-1 {
			release()
		}
		var err error
		if raw {
			_, err = w.Write(ev)
		} else {
			_, err = fmt.Fprintf(w, "data: %s\n\n", ev)
		}
		if err == nil {
			err = rc.Flush()
		}
		if err != nil {
			return
		}
		if cutAfter > 0 && i+1 == cutAfter {
			cut(rc)
			return
		}
		if r.Hang && i == hangAt {
			select {
			case <-req.Context().Done():
			case <-s.quit:
			}
			return
		}
	}
}

// cut closes the connection under the response without finishing it.
func cut(rc *http.ResponseController) {
	conn, _, err := rc.Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	_ = conn.Close()
}

// writeCompletion answers a non-streaming request with one
// chat.completion object.
func writeCompletion(w http.ResponseWriter, req Request, r Reply, calls []Call) {
	type wireCall struct {
		ID       string  `json:"id"`
		Type     string  `json:"type"`
		Function fnDelta `json:"function"`
	}
	msg := struct {
		Role             string     `json:"role"`
		Content          *string    `json:"content"`
		ReasoningContent string     `json:"reasoning_content,omitempty"`
		ToolCalls        []wireCall `json:"tool_calls,omitempty"`
	}{Role: "assistant", ReasoningContent: r.Reasoning}
	if r.Text != "" || len(calls) == 0 {
		msg.Content = &r.Text
	}
	for _, c := range calls {
		msg.ToolCalls = append(msg.ToolCalls, wireCall{ID: c.ID, Type: "function", Function: fnDelta{Name: c.Name, Arguments: c.Args}})
	}
	u := r.usage(req)
	var finish *string
	if !r.OmitFinish {
		f := r.finishReason()
		finish = &f
	}
	b, _ := json.Marshal(map[string]any{
		"id":      "chatcmpl-providertest",
		"object":  "chat.completion",
		"created": 1727346178,
		"model":   req.Model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   u,
	})
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}
