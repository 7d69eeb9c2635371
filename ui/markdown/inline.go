package markdown

import (
	"bytes"
	"net/url"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"
)

// span is a piece of inline text drawn in one attr, part of the hyperlink
// link when that is not "".
type span struct {
	text string
	a    attr
	link string
}

// tableLink is a link inside a table cell, shown under the table instead
// (the cell shows its text and a number).
type tableLink struct {
	text, url string
	image     bool
}

// inlines collects the inline content of block n as spans drawn over
// base.
func (r *renderer) inlines(n ast.Node, base attr) []span {
	var out []span
	r.inline(&out, n, base, "")
	return out
}

// inline appends the spans of n's children to out.
func (r *renderer) inline(out *[]span, n ast.Node, a attr, link string) {
	for c := n.FirstChild(); c != nil; {
		if _, ok := c.(*ast.Text); ok {
			c = r.textRun(out, c.(*ast.Text), a, link)
			continue
		}
		r.inlineNode(out, c, a, link)
		c = c.NextSibling()
	}
}

// textRun appends t and the text nodes that continue it without a gap
// (the parser cuts text at every character that might start markup), bare
// URLs in it drawn as links, and returns the node after them.
func (r *renderer) textRun(out *[]span, t *ast.Text, a attr, link string) ast.Node {
	var b []byte
	var brk bool
	for {
		b = append(b, t.Segment.Value(r.src)...)
		brk = t.SoftLineBreak() || t.HardLineBreak()
		next, ok := t.NextSibling().(*ast.Text)
		if brk || !ok || next.Segment.Start != t.Segment.Stop || next.IsRaw() {
			break
		}
		t = next
	}
	s := r.text(b)
	if link == "" {
		r.linkify(out, s, a)
	} else {
		*out = append(*out, span{s, a, link})
	}
	if brk {
		*out = append(*out, span{" ", a, link})
	}
	return t.NextSibling()
}

// linkify appends s, its bare URLs (http://, https://, www.) drawn as
// autolinks.
func (r *renderer) linkify(out *[]span, s string, a attr) {
	for s != "" {
		i, n := bareURL(s)
		if i < 0 {
			*out = append(*out, span{s, a, ""})
			return
		}
		if i > 0 {
			*out = append(*out, span{s[:i], a, ""})
		}
		u := s[i : i+n]
		dest := u
		if strings.HasPrefix(u, "www.") {
			dest = "http://" + u
		}
		href, _ := r.hyperlink(dest)
		*out = append(*out, span{u, a.over(r.t.link), href})
		s = s[i+n:]
	}
}

