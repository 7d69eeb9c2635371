package provider_test

import (
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider"
)

func TestRepairJSON(t *testing.T) {
	tests := []struct {
		in, want string // want "" means not repaired
	}{
		{`{"command":"ls",}`, `{"command":"ls"}`},
		{`{"items":[1,2,],}`, `{"items":[1,2]}`},
		{"{\"content\":\"line one\nline two\"}", `{"content":"line one\nline two"}`},
		{"{\"content\":\"a\tb\"}", `{"content":"a\tb"}`},
		{`{'path': 'main.go'}`, `{"path": "main.go"}`},
		{`{'text': 'say "hi"'}`, `{"text": "say \"hi\""}`},
		{`{'text': 'it\'s'}`, `{"text": "it's"}`},
		{`{"path":"a.go","line":3`, `{"path":"a.go","line":3}`},
		{`{"path":"a.go", `, ""},      // a value cut after a comma
		{`{"path":`, ""},              // cut after a colon
		{`{"content":"half a fi`, ""}, // a string cut off
		{`{"a":{"b":1`, ""},           // more than one closer missing
		{`{"a":[1,2`, ""},             // an array cut off
		{`{"a":1}}`, ""},              // a closer too many
		{`{"a":1}`, ""},               // valid already
		{`not json at all`, ""},       // nothing to mend
		{`{"a":1 "b":2}`, ""},         // a missing comma is not guessed
	}
	for _, tt := range tests {
		got, ok := provider.RepairJSON(tt.in)
		if ok != (tt.want != "") || got != tt.want {
			t.Errorf("RepairJSON(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
	}
}

func BenchmarkRepairJSON(b *testing.B) {
	small := "{'path': 'main.go', 'content': 'package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n',}"
	large := "{\"path\": \"big.go\", \"content\": \"" + strings.Repeat("\tx := f(a, b)\n", 4096) + "\",}"
	for _, in := range []struct{ name, text string }{{"small", small}, {"64KiB", large}} {
		b.Run(in.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(in.text)))
			for b.Loop() {
				if _, ok := provider.RepairJSON(in.text); !ok {
					b.Fatal("not repaired")
				}
			}
		})
	}
}
