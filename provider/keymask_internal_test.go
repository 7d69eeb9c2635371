package provider

import (
	"encoding/base64"
	"net/url"
	"strings"
	"testing"
)

// TestServerTextMasksEchoes: the configured key is masked however a
// server echoes it: in another case, base64-encoded (alone, inside a Basic
// credential, in either alphabet) and URL-encoded.
func TestServerTextMasksEchoes(t *testing.T) {
	const key = "tk_live+Secret/Key=0123456789?&x"
	b64 := base64.StdEncoding.EncodeToString
	for _, tt := range []struct{ name, echo string }{
		{"as it is", key},
		{"upper case", strings.ToUpper(key)},
		{"lower case", strings.ToLower(key)},
		{"base64", b64([]byte(key))},
		{"base64, URL alphabet", base64.RawURLEncoding.EncodeToString([]byte(key))},
		{"base64 inside Basic", "Basic " + b64([]byte("user:"+key))},
		{"base64 at the second alignment", b64([]byte("ab:" + key + "tail"))[4:]},
		{"query-escaped", url.QueryEscape(key)},
		{"path-escaped, lower-case hex", strings.ToLower(url.PathEscape(key))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := serverText("invalid key: <"+tt.echo+"> rejected", key)
			if !strings.Contains(got, keyMask) {
				t.Fatalf("not masked: %q", got)
			}
			for _, part := range []string{"Secret", "SECRET", "secret", "0123456789", "U2VjcmV0", "ZWNyZXQv"} {
				if strings.Contains(got, part) {
					t.Errorf("%q still holds %q", got, part)
				}
			}
		})
	}
}