// bareURL finds the first bare URL in s: where it starts and its length,
// without the punctuation that ends a sentence or an unmatched ")".
func bareURL(s string) (int, int) {
	for from := 0; from < len(s); {
		k := strings.IndexAny(s[from:], "hw")
		if k < 0 {
			return -1, 0
		}
		i := from + k
		from = i + 1
		rest := s[i:]
		if !strings.HasPrefix(rest, "https://") && !strings.HasPrefix(rest, "http://") && !strings.HasPrefix(rest, "www.") {
			continue
		}
		if i > 0 && (isWordByte(s[i-1]) || s[i-1] == '/' || s[i-1] == '.') {
			continue
		}
		n := strings.IndexAny(rest, " \t<\"")
		if n < 0 {
			n = len(rest)
		}
		for n > 0 && strings.IndexByte(".,:;!?*_~'", rest[n-1]) >= 0 {
			n--
		}
		if n > 0 && rest[n-1] == ')' && strings.Count(rest[:n], "(") < strings.Count(rest[:n], ")") {
			n--
		}
		scheme := strings.Index(rest[:n], "//") + 2
		if strings.HasPrefix(rest, "www.") {
			scheme = 4
		}
		if n <= scheme || !strings.Contains(rest[scheme:n], ".") && !strings.HasPrefix(rest, "http") {
			continue
		}
		return i, n
	}
	return -1, 0
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// inlineNode appends the spans of the inline node c.
func (r *renderer) inlineNode(out *[]span, c ast.Node, a attr, link string) {
	t := r.t
	switch c := c.(type) {
	case *ast.Text:
		r.textRun(out, c, a, link)
	case *ast.String:
		*out = append(*out, span{r.text(c.Value), a, link})
	case *ast.CodeSpan:
		r.codeSpan(out, c, a, link)
	case *ast.Emphasis:
		mark, x := t.p.emphMark, t.emph
		if c.Level > 1 {
			mark, x = t.p.strongMark, t.strong
		}
		r.marked(out, c, mark, a, a.over(x), link)
	case *extast.Strikethrough:
		r.marked(out, c, t.p.strikeMark, a, a.over(t.strike), link)
	case *ast.Link:
		r.link(out, c, string(c.Destination), a)
	case *ast.AutoLink:
		r.autoLink(out, c, a)
	case *ast.Image:
		r.image(out, c, a)
	case *ast.RawHTML, *extast.TaskCheckBox:
		// Tags are not drawn (the text between them is); a task's box is
		// its item's marker.
	default:
		r.inline(out, c, a, link)
	}
}

// marked appends n's children drawn in inner, between two marks drawn in
// outer (the styles without colour mark emphasis with "*" and the like).
func (r *renderer) marked(out *[]span, n ast.Node, mark string, outer, inner attr, link string) {
	if mark != "" {
		*out = append(*out, span{mark, outer, link})
	}
	r.inline(out, n, inner, link)
	if mark != "" {
		*out = append(*out, span{mark, outer, link})
	}
}

// codeSpan appends inline code: as written (no entities, no escapes),
// padded and drawn in the code look.
func (r *renderer) codeSpan(out *[]span, c *ast.CodeSpan, a attr, link string) {
	var b strings.Builder
	for t := c.FirstChild(); t != nil; t = t.NextSibling() {
		if tx, ok := t.(*ast.Text); ok {
			b.Write(tx.Segment.Value(r.src))
			if tx.SoftLineBreak() || tx.HardLineBreak() {
				b.WriteByte(' ')
			}
		}
	}
	s := b.String()
	if r.inTable {
		s = strings.ReplaceAll(s, `\|`, "|")
	}
	pad := r.t.p.codePad
	if r.plain {
		pad = ""
	}
	mark := r.t.p.codeMark
	ca := a.over(r.t.code)
	*out = append(*out, span{mark + pad + sanitize(s) + pad + mark, ca, link})
}

// link appends a link: its text in the link-text look, then its URL in
// the link look (not for a link to an anchor of the same page), both the
// hyperlink. Inside a table the cell gets the text and a number, and the
// URL goes under the table.
func (r *renderer) link(out *[]span, n ast.Node, dest string, a attr) {
	dest = sanitize(dest)
	href, shown := r.hyperlink(dest)
	if r.inTable {
		r.tableLinks = append(r.tableLinks, tableLink{text: plainText(n, r.src), url: dest})
		r.inline(out, n, a.over(r.t.linkText), href)
		*out = append(*out, span{"[" + strconv.Itoa(len(r.tableLinks)) + "]", a.over(r.t.linkText), href})
		return
	}
	r.inline(out, n, a.over(r.t.linkText), href)
	if shown {
		*out = append(*out, span{" ", a, ""}, span{dest, a.over(r.t.link), href})
	}
}

// autoLink appends an autolink (<https://…>, or a bare URL): the URL in
// the link look; an e-mail address in the link-text look.
func (r *renderer) autoLink(out *[]span, n *ast.AutoLink, a attr) {
	label := sanitize(string(n.Label(r.src)))
	dest := sanitize(string(n.URL(r.src)))
	if n.AutoLinkType == ast.AutoLinkEmail {
		if !strings.HasPrefix(strings.ToLower(dest), "mailto:") {
			dest = "mailto:" + dest
		}
		href, _ := r.hyperlink(dest)
		*out = append(*out, span{label, a.over(r.t.linkText), href})
		return
	}
	href, _ := r.hyperlink(dest)
	*out = append(*out, span{label, a.over(r.t.link), href})
}

// image appends an image: "Image: ALT →" and its URL.
func (r *renderer) image(out *[]span, n *ast.Image, a attr) {
	dest := sanitize(string(n.Destination))
	href, _ := r.hyperlink(dest)
	if alt := plainText(n, r.src); alt != "" {
		*out = append(*out, span{"Image: " + alt + " →", a.over(r.t.imageText), href})
	}
	if dest != "" {
		*out = append(*out, span{" ", a, ""}, span{dest, a.over(r.t.image), href})
	}
}

// maxHref is the longest link target drawn as an OSC 8 hyperlink (what
// terminals accept, about 2 KB). A longer one is drawn as text only: the
// target is written again on every line the link's text wraps onto, so a
// megabyte-long URL drew gigabytes of lines.
const maxHref = 2048

// hyperlink returns the OSC 8 target for dest ("" when the style draws
// none, dest is not a URL or is longer than maxHref) and whether dest is
// worth showing: a link to an anchor of the same page ("#intro") is not.
func (r *renderer) hyperlink(dest string) (href string, shown bool) {
	u, err := url.Parse(dest)
	if err != nil || (u.Fragment != "" && "#"+u.Fragment == dest) {
		return "", false
	}
	if !r.t.p.hyperlinks || r.plain || len(dest) > maxHref {
		return "", true
	}
	return dest, true
}

// text returns the Markdown text b as it reads: entities resolved, then
// made safe (an entity may spell a control character).
func (r *renderer) text(b []byte) string {
	if bytes.IndexByte(b, '&') < 0 {
		return string(b)
	}
	return sanitize(string(util.ResolveNumericReferences(util.ResolveEntityNames(b))))
}

// plainText returns the text of n's inline children without any marks.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Segment.Value(src))
			if c.SoftLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		}
		return ast.WalkContinue, nil
	})
	return sanitize(string(util.ResolveNumericReferences(util.ResolveEntityNames([]byte(b.String())))))
}
