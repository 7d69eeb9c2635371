package providertest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider/providertest"
)

func TestNoScriptedReply(t *testing.T) {
	srv := providertest.New(t)
	r := post(t, context.Background(), srv.URL, userOnly)
	if r.status != 500 || !strings.Contains(r.body, "no scripted reply") {
		t.Errorf("got %d %s", r.status, r.body)
	}
	if len(srv.Errors()) != 1 {
		t.Errorf("Errors() = %v", srv.Errors())
	}
}

func TestFuncAndWait(t *testing.T) {
	srv := providertest.New(t)
	srv.Func = func(req providertest.Request) providertest.Reply {
		return providertest.Reply{Text: "echo " + req.LastUser()}
	}
	done := make(chan []providertest.Request)
	go func() { done <- srv.Wait(2, 0) }()
	for range 2 {
		if r := post(t, context.Background(), srv.URL, userOnly); r.text() != "echo hi" {
			t.Errorf("text = %q", r.text())
		}
	}
	if reqs := <-done; len(reqs) != 2 {
		t.Errorf("Wait returned %d requests", len(reqs))
	}
}

func TestHangEndsWhenClientGoesAway(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Text: "never finished", Hang: true})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		srv.Wait(1, 0)
		time.Sleep(50 * time.Millisecond)
		cancel()
	}()
	r := post(t, ctx, srv.URL, userOnly)
	if r.readErr == nil || len(r.chunks) != 2 || r.text() != "neve" {
		t.Errorf("got %d chunks (text %q), err %v; want the role chunk and the first piece, then an error", len(r.chunks), r.text(), r.readErr)
	}
}

func TestRawReplay(t *testing.T) {
	raw, err := os.ReadFile("../testdata/openai-recorded/tool-call-in-role-chunk.sse")
	if err != nil {
		t.Fatalf("read the recorded fixture: %v", err)
	}
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Raw: raw})
	r := post(t, context.Background(), srv.URL, userOnly)
	var b strings.Builder
	for _, e := range r.events {
		b.WriteString("data: " + e + "\n\n")
	}
	if b.String() != string(raw) {
		t.Errorf("replayed stream differs from the fixture")
	}
}

func TestModels(t *testing.T) {
	srv := providertest.New(t)
	resp, err := http.Get(srv.URL + "/models")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list struct {
		Data []struct{ ID string } `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil || len(list.Data) == 0 || list.Data[0].ID != providertest.ModelName {
		t.Errorf("models: %+v %v", list, err)
	}
}

func TestNonStreaming(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{ToolCalls: []providertest.Call{{Name: "bash", Args: "{}"}}})
	r := post(t, context.Background(), srv.URL, `{"model":"m","messages":[{"role":"user","content":"hi"}]}`)
	if r.status != 200 || !strings.Contains(r.body, `"tool_calls"`) || !strings.Contains(r.body, `"chat.completion"`) {
		t.Errorf("got %d %s", r.status, r.body)
	}
}

func TestNonStreamingErrorEvent(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Text: "never", ErrorEvent: serverErrorEvent})
	r := post(t, context.Background(), srv.URL, `{"model":"m","messages":[{"role":"user","content":"hi"}]}`)
	if r.status != 200 || r.body != serverErrorEvent {
		t.Errorf("got %d %s; want the error object as a 200 JSON body", r.status, r.body)
	}
}

func TestOpenRequestsCounted(t *testing.T) {
	srv := providertest.New(t)
	srv.Func = func(req providertest.Request) providertest.Reply {
		if !srv.WaitOpen(3, 0) { // hold every answer until all three are open
			return providertest.Reply{Text: "alone"}
		}
		return providertest.Reply{Text: "together"}
	}
	results := make(chan string, 3)
	for range 3 {
		go func() { results <- post(t, context.Background(), srv.URL, userOnly).text() }()
	}
	for range 3 {
		if got := <-results; got != "together" {
			t.Errorf("text = %q, want together (three requests open at once)", got)
		}
	}
	if srv.MaxOpen() != 3 {
		t.Errorf("MaxOpen = %d, want 3", srv.MaxOpen())
	}
	srv.Wait(3, 0)
	if !waitFor(func() bool { return srv.Open() == 0 }) {
		t.Errorf("Open = %d after every answer, want 0", srv.Open())
	}
}

// waitFor polls cond for up to 5 seconds.
func waitFor(cond func() bool) bool {
	for range 500 {
		if cond() {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return cond()
}
