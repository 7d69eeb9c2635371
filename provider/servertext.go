package provider

import (
	"encoding/base64"
	"net/url"
	"regexp"
	"strings"
)

// minMaskedKey is the shortest configured key that is masked by value: a
// shorter one ("x" for a local server) would mask ordinary words.
const minMaskedKey = 8

// keyMask is what a masked credential is shown as.
const keyMask = "****"

// Credentials a server may echo in its error text: a bearer token, an
// Authorization header's value, and an OpenAI-style secret key.
var (
	bearerToken   = regexp.MustCompile(`(?i)\b(bearer)\s+[^\s"',;]+`)
	authorization = regexp.MustCompile(`(?i)\b(authorization"?\s*[:=]\s*"?)((?:bearer|basic|token)\s+)?[^\s"',;]+`)
	secretKey     = regexp.MustCompile(`\bsk-[A-Za-z0-9_\-]{16,}`)
)

// serverText makes a message the server sent fit to print: on one line
// (each line break shown as " ⏎ ", so that a body cannot forge lines of
// tick's own on stderr or in the TUI), and with credentials masked: the
// configured key's value wherever it appears, bearer tokens,
// Authorization values and anything shaped like a secret key.
func serverText(s, key string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.NewReplacer("\r", " ⏎ ", "\n", " ⏎ ", "\u2028", " ⏎ ", "\u2029", " ⏎ ", "\u0085", " ⏎ ").Replace(s)
	s = strings.TrimSuffix(strings.TrimSpace(s), " ⏎")
	if len(key) >= minMaskedKey && key != localKey {
		s = maskEchoes(s, key)
	}
	s = bearerToken.ReplaceAllString(s, "${1} "+keyMask)
	s = authorization.ReplaceAllString(s, "${1}${2}"+keyMask)
	return secretKey.ReplaceAllString(s, "sk-"+keyMask)
}

// maskEchoes masks key in s as a server may echo it: as it is, in another
// case, URL-encoded, and base64-encoded (standard or URL alphabet, at any
// alignment inside a longer encoded value, as in a Basic credential).
func maskEchoes(s, key string) string {
	forms := []string{key, url.QueryEscape(key), url.PathEscape(key)}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		for o := range 3 {
			b := enc.EncodeToString(append(make([]byte, o), key...))
			start, end := 0, (o+len(key))/3*4 // whole groups of the key's bytes only
			if o > 0 {
				start = 4
			}
			if end-start >= minMaskedKey {
				forms = append(forms, b[start:end])
			}
		}
	}
	for _, f := range forms {
		re := regexp.MustCompile(`(?i)` + regexp.QuoteMeta(f))
		s = re.ReplaceAllLiteralString(s, maskKey(key))
	}
	return s
}

// maskKey returns how the configured key is shown: its first three
// characters (the kind of key, "sk-") and the mask.
func maskKey(key string) string {
	if strings.HasPrefix(key, "sk-") {
		return "sk-" + keyMask
	}
	return keyMask
}
