package app

import (
	"net/http"
	"net/http/httptest"
	"testing"

	tickcfg "github.com/tick-agent/tick/agent/config"
)

// TestLocalSlots: a local server's reported slots cap the parallel tasks,
// one that says nothing gives 0 (the agent counts it as 1); a hosted
// provider, or max_parallel_tasks set, asks nothing.
func TestLocalSlots(t *testing.T) {
	llama := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/props" {
			_, _ = w.Write([]byte(`{"total_slots":2}`))
			return
		}
		http.NotFound(w, r)
	}))
	defer llama.Close()
	silent := httptest.NewServer(http.NotFoundHandler())
	defer silent.Close()
	tests := []struct {
		name    string
		baseURL string
		set     int
		ask     bool
		want    int
	}{
		{"llama.cpp with 2 slots", llama.URL + "/v1", 0, true, 2},
		{"server that does not say", silent.URL + "/v1", 0, true, 0},
		{"configured", llama.URL + "/v1", 4, false, 0},
		{"hosted", "https://api.openai.com/v1", 0, false, 0},
		{"the OpenAI default", "", 0, false, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := &tickcfg.Settings{BaseURL: tc.baseURL}
			s.MaxParallelTasks = tc.set
			f := localSlots(&config{Run: tickcfg.Run{Settings: s}})
			if (f != nil) != tc.ask {
				t.Fatalf("asks the server = %v, want %v", f != nil, tc.ask)
			}
			if f != nil && f() != tc.want {
				t.Errorf("slots = %d, want %d", f(), tc.want)
			}
		})
	}
}
