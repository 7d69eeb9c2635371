package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tick-agent/tick/provider"
)

// Limits on what a server sends, so that a server cannot fill memory or the
// model's context.
const (
	nameMax        = 64       // the API's limit on a tool name
	serverNameMax  = 24       // the server's part of a tool name
	descriptionMax = 4 << 10  // a tool's description, in bytes
	schemaMax      = 64 << 10 // a tool's JSON schema, in bytes
	resultMax      = 64 << 10 // a call's result text, in bytes
	stderrMax      = 8 << 10  // the kept tail of a server's stderr
)

// tool is one MCP tool offered to the model. It implements tools.Tool and
// tools.Approvable: every call goes through the approval flow.
type tool struct {
	srv    *server
	remote string // the tool's name on the server
	about  string // the first lines of its description, for the approval dialog
	spec   provider.ToolSpec
}

// Spec returns the name, description and schema offered to the model.
func (t *tool) Spec() provider.ToolSpec { return t.spec }

// Preview describes the call for the approval dialog: the server, the
// tool, the first lines of its description (what the tool says it does)
// and its arguments.
func (t *tool) Preview(args json.RawMessage) (summary, detail string, err error) {
	if _, err := objectArgs(args); err != nil {
		return "", "", err
	}
	var pretty bytes.Buffer
	if json.Indent(&pretty, args, "", "  ") != nil {
		pretty.Reset()
		pretty.Write(args)
	}
	detail = clean(pretty.String(), resultMax)
	if t.about != "" {
		detail = t.about + "\n\narguments:\n" + detail
	}
	return fmt.Sprintf("MCP %s: %s", t.srv.cfg.Name, clean(t.remote, 100)), detail, nil
}

// Bounds of the description the approval dialog shows.
const (
	aboutLines   = 3   // its first non-blank lines
	aboutLineMax = 200 // bytes of each
)

// firstLines returns the first aboutLines non-blank lines of a tool's
// description, each cut to aboutLineMax bytes, with "…" when more
// follows; control characters are dropped (see clean).
func firstLines(desc string) string {
	var out []string
	more := false
	for _, l := range strings.Split(clean(desc, descriptionMax), "\n") {
		l = strings.TrimSpace(strings.ReplaceAll(l, "\t", " "))
		if l == "" {
			continue
		}
		if len(out) == aboutLines {
			more = true
			break
		}
		out = append(out, clean(l, aboutLineMax))
	}
	if more {
		out = append(out, "…")
	}
	return strings.Join(out, "\n")
}

// Run calls the tool on its server with a per-call timeout and returns the
// result's content as text. An error result, a crashed or hung server come
// back as errors the model can read.
func (t *tool) Run(ctx context.Context, args json.RawMessage) (string, error) {
	session, err := t.srv.live()
	if err != nil {
		return "", err
	}
	m, err := objectArgs(args)
	if err != nil {
		return "", err
	}
	cctx, cancel := context.WithTimeout(ctx, t.srv.cfg.Timeout)
	defer cancel()
	res, err := session.CallTool(cctx, &sdk.CallToolParams{Name: t.remote, Arguments: m})
	switch {
	case ctx.Err() != nil:
		return "", ctx.Err()
	case errors.Is(cctx.Err(), context.DeadlineExceeded):
		return "", fmt.Errorf("MCP server %s did not answer %s within %s; the call was abandoned", t.srv.cfg.Name, t.remote, t.srv.cfg.Timeout)
	case err != nil:
		return "", fmt.Errorf("MCP server %s failed to run %s: %s", t.srv.cfg.Name, t.remote, clean(err.Error(), 2000))
	}
	text := resultText(res)
	if res.IsError {
		if text == "" {
			text = "the tool reported an error without a message"
		}
		return "", fmt.Errorf("%s (from MCP server %s)", text, t.srv.cfg.Name)
	}
	return text, nil
}

// objectArgs decodes the model's arguments, which must be a JSON object.
func objectArgs(args json.RawMessage) (map[string]any, error) {
	if len(strings.TrimSpace(string(args))) == 0 {
		return map[string]any{}, nil
	}
	var m map[string]any
	if err := json.Unmarshal(args, &m); err != nil {
		return nil, fmt.Errorf("the arguments must be one JSON object matching the tool's schema: %w", err)
	}
	if m == nil {
		m = map[string]any{}
	}
	return m, nil
}

// resultText renders a call's content as text for the model: text as is,
// images, audio and binary resources as a one-line note, structured content
// as JSON when there is nothing else. It is bounded to resultMax bytes.
func resultText(res *sdk.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		parts = append(parts, contentText(c))
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			parts = append(parts, string(b))
		}
	}
	text := strings.Join(parts, "\n")
	if len(text) > resultMax {
		text = text[:resultMax] + fmt.Sprintf("\n[result cut at %d KB of %d KB]", resultMax>>10, len(text)>>10)
	}
	return text
}

