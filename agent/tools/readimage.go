package tools

import (
	"bytes"

	"context"
	"fmt"
	"github.com/tick-agent/tick/agent/humanize"
	"io"

	"github.com/tick-agent/tick/agent/internal/imagefile"
	"github.com/tick-agent/tick/provider"
)

// imagesKey carries the attach func of WithImages in a context.
type imagesKey struct{}

// WithImages returns ctx carrying attach: read_file hands it each image
// file it reads (PNG, JPEG, GIF, WebP; scaled down over the caps of
// package imagefile), and the caller sends the images to the model after
// the round's tool results (a tool message carries text only). attach
// must be safe to call from the goroutine running the tool. Without it,
// read_file refuses image files.
func WithImages(ctx context.Context, attach func(provider.Image)) context.Context {
	if attach == nil {
		return ctx
	}
	return context.WithValue(ctx, imagesKey{}, attach)
}

// readImage reads the rest of the image file f (opened at path, its first
// bytes read), hands it to ctx's attach func and returns the tool's
// result saying so.
func readImage(ctx context.Context, ws *Workspace, path string, f *sniffedFile) (string, error) {
	attach, _ := ctx.Value(imagesKey{}).(func(provider.Image))
	abs := f.abs
	data, err := io.ReadAll(io.LimitReader(io.MultiReader(bytes.NewReader(f.head), f.File), imagefile.MaxFile+1))
	switch {
	case err != nil:
		return "", fmt.Errorf("read image %q: %w", path, err)
	case len(data) > imagefile.MaxFile:
		return "", fmt.Errorf("read image %q: the file is larger than %s, more than tick attaches", path, humanize.Size(imagefile.MaxFile))
	}
	img, desc, err := imagefile.Prepare(ctx, ws.Rel(abs), data)
	if err != nil {
		return "", fmt.Errorf("read image %q: %w", path, err)
	}
	if attach == nil {
		return "", fmt.Errorf("read image %q: it is an image (%s), and images cannot be attached here; inspect it with bash (e.g. file) or ask the user to describe it", path, desc)
	}
	attach(img)
	return fmt.Sprintf("Attached the image %s (%s): it follows this round's tool results.", ws.Rel(abs), desc), nil
}
