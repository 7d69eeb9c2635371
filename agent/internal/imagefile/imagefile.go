// Package imagefile turns an image file's bytes into a provider.Image fit
// to send to a model: PNG, JPEG, GIF or WebP, recognised by content, kept
// as it is when it is small enough, else decoded, scaled down and encoded
// again as JPEG until it fits the caps. Sessions save the result as it is
// sent, so the caps also bound what an image adds to a session file.
//
// The bytes come from a file a repository or the user supplies: they are
// untrusted. A file whose header claims more pixels than MaxPixels is
// refused before it is decoded, and so is one whose decoder would decode
// a frame other than its header claims, take more than MaxDecodeBytes or
// walk more than MaxScans scans (checked on the headers the decoder
// itself follows, frame.go), so a small file cannot make tick allocate
// gigabytes. Decoding runs in a goroutine of its own that recovers a
// decoder's panic and is abandoned when the caller's context ends or
// DecodeTimeout passes (decode.go).
package imagefile

import (
	"github.com/tick-agent/tick/agent/humanize"

	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	_ "image/gif" // registers GIF for image.Decode
	"image/jpeg"
	_ "image/png" // registers PNG for image.Decode
	"net/http"
	"strings"
	"time"

	xdraw "golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // registers WebP for image.Decode

	"github.com/tick-agent/tick/provider"
)

// Caps on an image sent to a model.
const (
	// MaxFile is the most bytes of an image file read.
	MaxFile = 20 << 20
	// MaxBytes is the most bytes of an image sent (about 1.4 MiB as a
	// data: URL); a larger file is scaled down and encoded as JPEG.
	MaxBytes = 1 << 20
	// MaxSide is the most pixels of the longer side sent; most vision
	// models scale larger images down anyway.
	MaxSide = 2048
	// MaxPixels is the most pixels a file may claim before it is refused
	// undecoded.
	MaxPixels = 64 << 20
	// MaxDecodeBytes is about the most memory decoding one file may take,
	// estimated from its headers before it is decoded (a lossless WebP
	// takes about 12 bytes a pixel, a progressive JPEG's coefficients 4
	// bytes a pixel and component).
	MaxDecodeBytes = 384 << 20
	// MaxScans is the most scans of a JPEG tick decodes; encoders write
	// about ten, and each scan walks every block of its components again.
	MaxScans = 64
	// MaxScanBlocks is the most 8×8 blocks a JPEG's scans may walk all
	// told (a 12-megapixel photo's ten scans walk about 1.2 million).
	MaxScanBlocks = 24 << 20
	// DecodeTimeout is the longest decoding and scaling one file may take
	// before it is abandoned.
	DecodeTimeout = 20 * time.Second
)

// ErrNotImage says the bytes are not a PNG, JPEG, GIF or WebP image.
var ErrNotImage = errors.New("not a PNG, JPEG, GIF or WebP image")

// MediaType returns the media type of an image tick sends, recognised by
// its first bytes, or "" for anything else.
func MediaType(data []byte) string {
	switch t := http.DetectContentType(data); t {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
		return t
	}
	return ""
}

// Prepare returns data as an Image named name, within MaxBytes and
// MaxSide, and a short description for people and the model ("PNG,
// 800×600, 120 KiB", "JPEG, 2048×1536, 410 KiB, scaled down from
// 4032×3024"). Errors: ErrNotImage, a refusal of a picture too large to
// decode (by its header, and by the frame the decoder would decode), a
// file that does not decode, a decoder that failed (a panic, recovered),
// and decoding abandoned when ctx ends or after DecodeTimeout.
func Prepare(ctx context.Context, name string, data []byte) (provider.Image, string, error) {
	mt := MediaType(data)
	if mt == "" {
		return provider.Image{}, "", fmt.Errorf("image %s: %w", name, ErrNotImage)
	}
	cfg, err := decodeConfig(data)
	if err != nil {
		return provider.Image{}, "", fmt.Errorf("image %s: read its header: %w", name, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || int64(cfg.Width)*int64(cfg.Height) > MaxPixels {
		return provider.Image{}, "", fmt.Errorf("image %s: %d×%d pixels is more than tick decodes (%d megapixels)", name, cfg.Width, cfg.Height, MaxPixels>>20)
	}
	if len(data) <= MaxBytes && max(cfg.Width, cfg.Height) <= MaxSide {
		img := provider.Image{MediaType: mt, Data: data, Name: name}
		return img, fmt.Sprintf("%s, %d×%d, %s", kind(mt), cfg.Width, cfg.Height, humanize.Size(int64(len(data)))), nil
	}
	if err := checkFrame(mt, data, cfg); err != nil {
		return provider.Image{}, "", fmt.Errorf("image %s: %w", name, err)
	}
	out, w, h, err := decodeShrink(ctx, data, cfg)
	if err != nil {
		return provider.Image{}, "", fmt.Errorf("image %s: %w", name, err)
	}
	img := provider.Image{MediaType: "image/jpeg", Data: out, Name: name}
	return img, fmt.Sprintf("JPEG, %d×%d, %s, scaled down from %s %d×%d", w, h, humanize.Size(int64(len(out))), kind(mt), cfg.Width, cfg.Height), nil
}

// shrink scales src to fit MaxSide and encodes it as JPEG, scaling further
// until the encoding fits MaxBytes. Transparent parts become white.
func shrink(src image.Image) ([]byte, int, int, error) {
	b := src.Bounds()
	scale := min(1, float64(MaxSide)/float64(max(b.Dx(), b.Dy())))
	for range 8 {
		w, h := max(1, int(float64(b.Dx())*scale)), max(1, int(float64(b.Dy())*scale))
		dst := image.NewRGBA(image.Rect(0, 0, w, h))
		draw.Draw(dst, dst.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
		xdraw.CatmullRom.Scale(dst, dst.Bounds(), src, b, draw.Over, nil)
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, dst, &jpeg.Options{Quality: 85}); err != nil {
			return nil, 0, 0, fmt.Errorf("encode as JPEG: %w", err)
		}
		if buf.Len() <= MaxBytes {
			return buf.Bytes(), w, h, nil
		}
		scale *= 0.7
	}
	return nil, 0, 0, errors.New("does not fit the size cap even scaled down")
}

// kind names a media type for people: PNG, JPEG, GIF, WebP.
func kind(mt string) string {
	if mt == "image/webp" {
		return "WebP"
	}
	return strings.ToUpper(strings.TrimPrefix(mt, "image/"))
}
