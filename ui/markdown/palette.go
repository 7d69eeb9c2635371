package markdown

import "github.com/alecthomas/chroma/v2"

// look is how one element is drawn: colours as lipgloss.Color reads them
// ("39" for a 256-colour index, "#C4C4C4" for 24 bits; "" for none) and
// attributes.
type look struct {
	fg, bg                          string
	bold, italic, underline, strike bool
}

// palette is tick's look of Markdown in one style: the colours and marks
// of every element. Light and Dark keep the colours tick's answers had
// when glamour drew them (its dark and light styles), so the chat looks
// the same; theme makes every colour readable on the style's background.
type palette struct {
	heading, h1, h6 look
	h1Pad           string // drawn in h1's look before and after an H1's text
	hashes          bool   // headings keep their "#" marks (the styles without colour)

	emph, strong, strike look
	// Marks around emphasis, strong text, struck text and inline code in
	// the styles without colour ("*", "**", "~~", "`"); "" in the others.
	emphMark, strongMark, strikeMark, codeMark string

	code    look   // inline code
	codePad string // drawn in code's look before and after inline code

	link, linkText, image, imageText look
	rule                             look

	quoteBar           string // before every line of a block quote
	bullet             string // before an item of an unordered list
	taskDone, taskOpen string
	tableColumn        string // between two table columns
	tableRow           string // the rule under a table's header
	tableCross         string // where the two meet
	hyperlinks         bool   // links are OSC 8 hyperlinks too

	tokens map[chroma.TokenType]look // code highlighting; nil: code is plain
}

// nbsp is a space no line is broken at.
const nbsp = "\u00a0"

// paletteFor returns s's palette (s resolved).
func paletteFor(s Style) palette {
	switch s.resolved() {
	case Light:
		return lightPalette()
	case ASCII, NoTTY:
		return asciiPalette()
	}
	return darkPalette()
}

// colourPalette is what Dark and Light share.
func colourPalette() palette {
	return palette{
		h1Pad:       " ",
		emph:        look{italic: true},
		strong:      look{bold: true},
		strike:      look{strike: true},
		codePad:     nbsp,
		quoteBar:    "│ ",
		bullet:      "• ",
		taskDone:    "[✓] ",
		taskOpen:    "[ ] ",
		tableColumn: "│",
		tableRow:    "─",
		tableCross:  "┼",
		hyperlinks:  true,
	}
}

func darkPalette() palette {
	p := colourPalette()
	p.heading = look{fg: "39", bold: true}
	p.h1 = look{fg: "228", bg: "63", bold: true}
	p.h6 = look{fg: "35"}
	p.code = look{fg: "203", bg: "236"}
	p.link = look{fg: "30", underline: true}
	p.linkText = look{fg: "35", bold: true}
	p.image = look{fg: "212", underline: true}
	p.imageText = look{fg: "243"}
	p.rule = look{fg: "240"}
	p.tokens = map[chroma.TokenType]look{
		chroma.Text:                {fg: "#C4C4C4"},
		chroma.Error:               {fg: "#F1F1F1", bg: "#F05B5B"},
		chroma.Comment:             {fg: "#676767"},
		chroma.CommentPreproc:      {fg: "#FF875F"},
		chroma.Keyword:             {fg: "#00AAFF"},
		chroma.KeywordReserved:     {fg: "#FF5FD2"},
		chroma.KeywordNamespace:    {fg: "#FF5F87"},
		chroma.KeywordType:         {fg: "#6E6ED8"},
		chroma.Operator:            {fg: "#EF8080"},
		chroma.Punctuation:         {fg: "#E8E8A8"},
		chroma.Name:                {fg: "#C4C4C4"},
		chroma.NameBuiltin:         {fg: "#FF8EC7"},
		chroma.NameTag:             {fg: "#B083EA"},
		chroma.NameAttribute:       {fg: "#7A7AE6"},
		chroma.NameClass:           {fg: "#F1F1F1", underline: true, bold: true},
		chroma.NameDecorator:       {fg: "#FFFF87"},
		chroma.NameFunction:        {fg: "#00D787"},
		chroma.LiteralNumber:       {fg: "#6EEFC0"},
		chroma.LiteralString:       {fg: "#C69669"},
		chroma.LiteralStringEscape: {fg: "#AFFFD7"},
		chroma.GenericDeleted:      {fg: "#FD5B5B"},
		chroma.GenericEmph:         {italic: true},
		chroma.GenericInserted:     {fg: "#00D787"},
		chroma.GenericStrong:       {bold: true},
		chroma.GenericSubheading:   {fg: "#777777"},
	}
	return p
}

func lightPalette() palette {
	p := colourPalette()
	p.heading = look{fg: "27", bold: true}
	p.h1 = look{fg: "228", bg: "63", bold: true}
	p.h6 = look{fg: "27"}
	p.code = look{fg: "203", bg: "254"}
	p.link = look{fg: "36", underline: true}
	p.linkText = look{fg: "29", bold: true}
	p.image = look{fg: "205", underline: true}
	p.imageText = look{fg: "243"}
	p.rule = look{fg: "249"}
	p.tokens = map[chroma.TokenType]look{
		chroma.Text:                {fg: "#2A2A2A"},
		chroma.Error:               {fg: "#F1F1F1", bg: "#FF5555"},
		chroma.Comment:             {fg: "#8D8D8D"},
		chroma.CommentPreproc:      {fg: "#FF875F"},
		chroma.Keyword:             {fg: "#279EFC"},
		chroma.KeywordReserved:     {fg: "#FF5FD2"},
		chroma.KeywordNamespace:    {fg: "#FB406F"},
		chroma.KeywordType:         {fg: "#7049C2"},
		chroma.Operator:            {fg: "#FF2626"},
		chroma.Punctuation:         {fg: "#FA7878"},
		chroma.NameBuiltin:         {fg: "#0A1BB1"},
		chroma.NameTag:             {fg: "#581290"},
		chroma.NameAttribute:       {fg: "#8362CB"},
		chroma.NameClass:           {fg: "#212121", underline: true, bold: true},
		chroma.NameConstant:        {fg: "#581290"},
		chroma.NameDecorator:       {fg: "#A3A322"},
		chroma.NameFunction:        {fg: "#019F57"},
		chroma.LiteralNumber:       {fg: "#22CCAE"},
		chroma.LiteralString:       {fg: "#7E5B38"},
		chroma.LiteralStringEscape: {fg: "#00AEAE"},
		chroma.GenericDeleted:      {fg: "#FD5B5B"},
		chroma.GenericEmph:         {italic: true},
		chroma.GenericInserted:     {fg: "#00D787"},
		chroma.GenericStrong:       {bold: true},
		chroma.GenericSubheading:   {fg: "#777777"},
	}
	return p
}

// asciiPalette is ASCII's and NoTTY's: no colours, marks instead.
func asciiPalette() palette {
	return palette{
		hashes:      true,
		emphMark:    "*",
		strongMark:  "**",
		strikeMark:  "~~",
		codeMark:    "`",
		quoteBar:    "| ",
		bullet:      "• ",
		taskDone:    "[x] ",
		taskOpen:    "[ ] ",
		tableColumn: "|",
		tableRow:    "-",
		tableCross:  "|",
	}
}
