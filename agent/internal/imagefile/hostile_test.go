package imagefile

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"image"
	"image/jpeg"
	"image/png"
	"runtime"
	"strings"
	"testing"
)

// riffChunk is one RIFF chunk: id, little-endian length, body, padding.
func riffChunk(id string, body []byte) []byte {
	b := binary.LittleEndian.AppendUint32([]byte(id), uint32(len(body)))
	b = append(b, body...)
	if len(body)%2 == 1 {
		b = append(b, 0)
	}
	return b
}

// webpFile wraps chunks in a RIFF WEBP header.
func webpFile(chunks ...[]byte) []byte {
	body := []byte("WEBP")
	for _, c := range chunks {
		body = append(body, c...)
	}
	return append(binary.LittleEndian.AppendUint32([]byte("RIFF"), uint32(len(body))), body...)
}

// vp8x is a VP8X chunk's body: flags, then the canvas's size less one.
func vp8x(w, h int, alpha bool) []byte {
	b := make([]byte, 10)
	if alpha {
		b[0] = 0x10
	}
	b[4], b[5], b[6] = byte(w-1), byte((w-1)>>8), byte((w-1)>>16)
	b[7], b[8], b[9] = byte(h-1), byte((h-1)>>8), byte((h-1)>>16)
	return b
}

// vp8Frame is a lossy key frame of w×h whose partitions are all zero
// bits (which decodes to a flat picture).
func vp8Frame(w, h int) []byte {
	const part = 64
	b := make([]byte, 10+part+256)
	tag := uint32(1<<4 | part<<5) // key frame, shown, first partition's size
	b[0], b[1], b[2] = byte(tag), byte(tag>>8), byte(tag>>16)
	copy(b[3:], "\x9d\x01\x2a")
	binary.LittleEndian.PutUint16(b[6:], uint16(w))
	binary.LittleEndian.PutUint16(b[8:], uint16(h))
	return b
}

// panicWebP is the crafted WebP of issue 28: a 4096×1 canvas with an
// alpha plane, around a smaller lossy frame of two rows, which made the
// decoder's picture index past its alpha plane.
func panicWebP() []byte {
	return webpFile(riffChunk("VP8X", vp8x(4096, 1, true)), riffChunk("ALPH", append([]byte{0}, make([]byte, 4096)...)), riffChunk("VP8 ", vp8Frame(150, 2)))
}

// bombWebP is the 46-byte WebP of issue 28: a 16384×16384 lossless frame
// of one colour behind a 4096×1 canvas (decoding it took 2 GB).
func bombWebP() []byte {
	return webpFile(riffChunk("VP8X", vp8x(4096, 1, false)), vp8lChunk(16384, 16384))
}

// vp8lChunk is a VP8L chunk of a w×h frame of one colour: no transform,
// no colour cache, no meta codes, and five prefix codes of one symbol
// each, so that every pixel takes no bits at all.
func vp8lChunk(w, h int) []byte {
	bits := uint32(w-1) | uint32(h-1)<<14
	return riffChunk("VP8L", append(binary.LittleEndian.AppendUint32([]byte{0x2f}, bits), 0x88, 0x88, 0x08))
}

// oddTailWebP is a WebP whose canvas is over MaxSide (so its frame is
// inspected) and whose last chunk has an odd length and no pad byte after
// it: the walk over its chunks stepped past the end of the file.
func oddTailWebP() []byte {
	return webpFile(riffChunk("VP8X", vp8x(4096, 1, false)), append(binary.LittleEndian.AppendUint32([]byte("ALPH"), 3), 1, 2, 3))
}

// losslessWebP is a lossless WebP of w×h of one colour.
func losslessWebP(w, h int) []byte { return webpFile(vp8lChunk(w, h)) }

// scanBombJPEG is a progressive grayscale JPEG of side×side pixels with a
// DC scan and then scans AC scans of end-of-band runs, each of which walks
// every block again.
func scanBombJPEG(side, scans int) []byte {
	seg := func(b []byte, marker byte, body ...byte) []byte {
		return append(binary.BigEndian.AppendUint16(append(b, 0xff, marker), uint16(len(body)+2)), body...)
	}
	b := []byte{0xff, 0xd8}
	b = seg(b, 0xdb, append([]byte{0}, bytes.Repeat([]byte{1}, 64)...)...)
	b = seg(b, 0xc2, 8, byte(side>>8), byte(side), byte(side>>8), byte(side), 1, 1, 0x11, 0)
	one := append([]byte{1}, make([]byte, 15)...)                   // one code of one bit
	b = seg(b, 0xc4, append(append([]byte{0x00}, one...), 0x00)...) // DC: '0' is category 0
	b = seg(b, 0xc4, append(append([]byte{0x10}, one...), 0xe0)...) // AC: '0' is an EOB run of 2^14 + 14 bits
	blocks := (side / 8) * (side / 8)
	b = seg(b, 0xda, 1, 1, 0x00, 0, 0, 0)
	b = append(b, make([]byte, blocks/8)...) // a '0' a block
	for range scans {
		b = seg(b, 0xda, 1, 1, 0x00, 1, 63, 0)
		b = append(b, make([]byte, (blocks/16384*15+7)/8)...) // runs of 16384 blocks
	}
	return append(b, 0xff, 0xd9)
}

