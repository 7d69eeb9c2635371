package tools

import (
	"github.com/tick-agent/tick/agent/humanize"

	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/net/html/charset"

	"github.com/tick-agent/tick/provider"
)

//go:embed web_fetch.md
var webFetchDescription string

const webFetchExpected = `{"url": "https://..."}`

const webFetchSchema = `{
  "type": "object",
  "properties": {
    "url": {"type": "string", "description": "The http or https URL to fetch."}
  },
  "required": ["url"],
  "additionalProperties": false
}`

// Defaults of WebOptions.
const (
	DefaultWebMaxBytes  = 5 << 20 // bytes of a response read
	DefaultWebMaxOutput = 50_000  // bytes of text returned
	DefaultWebTimeout   = 30 * time.Second
	webMaxRedirects     = 5
)

// WebOptions tunes web_fetch. Zero fields take the defaults above.
type WebOptions struct {
	// Allow are the hosts fetched without asking: "example.org" matches
	// that host, "*.example.org" (or ".example.org") its subdomains too.
	// An IP address on it may be a loopback, private or reserved one.
	Allow []string
	// AllowPrivate are the host names (matched as Allow's) that may
	// resolve to a loopback, link-local, private or reserved address, or
	// one of this machine's own; any other name is dialled only on a
	// public address, an allowed one too.
	AllowPrivate []string
	// MaxBytes is the most bytes of a response read; the rest is cut.
	MaxBytes int64
	// MaxOutput is the most bytes of text returned; the rest is cut.
	MaxOutput int
	// Timeout bounds a whole fetch, redirects included.
	Timeout time.Duration
}

// WebFetch is the web_fetch tool: it GETs a URL from tick's own process
// (not the command sandbox) and returns the page as Markdown. It sends no
// cookies, no credentials and none of tick's keys: each call uses a fresh
// client with no jar and no proxy. A host not in Allow is dialled only on
// a public address (the address actually dialled is checked, so DNS
// rebinding cannot get around it), and a redirect to another host is not
// followed unless that host is allowed: the result names the new URL
// instead, so a call the user did not approve never reaches a host the
// user did not allow. A name on Allow is still dialled only on a public
// address unless AllowPrivate names it too; an IP address on Allow is
// dialled as it is.
type WebFetch struct {
	opt WebOptions
}

// NewWebFetch returns the web_fetch tool with opt.
func NewWebFetch(opt WebOptions) *WebFetch {
	if opt.MaxBytes <= 0 {
		opt.MaxBytes = DefaultWebMaxBytes
	}
	if opt.MaxOutput <= 0 {
		opt.MaxOutput = DefaultWebMaxOutput
	}
	if opt.Timeout <= 0 {
		opt.Timeout = DefaultWebTimeout
	}
	return &WebFetch{opt: opt}
}

// Spec describes the tool to the model.
func (w *WebFetch) Spec() provider.ToolSpec {
	return provider.ToolSpec{Name: "web_fetch", Description: webFetchDescription, Parameters: json.RawMessage(webFetchSchema)}
}

// HostAllowed reports whether a call's URL is on a host of the allow
// list, so it runs without asking (and is offered in plan mode). Invalid
// arguments are not allowed.
func (w *WebFetch) HostAllowed(raw json.RawMessage) bool {
	u, err := w.target(raw)
	return err == nil && hostAllowed(w.opt.Allow, u.Hostname())
}

// HasAllowList reports whether any host is allowed.
func (w *WebFetch) HasAllowList() bool { return len(w.opt.Allow) > 0 }

// Preview describes the fetch for the approval dialog.
func (w *WebFetch) Preview(raw json.RawMessage) (summary, detail string, err error) {
	u, err := w.target(raw)
	if err != nil {
		return "", "", err
	}
	return "fetch " + u.Redacted(), "GET " + u.Redacted() + "\n\ntick fetches this page itself, outside the command sandbox, and gives its text to the model.\nHosts in [web] allow of the config are fetched without asking.", nil
}

// target parses and checks the call's URL.
func (w *WebFetch) target(raw json.RawMessage) (*url.URL, error) {
	a, err := parseArgs("web_fetch", webFetchExpected, raw)
	if err != nil {
		return nil, err
	}
	s, err := a.str("url", true)
	if err != nil {
		return nil, err
	}
	u, err := checkURL(strings.TrimSpace(s))
	if err != nil {
		return nil, a.errorf(err, "%v", err)
	}
	return u, nil
}

// checkURL accepts an absolute http or https URL with a host and no user
// name or password.
func checkURL(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("url %q does not parse: %w", firstLine(s, 200), err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("url %q: only http and https URLs can be fetched", firstLine(s, 200))
	}
	if u.Hostname() == "" {
		return nil, fmt.Errorf("url %q has no host", firstLine(s, 200))
	}
	if u.User != nil {
		return nil, fmt.Errorf("url %q carries a user name or password; web_fetch sends no credentials", u.Redacted())
	}
	u.Fragment = ""
	return u, nil
}

// errOtherHost stops a redirect to a host the call may not reach.
type errOtherHost struct{ to *url.URL }

func (e *errOtherHost) Error() string { return "redirect to another host: " + e.to.Redacted() }

