package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	tickcfg "github.com/tick-agent/tick/agent/config"
)

// actionlintModule is the linter of GitHub Actions workflows, run with go
// run at a fixed version.
const actionlintModule = "github.com/rhysd/actionlint/cmd/actionlint@v1.7.12"

// exampleWorkflow is the README's GitHub Actions example.
const exampleWorkflow = "../../../docs/examples/github-actions.yml"

// TestActionsExample keeps the README's GitHub Actions example working as
// written: the README holds the file verbatim, actionlint finds nothing
// in it, its tick command parses, and it has what a pipeline needs
// (persist-credentials: false, go mod download before tick, the
// commands' cache, if: always() on the steps after tick, --verify).
func TestActionsExample(t *testing.T) {
	raw, err := os.ReadFile(exampleWorkflow)
	if err != nil {
		t.Fatal(err)
	}
	example := string(raw)
	readme, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```yaml\n"+example+"```") {
		t.Error("README.md does not hold docs/examples/github-actions.yml verbatim")
	}
	for _, want := range []string{"persist-credentials: false", "go-version-file: go.mod", "run: go mod download", "~/.cache/tick/commands",
		"contents: read", "timeout-minutes:", "--verify ", "tick@v"} {
		if !strings.Contains(example, want) {
			t.Errorf("the example lacks %q", want)
		}
	}
	if strings.Index(example, "go mod download") > strings.Index(example, "tick -p") {
		t.Error("the example runs tick before go mod download")
	}
	after := example[strings.Index(example, "tick -p"):]
	if strings.Count(after, "- name:") != strings.Count(after, "if: always()") {
		t.Error("a step after tick lacks if: always(): a non-zero exit would skip it")
	}
	checkTickLine(t, example)
	abs, err := filepath.Abs(exampleWorkflow)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "run", actionlintModule, "-no-color", abs)
	cmd.Dir = t.TempDir() // outside tick's module: the linter's own go.mod decides
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("actionlint %s: %v\n%s", exampleWorkflow, err, out)
	}
}

// checkTickLine parses the example's tick command with tick's own flag
// parser.
func checkTickLine(t *testing.T, example string) {
	t.Helper()
	i := strings.Index(example, "run: tick ")
	if i < 0 {
		t.Fatal("the example runs no tick command")
	}
	line, _, _ := strings.Cut(example[i+len("run: tick "):], "\n")
	line, _, _ = strings.Cut(line, ">")
	if _, err := tickcfg.ParseArgs(shellWords(line)); err != nil {
		t.Errorf("the example's tick command %q does not parse: %v", line, err)
	}
}

// shellWords splits a simple shell command line: spaces, and double or
// single quotes around words.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	var quote rune
	in := false
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, in = r, true
		case r == ' ' || r == '\t':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words
}
