package mention

import (
	"strconv"
	"strings"
)

// attachedIntro separates a prompt from what Expand attached to it.
const attachedIntro = "\n\nAttached by the user's @ mentions:"

// Restored is what Split reads back of one attachment: its path as
// written, and whether it was a directory's listing, a file cut short, or
// an image that went with the prompt.
type Restored struct {
	Path            string
	Dir, Cut, Image bool
}

// Split takes a user message that Expand made apart again: the prompt as
// the user typed it, and what was attached to it, in order. A message
// Expand did not change comes back whole with no attachments. It reads
// only the tags Expand writes, in order; a file whose text looks like such
// a tag can at worst add a name to the list, which is only shown.
func Split(content string) (prompt string, att []Restored) {
	i := strings.LastIndex(content, attachedIntro)
	if i < 0 {
		return content, nil
	}
	prompt, rest := content[:i], content[i+len(attachedIntro):]
	for rest != "" {
		a, next, ok := nextBlock(rest)
		if !ok {
			break
		}
		att = append(att, a)
		rest = next
	}
	if len(att) == 0 {
		return content, nil
	}
	return prompt, att
}

// nextBlock reads one block Expand wrote ("\n\n<file path=...>...</file>")
// from the start of s, and returns the rest.
func nextBlock(s string) (Restored, string, bool) {
	s, ok := strings.CutPrefix(s, "\n\n<")
	if !ok {
		return Restored{}, "", false
	}
	kind, after, ok := strings.Cut(s, " path=")
	if !ok || (kind != "file" && kind != "directory" && kind != "image") {
		return Restored{}, "", false
	}
	q, err := strconv.QuotedPrefix(after)
	if err != nil {
		return Restored{}, "", false
	}
	path, _ := strconv.Unquote(q)
	body := after[len(q):]
	end := blockEnd(body, "</"+kind+">")
	if end < 0 {
		return Restored{}, "", false
	}
	a := Restored{Path: path, Dir: kind == "directory"}
	text := body[:end]
	switch kind {
	case "file":
		a.Cut = strings.Contains(text, "[cut here: ")
	case "image":
		a.Image = strings.Contains(text, "attached as an image")
	}
	return a, body[end+len("</"+kind+">"):], true
}

// blockEnd returns where the first closing tag of s ends a block: one
// followed by the end of s or by the next block's start.
func blockEnd(s, closing string) int {
	from := 0
	for {
		i := strings.Index(s[from:], closing)
		if i < 0 {
			return -1
		}
		at := from + i
		tail := s[at+len(closing):]
		if tail == "" || strings.HasPrefix(tail, "\n\n<file path=") || strings.HasPrefix(tail, "\n\n<directory path=") || strings.HasPrefix(tail, "\n\n<image path=") {
			return at
		}
		from = at + len(closing)
	}
}
