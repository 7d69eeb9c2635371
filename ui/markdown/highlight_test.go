package markdown

import (
	"os/exec"
	"strings"
	"testing"
)

// TestCodeBlocksHighlighted checks that fenced code keeps its syntax
// highlighting (tick's own lexers, on chroma's core): each language gets
// several colours, and a fence naming no language tick knows renders as
// plain code.
func TestCodeBlocksHighlighted(t *testing.T) {
	samples := map[string]string{
		"go":         "package main\n\nimport \"fmt\"\n\n// main says hi\nfunc main() { x := \"s\"; if x != \"\" { fmt.Println(x, 42) } }\n",
		"python":     "import os\n\n@cached\ndef f(x: int) -> str:\n    return f\"{x}\"  # hi\n",
		"rust":       "use std::io;\n\nfn main() {\n    let x: u32 = 42; // hi\n    println!(\"{}\", x);\n}\n",
		"typescript": "import { a } from \"./a\";\n\ninterface P { n: number }\nconst f = (p: P): string => `${p.n}`; // hi\n",
		"javascript": "const x = require('x');\nfunction f(a) { return a + 1; } // hi\n",
		"bash":       "#!/bin/sh\nif [ -f \"$X\" ]; then\n  echo \"ok\" # hi\nfi\n",
		"console":    "$ echo \"$HOME\" # hi\n/home/x\n",
		"json":       "{\"name\": \"tick\", \"n\": 42, \"ok\": true}\n",
		"yaml":       "name: tick # hi\nlist:\n  - 42\n  - true\n",
		"toml":       "[server]\nport = 8080 # hi\nname = \"tick\"\n",
		"sql":        "SELECT name, count(*) FROM users WHERE id = 42; -- hi\n",
		"c":          "#include <stdio.h>\n\nint main(void) { printf(\"%d\\n\", 42); return 0; } // hi\n",
		"cpp":        "#include <vector>\n\nint main() { std::vector<int> v{42}; return 0; } // hi\n",
		"java":       "package a;\n\npublic class A { @Override public String f() { return \"s\" + 42; } } // hi\n",
		"html":       "<!-- hi -->\n<div class=\"a\">x &amp; y</div>\n",
		"css":        "/* hi */\n.a > p { color: #fff; margin: 4px; }\n",
		"diff":       "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n",
		"dockerfile": "FROM golang:1.26 AS build\n# hi\nRUN go build -o /x .\n",
		"makefile":   "all: build # hi\n\nbuild:\n\tgo build $(FLAGS) ./...\n",
		"ruby":       "require 'x'\n\ndef f(a) # hi\n  puts \"s\" + 42.to_s\nend\n",
	}
	for lang, code := range samples {
		t.Run(lang, func(t *testing.T) {
			if !knownLang(lang) {
				t.Fatalf("%s is not a known language", lang)
			}
			out := strings.Join(Render("```"+lang+"\n"+code+"```\n", 100, Dark), "\n")
			if n := len(colours(out)); n < 3 {
				t.Errorf("%s code has %d colours, want syntax highlighting (3 or more):\n%q", lang, n, out)
			}
		})
	}
	if knownLang("no-such-language") {
		t.Error("an unknown language is taken as known")
	}
	plain := strings.Join(Render("```no-such-language\nfunc main() { return 42 }\n```\n", 100, Dark), "\n")
	if n := len(colours(plain)); n != 1 {
		t.Errorf("code in an unknown language has %d colours, want 1 (the text colour):\n%q", n, plain)
	}
}

// colours returns the distinct SGR sequences in s.
func colours(s string) map[string]bool {
	n := map[string]bool{}
	for _, p := range strings.Split(s, "\x1b[")[1:] {
		if sgr, _, ok := strings.Cut(p, "m"); ok && sgr != "0" && sgr != "" {
			n[sgr] = true
		}
	}
	return n
}

// TestRendererDependencies: tick renders Markdown without glamour, and
// the packages whose initialisers cost milliseconds at every start
// (chroma's lexer and style registries, its quick package, bluemonday's
// HTML sanitiser) are not linked at all; chroma's core is linked from the
// module go.mod requires, not replaced, and no other major version of
// chroma beside it (tick once put chroma v0.10 behind a replace directive
// to save start-up time; that broke go install).
func TestRendererDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f",
		"{{.ImportPath}} {{with .Module}}{{.Path}} {{.Version}} {{.Replace}}{{end}}", "github.com/tick-agent/tick").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	banned := []string{
		"charm.land/glamour",
		"github.com/alecthomas/chroma/v2/lexers",
		"github.com/alecthomas/chroma/v2/styles",
		"github.com/alecthomas/chroma/v2/quick",
		"github.com/alecthomas/chroma/v2/formatters",
		"github.com/microcosm-cc/bluemonday",
		"github.com/gorilla/css",
	}
	var core bool
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		for _, b := range banned {
			if f[0] == b || strings.HasPrefix(f[0], b+"/") {
				t.Errorf("tick links %s", f[0])
			}
		}
		if strings.HasPrefix(f[0], "github.com/alecthomas/chroma") {
			if len(f) != 4 || f[1] != "github.com/alecthomas/chroma/v2" || f[3] != "<nil>" {
				t.Errorf("tick links %q, not chroma v2's core from the module itself", line)
			}
			core = core || f[0] == "github.com/alecthomas/chroma/v2"
		}
	}
	if !core {
		t.Error("tick does not link chroma v2's core (go list -deps): code would not be highlighted")
	}
}
