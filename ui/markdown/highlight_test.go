package markdown

import (
	"os/exec"
	"strings"
	"testing"
)

// TestCodeBlocksHighlighted checks that fenced code keeps its syntax
// highlighting (chroma v0.10 through the chroma2 adapter, see go.mod):
// each language gets several colours, and a fence naming no known
// language renders as plain code.
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

// TestChromaV2NotLinked keeps chroma v2's lexer and style registries out
// of the build: they parse every embedded XML definition at start-up
// (~11 ms before tick's first frame). go.mod replaces chroma v2 by the
// adapter in ./chroma2.
func TestChromaV2NotLinked(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	var found bool
	for _, d := range deps {
		switch d {
		case "github.com/alecthomas/chroma/v2/lexers", "github.com/alecthomas/chroma/v2/formatters":
			t.Errorf("the build links %s", d)
		case "github.com/alecthomas/chroma/lexers":
			found = true
		}
	}
	if !found {
		t.Errorf("the build does not link chroma v0.10's lexers; deps:\n%s", out)
	}
}
