package tools

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"
)

// ownAddr4 returns a non-loopback IPv4 address of this machine's
// interfaces; ok is false when it has none.
func ownAddr4(t *testing.T) (netip.Addr, bool) {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok {
			if ip, ok := netip.AddrFromSlice(n.IP); ok && ip.Unmap().Is4() && !ip.IsLoopback() {
				return ip.Unmap(), true
			}
		}
	}
	return netip.Addr{}, false
}

// TestWebFetchOwnAddress: every interface address of this machine counts
// as blocked; a service on its own interface address (not loopback, when
// it has one) is refused, directly and through a same-host redirect,
// unless [web] allow names that address.
func TestWebFetchOwnAddress(t *testing.T) {
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok {
			if ip, ok := netip.AddrFromSlice(n.IP); ok && !blockedAddr(ip) {
				t.Errorf("blockedAddr(%s) = false for an address of this machine", ip)
			}
		}
	}
	own, ok := ownAddr4(t)
	if !ok {
		t.Log("this machine has no IPv4 address but loopback: no service to try on it")
		return
	}
	ln, err := net.Listen("tcp", netip.AddrPortFrom(own, 0).String())
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/go" {
			http.Redirect(w, r, "/secret", http.StatusFound)
			return
		}
		_, _ = w.Write([]byte("the machine's own secret"))
	}))
	srv.Listener = ln
	srv.Start()
	defer srv.Close()
	for _, path := range []string{"/secret", "/go"} {
		_, err := NewWebFetch(WebOptions{Allow: []string{"docs.example.org"}}).Run(context.Background(), fetchArgs(srv.URL+path))
		if !errors.As(err, new(errPrivate)) {
			t.Errorf("%s: err = %v, want the machine's own address refused", path, err)
		}
	}
	out, err := NewWebFetch(WebOptions{Allow: []string{own.String()}}).Run(context.Background(), fetchArgs(srv.URL+"/go"))
	if err != nil || !strings.Contains(out, "the machine's own secret") {
		t.Errorf("allowed by its address: %q, %v", out, err)
	}
}

// TestWebFetchAllowedNameResolvingToLoopback: a name on [web] allow that
// resolves to loopback is refused unless allow_private names it.
func TestWebFetchAllowedNameResolvingToLoopback(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte("loopback service"))
	}))
	defer srv.Close()
	u := "http://localhost:" + srv.URL[strings.LastIndex(srv.URL, ":")+1:] + "/"
	_, err := NewWebFetch(WebOptions{Allow: []string{"localhost"}}).Run(context.Background(), fetchArgs(u))
	if !errors.As(err, new(errPrivate)) || !strings.Contains(err.Error(), "allow_private") {
		t.Errorf("allowed name: err = %v, want refused naming allow_private", err)
	}
	out, err := NewWebFetch(WebOptions{Allow: []string{"localhost"}, AllowPrivate: []string{"localhost"}}).Run(context.Background(), fetchArgs(u))
	if err != nil || !strings.Contains(out, "loopback service") {
		t.Errorf("allow_private: %q, %v", out, err)
	}
}

// TestWebFetchRedirectToLookalikeHost: a redirect to a host whose name
// merely ends with the origin's is another host: not followed.
func TestWebFetchRedirectToLookalikeHost(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	}))
	defer srv.Close()
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	opt := WebOptions{Allow: []string{"localhost"}, AllowPrivate: []string{"localhost"}}
	for _, to := range []string{"http://evillocalhost:" + port + "/x", "http://evil-localhost:" + port + "/x", "http://localhost.evil.example:" + port + "/x"} {
		out, err := NewWebFetch(opt).Run(context.Background(), fetchArgs("http://localhost:"+port+"/go?to="+url.QueryEscape(to)))
		if err != nil || !strings.Contains(out, "redirects to "+to+", another host") {
			t.Errorf("redirect to %s: %q, %v; want it named, not followed", to, out, err)
		}
	}
}

// nestedQuotes is a page of quotes nested depth deep, repeated until it
// is about size bytes: the converter takes minutes on 5 MiB of it.
func nestedQuotes(depth, size int) string {
	one := strings.Repeat("<blockquote>", depth) + "<p>deep</p>" + strings.Repeat("</blockquote>", depth)
	return "<html><body>" + strings.Repeat(one, max(1, size/len(one))) + "</body></html>"
}

// TestWebFetchNestedQuotes: a page nested past htmlMaxNesting comes back
// as plain text, at once, saying so.
func TestWebFetchNestedQuotes(t *testing.T) {
	page := nestedQuotes(505, 1<<20)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(page))
	}))
	defer srv.Close()
	out, err := NewWebFetch(WebOptions{Allow: []string{"127.0.0.1"}}).Run(context.Background(), fetchArgs(srv.URL))
	if err != nil || !strings.Contains(out, "[the page nests quotes or lists 505 deep, more than 24: shown as plain text]") || !strings.Contains(out, "deep") || strings.Contains(out, "<blockquote>") {
		t.Errorf("%.300q, %v", out, err)
	}
	if len(out) > DefaultWebMaxOutput+500 {
		t.Errorf("result is %d bytes, over the cap", len(out))
	}
}

// TestPageMarkdownAbandoned: a conversion whose context has ended is
// abandoned with the context's cause.
func TestPageMarkdownAbandoned(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("interrupted by the user"))
	_, _, err := pageMarkdown(ctx, nestedQuotes(10, 1<<16), "http://x")
	if err == nil || !strings.Contains(err.Error(), "abandoned: interrupted by the user") {
		t.Errorf("err = %v, want abandoned", err)
	}
	md, note, err := pageMarkdown(context.Background(), nestedQuotes(3, 100), "http://x")
	if err != nil || note != "" || !strings.Contains(md, "> > > deep") {
		t.Errorf("shallow page: %q, %q, %v", md, note, err)
	}
}

// TestCleanHTML: comments and the content of scripts and styles are left
// out, quotes and lists counted, and a long page cut at a tag.
func TestCleanHTML(t *testing.T) {
	page := "<html><head><style>p{}</style><script>var x = '<blockquote>';</script></head><body><!-- c --><ul><li><blockquote>hi</blockquote></li></ul>" +
		strings.Repeat("<p>filler</p>", htmlMaxInput/10) + "</body></html>"
	clean, deepest, cut := cleanHTML(page)
	if !cut || deepest != 2 || len(clean) > htmlMaxInput+100 || strings.Contains(clean, "var x") || strings.Contains(clean, "p{}") || strings.Contains(clean, "<!--") || !strings.Contains(clean, "<blockquote>hi</blockquote>") {
		t.Errorf("cut %v, deepest %d, %d bytes: %.200q", cut, deepest, len(clean), clean)
	}
	deep := strings.Repeat("<blockquote>", 30) + "deep" + strings.Repeat("</blockquote>", 30) + page
	text, note, err := pageMarkdown(context.Background(), deep, "http://x") // plain text: no conversion, whatever the machine's speed
	if err != nil || note != "only the first 1.0 MiB of the page's HTML (scripts and styles left out) was converted; the page nests quotes or lists 30 deep, more than 24: shown as plain text" ||
		!strings.Contains(text, "deep") || strings.Contains(text, "var x") {
		t.Errorf("%q, %.200q, %v", note, text, err)
	}
}
