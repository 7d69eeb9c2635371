package imagefile

import (
	"encoding/binary"
	"fmt"
	"strings"
)

// webpFrame walks a WebP's RIFF chunks as the decoder does and returns the
// frame it decodes: the first VP8 (lossy) or VP8L (lossless) chunk's own
// size. A VP8X canvas that differs from that frame is refused: the decoder
// sizes the alpha plane by the canvas and the picture by the frame, so a
// mismatch either panics or decodes far more than the canvas claims.
func webpFrame(data []byte) (frame, error) {
	if len(data) < 12 || string(data[:4]) != "RIFF" || string(data[8:12]) != "WEBP" {
		return frame{}, fmt.Errorf("%w: no RIFF WEBP header", errFrame)
	}
	var canvasW, canvasH int
	var canvas, alpha bool
	for rest := data[12:]; len(rest) >= 8; {
		id, n := string(rest[:4]), int64(binary.LittleEndian.Uint32(rest[4:]))
		body := rest[8:]
		if n > int64(len(body)) {
			n = int64(len(body)) // cut short: the decoder fails on it later
		}
		body = body[:n]
		switch id {
		case "VP8X":
			if len(body) < 10 {
				return frame{}, fmt.Errorf("%w: a short VP8X chunk", errFrame)
			}
			canvas, alpha = true, body[0]&0x10 != 0
			canvasW, canvasH = int(le24(body[4:]))+1, int(le24(body[7:]))+1
		case "VP8 ", "VP8L":
			f, err := webpImage(id, body)
			if err != nil {
				return frame{}, err
			}
			if canvas && (f.w != canvasW || f.h != canvasH) {
				return frame{}, fmt.Errorf("%w: its %s frame is %d×%d but its canvas says %d×%d", errFrame, strings.TrimSpace(id), f.w, f.h, canvasW, canvasH)
			}
			if alpha {
				f.bytes += int64(f.w) * int64(f.h) * 13 // the alpha plane, decoded as a lossless picture
			}
			return f, nil
		}
		rest = rest[min(8+n+n&1, int64(len(rest))):] // a last chunk may lack its pad byte
	}
	return frame{}, fmt.Errorf("%w: no VP8 or VP8L frame", errFrame)
}

// webpImage reads the size of a VP8 or VP8L chunk's picture.
func webpImage(id string, body []byte) (frame, error) {
	if id == "VP8L" {
		if len(body) < 5 || body[0] != 0x2f {
			return frame{}, fmt.Errorf("%w: a VP8L chunk without its signature", errFrame)
		}
		bits := binary.LittleEndian.Uint32(body[1:])
		w, h := int(bits&0x3fff)+1, int(bits>>14&0x3fff)+1
		// ARGB words, the transforms' copy, then the NRGBA picture.
		return frame{w: w, h: h, bytes: int64(w) * int64(h) * 12}, nil
	}
	if len(body) < 10 || body[0]&1 != 0 || string(body[3:6]) != "\x9d\x01\x2a" {
		return frame{}, fmt.Errorf("%w: a VP8 chunk that is not a key frame", errFrame)
	}
	w, h := int(binary.LittleEndian.Uint16(body[6:])&0x3fff), int(binary.LittleEndian.Uint16(body[8:])&0x3fff)
	// YCbCr 4:2:0 and the decoder's per-macroblock state.
	return frame{w: w, h: h, bytes: int64(w) * int64(h) * 3}, nil
}

// le24 reads a little-endian 24-bit number.
func le24(b []byte) uint32 { return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 }
