package markdown

import (
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
)

// renderer draws one parsed Markdown block as terminal lines in a theme.
// It is used by one goroutine at a time.
type renderer struct {
	t     *theme
	hl    *highlighter
	src   []byte
	plain bool // logical text: no margins, wrapping, bars or highlighting

	inTable    bool
	tableLinks []tableLink
	b          strings.Builder
}

// unwrapped is the width logical text is laid out at: no line is broken.
const unwrapped = 1 << 30

// render draws md at width w (plainWidth: the logical text) and returns
// its lines, the document's margin included.
func (r *renderer) render(src []byte, w int, doc ast.Node) []string {
	r.src = src
	r.plain = w == plainWidth
	pad, limit := geometry(w, docMargin)
	if r.plain {
		pad, limit = "", unwrapped
	}
	lines := r.children(doc, limit)
	if pad != "" {
		for i, l := range lines {
			if l != "" {
				lines[i] = pad + l
			}
		}
	}
	r.src = nil
	return lines
}

// children draws the blocks in n one after the other at width w, a blank
// line between two (none before a list nested in a tight list's item).
func (r *renderer) children(n ast.Node, w int) []string {
	var out []string
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		l := r.block(c, w)
		if len(l) == 0 {
			continue
		}
		if len(out) > 0 && !tightNest(n, c) {
			out = append(out, "")
		}
		out = append(out, l...)
	}
	return out
}

// tightNest reports whether c is a list in an item of a tight list.
func tightNest(parent, c ast.Node) bool {
	if _, ok := c.(*ast.List); !ok {
		return false
	}
	if _, ok := parent.(*ast.ListItem); !ok {
		return false
	}
	l, ok := parent.Parent().(*ast.List)
	return ok && l.IsTight
}

// block draws one block node at width w.
func (r *renderer) block(n ast.Node, w int) []string {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return r.wrap(r.inlines(n, attr{}), w, false)
	case *ast.Heading:
		return r.heading(n, w)
	case *ast.ThematicBreak:
		return []string{r.styled("--------", r.t.rule)}
	case *ast.FencedCodeBlock:
		return r.code(n, string(n.Language(r.src)), w)
	case *ast.CodeBlock:
		return r.code(n, "", w)
	case *ast.Blockquote:
		return r.quote(n, w)
	case *ast.List:
		return r.list(n, w)
	case *ast.HTMLBlock:
		return r.html(n, w)
	case *extast.Table:
		return r.table(n, w)
	}
	return r.children(n, w)
}

// wrap lays spans out at width w and writes the lines.
func (r *renderer) wrap(spans []span, w int, keepLead bool) []string {
	if len(spans) == 0 {
		return nil
	}
	lines := wrapSpans(spans, w, keepLead)
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = writeLine(&r.b, spans, l)
	}
	return out
}

// styled returns s drawn in a.
func (r *renderer) styled(s string, a attr) string {
	if on := a.sgr(); on != "" {
		return on + s + "\x1b[m"
	}
	return s
}

// heading draws a heading: coloured (an H1 on a background, padded), or
// after its "#" marks in the styles without colour.
func (r *renderer) heading(n *ast.Heading, w int) []string {
	a := r.t.heading
	switch n.Level {
	case 1:
		a = r.t.h1
	case 6:
		a = r.t.h6
	}
	var spans []span
	if r.t.p.hashes {
		spans = append(spans, span{text: strings.Repeat("#", n.Level) + " ", a: a})
	}
	spans = append(spans, r.inlines(n, a)...)
	pad := r.t.p.h1Pad
	if n.Level != 1 || r.plain || pad == "" {
		return r.wrap(spans, w, false)
	}
	pw := width(pad)
	lines := r.wrap(spans, max(w-2*pw, 1), false)
	if len(lines) > 0 {
		lines[0] = r.styled(pad, a) + lines[0]
		lines[len(lines)-1] += r.styled(pad, a)
	}
	return lines
}

// quote draws a block quote: its blocks behind a bar.
func (r *renderer) quote(n *ast.Blockquote, w int) []string {
	bar := r.t.p.quoteBar
	if r.plain {
		bar = ""
	}
	// The text wraps one column short of the bar's width: it may reach
	// into the document's right margin, as it did when glamour drew it
	// (which counted a bar as one column of indentation).
	lines := r.children(n, max(w-max(width(bar)-1, 0), 1))
	empty := strings.TrimRight(bar, " ")
	for i, l := range lines {
		if l == "" {
			lines[i] = empty
		} else {
			lines[i] = bar + l
		}
	}
	return lines
}

// list draws a list: each item's blocks after its marker (bullet, number
// or task box), wrapped lines under the item's text; a blank line
// between the items of a loose list.
func (r *renderer) list(n *ast.List, w int) []string {
	var out []string
	num := n.Start
	for it := n.FirstChild(); it != nil; it = it.NextSibling() {
		marker := r.t.p.bullet
		if n.IsOrdered() {
			marker = strconv.Itoa(num) + ". "
			num++
		}
		if box, ok := taskBox(it); ok {
			marker = r.t.p.taskOpen
			if box.IsChecked {
				marker = r.t.p.taskDone
			}
		}
		mw := width(marker)
		lines := r.children(it, max(w-mw, 1))
		if len(out) > 0 && !n.IsTight {
			out = append(out, "")
		}
		if len(lines) == 0 {
			out = append(out, strings.TrimRight(marker, " "))
			continue
		}
		indent := strings.Repeat(" ", mw)
		for i, l := range lines {
			switch {
			case i == 0:
				l = marker + l
			case l != "":
				l = indent + l
			}
			out = append(out, l)
		}
	}
	return out
}

// taskBox returns the task box item starts with, if it is a task.
func taskBox(item ast.Node) (*extast.TaskCheckBox, bool) {
	if p := item.FirstChild(); p != nil {
		if box, ok := p.FirstChild().(*extast.TaskCheckBox); ok {
			return box, true
		}
	}
	return nil, false
}

// html draws an HTML block as the text between its tags (a comment
// draws nothing).
func (r *renderer) html(n *ast.HTMLBlock, w int) []string {
	var b strings.Builder
	for i := 0; i < n.Lines().Len(); i++ {
		seg := n.Lines().At(i)
		b.Write(seg.Value(r.src))
	}
	if n.HasClosure() {
		b.Write(n.ClosureLine.Value(r.src))
	}
	var out []string
	for l := range strings.Lines(stripTags(b.String())) {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		out = append(out, r.wrap([]span{{text: r.text([]byte(l))}}, w, false)...)
	}
	return out
}

// stripTags removes HTML comments and tags from s, and the content of
// script and style elements.
func stripTags(s string) string {
	var b strings.Builder
	for s != "" {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		s = s[i:]
		end := ">"
		switch {
		case strings.HasPrefix(s, "<!--"):
			end = "-->"
		case hasPrefixFold(s, "<script"):
			end = "</script>"
		case hasPrefixFold(s, "<style"):
			end = "</style>"
		}
		j := indexFold(s, end)
		if j < 0 {
			break
		}
		s = s[j+len(end):]
	}
	return b.String()
}

// hasPrefixFold reports whether s starts with the ASCII prefix, in any case.
func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// indexFold returns where the ASCII sub first occurs in s, in any case
// (-1: nowhere). It looks at s only up to the match, so stripping tags
// one after the other reads the text once (lowering the rest of the text
// at every tag took time quadratic in an HTML block's length).
func indexFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if hasPrefixFold(s[i:], sub) {
			return i
		}
	}
	return -1
}
