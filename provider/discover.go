package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// Limits on what a server's model list may cost: its size, the number of
// models kept and the length of a name.
const (
	maxModelsBody = 16 << 20
	maxModels     = 5000
	maxModelName  = 200
)

// ProbeTimeout is how long FindLocal waits for the slowest server.
const ProbeTimeout = 800 * time.Millisecond

// LocalServer is a model server that may run on this machine.
type LocalServer struct {
	Name    string // preset name for the config, e.g. "ollama"
	Title   string // for people, e.g. "Ollama"
	BaseURL string // API root, ending in /v1
}

// LocalServers returns the usual local servers at their default ports:
// Ollama (and ollamaHost, the OLLAMA_HOST variable, when it names another
// address), LM Studio, llama.cpp, vLLM and Jan.
func LocalServers(ollamaHost string) []LocalServer {
	out := []LocalServer{{Name: "ollama", Title: "Ollama", BaseURL: "http://127.0.0.1:11434/v1"}}
	if u := ollamaURL(ollamaHost); u != "" && u != out[0].BaseURL {
		out = append(out, LocalServer{Name: "ollama", Title: "Ollama (OLLAMA_HOST)", BaseURL: u})
	}
	return append(out,
		LocalServer{Name: "lmstudio", Title: "LM Studio", BaseURL: "http://127.0.0.1:1234/v1"},
		LocalServer{Name: "llamacpp", Title: "llama.cpp", BaseURL: "http://127.0.0.1:8080/v1"},
		LocalServer{Name: "vllm", Title: "vLLM", BaseURL: "http://127.0.0.1:8000/v1"},
		LocalServer{Name: "jan", Title: "Jan", BaseURL: "http://127.0.0.1:1337/v1"},
	)
}

// ollamaURL turns OLLAMA_HOST ("host", "host:port", "http://host:port")
// into an API root; "" when it is empty or unusable. 0.0.0.0 (listen on
// all interfaces) is reached at 127.0.0.1.
func ollamaURL(host string) string {
	host = strings.TrimSpace(host)
	if host == "" {
		return ""
	}
	if !strings.Contains(host, "://") {
		host = "http://" + host
	}
	u, err := url.Parse(host)
	if err != nil || u.Hostname() == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	h, port := u.Hostname(), u.Port()
	if h == "0.0.0.0" || h == "::" {
		h = "127.0.0.1"
	}
	if port == "" {
		port = "11434"
	}
	return u.Scheme + "://" + net.JoinHostPort(h, port) + "/v1"
}

// Found is a local server that answered, with the models it lists.
type Found struct {
	LocalServer
	Models []string
}

// FindLocal asks every server for GET /v1/models at once and returns, in
// the order given, those that answered with a model list. It returns
// within timeout (ProbeTimeout when 0) or when ctx ends, whichever is
// first; servers that are slower count as absent.
func FindLocal(ctx context.Context, servers []LocalServer, timeout time.Duration) []Found {
	if timeout <= 0 {
		timeout = ProbeTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	hc := &http.Client{Timeout: timeout}
	found := make([]*Found, len(servers))
	var wg sync.WaitGroup
	for i, s := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			models, err := listModels(ctx, hc, s.BaseURL, "")
			if err == nil {
				found[i] = &Found{LocalServer: s, Models: models}
			}
		}()
	}
	wg.Wait()
	var out []Found
	seen := map[string]bool{}
	for _, f := range found {
		if f != nil && !seen[f.BaseURL] {
			seen[f.BaseURL] = true
			out = append(out, *f)
		}
	}
	return out
}

// ErrUnauthorized is a server refusing the key (401 or 403).
var ErrUnauthorized = errors.New("the server refused the API key")

// ListModels returns the model ids baseURL lists at GET /models, sorted,
// sending apiKey as a bearer token when it is not empty. It checks a key
// before it is saved: a refused key is ErrUnauthorized. Names are
// sanitised and the list is bounded.
func ListModels(ctx context.Context, baseURL, apiKey string) ([]string, error) {
	return listModels(ctx, &http.Client{Timeout: 20 * time.Second}, baseURL, apiKey)
}

// listModels is ListModels with a given HTTP client.
func listModels(ctx context.Context, hc *http.Client, baseURL, apiKey string) ([]string, error) {
	endpoint := strings.TrimRight(baseURL, "/") + "/models"
	shown := RedactURL(endpoint) // for messages: no credentials
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, endpoint, nil)
	if err != nil {
		return nil, fmt.Errorf("list models at %s: the URL is not valid", shown)
	}
	if apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+apiKey)
	}
	resp, err := hc.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			ue.URL = RedactURL(ue.URL) // it is quoted in the message
		}
		return nil, fmt.Errorf("list models at %s: %w", shown, err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return nil, fmt.Errorf("list models at %s: %s: %w", shown, serverText(resp.Status, apiKey), ErrUnauthorized)
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("list models at %s: %s", shown, serverText(resp.Status, apiKey))
	}
	var body struct {
		Data []modelEntry `json:"data"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxModelsBody)).Decode(&body); err != nil {
		return nil, fmt.Errorf("list models at %s: not an OpenAI-style model list: %w", shown, err)
	}
	if body.Data == nil {
		return nil, fmt.Errorf("list models at %s: the answer has no data list", shown)
	}
	return cleanModels(body.Data), nil
}

// modelEntry is one model of a /models answer.
type modelEntry struct {
	ID string `json:"id"`
}

// cleanModels keeps the printable, bounded, distinct ids, sorted.
func cleanModels(data []modelEntry) []string {
	seen := map[string]bool{}
	var out []string
	for _, d := range data {
		id := sanitizeName(d.ID)
		if id == "" || seen[id] {
			continue
		}
		seen[id] = true
		out = append(out, id)
		if len(out) == maxModels {
			break
		}
	}
	sort.Strings(out)
	return out
}

// sanitizeName drops control and format characters and bounds the length
// of a name a server sent.
func sanitizeName(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, s)
	s = strings.TrimSpace(s)
	if len(s) > maxModelName {
		s = s[:maxModelName]
		for !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
	}
	return s
}
