package markdown

import (
	"os/exec"
	"strings"
	"testing"
)

// TestCodeBlocksHighlighted checks that fenced code keeps its syntax
// highlighting (glamour's, with chroma v2): each language gets several
// colours, and a fence naming no known language renders as plain code.
func TestCodeBlocksHighlighted(t *testing.T) {
	code := "package main\n\nimport \"fmt\"\n\n// main says hi\nfunc main() { x := \"s\"; if x != \"\" { fmt.Println(x, 42) } }\n"
	for _, lang := range []string{"go", "python", "rust", "typescript", "bash", "json", "sql", "c", "java", "ruby"} {
		t.Run(lang, func(t *testing.T) {
			if !NewPool().knownLang(lang) {
				t.Fatalf("%s is not a known language", lang)
			}
			out := strings.Join(Render("```"+lang+"\n"+code+"```\n", 100, Dark), "\n")
			if n := len(colours(out)); n < 3 {
				t.Errorf("%s code has %d colours, want syntax highlighting (3 or more):\n%q", lang, n, out)
			}
		})
	}
	if NewPool().knownLang("no-such-language") {
		t.Error("an unknown language is taken as known")
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

// TestChromaV2Linked checks that code is highlighted by the chroma go.mod
// names: chroma v2's lexers are linked from the module go.mod requires,
// not replaced by anything, and no other major version of chroma is
// linked beside it (tick once put chroma v0.10 behind a replace
// directive to save 11 ms of start-up; that broke go install).
func TestChromaV2Linked(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f",
		"{{.ImportPath}} {{with .Module}}{{.Path}} {{.Version}} {{.Replace}}{{end}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	var found bool
	var wrong []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || !strings.HasPrefix(f[0], "github.com/alecthomas/chroma") {
			continue
		}
		if len(f) != 4 || f[1] != "github.com/alecthomas/chroma/v2" || f[3] != "<nil>" {
			wrong = append(wrong, line)
		}
		found = found || f[0] == "github.com/alecthomas/chroma/v2/lexers"
	}
	if len(wrong) > 0 {
		t.Errorf("the build links %d chroma packages that are not chroma v2's from the module itself (package, module, version, replacement), e.g.:\n%s",
			len(wrong), strings.Join(wrong[:min(len(wrong), 3)], "\n"))
	}
	if !found {
		t.Error("the build does not link chroma v2's lexers (go list -deps)")
	}
}
