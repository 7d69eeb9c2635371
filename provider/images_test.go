package provider_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

// imageRequest is one user message with a PNG attached.
func imageRequest() provider.Request {
	img := provider.Image{MediaType: "image/png", Data: []byte("\x89PNG fake"), Name: "shot.png"}
	return provider.Request{Messages: []provider.Message{{Role: provider.RoleUser, Content: "what is this?", Images: []provider.Image{img}}}}
}

// TestImagesSent: an image reaches the server as an image_url part with a
// data: URL, after the text.
func TestImagesSent(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Text: "a cat"})
	c := newClient(t, srv.URL, nil)
	if _, err := c.Stream(context.Background(), imageRequest(), provider.Handler{}); err != nil {
		t.Fatal(err)
	}
	got := srv.Requests()[0].Last()
	if got.Content != "what is this?" || len(got.Images) != 1 || got.Images[0] != "data:image/png;base64,iVBORyBmYWtl" {
		t.Errorf("sent %q with images %q; want the text and one data URL", got.Content, got.Images)
	}
	if !c.TakesImages() {
		t.Error("TakesImages is false after the server took one")
	}
}

// TestImagesRefused: a text-only model that answers 400 to image parts
// gets the same request with a note in place of the image; the user is
// told once, and later requests send notes from the start.
func TestImagesRefused(t *testing.T) {
	for _, tt := range []struct {
		name     string
		noImages bool // the config says so
		requests int  // for two calls
	}{{"learnt from the server", false, 3}, {"the config flag", true, 2}} {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.New(t)
			srv.SetFunc(func(r providertest.Request) providertest.Reply {
				if len(r.Last().Images) > 0 {
					return providertest.Reply{Status: 400, Body: `{"error":{"message":"image input is not supported by this model","type":"invalid_request_error"}}`}
				}
				return providertest.Reply{Text: "ok"}
			})
			c := newClient(t, srv.URL, func(c *provider.Config) { c.NoImages = tt.noImages })
			var notices []string
			h := provider.Handler{OnNotice: func(s string) { notices = append(notices, s) }}
			for range 2 {
				if _, err := c.Stream(context.Background(), imageRequest(), h); err != nil {
					t.Fatal(err)
				}
			}
			reqs := srv.Requests()
			if len(reqs) != tt.requests {
				t.Errorf("%d requests, want %d", len(reqs), tt.requests)
			}
			last := reqs[len(reqs)-1].Last()
			if len(last.Images) != 0 || !strings.Contains(last.Content, "shot.png (image/png) was attached, but this model does not take images") {
				t.Errorf("the last request sent %q with %d images; want the note", last.Content, len(last.Images))
			}
			if len(notices) != 1 || !strings.Contains(notices[0], "note in place of each image") {
				t.Errorf("notices %q, want one", notices)
			}
			if c.TakesImages() {
				t.Error("TakesImages is still true")
			}
		})
	}
}

// TestImagesOtherBadRequest: a 400 that is not about the image is
// returned as it is and images stay on.
func TestImagesOtherBadRequest(t *testing.T) {
	srv := providertest.New(t)
	srv.SetFunc(func(providertest.Request) providertest.Reply {
		return providertest.Reply{Status: 400, Body: `{"error":{"message":"bad","type":"invalid_request_error"}}`}
	})
	c := newClient(t, srv.URL, nil)
	if _, err := c.Stream(context.Background(), imageRequest(), provider.Handler{}); err == nil {
		t.Fatal("no error")
	}
	if !c.TakesImages() {
		t.Error("images were turned off by a 400 that was not about them")
	}
}
