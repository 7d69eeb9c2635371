// Package chroma stands in for chroma v2 (github.com/alecthomas/chroma/v2)
// inside tick: tick's go.mod replaces that module with this directory.
//
// Glamour, tick's Markdown renderer, highlights code blocks with chroma
// v2, whose packages parse every embedded XML lexer and style when the
// program starts: about 11 ms of package initialisation, before tick can
// draw anything (GODEBUG=inittrace=1). chroma v0.10 has the same lexers as
// Go code compiled on first use and initialises in about 2 ms. This module
// offers the part of chroma v2's API glamour uses (a style from entries,
// the style registry, quick.Highlight) on top of chroma v0.10; nothing
// else of chroma v2 exists here.
package chroma

import v0 "github.com/alecthomas/chroma"

// Style, StyleEntries and TokenType are chroma v0.10's.
type (
	Style        = v0.Style
	StyleEntries = v0.StyleEntries
	TokenType    = v0.TokenType
)

// The token types glamour gives colours to.
const (
	Background          = v0.Background
	Text                = v0.Text
	Error               = v0.Error
	Comment             = v0.Comment
	CommentPreproc      = v0.CommentPreproc
	Keyword             = v0.Keyword
	KeywordReserved     = v0.KeywordReserved
	KeywordNamespace    = v0.KeywordNamespace
	KeywordType         = v0.KeywordType
	Operator            = v0.Operator
	Punctuation         = v0.Punctuation
	Name                = v0.Name
	NameBuiltin         = v0.NameBuiltin
	NameTag             = v0.NameTag
	NameAttribute       = v0.NameAttribute
	NameClass           = v0.NameClass
	NameConstant        = v0.NameConstant
	NameDecorator       = v0.NameDecorator
	NameException       = v0.NameException
	NameFunction        = v0.NameFunction
	NameOther           = v0.NameOther
	Literal             = v0.Literal
	LiteralNumber       = v0.LiteralNumber
	LiteralDate         = v0.LiteralDate
	LiteralString       = v0.LiteralString
	LiteralStringEscape = v0.LiteralStringEscape
	GenericDeleted      = v0.GenericDeleted
	GenericEmph         = v0.GenericEmph
	GenericInserted     = v0.GenericInserted
	GenericStrong       = v0.GenericStrong
	GenericSubheading   = v0.GenericSubheading
)

// MustNewStyle returns the style name made of entries, panicking on an
// entry that does not parse.
func MustNewStyle(name string, entries StyleEntries) *Style {
	return v0.MustNewStyle(name, entries)
}
