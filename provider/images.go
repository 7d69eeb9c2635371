package provider

import (
	"encoding/base64"
	"fmt"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// withImages puts a user message's images into om: as image_url parts
// after the text when the model takes images (each URL a placeholder that
// refs fills in as the request is sent), else as a note per image appended
// to the text.
func (c *Client) withImages(om *openai.ChatCompletionMessage, images []Image, refs *imageRefs) {
	if len(images) == 0 {
		return
	}
	if c.noImages.Load() {
		var b strings.Builder
		b.WriteString(om.Content)
		for _, img := range images {
			if b.Len() > 0 {
				b.WriteString("\n")
			}
			b.WriteString(ImageNote(img))
		}
		om.Content = b.String()
		return
	}
	text := om.Content
	if text == "" {
		text = "(images attached)"
	}
	om.MultiContent = []openai.ChatMessagePart{{Type: openai.ChatMessagePartTypeText, Text: text}}
	om.Content = ""
	for _, img := range images {
		url, nonce := c.images.get(img)
		om.MultiContent = append(om.MultiContent, openai.ChatMessagePart{
			Type:     openai.ChatMessagePartTypeImageURL,
			ImageURL: &openai.ChatMessageImageURL{URL: refs.ref(nonce, url), Detail: openai.ImageURLDetailAuto},
		})
	}
}

// DataURL returns img as a data: URL ("data:image/png;base64,...").
func DataURL(img Image) string {
	return "data:" + img.MediaType + ";base64," + base64.StdEncoding.EncodeToString(img.Data)
}

// ImageNote is what a model that takes no images gets in place of img.
func ImageNote(img Image) string {
	name := img.Name
	if name == "" {
		name = "an image"
	}
	return fmt.Sprintf("[%s (%s) was attached, but this model does not take images, so it was not sent. Do not claim to see it; ask the user to describe it if it matters.]", name, img.MediaType)
}

// hasImages reports whether any message of req carries an image.
func hasImages(req Request) bool {
	for _, m := range req.Messages {
		if len(m.Images) > 0 {
			return true
		}
	}
	return false
}

// tellImages says once per client that images go as notes.
func (c *Client) tellImages(msg string, h Handler) {
	if !c.toldImages.Swap(true) && h.OnNotice != nil {
		h.OnNotice(msg)
	}
}

// TakesImages reports whether the client still sends images (neither the
// config nor the server said no).
func (c *Client) TakesImages() bool { return !c.noImages.Load() }
