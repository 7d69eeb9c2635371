package markdown

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"charm.land/glamour/v2"
	"github.com/alecthomas/chroma/v2/lexers"

	"github.com/tick-agent/tick/ui/style/keycap"
)

// DefaultPoolSize is how many glamour renderers (one per style and width) a
// Pool made by NewPool keeps.
const DefaultPoolSize = 4

// Pool keeps glamour TermRenderers, one per (style, width), because building
// one is far more expensive than rendering a small block with it. Many
// Renderers (all messages of a chat) can share one Pool via WithPool. The
// least recently used renderer is dropped when the pool is full, so resizing
// the terminal through many widths keeps memory bounded.
//
// A Pool is safe for concurrent use; each glamour renderer is used by one
// goroutine at a time.
type Pool struct {
	mu      sync.Mutex
	size    int
	entries []*poolEntry // most recently used first

	built atomic.Int64 // glamour renderers constructed; read by tests

	langsOnce sync.Once
	langs     map[string]bool // chroma lexer names and aliases, lower case
}

type poolEntry struct {
	style Style
	width int

	mu sync.Mutex // guards tr, which glamour does not make safe for concurrent use
	tr *glamour.TermRenderer
}

// NewPool returns an empty Pool that keeps DefaultPoolSize renderers.
func NewPool() *Pool { return NewPoolSize(DefaultPoolSize) }

// NewPoolSize returns an empty Pool that keeps up to size renderers (at
// least 1).
func NewPoolSize(size int) *Pool { return &Pool{size: max(size, 1)} }

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

// render renders md with glamour for (style, width); width plainWidth (0)
// renders the logical text instead: unwrapped, in style.plainConfig. A
// glamour error or panic comes back as an error (and the renderer is
// rebuilt next time), never as a crash.
func (p *Pool) render(style Style, width int, md string) (out string, err error) {
	e := p.entry(style, width)
	e.mu.Lock()
	defer e.mu.Unlock()
	defer func() {
		if v := recover(); v != nil {
			e.tr = nil // its internal state may be broken
			err = fmt.Errorf("render markdown block (style %q, width %d): glamour panicked: %v", style, width, v)
		}
	}()
	if e.tr == nil {
		cfg := style.config()
		if width == plainWidth {
			cfg = style.plainConfig()
		}
		tr, err := glamour.NewTermRenderer(
			glamour.WithStyles(cfg),
			glamour.WithWordWrap(width),
			// 24-bit colours cost chroma no palette search; Bubble Tea
			// converts them to the terminal's colour profile.
			glamour.WithChromaFormatter("terminal16m"),
		)
		if err != nil {
			return "", fmt.Errorf("create markdown renderer (style %q, width %d): %w", style, width, err)
		}
		p.built.Add(1)
		e.tr = tr
	}
	hidden, swapped := keycap.Hide(md) // wrapped as wide as they are drawn
	out, err = e.tr.Render(hidden)
	if err != nil {
		e.tr = nil
		return "", fmt.Errorf("render markdown block (style %q, width %d): %w", style, width, err)
	}
	if swapped {
		out = keycap.Show(out)
	}
	return out, nil
}

// knownLang reports whether chroma has a lexer named or aliased lang. The
// set is built on first use and never changes afterwards.
func (p *Pool) knownLang(lang string) bool {
	p.langsOnce.Do(func() {
		p.langs = make(map[string]bool, 1024)
		for _, name := range lexers.Names(true) {
			p.langs[strings.ToLower(name)] = true
		}
	})
	return p.langs[strings.ToLower(lang)]
}

// plainFences labels every code fence whose language chroma does not know
// by name (including fences with no language) as plain text. Otherwise
// chroma tries every lexer's file patterns and content analysers, which
// costs milliseconds per block and may colour output as a random language.
func (p *Pool) plainFences(md string) string {
	if !strings.Contains(md, "``") && !strings.Contains(md, "~~") {
		return md
	}
	var b strings.Builder
	b.Grow(len(md) + 16)
	open, c, n := false, byte(0), 0
	for l := range strings.Lines(md) {
		line := []byte(strings.TrimSuffix(l, "\n"))
		if open {
			open = !closesFence(line, c, n)
			b.WriteString(l)
			continue
		}
		fc, fn, ok := opensFence(line)
		if !ok {
			b.WriteString(l)
			continue
		}
		open, c, n = true, fc, fn
		indent := len(line) - len(trimLeftSpace(line))
		info := strings.Fields(string(line[indent+fn:]))
		if len(info) > 0 && p.knownLang(info[0]) {
			b.WriteString(l)
			continue
		}
		b.Write(line[:indent+fn])
		b.WriteString("text")
		if strings.HasSuffix(l, "\n") {
			b.WriteByte('\n')
		}
	}
	return b.String()
}
