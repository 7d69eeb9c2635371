package imagefile

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"strings"
	"testing"
)

// picture returns a w×h image of noise (which compresses badly).
func picture(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(1, 2))
	for i := range img.Pix {
		img.Pix[i] = byte(r.IntN(256))
	}
	return img
}

func encoded(t *testing.T, f func(*bytes.Buffer) error) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := f(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// webpLossless is a 1×1 lossless WebP.
var webpLossless = []byte("RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00")

func TestPrepare(t *testing.T) {
	small := encoded(t, func(b *bytes.Buffer) error { return png.Encode(b, picture(40, 30)) })
	big := encoded(t, func(b *bytes.Buffer) error { return png.Encode(b, picture(2200, 300)) })
	gifData := encoded(t, func(b *bytes.Buffer) error {
		return gif.Encode(b, image.NewPaletted(image.Rect(0, 0, 8, 8), []color.Color{color.Black, color.White}), nil)
	})
	jpg := encoded(t, func(b *bytes.Buffer) error { return jpeg.Encode(b, picture(20, 20), nil) })
	// A PNG header claiming 100000×100000 pixels, with no pixel data.
	bomb := append([]byte(nil), small[:33]...)
	copy(bomb[16:24], []byte{0, 1, 0x86, 0xa0, 0, 1, 0x86, 0xa0})
	binary.BigEndian.PutUint32(bomb[29:33], crc32.ChecksumIEEE(bomb[12:29]))
	for _, tt := range []struct {
		name    string
		data    []byte
		mt      string
		same    bool
		desc    string
		wantErr error
		errText string
	}{
		{name: "small PNG as it is", data: small, mt: "image/png", same: true, desc: "PNG, 40×30"},
		{name: "GIF as it is", data: gifData, mt: "image/gif", same: true, desc: "GIF, 8×8"},
		{name: "JPEG as it is", data: jpg, mt: "image/jpeg", same: true, desc: "JPEG, 20×20"},
		{name: "WebP as it is", data: webpLossless, mt: "image/webp", same: true, desc: "WebP, 1×1"},
		{name: "large PNG scaled", data: big, mt: "image/jpeg", desc: "scaled down from PNG 2200×300"},
		{name: "text", data: []byte("hello"), wantErr: ErrNotImage},
		{name: "decompression bomb", data: bomb, errText: "more than tick decodes"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			img, desc, err := Prepare(context.Background(), "x", tt.data)
			if tt.wantErr != nil || tt.errText != "" {
				if err == nil || tt.wantErr != nil && !errors.Is(err, tt.wantErr) || !strings.Contains(err.Error(), tt.errText) {
					t.Fatalf("err = %v, want %v %q", err, tt.wantErr, tt.errText)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if img.MediaType != tt.mt || !strings.Contains(desc, tt.desc) || bytes.Equal(img.Data, tt.data) != tt.same {
				t.Errorf("got %s, %q (same bytes %v); want %s, %q (same %v)", img.MediaType, desc, bytes.Equal(img.Data, tt.data), tt.mt, tt.desc, tt.same)
			}
			if len(img.Data) > MaxBytes {
				t.Errorf("%d bytes, over the cap", len(img.Data))
			}
			if !tt.same {
				cfg, err := jpeg.DecodeConfig(bytes.NewReader(img.Data))
				if err != nil || max(cfg.Width, cfg.Height) > MaxSide {
					t.Errorf("scaled image: %v, %d×%d", err, cfg.Width, cfg.Height)
				}
			}
		})
	}
}
