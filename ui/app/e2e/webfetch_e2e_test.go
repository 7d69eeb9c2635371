package e2e

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/ui/app"
)

// TestHeadlessWebFetch: -p refuses web_fetch (exit ExitRefused, the model
// told of [web] allow and --yolo) unless the user's config allows the
// host; then the page reaches the model as Markdown.
func TestHeadlessWebFetch(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<h2>Release notes</h2><p>Version <b>2</b> is out.</p>"))
	}))
	defer site.Close()
	for _, tt := range []struct {
		name   string
		config string
		code   int
		want   string // in the tool result the model got
	}{
		{"no allow list", "", app.ExitRefused, "[web] allow"},
		{"allowed host", "[web]\nallow = [\"127.0.0.1\"]\n", app.ExitOK, "## Release notes\n\nVersion **2** is out."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			if tt.config != "" {
				if err := os.MkdirAll(filepath.Join(home, "tick"), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(home, "tick", "config.toml"), []byte(tt.config), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			srv := providertest.New(t)
			srv.Enqueue(call("web_fetch", map[string]any{"url": site.URL + "/notes"}), providertest.Reply{Text: "Read them."})
			args, _ := headless(t, srv, "what is new?")
			r := tick(t, map[string]string{"XDG_CONFIG_HOME": home, "XDG_STATE_HOME": t.TempDir()}, "", args...)
			if r.code != tt.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", r.code, tt.code, r.stderr)
			}
			if res := toolResults(srv.Requests()); len(res) == 0 || !strings.Contains(res[0], tt.want) {
				t.Errorf("the model got %q, want it to contain %q", res, tt.want)
			}
			checkValid(t, srv)
		})
	}
}
