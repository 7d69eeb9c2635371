package provider

import (
	"encoding/json"

	openai "github.com/sashabaranov/go-openai"
)

// emptySchema is sent for a tool without parameters.
var emptySchema = json.RawMessage(`{"type":"object","properties":{}}`)

// unnamedTool is sent as the name of a call the model made without one:
// the field is required, and the agent answers such calls with an error.
const unnamedTool = "unnamed_tool"

// noOutput replaces an empty tool result: servers require content.
const noOutput = "(no output)"

// chatRequest converts req to go-openai's request type. It keeps the
// request valid for strict servers: tool-call arguments are never empty
// (an empty string becomes "{}"), a call without a name is sent as
// "unnamed_tool", an empty tool result becomes
// "(no output)", and an assistant message with neither text nor tool calls
// is left out. Reasoning goes back in the field the server reads (the
// table in servers.go) unless OmitReasoning is set. Usage is asked for with stream_options unless the
// server refused that parameter before. Images go as placeholders that
// the returned imageRefs fill in (see imageurls.go).
func (c *Client) chatRequest(req Request) (openai.ChatCompletionRequest, imageRefs) {
	var refs imageRefs
	model := req.Model
	if model == "" {
		model = c.cfg.Model
	}
	out := openai.ChatCompletionRequest{
		Model:         model,
		Stream:        true,
		StreamOptions: &openai.StreamOptions{IncludeUsage: true},
	}
	if c.noStreamOptions.Load() {
		out.StreamOptions = nil
	}
	for _, m := range req.Messages {
		om := openai.ChatCompletionMessage{Role: string(m.Role), Content: m.Content, ToolCallID: m.ToolCallID}
		switch m.Role {
		case RoleAssistant:
			if m.Content == "" && len(m.ToolCalls) == 0 {
				continue
			}
			if !c.cfg.OmitReasoning && (len(c.rule.reasoning) > 0) {
				om.ReasoningContent = m.Reasoning // renamed for the server by rewriteBody
			}
			for _, tc := range m.ToolCalls {
				args, name := tc.Arguments, tc.Name
				if args == "" {
					args = "{}"
				}
				if name == "" {
					name = unnamedTool
				}
				om.ToolCalls = append(om.ToolCalls, openai.ToolCall{
					ID:       tc.ID,
					Type:     openai.ToolTypeFunction,
					Function: openai.FunctionCall{Name: name, Arguments: args},
				})
			}
		case RoleTool:
			if om.Content == "" {
				om.Content = noOutput
			}
		case RoleUser:
			c.withImages(&om, m.Images, &refs)
		}
		out.Messages = append(out.Messages, om)
	}
	for _, t := range req.Tools {
		params := t.Parameters
		if len(params) == 0 || string(params) == "null" {
			params = emptySchema
		}
		out.Tools = append(out.Tools, openai.Tool{
			Type: openai.ToolTypeFunction,
			Function: &openai.FunctionDefinition{
				Name:        t.Name,
				Description: t.Description,
				Parameters:  params,
			},
		})
	}
	return out, refs
}
