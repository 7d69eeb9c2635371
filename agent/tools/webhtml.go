package tools

import (
	"context"
	"errors"
	"fmt"
	"github.com/tick-agent/tick/agent/humanize"
	"strings"
	"time"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"golang.org/x/net/html"
)

// Bounds on turning a page's HTML into Markdown. The converter prefixes
// every line of a quote or a list with one marker a level, so a page of
// deeply nested quotes grows quadratically: one nested past
// htmlMaxNesting is shown as plain text instead, and a conversion still
// running after htmlTimeout is abandoned for plain text too.
// The converter gets at most htmlMaxInput bytes of the page, scripts,
// styles and comments left out first (its work grows with its input,
// and the text returned is cut far shorter anyway).
const (
	htmlMaxNesting = 24
	htmlTimeout    = 10 * time.Second
	htmlMaxInput   = 1 << 20
)

// nesting elements are those whose every line the converter prefixes;
// hidden ones hold no text for the model.
var (
	nesting = map[string]bool{"blockquote": true, "ul": true, "ol": true, "dl": true}
	hidden  = map[string]bool{"script": true, "style": true, "noscript": true, "template": true, "svg": true}
)

// pageMarkdown turns a page's HTML into Markdown (links made absolute
// with domain), or into plain text when it nests too deep or converting
// takes too long; note says which, "" for Markdown. The conversion runs in
// a goroutine abandoned when ctx ends; the nesting check bounds what it
// can allocate meanwhile.
func pageMarkdown(ctx context.Context, page, domain string) (text, note string, err error) {
	page, d, cut := cleanHTML(page)
	if cut {
		note = fmt.Sprintf("only the first %s of the page's HTML (scripts and styles left out) was converted", humanize.Size(htmlMaxInput))
	}
	if d > htmlMaxNesting {
		return htmlText(page), joinNotes(note, fmt.Sprintf("the page nests quotes or lists %d deep, more than %d: shown as plain text", d, htmlMaxNesting)), nil
	}
	if ctx.Err() != nil {
		return "", "", fmt.Errorf("turn the HTML into Markdown: abandoned: %w", context.Cause(ctx))
	}
	ctx, cancel := context.WithTimeoutCause(ctx, htmlTimeout, errSlowHTML)
	defer cancel()
	type converted struct {
		md  string
		err error
	}
	done := make(chan converted, 1)
	go func() {
		var c converted
		defer func() {
			if p := recover(); p != nil {
				c = converted{err: fmt.Errorf("the converter failed (%v)", p)}
			}
			done <- c
		}()
		c.md, c.err = htmltomarkdown.ConvertString(page, converter.WithDomain(domain))
	}()
	select {
	case c := <-done:
		return c.md, note, c.err
	case <-ctx.Done():
		if errors.Is(context.Cause(ctx), errSlowHTML) {
			return htmlText(page), joinNotes(note, fmt.Sprintf("turning it into Markdown took longer than %s: shown as plain text", htmlTimeout)), nil
		}
		return "", "", fmt.Errorf("turn the HTML into Markdown: abandoned: %w", context.Cause(ctx))
	}
}

// errSlowHTML is the cause of a conversion past htmlTimeout.
var errSlowHTML = errors.New("converting the page took too long")

// joinNotes joins the notes that are not empty with "; ".
func joinNotes(notes ...string) string {
	var kept []string
	for _, n := range notes {
		if n != "" {
			kept = append(kept, n)
		}
	}
	return strings.Join(kept, "; ")
}

// cleanHTML returns a page without its comments and the content of its
// hidden elements (scripts, styles), cut at a tag after htmlMaxInput
// bytes (cut), and how deep it nests quotes and lists; read with the
// tokenizer, linear in the page.
func cleanHTML(page string) (clean string, deepest int, cut bool) {
	z := html.NewTokenizer(strings.NewReader(page))
	var b strings.Builder
	depth, skip := 0, 0
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return b.String(), deepest, false
		}
		if b.Len() > htmlMaxInput {
			return b.String(), deepest, true
		}
		name, _ := z.TagName()
		switch tt {
		case html.CommentToken:
			continue
		case html.StartTagToken:
			switch {
			case hidden[string(name)]:
				skip++
			case nesting[string(name)] && skip == 0:
				depth++
				deepest = max(deepest, depth)
			}
		case html.EndTagToken:
			switch {
			case hidden[string(name)]:
				skip = max(skip-1, 0)
				continue
			case nesting[string(name)] && skip == 0 && depth > 0:
				depth--
			}
		}
		if skip == 0 {
			b.Write(z.Raw())
		}
	}
}

// htmlText returns the text of a page cleanHTML cleaned (no scripts or
// styles left) without its tags, one line for each block, in one linear
// pass.
func htmlText(page string) string {
	z := html.NewTokenizer(strings.NewReader(page))
	var b strings.Builder
	for {
		switch z.Next() {
		case html.ErrorToken:
			return b.String()
		case html.TextToken:
			b.WriteString(strings.Join(strings.Fields(string(z.Text())), " "))
			b.WriteByte(' ')
		case html.StartTagToken, html.EndTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "section", "article":
				b.WriteByte('\n')
			}
		}
	}
}
