package mcp

import (
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestFixSchema(t *testing.T) {
	tests := []struct {
		name    string
		in      any
		want    string
		wantErr string
	}{
		{name: "missing", in: nil, want: `{"type":"object","properties":{}}`},
		{name: "no type", in: map[string]any{"properties": map[string]any{"a": map[string]any{"type": "string"}}}, want: `{"properties":{"a":{"type":"string"}},"type":"object"}`},
		{name: "no properties", in: map[string]any{"type": "object"}, want: `{"properties":{},"type":"object"}`},
		{name: "string type", in: map[string]any{"type": "string"}, wantErr: `type "string"`},
		{name: "array type", in: map[string]any{"type": []any{"object", "null"}}, wantErr: `is not "object"`},
		{name: "not an object", in: []any{1}, wantErr: "not a JSON object"},
		{name: "bad properties", in: map[string]any{"type": "object", "properties": 3}, wantErr: `"properties" is not an object`},
		{name: "too large", in: map[string]any{"type": "object", "description": strings.Repeat("x", schemaMax)}, wantErr: "too large"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := fixSchema(tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("fixSchema = %s, %v; want error %q", got, err, tc.wantErr)
				}
				return
			}
			if err != nil || string(got) != tc.want {
				t.Fatalf("fixSchema = %s, %v; want %s", got, err, tc.want)
			}
		})
	}
}

func TestSanitize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"echo", "echo"},
		{"get-sum", "get-sum"},
		{"a.b c/d", "a_b_c_d"},
		{"ünï", "_n_"},
		{"", "x"},
		{strings.Repeat("a", 100), strings.Repeat("a", 64)},
	}
	for _, tc := range tests {
		if got := sanitize(tc.in); got != tc.want {
			t.Errorf("sanitize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestLongNamesStayValid(t *testing.T) {
	s := newServer(Server{Name: strings.Repeat("s", 70)}, Options{}, func() {}, map[string]bool{})
	long := strings.Repeat("t", 80)
	s.setTools([]*sdk.Tool{{Name: "short"}, {Name: long + "1"}, {Name: long + "2"}})
	st := s.status()
	if len(st.Tools) != 2 || len(st.Skipped) != 1 || !strings.Contains(st.Skipped[0], "is taken") {
		t.Fatalf("status %+v: want two tools and the clash skipped", st)
	}
	for _, n := range st.Tools {
		if len(n) > nameMax || !strings.HasPrefix(n, "mcp__"+strings.Repeat("s", serverNameMax)+"__") {
			t.Errorf("tool name %q is not a valid prefixed name", n)
		}
	}
}

func TestCleanServerText(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{"plain\nline\ttab", 100, "plain\nline\ttab"},
		{"\x1b[31mred\x1b[0m\r", 100, "[31mred[0m"},
		{"bad \xff byte", 100, "bad \uFFFD byte"},
		{"héllo", 2, "h…"},
	}
	for _, tc := range tests {
		if got := clean(tc.in, tc.max); got != tc.want {
			t.Errorf("clean(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
	}
}

func TestTailBufferKeepsTheEnd(t *testing.T) {
	b := newTailBuffer(8)
	b.Write([]byte("0123456789"))
	b.Write([]byte("ab"))
	if got := b.String(); got != "…456789ab" {
		t.Fatalf("tail = %q", got)
	}
}

func TestReport(t *testing.T) {
	got := Report([]Status{
		{Name: "everything", State: Ready, Transport: "stdio", Target: "node index.js", Tools: []string{"mcp__everything__echo", "mcp__everything__add"}, Skipped: []string{"bad: its schema has type \"string\""}},
		{Name: "web", State: Failed, Transport: "http", Target: "http://127.0.0.1:1/mcp", Err: "connect: refused", Stderr: "line1\nline2\n", Project: true},
	})
	want := `everything · ready · stdio node index.js
  tools: mcp__everything__echo, mcp__everything__add
  left out: bad: its schema has type "string"

web (project) · failed · http http://127.0.0.1:1/mcp
  error: connect: refused
  stderr:
    line1
    line2`
	if got != want {
		t.Fatalf("Report =\n%s\nwant\n%s", got, want)
	}
	if got := Report(nil); got != "no MCP servers are configured" {
		t.Fatalf("Report(nil) = %q", got)
	}
}

// TestReportWrapsTools: a server's long tool names wrap at 80 columns,
// each further line indented under the first tool; a name longer than a
// line has one to itself.
func TestReportWrapsTools(t *testing.T) {
	long := "mcp__filesystem__" + strings.Repeat("x", 70)
	got := Report([]Status{{Name: "filesystem", State: Ready, Transport: "stdio", Target: "fs", Tools: []string{
		"mcp__filesystem__read_text_file", "mcp__filesystem__read_media_file", "mcp__filesystem__write_file",
		"mcp__filesystem__list_directory", long, "mcp__filesystem__move_file",
	}}})
	want := `filesystem · ready · stdio fs
  tools: mcp__filesystem__read_text_file, mcp__filesystem__read_media_file,
         mcp__filesystem__write_file, mcp__filesystem__list_directory,
         ` + long + `,
         mcp__filesystem__move_file`
	if got != want {
		t.Fatalf("Report =\n%s\nwant\n%s", got, want)
	}
	for _, l := range strings.Split(got, "\n") {
		if len(l) > 80 && !strings.Contains(l, long) {
			t.Errorf("line of %d columns: %q", len(l), l)
		}
	}
}
