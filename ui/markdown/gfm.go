package markdown

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// GitHub's extensions to CommonMark that answers use: tables,
// strikethrough and task lists, parsed here (goldmark's own extension
// package compiles regular expressions for all of its extensions when
// the program starts, which cost more than the rest of start-up; its AST
// package, which has none, gives the nodes). Bare URLs are found when
// text is drawn (linkify in inline.go).

// gfmOptions are the parser options for the extensions.
func gfmOptions() []parser.Option {
	return []parser.Option{
		parser.WithParagraphTransformers(util.Prioritized(tableTransformer{}, 200)),
		parser.WithInlineParsers(
			util.Prioritized(taskParser{}, 0),
			util.Prioritized(strikeParser{}, 500),
		),
	}
}

// strikeParser parses ~struck~ and ~~struck~~ text.
type strikeParser struct{}

func (strikeParser) Trigger() []byte { return []byte{'~'} }

func (strikeParser) Parse(_ ast.Node, block text.Reader, pc parser.Context) ast.Node {
	before := block.PrecendingCharacter()
	line, seg := block.PeekLine()
	d := parser.ScanDelimiter(line, before, 1, strikeDelimiter{})
	if d == nil || d.OriginalLength > 2 || before == '~' {
		return nil
	}
	d.Segment = seg.WithStop(seg.Start + d.OriginalLength)
	block.Advance(d.OriginalLength)
	pc.PushDelimiter(d)
	return d
}

func (strikeParser) CloseBlock(ast.Node, parser.Context) {}

// strikeDelimiter pairs runs of tildes of the same length.
type strikeDelimiter struct{}

func (strikeDelimiter) IsDelimiter(b byte) bool { return b == '~' }

func (strikeDelimiter) CanOpenCloser(o, c *parser.Delimiter) bool {
	return o.Char == c.Char && o.OriginalLength == c.OriginalLength
}

func (strikeDelimiter) OnMatch(int) ast.Node { return extast.NewStrikethrough() }

// taskParser parses the box ("[ ]", "[x]") a task list item starts with.
type taskParser struct{}

func (taskParser) Trigger() []byte { return []byte{'['} }

func (taskParser) Parse(parent ast.Node, block text.Reader, _ parser.Context) ast.Node {
	if parent.HasChildren() || parent.Parent() == nil || parent.PreviousSibling() != nil {
		return nil
	}
	if _, ok := parent.Parent().(*ast.ListItem); !ok {
		return nil
	}
	line, _ := block.PeekLine()
	if len(line) < 4 || line[0] != '[' || line[2] != ']' || (line[3] != ' ' && line[3] != '\t') {
		return nil
	}
	var checked bool
	switch line[1] {
	case ' ':
	case 'x', 'X':
		checked = true
	default:
		return nil
	}
	block.Advance(3)
	return extast.NewTaskCheckBox(checked)
}

func (taskParser) CloseBlock(ast.Node, parser.Context) {}

// maxTableColumns is the most columns a table is drawn with; a wider one
// stays a paragraph. Every row gets a cell for each column, so a header of
// thousands of columns over thousands of one-byte rows made millions of
// cells, and laying the columns out takes time quadratic in their number.
const maxTableColumns = 64

// tableTransformer turns a paragraph holding a header row and a
// delimiter row ("|---|:--:|") into a table; the paragraph's lines before
// the header stay a paragraph.
type tableTransformer struct{}

func (tableTransformer) Transform(p *ast.Paragraph, reader text.Reader, _ parser.Context) {
	lines := p.Lines()
	src := reader.Source()
	for i := 1; i < lines.Len(); i++ {
		delim := lines.At(i)
		aligns := delimiterRow(delim.Value(src))
		if aligns == nil {
			continue
		}
		head := rowCells(lines.At(i-1), src)
		if len(head) != len(aligns) || len(aligns) > maxTableColumns {
			return
		}
		t := extast.NewTable()
		t.Alignments = aligns
		t.AppendChild(t, extast.NewTableHeader(tableRow(head, aligns)))
		for j := i + 1; j < lines.Len(); j++ {
			t.AppendChild(t, tableRow(rowCells(lines.At(j), src), aligns))
		}
		p.Parent().InsertAfter(p.Parent(), p, t)
		if i == 1 {
			p.Parent().RemoveChild(p.Parent(), p)
		} else {
			lines.SetSliced(0, i-1)
		}
		return
	}
}

// tableRow makes a row of cells, as many as the table has columns.
func tableRow(cells []text.Segment, aligns []extast.Alignment) *extast.TableRow {
	row := extast.NewTableRow(aligns)
	for k, a := range aligns {
		c := extast.NewTableCell()
		c.Alignment = a
		if k < len(cells) {
			c.Lines().Append(cells[k])
		}
		row.AppendChild(row, c)
	}
	return row
}

// rowCells splits a table row at its unescaped pipes; the pipes at its
// ends are optional.
func rowCells(seg text.Segment, src []byte) []text.Segment {
	seg = trimSpace(seg, src)
	line := seg.Value(src)
	start, end := 0, len(line)
	if end > 0 && line[0] == '|' {
		start = 1
	}
	if end > start && line[end-1] == '|' && (end < 2 || line[end-2] != '\\') {
		end--
	}
	var cells []text.Segment
	from := start
	for i := start; i <= end; i++ {
		if i < end && (line[i] != '|' || line[i-1] == '\\') {
			continue
		}
		cells = append(cells, trimSpace(text.NewSegment(seg.Start+from, seg.Start+i), src))
		from = i + 1
	}
	return cells
}

// trimSpace returns seg without the spaces around it.
func trimSpace(seg text.Segment, src []byte) text.Segment {
	seg = seg.TrimLeftSpace(src)
	return seg.TrimRightSpace(src)
}

// delimiterRow returns the alignments a table's delimiter row sets, nil
// when line is not one.
func delimiterRow(line []byte) []extast.Alignment {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || bytes.IndexByte(line, '-') < 0 {
		return nil
	}
	if bytes.IndexByte(line, '|') < 0 && !bytes.Contains(line, []byte(":-")) {
		return nil
	}
	line = bytes.TrimPrefix(line, []byte("|"))
	line = bytes.TrimSuffix(line, []byte("|"))
	var out []extast.Alignment
	for _, c := range bytes.Split(line, []byte("|")) {
		c = bytes.TrimSpace(c)
		left, right := bytes.HasPrefix(c, []byte(":")), bytes.HasSuffix(c, []byte(":"))
		dashes := bytes.Trim(c, ":")
		if len(dashes) == 0 || len(bytes.Trim(dashes, "-")) != 0 {
			return nil
		}
		switch {
		case left && right:
			out = append(out, extast.AlignCenter)
		case left:
			out = append(out, extast.AlignLeft)
		case right:
			out = append(out, extast.AlignRight)
		default:
			out = append(out, extast.AlignNone)
		}
	}
	return out
}
