package markdown

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

const esc = 0x1b

// trimLine removes the invisible end of a rendered line: trailing spaces
// that paint nothing (no background, underline, reverse or strike-through)
// and the colour sequences around them (a padded element, a quote bar
// ending an empty line), which cost the terminal renderer bytes for
// nothing. Non-colour sequences after the
// cut (such as the end of a hyperlink) are kept, and a reset is added when
// colour sequences were dropped. visible reports whether anything visible
// is left.
func trimLine(s string) (line string, visible bool) {
	if strings.IndexByte(s, esc) < 0 {
		t := strings.TrimRight(s, " ")
		return t, strings.TrimSpace(t) != ""
	}
	var st sgrState
	end := 0
	var keep []string // non-SGR sequences after end
	dropped := false  // SGR sequences after end
	for i := 0; i < len(s); {
		if s[i] == esc {
			n, complete := escLen(s[i:])
			seq := s[i : i+n]
			if params, ok := sgrParams(seq); ok {
				st.apply(params)
				dropped = true
			} else if complete {
				keep = append(keep, seq)
			}
			i += n
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		if s[i] != ' ' || st.paints() {
			visible = true
			end = i + size
			keep = keep[:0]
			dropped = false
		}
		i += size
	}
	if end == len(s) {
		return s, visible
	}
	if !visible {
		return "", false
	}
	var b strings.Builder
	b.WriteString(s[:end])
	for _, k := range keep {
		b.WriteString(k)
	}
	if dropped {
		b.WriteString("\x1b[m")
	}
	return b.String(), true
}

// escLen returns the length of the escape sequence at the start of s
// (s[0] is ESC): CSI up to its final byte, OSC/DCS/APC/PM/SOS up to BEL or
// ST, otherwise ESC and one byte. complete is false when s ends first.
func escLen(s string) (n int, complete bool) {
	if len(s) < 2 {
		return len(s), false
	}
	switch s[1] {
	case '[':
		for j := 2; j < len(s); j++ {
			if s[j] >= 0x40 && s[j] <= 0x7e {
				return j + 1, true
			}
		}
		return len(s), false
	case ']', 'P', '_', '^', 'X':
		for j := 2; j < len(s); j++ {
			if s[j] == 0x07 {
				return j + 1, true
			}
			if s[j] == esc && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2, true
			}
		}
		return len(s), false
	}
	return 2, true
}

// sgrParams returns the parameters of seq if it is an SGR sequence
// (ESC [ params m).
func sgrParams(seq string) (string, bool) {
	if len(seq) < 3 || seq[1] != '[' || seq[len(seq)-1] != 'm' {
		return "", false
	}
	p := seq[2 : len(seq)-1]
	for i := 0; i < len(p); i++ {
		if (p[i] < '0' || p[i] > '9') && p[i] != ';' && p[i] != ':' {
			return "", false
		}
	}
	return p, true
}

// collectSGR appends every SGR sequence in s to b; replaying them restores
// the style in effect at the end of s.
func collectSGR(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		if s[i] != esc {
			continue
		}
		n, _ := escLen(s[i:])
		if _, ok := sgrParams(s[i : i+n]); ok {
			b.WriteString(s[i : i+n])
		}
		i += n - 1
	}
}

// sgrState tracks the attributes that make a space visible.
type sgrState struct {
	bg, underline, reverse, strike bool
}

func (st sgrState) paints() bool { return st.bg || st.underline || st.reverse || st.strike }

// apply updates st with the SGR parameters p ("" means reset).
func (st *sgrState) apply(p string) {
	if p == "" {
		*st = sgrState{}
		return
	}
	ps := strings.Split(p, ";")
	for i := 0; i < len(ps); i++ {
		code, sub, hasSub := strings.Cut(ps[i], ":")
		n, _ := strconv.Atoi(code) // "" is 0, a reset
		switch {
		case n == 0:
			*st = sgrState{}
		case n == 4:
			st.underline = !hasSub || sub != "0"
		case n == 24:
			st.underline = false
		case n == 7:
			st.reverse = true
		case n == 27:
			st.reverse = false
		case n == 9:
			st.strike = true
		case n == 29:
			st.strike = false
		case n >= 40 && n <= 47, n >= 100 && n <= 107:
			st.bg = true
		case n == 49:
			st.bg = false
		case n == 38, n == 48, n == 58:
			if n == 48 {
				st.bg = true
			}
			if hasSub || i+1 >= len(ps) {
				continue
			}
			switch ps[i+1] {
			case "5":
				i += 2
			case "2":
				i += 4
			}
		}
	}
}
