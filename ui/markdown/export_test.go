package markdown

// RenderCount returns how many blocks r has rendered.
func (r *Renderer) RenderCount() int { return r.renders }

// Built returns how many renderers p has constructed.
func (p *Pool) Built() int64 { return p.built.Load() }

// BlockSources returns the sources of r's finished blocks.
func (r *Renderer) BlockSources() []string {
	s := make([]string, len(r.blocks))
	for i, b := range r.blocks {
		s[i] = b.src(r.text)
	}
	return s
}

// Dedents returns the dedent of each finished block.
func (r *Renderer) Dedents() []int {
	d := make([]int, len(r.blocks))
	for i, b := range r.blocks {
		d[i] = b.dedent
	}
	return d
}

// TailText returns the unfinished tail's raw text.
func (r *Renderer) TailText() string { return string(r.text[r.tailStart:]) }

// TrimLine exposes trimLine.
var TrimLine = trimLine

// Sanitize exposes sanitize.
var Sanitize = sanitize

// WrapPlain exposes wrapPlain.
var WrapPlain = wrapPlain

// LexerName returns the canonical name of the language a fence's info
// string names ("" when tick does not highlight it).
func LexerName(info string) string {
	name, _ := lexerFor(info)
	return name
}

// CachedLines returns how many rendered lines r holds.
func (r *Renderer) CachedLines() int {
	n := 0
	for _, b := range r.blocks {
		n += b.lineCount()
	}
	return n
}

// MaxCachedLines exposes maxCachedLines; FenceChunk exposes fenceChunk.
const (
	MaxCachedLines = maxCachedLines
	FenceChunk     = fenceChunk
)
