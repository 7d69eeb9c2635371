// Package markdown renders assistant answers that arrive in pieces as
// terminal Markdown for the TUI's chat pane.
//
// A Renderer holds one message. Append adds streamed text and cheaply finds
// blocks that are finished (followed by a blank line outside a code fence, or
// a code fence that closed); Lines renders each finished block once per width
// and caches it, and shows the unfinished tail as plain wrapped
// text, so nothing jumps when a code fence opens. Lines does no rendering work
// when nothing changed since the previous call.
//
// A pane that shows only part of a long message lays it out block by block
// instead: Blocks, Block(i) (rendered when first asked for) and Tail, which
// together are Lines, so only the blocks that reach the screen are ever
// rendered.
//
// The style is chosen once by the caller (Dark, Light, ASCII or NoTTY); this
// package never queries the terminal. A block is parsed with goldmark (GitHub
// Flavored Markdown: tables, strikethrough, task lists, bare links) and drawn
// from its syntax tree in tick's own palette (palette.go), code highlighted
// by tick's own lexers for common languages (lexers.go, on chroma's core).
// Nothing of it runs before it is first needed: the parser, the themes and
// each language's lexer are built on first use and kept in a Pool that many
// Renderers may share. Every piece of text the model sent is made safe
// (ui/termsafe) before it is drawn, also after entities are resolved.
//
// Work is bounded for a hostile answer: code over 16 KiB is not
// highlighted (code.go), a block nested too deep or whose inlines would
// cost goldmark too much is drawn as plain text (depth.go), a table has
// at most 64 columns (gfm.go) and a link target over 2 KB is no OSC 8
// hyperlink (inline.go).
//
// A Renderer is not safe for concurrent use; a Pool is.
package markdown

import "strings"

// DefaultWidth is the width a Renderer uses until WithWidth or SetWidth says
// otherwise.
const DefaultWidth = 80

// Option configures a Renderer made by New.
type Option func(*Renderer)

// WithWidth sets the width in terminal cells that lines are rendered for.
// Widths below 1 are treated as 1.
func WithWidth(w int) Option { return func(r *Renderer) { r.width = clampWidth(w) } }

// WithStyle sets the style (default Dark).
func WithStyle(s Style) Option { return func(r *Renderer) { r.style = s.resolved() } }

// WithPool makes the Renderer take its renderers from p, so many
// messages share them. A nil p is ignored. Without it a Renderer has a small
// pool of its own.
func WithPool(p *Pool) Option {
	return func(r *Renderer) {
		if p != nil {
			r.pool = p
		}
	}
}

func clampWidth(w int) int {
	if w < 1 {
		return 1
	}
	return w
}

// Renderer renders one assistant message that arrives in pieces. The zero
// value is not usable; call New.
type Renderer struct {
	style Style
	width int
	pool  *Pool

	text   []byte // the Markdown so far, CRLF and lone CR turned into LF
	lastCR bool   // the last byte received was '\r' (already stored as '\n')

	// Block splitting (see split.go).
	scan        int  // start of the first line not yet complete
	tailStart   int  // start of the unfinished tail
	hasContent  bool // the tail has a non-blank line
	inFence     bool
	fenceChar   byte
	fenceLen    int
	listContent int    // content column of the last list item; 0 outside lists
	fenceOpen   string // the open fence's opening line
	fenceLines  int    // lines of the open fence since its last chunk
	chunked     bool   // the open fence was cut into chunks (see block)
	blocks      []*block
	rendered    []*block // blocks holding rendered lines, oldest first (see cacheLines)
	cachedLines int      // lines held by them
	finished    bool

	// Render caches (see lines.go).
	doneWidth int      // width doneLines were rendered for; 0 = none yet
	doneCount int      // blocks[:doneCount] are in doneLines
	doneLines []string // rendered finished blocks, one blank line between
	lead      leadCache
	tail      tailCache
	partial   partialCache
	tailOut   []string // the last result of Tail
	tailValid bool     // tailOut matches the current text and width
	out       []string // the last result of Lines
	outValid  bool     // out matches the current text and width

	renders int // block renders done by this Renderer; read by tests
}

// New returns an empty Renderer: width DefaultWidth, style Dark and a
// private pool unless options say otherwise.
func New(opts ...Option) *Renderer {
	r := &Renderer{style: Dark, width: DefaultWidth}
	for _, o := range opts {
		if o != nil {
			o(r)
		}
	}
	if r.pool == nil {
		r.pool = NewPool()
	}
	return r
}

// Append adds delta to the message. It is cheap: it stores the text and
// scans only the newly completed lines for finished blocks; it renders
// nothing. CRLF and lone CR line endings become LF, also when split across
// calls. Appending after Finish continues the message with new blocks.
func (r *Renderer) Append(delta string) {
	if delta == "" {
		return
	}
	from := len(r.text)
	r.appendNormalized(delta)
	r.scanLines(from)
	r.finished = false
	r.invalidate()
}

// invalidate forgets the results of Lines and Tail after a change.
func (r *Renderer) invalidate() { r.outValid, r.tailValid = false, false }

func (r *Renderer) appendNormalized(delta string) {
	if r.lastCR && delta[0] == '\n' {
		delta = delta[1:] // the '\r' before it was already stored as '\n'
	}
	r.lastCR = false
	if strings.IndexByte(delta, '\r') < 0 {
		r.text = append(r.text, delta...)
		return
	}
	for i := 0; i < len(delta); i++ {
		c := delta[i]
		if c != '\r' {
			r.text = append(r.text, c)
			continue
		}
		r.text = append(r.text, '\n')
		switch {
		case i+1 < len(delta) && delta[i+1] == '\n':
			i++
		case i+1 == len(delta):
			r.lastCR = true
		}
	}
}

// Finish marks the message complete: the unfinished tail (even an open code
// fence) becomes a finished block and is rendered as Markdown by Lines.
func (r *Renderer) Finish() {
	r.finishTail()
	r.finished = true
	r.invalidate()
}

// Finished reports whether Finish was called and nothing was appended since.
func (r *Renderer) Finished() bool { return r.finished }

// SetWidth sets the width in cells (below 1 counts as 1). Nothing is
// rendered now; the next Lines renders each finished block once for the new
// width. Rendered blocks keep the two most recent widths, so switching back
// and forth (a panel toggled beside the chat) does not render again.
func (r *Renderer) SetWidth(w int) {
	w = clampWidth(w)
	if w == r.width {
		return
	}
	r.width = w
	r.invalidate()
}

// Width returns the width lines are rendered for.
func (r *Renderer) Width() int { return r.width }

// Text returns the Markdown received so far, with line endings normalised
// to LF.
func (r *Renderer) Text() string { return string(r.text) }

// Render renders a complete Markdown string once (for example a message of
// a restored transcript) at width cells in style; it is New + Append +
// Finish + Lines. Without WithPool among opts every call builds its own
// parser and lexers: pass one shared Pool when rendering many messages.
func Render(md string, width int, style Style, opts ...Option) []string {
	r := New(append([]Option{WithWidth(width), WithStyle(style)}, opts...)...)
	r.Append(md)
	r.Finish()
	return r.Lines()
}
