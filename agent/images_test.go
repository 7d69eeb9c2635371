package agent_test

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider/providertest"
)

// writePNG writes a small PNG into dir and returns its bytes.
func writePNG(t *testing.T, dir, name string) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 3, 2))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// imagesIn returns the image URLs of every message of a request.
func imagesIn(r providertest.Request) (urls []string) {
	for _, m := range r.Messages {
		urls = append(urls, m.Images...)
	}
	return urls
}

// TestImagesReachTheRequest: read_file on an image and an @ mention of
// one each put the image into the next request as an image_url part.
func TestImagesReachTheRequest(t *testing.T) {
	for _, tt := range []struct {
		name    string
		prompt  string
		replies []providertest.Reply
	}{
		{"read_file", "look", []providertest.Reply{calls(call("read_file", `{"path":"shot.png"}`)), {Text: "a grey box"}}},
		{"mention", "what is @shot.png?", []providertest.Reply{{Text: "a grey box"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, func(c *agent.Config) { c.Mentions = true })
			writePNG(t, h.dir, "shot.png")
			h.srv.Enqueue(tt.replies...)
			evs := h.run(tt.prompt)
			end(t, evs)
			reqs := h.srv.Requests()
			last := reqs[len(reqs)-1]
			urls := imagesIn(last)
			if len(urls) != 1 || !strings.HasPrefix(urls[0], "data:image/png;base64,iVBOR") {
				t.Fatalf("images in the last request: %q", urls)
			}
			if tt.name == "read_file" && (last.Last().Role != "user" || last.Messages[len(last.Messages)-2].Role != "tool") {
				t.Errorf("the image is not in a user message after the tool result: %+v", last.Messages)
			}
			if !hasNotice(evs, "shot.png") {
				t.Errorf("no notice names the image")
			}
		})
	}
}

// TestImagesTextOnlyModel: a server that answers 400 to image parts gets
// the request again with a note in place of the image, and the user is
// told.
func TestImagesTextOnlyModel(t *testing.T) {
	h := newHarness(t, func(c *agent.Config) { c.Mentions = true })
	writePNG(t, h.dir, "shot.png")
	h.srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if len(imagesIn(r)) > 0 {
			return providertest.Reply{Status: 400, Body: `{"error":{"message":"this model does not support image input","type":"invalid_request_error"}}`}
		}
		return providertest.Reply{Text: "I cannot see it"}
	})
	evs := h.run("what is @shot.png?")
	if e := end(t, evs); e.Reason != agent.ReasonDone {
		t.Fatalf("turn ended %v: %v", e.Reason, e.Err)
	}
	reqs := h.srv.Requests()
	if got := reqs[len(reqs)-1].LastUser(); !strings.Contains(got, "shot.png (image/png) was attached, but this model does not take images") {
		t.Errorf("the model got %q, want the note", got)
	}
	if !hasNotice(evs, "refused an image") {
		t.Error("the user was not told")
	}
}

// TestPastedImageMention: an @ mention by absolute path attaches a file
// of tick's paste directory, and nothing else outside the workspace.
func TestPastedImageMention(t *testing.T) {
	paste, elsewhere := t.TempDir(), t.TempDir()
	h := newHarness(t, func(c *agent.Config) { c.Mentions = true; c.PasteDir = paste })
	writePNG(t, paste, "clip-1.png")
	writePNG(t, elsewhere, "private.png")
	if err := os.Symlink(filepath.Join(elsewhere, "private.png"), filepath.Join(paste, "link.png")); err != nil {
		t.Fatal(err)
	}
	h.srv.Enqueue(providertest.Reply{Text: "ok"})
	prompt := "see @" + filepath.Join(paste, "clip-1.png") + " @" + filepath.Join(elsewhere, "private.png") + " @" + filepath.Join(paste, "link.png")
	end(t, h.run(prompt))
	if urls := imagesIn(h.srv.Requests()[0]); len(urls) != 1 {
		t.Errorf("%d images sent, want the pasted one only", len(urls))
	}
}
