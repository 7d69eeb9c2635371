package provider

import (
	"errors"
	"fmt"
	"strings"
)

// Effort is how hard a reasoning model should think: EffortDefault
// leaves it to the server, EffortOff asks for no thinking.
type Effort string

// The thinking levels of /think and reasoning_effort.
const (
	EffortDefault Effort = ""
	EffortOff     Effort = "off"
	EffortLow     Effort = "low"
	EffortMedium  Effort = "medium"
	EffortHigh    Effort = "high"
)

// ParseEffort reads a thinking level: off (or none), low, medium, high,
// any case; "" and "default" are EffortDefault.
func ParseEffort(s string) (Effort, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "default":
		return EffortDefault, nil
	case "off", "none":
		return EffortOff, nil
	case "low":
		return EffortLow, nil
	case "medium":
		return EffortMedium, nil
	case "high":
		return EffortHigh, nil
	}
	return "", fmt.Errorf("read thinking level %q: want off, low, medium or high", s)
}

// effortField maps a level to OpenAI's reasoning_effort ("none" for off).
func effortField(e Effort) map[string]any {
	switch e {
	case EffortDefault:
		return nil
	case EffortOff:
		return map[string]any{"reasoning_effort": "none"}
	}
	return map[string]any{"reasoning_effort": string(e)}
}

// deepseekEffort switches DeepSeek's thinking mode off, or sets its
// reasoning_effort.
func deepseekEffort(e Effort) map[string]any {
	if e == EffortOff {
		return map[string]any{"thinking": map[string]any{"type": "disabled"}}
	}
	return effortField(e)
}

// templateEffort maps a level for servers that render the model's chat
// template themselves (llama.cpp, vLLM): enable_thinking in
// chat_template_kwargs switches Qwen3-style templates, the level goes to
// gpt-oss-style ones as reasoning_effort, in the template's arguments or,
// with topLevel, as the request field the server reads.
func templateEffort(topLevel bool) func(Effort) map[string]any {
	return func(e Effort) map[string]any {
		if e == EffortDefault {
			return nil
		}
		kwargs := map[string]any{"enable_thinking": e != EffortOff}
		out := map[string]any{"chat_template_kwargs": kwargs}
		if e != EffortOff {
			if topLevel {
				out["reasoning_effort"] = string(e)
			} else {
				kwargs["reasoning_effort"] = string(e)
			}
		}
		return out
	}
}

// effortFields returns the request fields that ask for e on this server,
// nil when there are none or the server refused them before.
func (c *Client) effortFields(e Effort) map[string]any {
	if e == EffortDefault || c.noEffort.Load() || c.rule.effort == nil {
		return nil
	}
	return c.rule.effort(e)
}

// rejectsRequest reports whether err is a 400 for the request itself (not
// for its size): a server or model that does not take the thinking switch.
func rejectsRequest(err error) bool {
	var ae *APIError
	return errors.As(err, &ae) && ae.StatusCode == 400 && KindOf(err) == KindBadRequest
}

// dropEffort remembers that the server refused the thinking switch (a
// 400 that the same request without it did not get), says so once, and
// returns the fields to send instead (none).
func (c *Client) dropEffort(e Effort, err error, h Handler) map[string]any {
	if !c.noEffort.Swap(true) && h.OnNotice != nil {
		h.OnNotice(fmt.Sprintf("the server refused the thinking level %q (%v); tick no longer sends it to this server", e, err))
	}
	return nil
}
