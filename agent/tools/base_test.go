package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestBaseSpecs(t *testing.T) {
	ws, _ := newTestWorkspace(t)
	tools := Base(ws, Options{})
	wantNames := []string{"bash", "read_file", "write_file", "edit_file", "web_fetch"}
	wantApprovable := map[string]bool{"bash": true, "write_file": true, "edit_file": true, "web_fetch": true}
	if len(tools) != len(wantNames) {
		t.Fatalf("Base returned %d tools, want %d", len(tools), len(wantNames))
	}
	for i, tool := range tools {
		spec := tool.Spec()
		t.Run(spec.Name, func(t *testing.T) {
			if spec.Name != wantNames[i] {
				t.Errorf("tool %d is %q, want %q", i, spec.Name, wantNames[i])
			}
			if len(strings.TrimSpace(spec.Description)) < 100 {
				t.Errorf("description is too short: %q", spec.Description)
			}
			var schema struct {
				Type       string                     `json:"type"`
				Properties map[string]json.RawMessage `json:"properties"`
				Required   []string                   `json:"required"`
				Additional *bool                      `json:"additionalProperties"`
			}
			if err := json.Unmarshal(spec.Parameters, &schema); err != nil {
				t.Fatalf("schema is not JSON: %v", err)
			}
			if schema.Type != "object" || len(schema.Properties) == 0 || len(schema.Required) == 0 ||
				schema.Additional == nil || *schema.Additional {
				t.Errorf("schema is not a closed object with properties and required fields: %s", spec.Parameters)
			}
			for _, r := range schema.Required {
				if _, ok := schema.Properties[r]; !ok {
					t.Errorf("required %q is not a property", r)
				}
			}
			for name, raw := range schema.Properties {
				var p struct{ Type, Description string }
				if err := json.Unmarshal(raw, &p); err != nil || p.Type == "" || p.Description == "" {
					t.Errorf("property %q lacks a type or description: %s", name, raw)
				}
			}
			if _, ok := tool.(Approvable); ok != wantApprovable[spec.Name] {
				t.Errorf("Approvable = %v, want %v", ok, wantApprovable[spec.Name])
			}
		})
	}
}

func TestMalformedArgsEveryTool(t *testing.T) {
	ws, _ := newTestWorkspace(t)
	inputs := []string{`{`, `not json`, `[1,2]`, `"a string"`, `42`, `{}`, `null`}
	for _, tool := range Base(ws, Options{}) {
		name := tool.Spec().Name
		for _, in := range inputs {
			t.Run(name+" "+in, func(t *testing.T) {
				got, err := run(t, tool, in)
				var ae *ArgError
				if !errors.As(err, &ae) {
					t.Fatalf("Run(%s) = %q, %v; want an *ArgError", in, got, err)
				}
				msg := err.Error()
				if !strings.HasPrefix(msg, "invalid arguments for "+name+": ") || !strings.Contains(msg, "; expected {") {
					t.Errorf("error %q does not name the tool and the expected shape", msg)
				}
			})
		}
	}
}

func TestOptionsDefaults(t *testing.T) {
	tests := []struct {
		in, want Options
	}{
		{Options{}, Options{BashTimeout: DefaultBashTimeout, BashMaxTimeout: DefaultBashMaxTimeout, OutputCap: DefaultOutputCap}},
		{Options{BashTimeout: 5e9, BashMaxTimeout: 1e9, OutputCap: 10}, Options{BashTimeout: 1e9, BashMaxTimeout: 1e9, OutputCap: 10}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.in), func(t *testing.T) {
			got := tt.in.withDefaults()
			if got.Env == nil {
				t.Errorf("withDefaults() left Env nil, want the scrubbed environment")
			}
			got.Env = nil
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("withDefaults() = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestSummary(t *testing.T) {
	long := strings.Repeat("x", 300)
	tests := []struct{ name, tool, args, want string }{
		{"bash", "bash", `{"command":"go test ./..."}`, "go test ./..."},
		{"bash multi-line", "bash", `{"command":"cd x\nmake"}`, "cd x …"},
		{"bash long", "bash", `{"command":"` + long + `"}`, strings.Repeat("x", 120) + " …"},
		{"read_file", "read_file", `{"path":"main.go","offset":3}`, "main.go"},
		{"write_file", "write_file", `{"path":"a/b.txt","content":"..."}`, "a/b.txt"},
		{"edit_file", "edit_file", `{"path":"x.go","old_string":"a","new_string":"b"}`, "x.go"},
		{"unknown with a description", "spawn", `{"description":"Find the tests","prompt":"..."}`, "Find the tests"},
		{"unknown with a goal", "plan", `{"goal":"Ship it","items":[]}`, "Ship it"},
		{"unknown with items only", "plan", `{"items":[]}`, ""},
		{"unknown with a path", "grep", `{"pattern":"TODO","path":"src"}`, "src"},
		{"unknown without keys", "mystery", `{"n":1}`, ""},
		{"missing key", "bash", `{}`, ""},
		{"wrong type", "bash", `{"command":5}`, ""},
		{"malformed", "bash", "{\"command\": \"ls\n  -la", `{"command": "ls -la`},
		{"malformed long", "bash", `{"command": "` + long, `{"command": "` + strings.Repeat("x", 60-13) + " …"},
		{"empty", "bash", ``, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Summary(tt.tool, json.RawMessage(tt.args)); got != tt.want {
				t.Errorf("Summary(%q, %q) = %q, want %q", tt.tool, tt.args, got, tt.want)
			}
		})
	}
}

func ExampleWorkspace_Resolve() {
	dir, err := os.MkdirTemp("", "tick-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	ws, err := NewWorkspace(dir)
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range []string{"src/main.go", "src/../README.md", "../elsewhere", "/etc/passwd"} {
		abs, err := ws.Resolve(p)
		var outside *OutsideError
		switch {
		case errors.As(err, &outside):
			fmt.Printf("%s: refused, outside the workspace\n", p)
		case err != nil:
			fmt.Printf("%s: %v\n", p, err)
		default:
			rel, _ := filepath.Rel(ws.Root(), abs)
			fmt.Printf("%s: %s\n", p, rel)
		}
	}
	// Output:
	// src/main.go: src/main.go
	// src/../README.md: README.md
	// ../elsewhere: refused, outside the workspace
	// /etc/passwd: refused, outside the workspace
}