// contentText renders one content block.
func contentText(c sdk.Content) string {
	switch c := c.(type) {
	case *sdk.TextContent:
		return c.Text
	case *sdk.ImageContent:
		return fmt.Sprintf("[image %s, %d bytes: not shown, tick passes only text to the model]", c.MIMEType, len(c.Data))
	case *sdk.AudioContent:
		return fmt.Sprintf("[audio %s, %d bytes: not shown, tick passes only text to the model]", c.MIMEType, len(c.Data))
	case *sdk.ResourceLink:
		return fmt.Sprintf("[resource link %s: %s]", c.Name, c.URI)
	case *sdk.EmbeddedResource:
		r := c.Resource
		if r == nil {
			return "[empty resource]"
		}
		if r.Text != "" {
			return fmt.Sprintf("[resource %s]\n%s", r.URI, r.Text)
		}
		return fmt.Sprintf("[resource %s, %s, %d bytes: binary, not shown]", r.URI, r.MIMEType, len(r.Blob))
	default:
		return fmt.Sprintf("[%T content: not shown]", c)
	}
}

// setTools turns the server's tool list into agent tools, fixing or leaving
// out the ones the API would reject.
func (s *server) setTools(list []*sdk.Tool) {
	var ts []*tool
	var skipped []string
	names := map[string]bool{}
	for _, rt := range list {
		if rt == nil {
			continue
		}
		name := s.prefix + sanitize(rt.Name)
		if len(name) > nameMax {
			name = name[:nameMax]
		}
		schema, err := fixSchema(rt.InputSchema)
		if err == nil && names[name] {
			err = fmt.Errorf("its name %s is taken by another tool", name)
		}
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("%s: %v", clean(rt.Name, 100), err))
			continue
		}
		names[name] = true
		desc := clean(rt.Description, descriptionMax)
		if desc == "" {
			desc = rt.Title
		}
		desc = strings.TrimSpace(desc + fmt.Sprintf("\n\n(Tool %q of the MCP server %q.)", clean(rt.Name, 100), s.cfg.Name))
		about := firstLines(rt.Description)
		if about == "" {
			about = firstLines(rt.Title)
		}
		ts = append(ts, &tool{srv: s, remote: rt.Name, about: about, spec: provider.ToolSpec{Name: name, Description: desc, Parameters: schema}})
	}
	s.mu.Lock()
	s.tools, s.skipped = ts, skipped
	for _, sk := range skipped {
		s.skipNotes = append(s.skipNotes, fmt.Sprintf("MCP server %s: tool %s, left out", s.cfg.Name, sk))
	}
	s.mu.Unlock()
}

// fixSchema returns the tool's input schema as the API accepts it: a JSON
// object schema of type "object" with properties. A missing schema becomes
// an empty object schema; anything else is an error.
func fixSchema(in any) (json.RawMessage, error) {
	if in == nil {
		return json.RawMessage(`{"type":"object","properties":{}}`), nil
	}
	raw, err := json.Marshal(in)
	if err != nil {
		return nil, fmt.Errorf("its schema is not JSON: %w", err)
	}
	if len(raw) > schemaMax {
		return nil, fmt.Errorf("its schema is too large (%d KB, at most %d KB)", len(raw)>>10, schemaMax>>10)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, errors.New("its schema is not a JSON object")
	}
	switch typ := m["type"].(type) {
	case nil:
		m["type"] = "object"
	case string:
		if typ != "object" {
			return nil, fmt.Errorf("its schema has type %q; tools take an object", typ)
		}
	default:
		return nil, errors.New(`its schema's "type" is not "object"`)
	}
	if p, ok := m["properties"]; !ok || p == nil {
		m["properties"] = map[string]any{}
	} else if _, ok := p.(map[string]any); !ok {
		return nil, errors.New(`its schema's "properties" is not an object`)
	}
	out, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("its schema is not JSON: %w", err)
	}
	return out, nil
}

// sanitize maps s onto the API's tool-name alphabet [a-zA-Z0-9_-]; an
// empty result becomes "x".
func sanitize(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
		if b.Len() >= nameMax {
			break
		}
	}
	if b.Len() == 0 {
		return "x"
	}
	return b.String()
}

// clean makes server text safe to show and keep: control characters other
// than newline and tab are dropped, invalid UTF-8 replaced, and the text
// cut to max bytes.
func clean(s string, max int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return r
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return -1
		}
		return r
	}, s)
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8Start(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// utf8Start reports whether b starts a UTF-8 sequence.
func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
