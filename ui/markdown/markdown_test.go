package markdown_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tick-agent/tick/ui/markdown"
)

// sampleDoc is a ~1 KB answer using every construct the splitter cares
// about: headings, paragraphs, tight and loose lists with continuations, code
// fences with blank lines inside (backtick, tilde, indented in a list), a
// table, a quote, inline triple backticks, wide characters, a tab, and an
// unclosed fence at the end.
const sampleDoc = "# Plan for `tick`\n" +
	"\n" +
	"Here is what I will do. The **engine** streams text; the *TUI* shows it.\n" +
	"Links like [the docs](https://example.com/docs) stay readable.\n" +
	"\n" +
	"- tight item one\n" +
	"- tight item two with `code`\n" +
	"\n" +
	"1. First step:\n" +
	"\n" +
	"   ```sh\n" +
	"   go test ./...\n" +
	"\n" +
	"   go vet ./...\n" +
	"   ```\n" +
	"\n" +
	"2. Second step, with a continuation:\n" +
	"\n" +
	"   More about the second step.\n" +
	"\n" +
	"```go\n" +
	"func main() {\n" +
	"\tfmt.Println(\"hello, 世界\")\n" +
	"\n" +
	"\treturn\n" +
	"}\n" +
	"```\n" +
	"| Name | Value |\n" +
	"|------|-------|\n" +
	"| width | 80 |\n" +
	"| style | dark |\n" +
	"\n" +
	"> A quote that is long enough to wrap around when the pane is narrow.\n" +
	"\n" +
	"~~~\n" +
	"```not a closer\n" +
	"\n" +
	"~~~\n" +
	"Use ```inline``` sparingly. 日本語のテキストも折り返す。\n" +
	"\n" +
	"---\n" +
	"\n" +
	"## Last\n" +
	"\n" +
	"A final paragraph that runs on for a while so that it wraps over several lines at sixty\n" +
	"columns, with a soft line break in the middle and ~~struck~~ words, then a nested list:\n" +
	"\n" +
	"- outer\n" +
	"  - inner one\n" +
	"  - inner two\n" +
	"\n" +
	"  - loose inner\n" +
	"\n" +
	"Trailing paragraph before the last fence.\n" +
	"\n" +
	"### Notes 🚀\n" +
	"Short *closing* remark with a [link](https://example.com/x).\n" +
	"\n" +
	"\n" +
	"```python\n" +
	"print('never closed')\n"

func diffLines(t *testing.T, got, want []string) {
	t.Helper()
	if slices.Equal(got, want) {
		return
	}
	for i := 0; i < max(len(got), len(want)); i++ {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			t.Fatalf("line %d differs (got %d lines, want %d):\n got %q\nwant %q", i, len(got), len(want), g, w)
		}
	}
}

// TestSplitAnywhereSameResult: however the document is cut into deltas, the
// final lines equal those of the whole document appended at once. Every
// split point is tried with the colourless NoTTY style (same
// rendering without syntax highlighting, so it is fast); Dark, with
// highlighting, tries every 11th point.
func TestSplitAnywhereSameResult(t *testing.T) {
	if len(sampleDoc) < 1000 {
		t.Fatalf("sample doc is only %d bytes", len(sampleDoc))
	}
	docs := []struct {
		name string
		doc  string
	}{
		{"LF", sampleDoc},
		{"CRLF", strings.ReplaceAll(sampleDoc, "\n", "\r\n")},
	}
	const width = 60
	for _, style := range []struct {
		style  markdown.Style
		stride int
	}{{markdown.NoTTY, 1}, {markdown.Dark, 11}} {
		t.Run(string(style.style), func(t *testing.T) {
			t.Parallel()
			newR := func(pool *markdown.Pool) *markdown.Renderer {
				return markdown.New(markdown.WithWidth(width), markdown.WithPool(pool), markdown.WithStyle(style.style))
			}
			whole := newR(nil)
			whole.Append(sampleDoc)
			whole.Finish()
			want := whole.Lines()
			if len(want) < 40 {
				t.Fatalf("whole document rendered to only %d lines", len(want))
			}
			for _, d := range docs {
				t.Run(d.name, func(t *testing.T) {
					t.Parallel()
					pool := markdown.NewPool() // one per goroutine: a pool serialises use of each renderer
					for i := 1; i < len(d.doc); i += style.stride {
						t.Run(fmt.Sprint(i), func(t *testing.T) {
							r := newR(pool)
							r.Append(d.doc[:i])
							r.Lines() // render what is finished so far, as a repaint would
							r.Append(d.doc[i:])
							r.Finish()
							diffLines(t, r.Lines(), want)
						})
					}
				})
			}
			t.Run("random small deltas with repaints", func(t *testing.T) {
				for seed := range uint64(3) {
					rng := rand.New(rand.NewPCG(seed, 42))
					r := newR(nil)
					for rest := sampleDoc; rest != ""; {
						n := min(len(rest), 1+rng.IntN(7))
						r.Append(rest[:n])
						rest = rest[n:]
						if rng.IntN(3) == 0 {
							r.Lines()
						}
					}
					r.Finish()
					diffLines(t, r.Lines(), want)
					if r.Text() != sampleDoc {
						t.Fatalf("seed %d: Text() differs from the input", seed)
					}
				}
			})
		})
	}
}

