package sandbox

import "strings"

// ShellWords splits a shell command line into words the way sh would for
// a plain command: quotes and backslashes are taken out, and the
// operators ; & | < > ( ) end a word. It does not expand anything. It is
// how tick reads the command lines the user's git or tick runs through
// the shell (core.fsmonitor, a project's hooks) for the files they name.
func ShellWords(line string) []string {
	var words []string
	var cur strings.Builder
	in := false // a word is open
	var quote rune
	flush := func() {
		if in {
			words = append(words, cur.String())
			cur.Reset()
			in = false
		}
	}
	rs := []rune(line)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote == '\'':
			cur.WriteRune(r)
		case quote == '"' && r == '\\' && i+1 < len(rs) && strings.ContainsRune("\"\\$`", rs[i+1]):
			i++
			cur.WriteRune(rs[i])
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == '\\' && i+1 < len(rs):
			i++
			cur.WriteRune(rs[i])
			in = true
		case strings.ContainsRune(" \t\n;&|<>()", r):
			flush()
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	flush()
	return words
}
