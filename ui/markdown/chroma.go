package markdown

import (
	"strings"

	"charm.land/glamour/v2/ansi"
	"github.com/alecthomas/chroma/v2"
	chromastyles "github.com/alecthomas/chroma/v2/styles"
)

// glamour registers the highlighting theme of a style's Chroma rules in
// chroma's registry under one name, once per process: the first style to
// render code would colour the code of every later one, and a terminal
// whose light background is known only after the first frame would keep
// the dark theme's code colours. So Light and Dark each get their own
// theme, registered as the package loads (before any renderer runs, so
// nothing writes the registry concurrently), and their configurations
// name it instead of carrying Chroma rules.

// chromaTheme is the name of s's registered highlighting theme.
func (s Style) chromaTheme() string { return "tick-" + string(s) }

func init() {
	for _, s := range []Style{Light, Dark} {
		cfg := s.withReadableColours()
		if c := cfg.CodeBlock.Chroma; c != nil {
			chromastyles.Register(chroma.MustNewStyle(s.chromaTheme(), chromaEntries(c)))
		}
	}
}

// chromaEntries are a theme's token styles in chroma's notation.
func chromaEntries(c *ansi.Chroma) chroma.StyleEntries {
	return chroma.StyleEntries{
		chroma.Text: tokenStyle(c.Text), chroma.Error: tokenStyle(c.Error),
		chroma.Comment: tokenStyle(c.Comment), chroma.CommentPreproc: tokenStyle(c.CommentPreproc),
		chroma.Keyword: tokenStyle(c.Keyword), chroma.KeywordReserved: tokenStyle(c.KeywordReserved),
		chroma.KeywordNamespace: tokenStyle(c.KeywordNamespace), chroma.KeywordType: tokenStyle(c.KeywordType),
		chroma.Operator: tokenStyle(c.Operator), chroma.Punctuation: tokenStyle(c.Punctuation),
		chroma.Name: tokenStyle(c.Name), chroma.NameBuiltin: tokenStyle(c.NameBuiltin),
		chroma.NameTag: tokenStyle(c.NameTag), chroma.NameAttribute: tokenStyle(c.NameAttribute),
		chroma.NameClass: tokenStyle(c.NameClass), chroma.NameConstant: tokenStyle(c.NameConstant),
		chroma.NameDecorator: tokenStyle(c.NameDecorator), chroma.NameException: tokenStyle(c.NameException),
		chroma.NameFunction: tokenStyle(c.NameFunction), chroma.NameOther: tokenStyle(c.NameOther),
		chroma.Literal: tokenStyle(c.Literal), chroma.LiteralNumber: tokenStyle(c.LiteralNumber),
		chroma.LiteralDate: tokenStyle(c.LiteralDate), chroma.LiteralString: tokenStyle(c.LiteralString),
		chroma.LiteralStringEscape: tokenStyle(c.LiteralStringEscape), chroma.GenericDeleted: tokenStyle(c.GenericDeleted),
		chroma.GenericEmph: tokenStyle(c.GenericEmph), chroma.GenericInserted: tokenStyle(c.GenericInserted),
		chroma.GenericStrong: tokenStyle(c.GenericStrong), chroma.GenericSubheading: tokenStyle(c.GenericSubheading),
		chroma.Background: tokenStyle(c.Background),
	}
}

// tokenStyle writes one token's style as chroma reads it: "#RRGGBB
// bg:#RRGGBB italic bold underline", the parts it sets.
func tokenStyle(p ansi.StylePrimitive) string {
	var parts []string
	if p.Color != nil && *p.Color != "" {
		parts = append(parts, *p.Color)
	}
	if p.BackgroundColor != nil && *p.BackgroundColor != "" {
		parts = append(parts, "bg:"+*p.BackgroundColor)
	}
	for _, f := range []struct {
		on   *bool
		name string
	}{{p.Italic, "italic"}, {p.Bold, "bold"}, {p.Underline, "underline"}} {
		if f.on != nil && *f.on {
			parts = append(parts, f.name)
		}
	}
	return strings.Join(parts, " ")
}
