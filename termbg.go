package main

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/charmbracelet/x/term"
)

// bgQueryTimeout bounds how long start-up waits for the terminal to say its
// background colour. Terminals answer in a few milliseconds; one that does
// not answer at all is detected by its reply to the device-attributes
// query sent with it.
const bgQueryTimeout = 300 * time.Millisecond

// detectDark reports whether the terminal has a dark background. It asks
// the terminal (OSC 11, followed by a DA1 query every terminal answers, so
// that one without OSC 11 support does not cost the whole timeout) through
// /dev/tty in raw mode, restoring the mode before it returns; it leaves no
// goroutine reading the terminal behind. When the terminal does not say, it
// falls back to colorFGBG (the COLORFGBG variable), then to dark.
func detectDark(colorFGBG string, timeout time.Duration) bool {
	if dark, ok := queryDark(timeout); ok {
		return dark
	}
	if dark, ok := parseColorFGBG(colorFGBG); ok {
		return dark
	}
	return true
}

// queryDark asks the terminal for its background colour.
func queryDark(timeout time.Duration) (dark, ok bool) {
	f, err := os.OpenFile("/dev/tty", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return false, false
	}
	defer f.Close()
	rc, err := f.SyscallConn()
	if err != nil {
		return false, false
	}
	var (
		state  *term.State
		rawErr error
	)
	// Control keeps the file non-blocking, so the read deadline works.
	if err := rc.Control(func(fd uintptr) { state, rawErr = term.MakeRaw(fd) }); err != nil || rawErr != nil {
		return false, false
	}
	defer rc.Control(func(fd uintptr) { _ = term.Restore(fd, state) })

	if _, err := f.WriteString("\x1b]11;?\x07\x1b[c"); err != nil {
		return false, false
	}
	if err := f.SetReadDeadline(time.Now().Add(timeout)); err != nil {
		return false, false
	}
	var reply []byte
	buf := make([]byte, 256)
	for !hasDA1(reply) && len(reply) < 4096 {
		n, err := f.Read(buf)
		reply = append(reply, buf[:n]...)
		if err != nil {
			break
		}
	}
	return parseOSC11(reply)
}

// hasDA1 reports whether b holds a primary device attributes reply
// (ESC [ ? ... c).
func hasDA1(b []byte) bool {
	i := bytes.Index(b, []byte("\x1b[?"))
	return i >= 0 && bytes.IndexByte(b[i:], 'c') >= 0
}

// parseOSC11 finds a background colour reply
// (ESC ] 11 ; rgb:RRRR/GGGG/BBBB, ended by BEL or ESC \) in b and reports
// whether that colour is dark.
func parseOSC11(b []byte) (dark, ok bool) {
	s := string(b)
	i := strings.Index(s, "\x1b]11;")
	if i < 0 {
		return false, false
	}
	s = s[i+len("\x1b]11;"):]
	if j := strings.IndexAny(s, "\x07\x1b"); j >= 0 {
		s = s[:j]
	}
	spec, found := strings.CutPrefix(s, "rgb:")
	if !found {
		spec, found = strings.CutPrefix(s, "rgba:")
	}
	if !found {
		return false, false
	}
	parts := strings.Split(spec, "/")
	if len(parts) < 3 {
		return false, false
	}
	var rgb [3]float64
	for k := range rgb {
		p := parts[k]
		if len(p) == 0 || len(p) > 4 {
			return false, false
		}
		v, err := strconv.ParseUint(p, 16, 16)
		if err != nil {
			return false, false
		}
		rgb[k] = float64(v) / float64(uint64(1)<<(4*len(p))-1)
	}
	lum := 0.2126*rgb[0] + 0.7152*rgb[1] + 0.0722*rgb[2]
	return lum < 0.5, true
}

// parseColorFGBG reads COLORFGBG ("fg;bg" or "fg;default;bg" in ANSI colour
// numbers, set by rxvt, Konsole and others): backgrounds 7 and 9-15 are
// light.
func parseColorFGBG(v string) (dark, ok bool) {
	if v == "" {
		return false, false
	}
	parts := strings.Split(v, ";")
	bg, err := strconv.Atoi(parts[len(parts)-1])
	if err != nil || bg < 0 || bg > 15 {
		return false, false
	}
	return !(bg == 7 || bg >= 9), true
}
