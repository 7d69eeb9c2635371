package session

import (
	"strings"
	"unicode/utf8"
)

// maxTitle caps a session's title, in runes.
const maxTitle = 60

// Title is the session's short title, made from its first prompt (as
// FirstPrompt has it): cut to at most 60 runes at a word boundary, with
// "…" where it was cut, and "" when the session has no prompt yet.
func (i Info) Title() string {
	t := strings.Join(strings.Fields(i.FirstPrompt), " ")
	if utf8.RuneCountInString(t) <= maxTitle {
		return t
	}
	r := []rune(t)[:maxTitle-1]
	cut := string(r)
	if sp := strings.LastIndexByte(cut, ' '); sp > maxTitle/2 {
		cut = cut[:sp]
	}
	return strings.TrimRight(cut, " ,.;:-") + "…"
}
