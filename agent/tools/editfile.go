package tools

import (
	"github.com/tick-agent/tick/agent/humanize"

	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/tick-agent/tick/provider"
)

//go:embed edit_file.md
var editFileDescription string

const editFileExpected = `{"path": "...", "old_string": "...", "new_string": "...", "replace_all": false}`

const editFileSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "The file to edit, relative to the workspace (or absolute inside it)."},
    "old_string": {"type": "string", "description": "The exact text to replace, including whitespace and indentation. It must occur exactly once unless replace_all is true."},
    "new_string": {"type": "string", "description": "The text to put in its place (may be empty to delete)."},
    "replace_all": {"type": "boolean", "description": "Replace every occurrence of old_string. Default false."}
  },
  "required": ["path", "old_string", "new_string"],
  "additionalProperties": false
}`

// editSnippetContext is the number of lines shown around a change in the
// result.
const editSnippetContext = 3

// EditFile is the edit_file tool: it replaces an exact string in a file,
// once (the string must be unique) or everywhere, and writes the file
// atomically.
type EditFile struct {
	ws *Workspace
}

// NewEditFile returns the edit_file tool for ws.
func NewEditFile(ws *Workspace) *EditFile { return &EditFile{ws: ws} }

// Spec describes the tool to the model.
func (e *EditFile) Spec() provider.ToolSpec {
	return provider.ToolSpec{Name: "edit_file", Description: editFileDescription, Parameters: json.RawMessage(editFileSchema)}
}

// editCall is one decoded, resolved and applied (in memory) call.
type editCall struct {
	path, abs, rel string
	before, after  string
	count          int // replacements made
	line           int // the line where the first replacement starts
	newText        string
	mode           fs.FileMode
}

func (e *EditFile) prepare(raw json.RawMessage) (*editCall, error) {
	a, err := parseArgs("edit_file", editFileExpected, raw)
	if err != nil {
		return nil, err
	}
	path, err := a.path()
	if err != nil {
		return nil, err
	}
	oldText, err := a.str("old_string", true)
	if err != nil {
		return nil, err
	}
	newText, err := a.str("new_string", true)
	if err != nil {
		return nil, err
	}
	all, err := a.boolean("replace_all")
	if err != nil {
		return nil, err
	}
	if oldText == "" {
		return nil, a.errorf(nil, `"old_string" is empty; to create a file or replace all of its content, use write_file`)
	}
	if oldText == newText {
		return nil, a.errorf(nil, `"old_string" and "new_string" are the same, so there is nothing to change`)
	}

	f, size, err := openText(e.ws, path, "edit file", "check the path (e.g. with bash: ls), or use write_file to create a new file")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if size > maxEditBytes {
		return nil, fmt.Errorf("edit file %q: the file is too large to edit (%s)", path, humanize.Size(size))
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("edit file %q: %w", path, err)
	}
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("edit file %q: %w", path, err)
	}
	abs := f.Name()
	c := &editCall{path: path, abs: abs, rel: e.ws.Rel(abs), before: string(data), mode: fi.Mode().Perm()}

	count := strings.Count(c.before, oldText)
	if count == 0 && strings.Contains(c.before, "\r\n") && !strings.Contains(oldText, "\r") {
		// The file has CRLF line ends; the model wrote LF.
		crlf := strings.ReplaceAll(oldText, "\n", "\r\n")
		if n := strings.Count(c.before, crlf); n > 0 {
			count, oldText = n, crlf
			newText = strings.ReplaceAll(strings.ReplaceAll(newText, "\r\n", "\n"), "\n", "\r\n")
		}
	}
	if count == 0 {
		return nil, fmt.Errorf("edit file %q: old_string was not found in the file; %s", path, notFoundHint(c.before, oldText))
	}
	if count > 1 && !all {
		return nil, fmt.Errorf("edit file %q: old_string occurs %d times (at lines %s); include more surrounding lines to make it unique, or set replace_all to true to replace every occurrence",
			path, count, occurrenceLines(c.before, oldText, 10))
	}
	c.count = count
	c.line = 1 + strings.Count(c.before[:strings.Index(c.before, oldText)], "\n")
	c.after = strings.Replace(c.before, oldText, newText, -1)
	c.newText = newText
	return c, nil
}

// Preview returns the path (relative to the workspace) as the summary and
// the unified diff of the edit as the detail.
func (e *EditFile) Preview(raw json.RawMessage) (summary, detail string, err error) {
	c, err := e.prepare(raw)
	if err != nil {
		return "", "", err
	}
	return c.rel, UnifiedDiff("a/"+c.rel, "b/"+c.rel, c.before, c.after), nil
}

// Run makes the edit and writes the file atomically, keeping its mode, and
// hands the edit's unified diff to the context's WithDiff func. The
// result says how many replacements were made and shows the lines around
// the first one, numbered like read_file's output.
func (e *EditFile) Run(ctx context.Context, raw json.RawMessage) (string, error) {
	c, err := e.prepare(raw)
	if err != nil {
		return "", err
	}
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("edit file %q: %w", c.path, err)
	}
	if err := writeAtomic(c.abs, []byte(c.after), c.mode); err != nil {
		return "", fmt.Errorf("edit file %q: %w", c.path, err)
	}
	showDiff(ctx, UnifiedDiff("a/"+c.rel, "b/"+c.rel, c.before, c.after))
	var b strings.Builder
	if c.count == 1 {
		fmt.Fprintf(&b, "Edited %s: replaced 1 occurrence. The changed lines now read:\n", c.rel)
	} else {
		fmt.Fprintf(&b, "Edited %s: replaced %d occurrences. The first now reads:\n", c.rel, c.count)
	}
	b.WriteString(snippet(c.after, c.line, c.line+max(countLines(c.newText), 1)-1, editSnippetContext))
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// snippet returns lines from..to (1-based) of text with ctx lines around
// them, numbered like read_file's output.
func snippet(text string, from, to, ctx int) string {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if text == "" {
		return "(the file is now empty)\n"
	}
	start := max(1, from-ctx)
	end := min(len(lines), to+ctx)
	var b strings.Builder
	for n := start; n <= end; n++ {
		line := strings.TrimSuffix(lines[n-1], "\r")
		if len(line) > 500 {
			line = string(trimToRune([]byte(line[:500]))) + " …"
		}
		fmt.Fprintf(&b, "%6d\t%s\n", n, line)
	}
	return b.String()
}

// occurrenceLines lists the lines where old starts in text, at most max of
// them: "3, 17, 40".
func occurrenceLines(text, old string, max int) string {
	var nums []string
	line, pos := 1, 0
	for {
		i := strings.Index(text[pos:], old)
		if i < 0 {
			break
		}
		line += strings.Count(text[pos:pos+i], "\n")
		if len(nums) == max {
			nums = append(nums, "...")
			break
		}
		nums = append(nums, fmt.Sprint(line))
		// Continue after this occurrence, counting its newlines.
		line += strings.Count(old, "\n")
		pos += i + len(old)
	}
	return strings.Join(nums, ", ")
}

// notFoundHint suggests why old does not occur in text.
func notFoundHint(text, old string) string {
	if trimmed := strings.TrimSpace(old); trimmed != old && trimmed != "" && strings.Contains(text, trimmed) {
		return "it does occur once leading and trailing whitespace is removed, so check the whitespace and line breaks at its ends"
	}
	if looksNumbered(old) {
		return "it seems to include read_file's line-number prefixes; pass the text only, without the numbers and the tab after them"
	}
	if line, n := fuzzyFind(text, old); line > 0 {
		return fmt.Sprintf("lines %d-%d match when indentation and spacing are ignored; copy the exact whitespace from read_file's output (without the line-number prefix)", line, line+n-1)
	}
	return "read the file first (read_file) and copy the exact text, including whitespace"
}

// looksNumbered reports whether every non-empty line of s starts with
// read_file's "   12\t" prefix.
func looksNumbered(s string) bool {
	seen := false
	for _, line := range strings.Split(s, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		num, _, ok := strings.Cut(strings.TrimLeft(line, " "), "\t")
		if !ok || num == "" || strings.Trim(num, "0123456789") != "" {
			return false
		}
		seen = true
	}
	return seen
}

// fuzzyFind looks for old's lines in text with all runs of whitespace
// treated as equal and blank lines at old's ends dropped. It returns the
// 1-based line where they start and how many lines they span, or 0.
func fuzzyFind(text, old string) (line, n int) {
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	var want []string
	for _, l := range strings.Split(old, "\n") {
		want = append(want, norm(l))
	}
	for len(want) > 0 && want[0] == "" {
		want = want[1:]
	}
	for len(want) > 0 && want[len(want)-1] == "" {
		want = want[:len(want)-1]
	}
	if len(want) == 0 {
		return 0, 0
	}
	lines := strings.Split(text, "\n")
	for i := 0; i+len(want) <= len(lines); i++ {
		match := true
		for j, w := range want {
			if norm(lines[i+j]) != w {
				match = false
				break
			}
		}
		if match {
			return i + 1, len(want)
		}
	}
	return 0, 0
}