// TestPrepareHostile: crafted files are refused before they are decoded,
// with an error naming the file, and never panic.
func TestPrepareHostile(t *testing.T) {
	for _, tt := range []struct {
		name string
		data []byte
		want string
	}{
		{"canvas wider than its frame (panicked)", panicWebP(), "frame is 150×2 but its canvas says 4096×1"},
		{"lossless frame behind a small canvas (2 GB)", bombWebP(), "frame is 16384×16384 but its canvas says 4096×1"},
		{"progressive scan bomb", scanBombJPEG(8192, 2000), "2001 scans is more than tick decodes"},
		{"lossless, too large to decode in memory", losslessWebP(8000, 8000), "about 750 MiB, more than tick spends on an image"},
		{"fewer scans, each of many blocks", scanBombJPEG(8192, 40), "41 scans walk 41 million blocks"},
		{"a last chunk of odd length without its pad byte (panicked)", oddTailWebP(), "no VP8 or VP8L frame"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, _, err := Prepare(context.Background(), "evil.png", tt.data)
			runtime.ReadMemStats(&after)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "image evil.png: ") {
				t.Fatalf("err = %v, want a refusal naming evil.png: %q", err, tt.want)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
				t.Errorf("refusing it allocated %d MiB", grew>>20)
			}
		})
	}
}

// TestDecodeRecovers: a decoder's panic (the crafted WebP past the header
// checks, its size taken from its frame) comes back as an error, and so
// does a picture whose decoded size is not its header's.
func TestDecodeRecovers(t *testing.T) {
	data := panicWebP()
	_, _, _, err := decodeShrink(context.Background(), data, image.Config{Width: 150, Height: 2})
	if err == nil || !strings.Contains(err.Error(), "the decoder failed on it") {
		t.Errorf("frame-sized: err = %v, want the recovered panic", err)
	}
	_, _, _, err = decodeShrink(context.Background(), data, image.Config{Width: 4096, Height: 1})
	if !errors.Is(err, errFrame) {
		t.Errorf("canvas-sized: err = %v, want errFrame", err)
	}
}

// TestDecodeAbandoned: decoding stops waiting when its context ends.
func TestDecodeAbandoned(t *testing.T) {
	data := encoded(t, func(b *bytes.Buffer) error { return png.Encode(b, picture(2100, 10)) })
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("the user pressed esc"))
	_, _, err := Prepare(ctx, "big.png", data)
	if err == nil || !strings.Contains(err.Error(), "image big.png: decoding abandoned: the user pressed esc") {
		t.Errorf("err = %v, want decoding abandoned", err)
	}
}

// TestPrepareTall: a tall picture is scaled down like a wide one.
func TestPrepareTall(t *testing.T) {
	data := encoded(t, func(b *bytes.Buffer) error { return png.Encode(b, picture(300, 2200)) })
	img, desc, err := Prepare(context.Background(), "tall.png", data)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(img.Data))
	if err != nil || cfg.Height != MaxSide || cfg.Width >= 300 || !strings.Contains(desc, "scaled down from PNG 300×2200") {
		t.Errorf("%s: %v, %d×%d", desc, err, cfg.Width, cfg.Height)
	}
}

// TestLosslessDecodes: the one-colour lossless frame the bombs are made of
// is a valid picture (so the bombs would decode, and allocate, in full).
func TestLosslessDecodes(t *testing.T) {
	img, _, err := image.Decode(bytes.NewReader(losslessWebP(64, 2100)))
	if err != nil || img.Bounds().Dx() != 64 || img.Bounds().Dy() != 2100 {
		t.Fatalf("%v, %v", err, img)
	}
	if _, desc, err := Prepare(context.Background(), "tall.webp", losslessWebP(64, 2100)); err != nil || !strings.Contains(desc, "scaled down from WebP 64×2100") {
		t.Errorf("%q, %v", desc, err)
	}
}