func TestTailIsPlainWhileFenceOpen(t *testing.T) {
	r := markdown.New(markdown.WithWidth(40))
	r.Append("Intro **paragraph**.\n\n```go\nfunc main() {\n\tx := 1")
	lines := r.Lines()
	if len(lines) != 5 {
		t.Fatalf("got %d lines %q, want rendered intro, blank, 3 plain tail lines", len(lines), lines)
	}
	if !strings.Contains(lines[0], "\x1b[") || ansi.Strip(lines[0]) != "  Intro paragraph." {
		t.Errorf("intro = %q, want it rendered (styled) as Markdown", lines[0])
	}
	wantTail := []string{"  ```go", "  func main() {", "      x := 1"}
	if got := lines[2:]; !slices.Equal(got, wantTail) {
		t.Errorf("tail = %q, want plain %q", got, wantTail)
	}
	// A blank line inside the open fence does not finish anything.
	r.Append("\n\n\ty := 2\n")
	if got := r.BlockSources(); len(got) != 1 {
		t.Errorf("blocks = %q, want only the intro while the fence is open", got)
	}
	r.Append("}\n```\n")
	lines = r.Lines()
	if got := r.TailText(); got != "" {
		t.Errorf("tail = %q after the fence closed, want empty", got)
	}
	for _, l := range lines {
		if strings.Contains(ansi.Strip(l), "```") {
			t.Errorf("line %q still shows the fence after it closed", l)
		}
	}
	if !slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(ansi.Strip(l), "x := 1") }) {
		t.Errorf("code missing from rendered lines %q", lines)
	}
}

func TestTailIndentedLikeRenderedText(t *testing.T) {
	// The plain tail starts in the column where rendered text sits, so a
	// paragraph does not shift sideways when its block finishes.
	r := markdown.New(markdown.WithWidth(40))
	r.Append("A short paragraph.")
	plain := r.Lines()
	r.Append("\n\n")
	rendered := r.Lines()
	if len(plain) != 1 || len(rendered) != 1 {
		t.Fatalf("plain %q, rendered %q: want one line each", plain, rendered)
	}
	if got, want := ansi.Strip(rendered[0]), plain[0]; got != want {
		t.Errorf("rendered %q, plain tail %q: want the same text in the same columns", got, want)
	}
}

