package markdown

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/tick-agent/tick/ui/style/keycap"
)

// DefaultPoolSize is how many renderers (one per style and width) a Pool
// made by NewPool keeps.
const DefaultPoolSize = 4

// Pool holds what rendering needs and is built on first use, never at
// start-up: the Markdown parser, each style's theme, the lexers of the
// languages code blocks are written in, and renderers, one per (style,
// width), with their buffers. Many Renderers (all messages of a chat)
// share one Pool via WithPool. The least recently used renderer is
// dropped when the pool is full, so resizing the terminal through many
// widths keeps memory bounded.
//
// A Pool is safe for concurrent use; each renderer is used by one
// goroutine at a time.
type Pool struct {
	mu      sync.Mutex
	size    int
	entries []*poolEntry // most recently used first
	themes  map[Style]*theme

	built atomic.Int64 // renderers constructed; read by tests

	parseOnce sync.Once
	md        parser.Parser
	hl        highlighter
}

type poolEntry struct {
	style Style
	width int

	mu sync.Mutex // guards r
	r  *renderer
}

// NewPool returns an empty Pool that keeps DefaultPoolSize renderers.
func NewPool() *Pool { return NewPoolSize(DefaultPoolSize) }

// NewPoolSize returns an empty Pool that keeps up to size renderers (at
// least 1).
func NewPoolSize(size int) *Pool { return &Pool{size: max(size, 1)} }

// parser returns the Markdown parser: CommonMark and GitHub's tables,
// strikethrough, task lists and bare links.
func (p *Pool) parser() parser.Parser {
	p.parseOnce.Do(func() {
		p.md = parser.NewParser(append([]parser.Option{
			parser.WithBlockParsers(parser.DefaultBlockParsers()...),
			parser.WithInlineParsers(parser.DefaultInlineParsers()...),
			parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
		}, gfmOptions()...)...)
	})
	return p.md
}

// theme returns style's theme, built the first time it is asked for.
func (p *Pool) theme(style Style) *theme {
	p.mu.Lock()
	defer p.mu.Unlock()
	if t, ok := p.themes[style]; ok {
		return t
	}
	if p.themes == nil {
		p.themes = map[Style]*theme{}
	}
	t := newTheme(style)
	p.themes[style] = t
	return t
}

// entry returns the entry for (style, width), creating it and evicting the
// least recently used one if needed.
func (p *Pool) entry(style Style, width int) *poolEntry {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, e := range p.entries {
		if e.style == style && e.width == width {
			copy(p.entries[1:i+1], p.entries[:i])
			p.entries[0] = e
			return e
		}
	}
	e := &poolEntry{style: style, width: width}
	if len(p.entries) < p.size {
		p.entries = append(p.entries, nil)
	}
	copy(p.entries[1:], p.entries[:len(p.entries)-1])
	p.entries[0] = e
	return e
}

// render renders md for (style, width) and returns its lines; width
// plainWidth (0) renders the logical text instead: unwrapped and without
// what only lays text out (see plain.go). A panic while rendering comes
// back as an error (and the renderer is rebuilt next time), never as a
// crash; so does a block nested too deep (tooDeep), without parsing it.
func (p *Pool) render(style Style, width int, md string) (lines []string, err error) {
	if tooDeep(md) {
		return nil, fmt.Errorf("render markdown block of %d bytes: %w", len(md), errTooDeep)
	}
	e := p.entry(style, width)
	e.mu.Lock()
	defer e.mu.Unlock()
	defer func() {
		if v := recover(); v != nil {
			e.r = nil // its state may be broken
			lines, err = nil, fmt.Errorf("render markdown block (style %q, width %d): renderer panicked: %v", style, width, v)
		}
	}()
	if e.r == nil {
		e.r = &renderer{t: p.theme(style), hl: &p.hl}
		p.built.Add(1)
	}
	hidden, swapped := keycap.Hide(md) // wrapped as wide as they are drawn
	src := []byte(hidden)
	lines = e.r.render(src, width, p.parser().Parse(text.NewReader(src)))
	if swapped {
		for i, l := range lines {
			lines[i] = keycap.Show(l)
		}
	}
	return lines, nil
}
