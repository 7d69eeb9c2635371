package tools

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
)

// webServer is a local site for web_fetch: its handlers by path, and
// whether each request carried a cookie or credentials.
func webServer(t *testing.T, hits *atomic.Int32) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" || r.Header.Get("Cookie") != "" {
			t.Errorf("request carried credentials: %v", r.Header)
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Set-Cookie", "session=1")
		_, _ = w.Write([]byte("<html><head><title>T</title></head><body><h1>Install</h1><p>Run <code>go install</code> and see <a href=\"/docs\">the docs</a>.</p>\x1b[31m<ul><li>one</li><li>two</li></ul></body></html>"))
	})
	mux.HandleFunc("/same", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/page", http.StatusFound)
	})
	mux.HandleFunc("/secret", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		_, _ = w.Write([]byte("the secret"))
	})
	mux.HandleFunc("/huge", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		chunk := []byte(strings.Repeat("all work and no play ", 1000))
		for range 1000 { // about 21 MB
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	mux.HandleFunc("/image", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write([]byte("\x89PNG\r\n\x1a\n\x00\x00"))
	})
	mux.HandleFunc("/latin1", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=iso-8859-1")
		_, _ = w.Write([]byte("<p>caf\xe9 na\xefve</p>"))
	})
	mux.HandleFunc("/missing", http.NotFound)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func fetchArgs(u string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"url": u})
	return b
}

func TestWebFetch(t *testing.T) {
	var hits atomic.Int32
	srv := webServer(t, &hits)
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	redirect := func(to string) string {
		return srv.URL + "/go?to=" + url.QueryEscape(to)
	}
	srv.Config.Handler.(*http.ServeMux).HandleFunc("/go", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	})
	allowed := WebOptions{Allow: []string{"127.0.0.1"}, MaxOutput: 4000, MaxBytes: 1 << 20}
	tests := []struct {
		name    string
		opt     WebOptions
		url     string
		want    []string // in the result
		wantErr string   // in the error
		not     []string // in neither
	}{
		{name: "allowed host, HTML as Markdown", opt: allowed, url: srv.URL + "/page",
			want: []string{"# Install", "`go install`", "[the docs](" + srv.URL + "/docs)", "- one", "- two"}, not: []string{"<h1>", "\x1b"}},
		{name: "redirect within the host", opt: allowed, url: srv.URL + "/same", want: []string{"# Install"}},
		{name: "loopback not allowed", opt: WebOptions{}, url: srv.URL + "/secret", wantErr: "refused to connect to 127.0.0.1"},
		{name: "name resolving to loopback", opt: allowed, url: "http://localhost:" + port + "/secret", wantErr: "refused to connect"},
		{name: "redirect to another host not followed", opt: allowed, url: redirect("http://localhost:" + port + "/secret"),
			want: []string{"redirects to http://localhost:" + port + "/secret", "call web_fetch with that URL"}},
		{name: "redirect to a metadata address not followed", opt: allowed, url: redirect("http://169.254.169.254/latest/meta-data/"),
			want: []string{"redirects to http://169.254.169.254/"}},
		{name: "redirect to another scheme", opt: allowed, url: redirect("file:///etc/passwd"), wantErr: "only http and https"},
		{name: "huge page cut", opt: allowed, url: srv.URL + "/huge",
			want: []string{"all work and no play", "[cut: only the first 3.9 KiB of the page's", "the page is larger than 1.0 MiB and only that much was read]"}},
		{name: "Latin-1 page", opt: allowed, url: srv.URL + "/latin1", want: []string{"café naïve"}, not: []string{"\uFFFD"}},
		{name: "binary content type", opt: allowed, url: srv.URL + "/image", wantErr: `content type is "image/png"`},
		{name: "not found", opt: allowed, url: srv.URL + "/missing", wantErr: "404"},
		{name: "credentials in the URL", opt: allowed, url: "http://user:pw@127.0.0.1:" + port + "/page", wantErr: "user name or password"},
		{name: "not http", opt: allowed, url: "ftp://127.0.0.1/x", wantErr: "only http and https"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := NewWebFetch(tc.opt).Run(context.Background(), fetchArgs(tc.url))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want it to contain %q (out %q)", err, tc.wantErr, out)
				}
			} else if err != nil {
				t.Fatalf("Run: %v", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("result lacks %q:\n%s", w, out)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(out, n) {
					t.Errorf("result holds %q:\n%s", n, out)
				}
			}
			if len(out) > 4200 {
				t.Errorf("result is %d bytes, over the cap", len(out))
			}
		})
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the secret was fetched %d times", n)
	}
}

func TestWebFetchPrivateRefusalIsTyped(t *testing.T) {
	_, err := NewWebFetch(WebOptions{}).Run(context.Background(), fetchArgs("http://[::1]:1/"))
	if !errors.As(err, new(errPrivate)) {
		t.Fatalf("err = %v, want errPrivate", err)
	}
}

func TestBlockedAddr(t *testing.T) {
	for _, tc := range []struct {
		addr string
		want bool
	}{
		{"127.0.0.1", true}, {"::1", true}, {"10.1.2.3", true}, {"172.16.0.1", true}, {"192.168.1.1", true},
		{"169.254.169.254", true}, {"fe80::1", true}, {"fd00::1", true}, {"100.64.0.1", true},
		{"0.0.0.0", true}, {"::", true}, {"::ffff:127.0.0.1", true}, {"::ffff:10.0.0.1", true}, {"224.0.0.1", true},
		{"192.0.0.8", true}, {"192.0.2.2", true}, {"198.18.0.1", true}, {"198.19.255.1", true}, {"198.51.100.7", true},
		{"203.0.113.9", true}, {"240.0.0.1", true}, {"255.255.255.255", true}, {"64:ff9b::7f00:1", true}, {"2001:db8::1", true},
		{"93.184.216.34", false}, {"2606:2800:220:1:248:1893:25c8:1946", false}, {"8.8.8.8", false},
	} {
		if got := blockedAddr(netip.MustParseAddr(tc.addr)); got != tc.want {
			t.Errorf("blockedAddr(%s) = %v, want %v", tc.addr, got, tc.want)
		}
	}
}

func TestHostAllowed(t *testing.T) {
	allow := []string{"Docs.Example.org", "*.go.dev", "127.0.0.1", "[::1]"}
	for _, tc := range []struct {
		host string
		want bool
	}{
		{"docs.example.org", true}, {"docs.example.org.", true}, {"example.org", false}, {"evil-docs.example.org", false},
		{"go.dev", true}, {"pkg.go.dev", true}, {"notgo.dev", false}, {"127.0.0.1", true}, {"::1", true}, {"", false},
	} {
		if got := hostAllowed(allow, tc.host); got != tc.want {
			t.Errorf("hostAllowed(%q) = %v, want %v", tc.host, got, tc.want)
		}
	}
}

func TestWebFetchPreview(t *testing.T) {
	w := NewWebFetch(WebOptions{Allow: []string{"docs.example.org"}})
	if !w.HostAllowed(fetchArgs("https://docs.example.org/a")) || w.HostAllowed(fetchArgs("https://example.org/")) {
		t.Error("HostAllowed does not follow the list")
	}
	sum, detail, err := w.Preview(fetchArgs("https://example.org/x#frag"))
	if err != nil || sum != "fetch https://example.org/x" || !strings.Contains(detail, "outside the command sandbox") {
		t.Errorf("Preview = %q, %q, %v", sum, detail, err)
	}
	if _, _, err := w.Preview(json.RawMessage(`{"url": "javascript:alert(1)"}`)); err == nil {
		t.Error("Preview accepted a javascript: URL")
	}
}
