package provider

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// ErrBadConfig means the client cannot be built from its Config: a base
// URL that is not an http(s) URL with a host, or an API key that cannot be
// sent in a header. New returns it wrapped; it is a configuration mistake,
// not a server's failure.
var ErrBadConfig = errors.New("bad model client configuration")

// redacted stands for a secret in a URL shown to the user.
const redacted = "xxxxx"

// secretParams are query parameters (lower case, - and _ ignored) whose
// values RedactURL hides.
var secretParams = []string{"key", "apikey", "token", "accesstoken", "authtoken", "auth", "secret", "password", "sig", "signature"}

// RedactURL returns raw fit for messages and logs: the user and password
// are replaced by "xxxxx", and so are the values of query parameters that
// hold secrets (key, api-key, api_key, token, access_token, secret,
// password, ...; case-insensitive). A URL that does not parse is reduced
// to its scheme and host when they can be found, else to "(unreadable
// URL)", since it may hold a secret anywhere.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unreadable URL)"
	}
	if u.User != nil {
		u.User = url.User(redacted)
	}
	if u.RawQuery != "" {
		q := u.Query()
		changed := false
		for name, vals := range q {
			if isSecretParam(name) {
				for i := range vals {
					vals[i] = redacted
				}
				changed = true
			}
		}
		if changed {
			u.RawQuery = q.Encode()
		}
	}
	return u.String()
}

// isSecretParam reports whether a query parameter's name says it holds a
// secret.
func isSecretParam(name string) bool {
	n := strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(name))
	for _, s := range secretParams {
		if n == s || strings.HasSuffix(n, s) && s != "auth" && s != "sig" {
			return true
		}
	}
	return false
}

// checkConfig refuses a base URL that is not http(s) with a host and an
// API key with characters a header cannot carry.
func checkConfig(cfg Config) error {
	if cfg.BaseURL != "" {
		shown := RedactURL(cfg.BaseURL)
		u, err := url.Parse(cfg.BaseURL)
		switch {
		case err != nil:
			return fmt.Errorf("create model client: %w: base URL %s does not parse", ErrBadConfig, shown)
		case u.Scheme != "http" && u.Scheme != "https":
			return fmt.Errorf("create model client: %w: base URL %s must start with http:// or https://", ErrBadConfig, shown)
		case u.Host == "" || u.Hostname() == "":
			return fmt.Errorf("create model client: %w: base URL %s has no host", ErrBadConfig, shown)
		case strings.ContainsAny(cfg.BaseURL, "\r\n\t "):
			return fmt.Errorf("create model client: %w: base URL %s contains white space or a line break", ErrBadConfig, shown)
		}
	}
	if badHeaderValue(cfg.APIKey) {
		return fmt.Errorf("create model client: %w: the API key contains a line break or another control character; check OPENAI_API_KEY", ErrBadConfig)
	}
	return nil
}

// badHeaderValue reports whether v cannot be sent as an HTTP header value
// as is (CR, LF or another control character).
func badHeaderValue(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 && c != '\t' || c == 0x7f {
			return true
		}
	}
	return false
}
