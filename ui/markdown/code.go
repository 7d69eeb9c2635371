package markdown

import (
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	"github.com/yuin/goldmark/ast"
)

// codeMargin is how far code blocks are indented from the text around.
const codeMargin = 2

// code draws a code block: indented, highlighted when the theme has
// colours (a language tick has no lexer for is drawn as plain text in
// the theme's text colour), lines longer than the width wrapped under
// their start. The logical text is the code as written.
func (r *renderer) code(n ast.Node, lang string, w int) []string {
	var b strings.Builder
	for i := 0; i < n.Lines().Len(); i++ {
		seg := n.Lines().At(i)
		b.Write(seg.Value(r.src))
	}
	src := strings.TrimSuffix(b.String(), "\n")
	if r.plain {
		return strings.Split(src, "\n")
	}
	limit := max(w-codeMargin, 1)
	pad := strings.Repeat(" ", min(codeMargin, w-1))
	var out []string
	for _, line := range r.codeSpans(src, lang) {
		if len(line) == 0 {
			out = append(out, "")
			continue
		}
		for _, l := range r.wrap(line, limit, true) {
			if l != "" {
				l = pad + l
			}
			out = append(out, l)
		}
	}
	return out
}

// maxHighlight is the most bytes of code (one block, or one chunk of a
// long fence) that are highlighted; longer code is drawn as plain text.
// chroma's core tries every rule of a lexer at every position on a
// backtracking regexp engine: a few microseconds a byte at best, so a
// megabyte on one line stalled the chat for seconds, and a rule that runs
// into chroma's match timeout (250 ms, sooner on a loaded machine) fails
// and is tried again at the next position, for every position.
const maxHighlight = 16 << 10

// codeSpans returns src's lines as spans, highlighted in the theme (code
// over maxHighlight bytes in the theme's text colour).
func (r *renderer) codeSpans(src, lang string) [][]span {
	lines := make([][]span, 1, strings.Count(src, "\n")+1)
	add := func(s string, a attr) {
		for {
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				if s != "" {
					lines[len(lines)-1] = append(lines[len(lines)-1], span{text: s, a: a})
				}
				return
			}
			if i > 0 {
				lines[len(lines)-1] = append(lines[len(lines)-1], span{text: s[:i], a: a})
			}
			lines = append(lines, nil)
			s = s[i+1:]
		}
	}
	if r.t.tokens == nil {
		add(src, attr{})
		return lines
	}
	lx := r.hl.lexer(lang)
	if lx == nil || len(src) > maxHighlight {
		add(src, r.t.token(chroma.Text))
		return lines
	}
	it, err := lx.Tokenise(nil, src)
	if err != nil {
		add(src, r.t.token(chroma.Text))
		return lines
	}
	for t := it(); t != chroma.EOF; t = it() {
		add(t.Value, r.t.token(t.Type))
	}
	if n := len(lines); n > 1 && len(lines[n-1]) == 0 && !strings.HasSuffix(src, "\n") {
		lines = lines[:n-1] // the lexer added the newline the code lacked
	}
	return lines
}

// highlighter keeps the lexers of the languages tick highlights, each
// built the first time a code block asks for it. It is safe for
// concurrent use (a chroma lexer is).
type highlighter struct {
	mu     sync.Mutex
	lexers map[string]chroma.Lexer // by canonical name
}

// lexer returns the lexer for a fence's language (its info string's first
// word, any case), nil when tick has none.
func (h *highlighter) lexer(info string) chroma.Lexer {
	name, build := lexerFor(info)
	if build == nil {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if l, ok := h.lexers[name]; ok {
		return l
	}
	if h.lexers == nil {
		h.lexers = map[string]chroma.Lexer{}
	}
	l := build()
	h.lexers[name] = l
	return l
}

// knownLang reports whether tick highlights code in lang.
func knownLang(lang string) bool {
	_, build := lexerFor(lang)
	return build != nil
}

// lexerFor returns the canonical name of the language a fence's info
// string names and the function that builds its lexer (nil: none).
func lexerFor(info string) (string, func() chroma.Lexer) {
	f := strings.Fields(info)
	if len(f) == 0 {
		return "", nil
	}
	lang := strings.ToLower(f[0])
	if i := strings.IndexAny(lang, "{,"); i >= 0 {
		lang = lang[:i]
	}
	for _, l := range languages() {
		for _, a := range l.names {
			if a == lang {
				return l.names[0], l.build
			}
		}
	}
	return "", nil
}

// language is a language tick highlights: its names (the first is
// canonical) and its lexer's constructor.
type language struct {
	names []string
	build func() chroma.Lexer
}