func TestCaching(t *testing.T) {
	r := markdown.New(markdown.WithWidth(50))
	r.Append("First paragraph.\n\nSecond paragraph.\n\n")
	if n := r.RenderCount(); n != 0 {
		t.Fatalf("Append rendered %d blocks, want 0 (rendering is lazy)", n)
	}
	first := r.Lines()
	if n := r.RenderCount(); n != 2 {
		t.Fatalf("after Lines: %d renders, want 2", n)
	}
	again := r.Lines()
	if &first[0] != &again[0] || len(first) != len(again) {
		t.Error("second Lines without changes did not return the cached slice")
	}

	t.Run("tail growth renders nothing", func(t *testing.T) {
		for _, d := range strings.SplitAfter("The tail keeps growing word by word without a blank line", " ") {
			r.Append(d)
			r.Lines()
		}
		if n := r.RenderCount(); n != 2 {
			t.Errorf("%d renders after tail deltas, want still 2", n)
		}
		if got := r.Lines(); !slices.Equal(got[:len(first)], first) {
			t.Error("finished lines changed while only the tail grew")
		}
		if &first[0] == &r.Lines()[0] {
			t.Error("Lines reused the returned slice's array for new content")
		}
	})

	t.Run("finishing the tail renders one block", func(t *testing.T) {
		r.Finish()
		r.Lines()
		if n := r.RenderCount(); n != 3 {
			t.Errorf("%d renders after Finish, want 3", n)
		}
	})

	t.Run("SetWidth re-renders once, lazily", func(t *testing.T) {
		r.SetWidth(70)
		if n := r.RenderCount(); n != 3 {
			t.Errorf("SetWidth rendered eagerly: %d renders", n)
		}
		r.Lines()
		r.Lines()
		if n := r.RenderCount(); n != 6 {
			t.Errorf("%d renders after SetWidth+Lines twice, want 6", n)
		}
		r.SetWidth(50) // back to a cached width
		if got := r.Lines(); r.RenderCount() != 6 || len(got) != len(r.Lines()) {
			t.Errorf("%d renders after returning to width 50, want 6 (cached)", r.RenderCount())
		}
		r.SetWidth(30)
		r.Lines()
		if n := r.RenderCount(); n != 9 {
			t.Errorf("%d renders after a third width, want 9", n)
		}
	})

	t.Run("first result is unchanged", func(t *testing.T) {
		want := markdown.New(markdown.WithWidth(50))
		want.Append("First paragraph.\n\nSecond paragraph.\n\n")
		diffLines(t, first, want.Lines())
	})
}

func TestPoolSharing(t *testing.T) {
	pool := markdown.NewPoolSize(2)
	for i := range 5 {
		r := markdown.New(markdown.WithWidth(40), markdown.WithPool(pool))
		r.Append(fmt.Sprintf("Message %d.\n\n**bold**", i))
		r.Finish()
		r.Lines()
	}
	if n := pool.Built(); n != 1 {
		t.Errorf("5 messages at one width built %d renderers, want 1", n)
	}
	for _, w := range []int{50, 40, 60, 50} { // 40 is used, 60 evicts 50, 50 is built again
		markdown.New(markdown.WithWidth(w), markdown.WithPool(pool)).Lines()
		r := markdown.New(markdown.WithWidth(w), markdown.WithPool(pool))
		r.Append("x")
		r.Finish()
		r.Lines()
	}
	if n := pool.Built(); n != 4 {
		t.Errorf("built %d renderers, want 4 (LRU of size 2)", n)
	}
}

func TestWidths(t *testing.T) {
	pool := markdown.NewPool()
	long := sampleDoc + "\n```\n" + strings.Repeat("x", 200) + "\n```\n\n" + strings.Repeat("長い", 60) + "\n\n" +
		strings.Repeat("word ", 50) + "\n\n| a | b | c | d | e | f | g | h |\n|---|---|---|---|---|---|---|---|\n| 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 |\n"
	for _, w := range []int{-5, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 20, 33, 80, 200} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			limit := max(w, 1)
			check := func(stage string, lines []string) {
				t.Helper()
				if len(lines) == 0 {
					t.Fatalf("%s: no lines", stage)
				}
				for i, l := range lines {
					if got := ansi.StringWidth(l); got > limit {
						t.Fatalf("%s: line %d is %d cells wide, limit %d: %q", stage, i, got, limit, l)
					}
				}
			}
			r := markdown.New(markdown.WithWidth(w), markdown.WithPool(pool))
			for rest := long; rest != ""; {
				n := min(len(rest), 97)
				r.Append(rest[:n])
				rest = rest[n:]
				check("streaming", r.Lines())
			}
			r.Finish()
			check("finished", r.Lines())
			if r.Width() != limit {
				t.Errorf("Width() = %d, want %d", r.Width(), limit)
			}
		})
	}
}

