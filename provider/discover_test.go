package provider_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

// deadURL returns the API root of a loopback port nothing listens on.
func deadURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/v1"
}

func TestFindLocal(t *testing.T) {
	a := providertest.New(t)
	a.SetModels("qwen2.5-coder:7b", "llama3.2:3b")
	b := providertest.New(t)
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	}))
	t.Cleanup(hang.Close)
	notAPI := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("<html>hello</html>"))
	}))
	t.Cleanup(notAPI.Close)
	servers := []provider.LocalServer{
		{Name: "ollama", Title: "Ollama", BaseURL: a.URL},
		{Name: "lmstudio", Title: "LM Studio", BaseURL: deadURL(t)},
		{Name: "vllm", Title: "vLLM", BaseURL: hang.URL + "/v1"},
		{Name: "llamacpp", Title: "llama.cpp", BaseURL: notAPI.URL + "/v1"},
		{Name: "jan", Title: "Jan", BaseURL: b.URL},
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	found := provider.FindLocal(ctx, servers, 500*time.Millisecond)
	if len(found) != 2 || found[0].Name != "ollama" || found[1].Name != "jan" {
		t.Fatalf("found %+v, want ollama and jan", found)
	}
	if !reflect.DeepEqual(found[0].Models, []string{"llama3.2:3b", "qwen2.5-coder:7b"}) {
		t.Errorf("models %v", found[0].Models)
	}
	if !reflect.DeepEqual(found[1].Models, []string{providertest.ModelName}) {
		t.Errorf("models %v", found[1].Models)
	}
}

func TestListModels(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		body    string
		want    []string
		wantErr string
		unauth  bool
	}{
		{"list", 200, `{"data":[{"id":"b"},{"id":"a"},{"id":"a"},{"id":""}]}`, []string{"a", "b"}, "", false},
		{"control sequences are dropped", 200, `{"data":[{"id":"evil\u001b[2Jmodel\u0007"}]}`, []string{"evil[2Jmodel"}, "", false},
		{"refused key", 401, `{"error":{"message":"bad key"}}`, nil, "401", true},
		{"not a list", 200, `{"object":"list"}`, nil, "no data list", false},
		{"html", 200, `<html>`, nil, "not an OpenAI-style model list", false},
		{"server error", 500, `oops`, nil, "500", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var auth string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				auth = r.Header.Get("Authorization")
				if r.URL.Path != "/v1/models" {
					http.NotFound(w, r)
					return
				}
				w.WriteHeader(tc.status)
				_, _ = w.Write([]byte(tc.body))
			}))
			defer srv.Close()
			got, err := provider.ListModels(context.Background(), srv.URL+"/v1/", "sk-test")
			if auth != "Bearer sk-test" {
				t.Errorf("Authorization %q", auth)
			}
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || errors.Is(err, provider.ErrUnauthorized) != tc.unauth {
					t.Fatalf("err = %v, want %q (unauthorized %v)", err, tc.wantErr, tc.unauth)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestLocalServersOllamaHost(t *testing.T) {
	tests := []struct {
		host string
		want string // the extra server's URL, "" for none
	}{
		{"", ""},
		{"127.0.0.1:11434", ""},
		{"0.0.0.0:9999", "http://127.0.0.1:9999/v1"},
		{"http://gpu-box:11434", "http://gpu-box:11434/v1"},
		{"gpu-box", "http://gpu-box:11434/v1"},
	}
	for _, tc := range tests {
		var extra string
		for _, s := range provider.LocalServers(tc.host) {
			if s.Title == "Ollama (OLLAMA_HOST)" {
				extra = s.BaseURL
			}
		}
		if extra != tc.want {
			t.Errorf("OLLAMA_HOST=%q: extra server %q, want %q", tc.host, extra, tc.want)
		}
	}
}
