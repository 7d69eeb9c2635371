package agent

import (
	"regexp"
	"strings"
)

// redactedMark stands for a secret removed from a tool's output.
const redactedMark = "[redacted by tick]"

// minSecret is the shortest value of Config.Secrets that is masked: a
// shorter one would mask ordinary words.
const minSecret = 8

// urlCredentials matches a URL's userinfo with a password
// (scheme://user:secret@): the secret is masked, the user kept.
var urlCredentials = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*://[^/\s:@]*):[^/\s@]+@`)

// redact masks, in a tool's output, tick's own secrets (Config.Secrets:
// the API key it sends) wherever they appear (a file that holds the key,
// `env` output) and URL credentials, before the text goes to the model,
// the front-end or the session.
func (a *Agent) redact(s string) string {
	for _, k := range a.cfg.Secrets {
		if len(k) >= minSecret {
			s = strings.ReplaceAll(s, k, redactedMark)
		}
	}
	return urlCredentials.ReplaceAllString(s, "${1}:"+redactedMark+"@")
}

// redactEvents returns emit with the live output of a call redacted.
func (a *Agent) redactEvents(emit func(Event)) func(Event) {
	return func(ev Event) {
		if o, ok := ev.(ToolOutput); ok {
			o.Tail = a.redact(o.Tail)
			ev = o
		}
		emit(ev)
	}
}