// Run fetches the URL and returns its text: HTML as Markdown, other text
// as it is, cut at MaxOutput with a note. A binary content type, a status
// other than 2xx, a refused address and a redirect loop are errors.
func (w *WebFetch) Run(ctx context.Context, raw json.RawMessage) (string, error) {
	u, err := w.target(raw)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, w.opt.Timeout)
	defer cancel()
	resp, err := w.get(ctx, u)
	var other *errOtherHost
	if errors.As(err, &other) {
		return fmt.Sprintf("%s redirects to %s, another host, which web_fetch does not follow by itself. To read it, call web_fetch with that URL.", u.Redacted(), other.to.Redacted()), nil
	}
	if err != nil {
		return "", fmt.Errorf("fetch %s: %w", u.Redacted(), err)
	}
	defer resp.Body.Close()
	final := resp.Request.URL
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return "", fmt.Errorf("fetch %s: the server answered %s", final.Redacted(), firstLine(cleanOutput(resp.Status), 100))
	}
	ctype, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if !textual(ctype) {
		return "", fmt.Errorf("fetch %s: the content type is %q, which is not text; web_fetch returns text only", final.Redacted(), firstLine(cleanOutput(ctype), 80))
	}
	body, cut, err := readCapped(resp.Body, w.opt.MaxBytes)
	if err != nil {
		return "", fmt.Errorf("fetch %s: read the body: %w", final.Redacted(), err)
	}
	return w.render(ctx, final, ctype, toUTF8(body, resp.Header.Get("Content-Type")), cut)
}

// get sends the request with a fresh client: no cookie jar, no proxy, no
// credentials, redirects only within the host or to allowed hosts.
func (w *WebFetch) get(ctx context.Context, u *url.URL) (*http.Response, error) {
	origin := strings.ToLower(u.Hostname())
	client := &http.Client{
		Transport: &http.Transport{
			Proxy:                  nil,
			DialContext:            guardedDial(w.opt),
			TLSHandshakeTimeout:    10 * time.Second,
			ResponseHeaderTimeout:  w.opt.Timeout,
			MaxResponseHeaderBytes: 64 << 10,
			DisableKeepAlives:      true,
		},
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= webMaxRedirects {
				return fmt.Errorf("stopped after %d redirects", webMaxRedirects)
			}
			to, err := checkURL(req.URL.String())
			if err != nil {
				return fmt.Errorf("redirect refused: %w", err)
			}
			host := strings.ToLower(to.Hostname())
			if host != origin && !hostAllowed(w.opt.Allow, host) {
				return &errOtherHost{to: to}
			}
			req.Header.Del("Authorization")
			req.Header.Del("Cookie")
			return nil
		},
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", "tick (web_fetch)")
	req.Header.Set("Accept", "text/html, text/markdown, text/plain, application/json, */*;q=0.5")
	return client.Do(req)
}

// textual reports whether a media type is text web_fetch returns.
func textual(ctype string) bool {
	switch {
	case ctype == "", strings.HasPrefix(ctype, "text/"):
		return true
	case strings.HasSuffix(ctype, "+json"), strings.HasSuffix(ctype, "+xml"):
		return true
	}
	switch ctype {
	case "application/json", "application/xml", "application/xhtml+xml", "application/javascript", "application/x-ndjson", "application/toml", "application/yaml", "application/x-yaml":
		return true
	}
	return false
}

// toUTF8 decodes a body in the charset its content type or (for HTML) its
// meta tag names; a body already in UTF-8, or in a charset not known,
// comes back as it is.
func toUTF8(body []byte, contentType string) []byte {
	enc, name, _ := charset.DetermineEncoding(body, contentType)
	if name == "utf-8" || name == "" {
		return body
	}
	out, err := enc.NewDecoder().Bytes(body)
	if err != nil {
		return body
	}
	return out
}

// readCapped reads at most limit bytes of r; cut says there was more.
func readCapped(r io.Reader, limit int64) (body []byte, cut bool, err error) {
	body, err = io.ReadAll(io.LimitReader(r, limit+1))
	if int64(len(body)) > limit {
		return body[:limit], true, err
	}
	return body, false, err
}

// render turns a fetched body into the tool's result.
func (w *WebFetch) render(ctx context.Context, u *url.URL, ctype string, body []byte, downloadCut bool) (string, error) {
	if ctype != "text/html" && ctype != "application/xhtml+xml" && looksBinary(body[:min(len(body), binarySniff)]) {
		return "", fmt.Errorf("fetch %s: the body is binary, not text; web_fetch returns text only", u.Redacted())
	}
	text, shown := string(body), ""
	if ctype == "text/html" || ctype == "application/xhtml+xml" || ctype == "" && strings.Contains(strings.ToLower(text[:min(len(text), 1024)]), "<html") {
		md, note, err := pageMarkdown(ctx, text, u.Scheme+"://"+u.Host)
		if err != nil {
			return "", fmt.Errorf("fetch %s: turn the HTML into Markdown: %w", u.Redacted(), err)
		}
		text, shown = md, note
	}
	text = strings.TrimSpace(cleanOutput(text))
	var b strings.Builder
	fmt.Fprintf(&b, "Fetched %s (%s)\n\n", u.Redacted(), humanize.Size(int64(len(body))))
	if shown != "" {
		fmt.Fprintf(&b, "[%s]\n\n", shown)
	}
	var notes []string
	if len(text) > w.opt.MaxOutput {
		shown := trimToRune([]byte(text[:w.opt.MaxOutput]))
		notes = append(notes, fmt.Sprintf("only the first %s of the page's %s of text is shown", humanize.Size(int64(len(shown))), humanize.Size(int64(len(text)))))
		text = string(shown)
	}
	if downloadCut {
		notes = append(notes, fmt.Sprintf("the page is larger than %s and only that much was read", humanize.Size(w.opt.MaxBytes)))
	}
	b.WriteString(text)
	if len(notes) > 0 {
		fmt.Fprintf(&b, "\n\n[cut: %s]", strings.Join(notes, "; "))
	}
	return b.String(), nil
}