func TestEmptyInput(t *testing.T) {
	tests := []struct {
		name   string
		deltas []string
		finish bool
	}{
		{name: "nothing"},
		{name: "nothing finished", finish: true},
		{name: "empty deltas", deltas: []string{"", "", ""}, finish: true},
		{name: "blank lines only", deltas: []string{"\n", "  \n\t\n", "\r\n"}, finish: true},
		{name: "blank lines streaming", deltas: []string{"\n\n"}},
		{name: "invisible block", deltas: []string{"<!-- a comment -->\n\n"}, finish: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := markdown.New()
			for _, d := range tt.deltas {
				r.Append(d)
			}
			if tt.finish {
				r.Finish()
			}
			if got := r.Lines(); len(got) != 0 {
				t.Errorf("Lines = %q, want none", got)
			}
		})
	}
	if got := markdown.Render("", 80, markdown.Dark); len(got) != 0 {
		t.Errorf("Render(\"\") = %q, want no lines", got)
	}
}

func TestCRLF(t *testing.T) {
	crlf := "Line one\r\nline two\r\n\r\n```\r\ncode\r\n\r\nmore\r\n```\r\n"
	lf := strings.ReplaceAll(crlf, "\r\n", "\n")
	r := markdown.New()
	for i := 0; i < len(crlf); i += 3 { // cuts some CRLF pairs in half
		r.Append(crlf[i:min(i+3, len(crlf))])
	}
	if got := r.Text(); got != lf {
		t.Errorf("Text() = %q, want %q", got, lf)
	}
	r.Finish()
	diffLines(t, r.Lines(), markdown.Render(lf, markdown.DefaultWidth, markdown.Dark))
	for _, l := range r.Lines() {
		if strings.ContainsRune(l, '\r') {
			t.Errorf("line %q contains CR", l)
		}
	}
}

func TestLooseListsStaySane(t *testing.T) {
	lines := markdown.Render("3. three\n\n4. four\n\n   detail of four\n\n   ```sh\n   make\n   ```\n\n5. five\n", 60, markdown.Dark)
	var plain []string
	for _, l := range lines {
		plain = append(plain, strings.TrimRight(ansi.Strip(l), " "))
	}
	want := []string{"  3. three", "", "  4. four", "", "     detail of four", "", "       make", "", "  5. five"}
	if !slices.Equal(plain, want) {
		t.Errorf("loose list rendered as\n%q\nwant\n%q", plain, want)
	}
}

func TestAppendAfterFinish(t *testing.T) {
	r := markdown.New()
	r.Append("first")
	r.Finish()
	if !r.Finished() {
		t.Error("Finished() = false after Finish")
	}
	r.Append("\n\nsecond")
	if r.Finished() {
		t.Error("Finished() = true after a later Append")
	}
	if got := r.BlockSources(); !slices.Equal(got, []string{"first"}) {
		t.Errorf("blocks = %q", got)
	}
	if got := r.TailText(); got != "second" {
		t.Errorf("tail = %q, want %q", got, "second")
	}
	if got := r.Text(); got != "first\n\nsecond" {
		t.Errorf("Text() = %q", got)
	}
}

func TestParseStyle(t *testing.T) {
	tests := []struct {
		in      string
		want    markdown.Style
		wantErr bool
	}{
		{"dark", markdown.Dark, false},
		{" Light ", markdown.Light, false},
		{"dracula", markdown.Style("dracula"), false},
		{"auto", markdown.Dark, true},
		{"", markdown.Dark, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := markdown.ParseStyle(tt.in)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("ParseStyle(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.wantErr)
			}
			if err != nil && !strings.Contains(err.Error(), "light") {
				t.Errorf("error %q does not list the valid styles", err)
			}
		})
	}
	// An unknown style given directly renders as Dark rather than failing.
	diffLines(t, markdown.Render("**x**", 40, "no-such-style"), markdown.Render("**x**", 40, markdown.Dark))
}

func TestStylesDiffer(t *testing.T) {
	const md = "## Title\n\nSome `code` and **bold** text."
	dark := markdown.Render(md, 40, markdown.Dark)
	light := markdown.Render(md, 40, markdown.Light)
	if slices.Equal(dark, light) {
		t.Error("Dark and Light rendered identically")
	}
	for _, l := range markdown.Render(md, 40, markdown.ASCII) {
		if strings.Contains(l, "\x1b") {
			t.Errorf("ASCII style line %q has escape sequences", l)
		}
	}
}
