package sandbox

import (
	"strings"
	"testing"
)

// TestDropExtraHeadersForms: git reads a key on the same line as its
// section header ("[http \"https://github.com/\"] extraheader = ..."), so
// that form must lose its value too; today only a key on a line of its own
// is dropped and the token reaches a sandboxed `cat .git/config`.
func TestDropExtraHeadersForms(t *testing.T) {
	const secret = "ghs_SECRET"
	for _, in := range []string{
		"[core]\n\tbare = false\n[http \"https://github.com/\"]\n\textraheader = AUTHORIZATION: basic " + secret + "\n",
		"[http \"https://github.com/\"] extraheader = AUTHORIZATION: basic " + secret + "\n[core]\n\tbare = false\n",
		"[http]extraHeader=AUTHORIZATION: basic " + secret + "\n",
		"[http \"https://x/\"]\textraheader = a \\\n" + secret + "\n",
		"[http \"https://ex]ample/\"] extraheader = " + secret + "\n",
	} {
		out, changed := dropExtraHeaders([]byte(in))
		if !changed || strings.Contains(string(out), secret) {
			t.Errorf("dropExtraHeaders(%q) = %q, %v", in, out, changed)
		}
	}
	if out, changed := dropExtraHeaders([]byte("[core]\n\tbare = false\n")); changed || string(out) != "[core]\n\tbare = false\n" {
		t.Errorf("a config without a header changed: %q", out)
	}
}
