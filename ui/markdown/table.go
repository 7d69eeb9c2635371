package markdown

import (
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"charm.land/lipgloss/v2/table"
	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
)

// table draws a table across the width w (its columns share it), cells
// wrapped and aligned as the delimiter row says, only inner rules; links
// in cells are numbered and listed under the table with their URLs.
func (r *renderer) table(n *extast.Table, w int) []string {
	r.inTable, r.tableLinks = true, nil
	var header []string
	var rows [][]string
	for row := n.FirstChild(); row != nil; row = row.NextSibling() {
		var cells []string
		for c := row.FirstChild(); c != nil; c = c.NextSibling() {
			cells = append(cells, r.cell(c))
		}
		if _, ok := row.(*extast.TableHeader); ok {
			header = cells
		} else {
			rows = append(rows, cells)
		}
	}
	links := r.tableLinks
	r.inTable, r.tableLinks = false, nil

	p := r.t.p
	tb := table.New().Wrap(true).Headers(header...).Rows(rows...).
		Border(lipgloss.Border{Top: p.tableRow, Bottom: p.tableRow, Left: p.tableColumn, Right: p.tableColumn, Middle: p.tableCross}).
		BorderTop(false).BorderBottom(false).BorderLeft(false).BorderRight(false).
		StyleFunc(func(_, col int) lipgloss.Style {
			st := lipgloss.NewStyle().Margin(0, 1)
			if col < len(n.Alignments) {
				switch n.Alignments[col] {
				case extast.AlignLeft:
					st = st.Align(lipgloss.Left).PaddingRight(0)
				case extast.AlignCenter:
					st = st.Align(lipgloss.Center)
				case extast.AlignRight:
					st = st.Align(lipgloss.Right).PaddingLeft(0)
				}
			}
			return st
		})
	if !r.plain {
		tb = tb.Width(w)
	}
	out := strings.Split(tb.String(), "\n")
	for i, l := range out {
		out[i] = strings.TrimRight(l, " ")
	}
	if len(links) > 0 {
		out = append(out, "")
		for i, l := range links {
			num := "[" + strconv.Itoa(i+1) + "]: " + l.text
			spans := []span{{text: num, a: r.t.linkText}, {text: " "}, {text: l.url, a: r.t.link}}
			if href, _ := r.hyperlink(l.url); href != "" {
				spans[0].link, spans[2].link = href, href
			}
			out = append(out, r.wrap(spans, w, false)...)
		}
	}
	return out
}

// cell draws a table cell's inline content on one line (the table wraps
// it).
func (r *renderer) cell(c ast.Node) string {
	spans := r.inlines(c, attr{})
	if len(spans) == 0 {
		return ""
	}
	lines := wrapSpans(spans, unwrapped, false)
	return writeLine(&r.b, spans, lines[0])
}
