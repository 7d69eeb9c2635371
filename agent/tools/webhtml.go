package tools

import (
	"context"
	"errors"
	"fmt"
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
const (
	htmlMaxNesting = 24
	htmlTimeout    = 10 * time.Second
)

// nesting elements are those whose every line the converter prefixes.
var nesting = map[string]bool{"blockquote": true, "ul": true, "ol": true, "dl": true}

// pageMarkdown turns a page's HTML into Markdown (links made absolute
// with domain), or into plain text when it nests too deep or converting
// takes too long; note says which, "" for Markdown. The conversion runs in
// a goroutine abandoned when ctx ends; the nesting check bounds what it
// can allocate meanwhile.
func pageMarkdown(ctx context.Context, page, domain string) (text, note string, err error) {
	if d := htmlNesting(page); d > htmlMaxNesting {
		return htmlText(page), fmt.Sprintf("the page nests quotes or lists %d deep, more than %d: shown as plain text", d, htmlMaxNesting), nil
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
		return c.md, "", c.err
	case <-ctx.Done():
		if errors.Is(context.Cause(ctx), errSlowHTML) {
			return htmlText(page), fmt.Sprintf("turning it into Markdown took longer than %s: shown as plain text", htmlTimeout), nil
		}
		return "", "", fmt.Errorf("turn the HTML into Markdown: abandoned: %w", context.Cause(ctx))
	}
}

// errSlowHTML is the cause of a conversion past htmlTimeout.
var errSlowHTML = errors.New("converting the page took too long")

// htmlNesting returns how deep a page nests quotes and lists, read with
// the tokenizer (linear in the page).
func htmlNesting(page string) int {
	z := html.NewTokenizer(strings.NewReader(page))
	depth, deepest := 0, 0
	for {
		switch z.Next() {
		case html.ErrorToken:
			return deepest
		case html.StartTagToken:
			if name, _ := z.TagName(); nesting[string(name)] {
				depth++
				deepest = max(deepest, depth)
			}
		case html.EndTagToken:
			if name, _ := z.TagName(); nesting[string(name)] && depth > 0 {
				depth--
			}
		}
	}
}

// htmlText returns a page's text without its tags, scripts and styles,
// one line for each block, in one linear pass.
func htmlText(page string) string {
	z := html.NewTokenizer(strings.NewReader(page))
	var b strings.Builder
	skip := 0 // inside script or style
	for {
		switch z.Next() {
		case html.ErrorToken:
			return b.String()
		case html.TextToken:
			if skip == 0 {
				b.WriteString(strings.Join(strings.Fields(string(z.Text())), " "))
				b.WriteByte(' ')
			}
		case html.StartTagToken, html.EndTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "script", "style":
				if z.Token().Type == html.StartTagToken {
					skip++
				} else if skip > 0 {
					skip--
				}
			case "p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "section", "article":
				b.WriteByte('\n')
			}
		}
	}
}
