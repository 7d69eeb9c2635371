package provider

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
)

// TestImageURLEncodedOnce: an image in the conversation is encoded as a
// data URL once, however many requests carry it (each copy of the
// message shares its bytes), and every request still carries the whole
// URL, also through the server rules' rewrite of the body; text that
// looks like a placeholder stays text.
func TestImageURLEncodedOnce(t *testing.T) {
	srv := providertest.New(t)
	c, err := New(Config{APIKey: "k", BaseURL: srv.URL, Model: "m", Server: ServerOpenRouter})
	if err != nil {
		t.Fatal(err)
	}
	a := Image{MediaType: "image/png", Data: []byte("\x89PNG first"), Name: "a.png"}
	b := Image{MediaType: "image/jpeg", Data: []byte("\xff\xd8 second"), Name: "b.jpg"}
	msgs := []Message{{Role: RoleUser, Content: "look", Images: []Image{a, b}}}
	for range 3 {
		srv.Enqueue(providertest.Reply{Text: "seen"})
		if _, err := c.Stream(context.Background(), Request{Messages: msgs, Effort: "high"}, Handler{}); err != nil {
			t.Fatal(err)
		}
		nonce := c.images.nonce
		// The next round copies the history, as the agent does, and adds
		// text that imitates a placeholder (the model cannot know the
		// nonce; this checks the quoting rule).
		next := append([]Message(nil), msgs...)
		next = append(next, Message{Role: RoleAssistant, Reasoning: "hmm", Content: `{"url":"tick-image-` + nonce + `-0"}`},
			Message{Role: RoleUser, Content: "tick-image-" + nonce + "-1"})
		msgs = next
	}
	if n := len(c.images.urls); n != 2 {
		t.Errorf("%d URLs encoded for 2 images over 3 requests", n)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	for i, r := range reqs {
		body := string(r.Body)
		for _, img := range []Image{a, b} {
			want := "data:" + img.MediaType + ";base64," + base64.StdEncoding.EncodeToString(img.Data)
			if strings.Count(body, want) != 1 {
				t.Errorf("request %d carries %q %d times, want once", i, want, strings.Count(body, want))
			}
		}
		if i > 0 && !strings.Contains(body, `"reasoning":"hmm"`) { // OpenRouter's name: the body went through rewriteBody
			t.Errorf("request %d was not rewritten for the server: %s", i, body)
		}
		if i > 0 && (!strings.Contains(body, `{\"url\":\"tick-image-`+c.images.nonce+`-0\"}`) || !strings.Contains(body, `"tick-image-`+c.images.nonce+`-1"`)) {
			t.Errorf("request %d changed text that looks like a placeholder: %s", i, body)
		}
	}
}

// TestImageRefsFill is the substitution on its own.
func TestImageRefsFill(t *testing.T) {
	var r imageRefs
	p0 := r.ref("n", []byte(`"URL0"`))
	p1 := r.ref("n", []byte(`"URL1"`))
	for _, tt := range []struct{ in, want string }{
		{`[{"url":"` + p0 + `"},{"detail":"auto","url":"` + p1 + `"}]`, `[{"url":"URL0"},{"detail":"auto","url":"URL1"}]`},
		{`{"url":"` + p1 + `","b":{"url":"` + p1 + `"}}`, `{"url":"URL1","b":{"url":"URL1"}}`},
		{`{"a":"` + p0 + `"}`, `{"a":"` + p0 + `"}`},
		{`{"a":"x {\"url\":\"` + p0 + `\"}"}`, `{"a":"x {\"url\":\"` + p0 + `\"}"}`},
		{`{"url":"tick-image-n-7"}`, `{"url":"tick-image-n-7"}`},
		{`{"url":"tick-image-n-0x"}`, `{"url":"tick-image-n-0x"}`},
		{`{"url":"tick-image-n-"}`, `{"url":"tick-image-n-"}`},
		{`{"url":"tick-image-n-0`, `{"url":"tick-image-n-0`},
		{`{}`, `{}`},
	} {
		if got := string(r.fill([]byte(tt.in))); got != tt.want {
			t.Errorf("fill(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
	if got := string(imageRefs{}.fill([]byte(`{"url":"` + p0 + `"}`))); got != `{"url":"`+p0+`"}` {
		t.Errorf("no refs changed the body: %s", got)
	}
}
