package imagefile

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// frame is what decoding a file allocates for, read from the headers the
// decoder itself follows rather than from the first one a file shows: a
// WebP's VP8 or VP8L frame (not its VP8X canvas), a JPEG's SOF and its
// number of scans, a PNG's IHDR, a GIF's logical screen (its frames lie
// inside it).
type frame struct {
	w, h  int   // pixels of the picture decoded
	bytes int64 // about how many bytes decoding allocates
	scans int   // a JPEG's scans; 0 for other formats
	work  int64 // the blocks a JPEG's scans walk, all told
}

// errFrame says a file's headers do not describe one picture tick can
// decode safely.
var errFrame = errors.New("its headers do not describe a picture tick decodes")

// shrinkBytes is about what scaling and encoding a decoded picture adds:
// the scaled copy (at most MaxSide² RGBA) and its JPEG encoding.
const shrinkBytes = 4*MaxSide*MaxSide + 2*MaxBytes

// inspect reads the frame of data, an image of media type mt.
func inspect(mt string, data []byte) (frame, error) {
	var f frame
	var err error
	switch mt {
	case "image/webp":
		f, err = webpFrame(data)
	case "image/jpeg":
		f, err = jpegFrame(data)
	case "image/png":
		f, err = pngFrame(data)
	case "image/gif":
		f, err = gifFrame(data)
	default:
		err = ErrNotImage
	}
	if err == nil && (f.w <= 0 || f.h <= 0) {
		err = fmt.Errorf("%w: an empty picture (%d×%d)", errFrame, f.w, f.h)
	}
	f.bytes += shrinkBytes
	return f, err
}

// pngFrame reads a PNG's IHDR: 8 bytes of signature, then the chunk's
// length and type, width, height, bit depth, colour type, compression,
// filter and interlace method.
func pngFrame(data []byte) (frame, error) {
	if len(data) < 29 || string(data[12:16]) != "IHDR" {
		return frame{}, fmt.Errorf("%w: no IHDR chunk first", errFrame)
	}
	w, h := int64(binary.BigEndian.Uint32(data[16:])), int64(binary.BigEndian.Uint32(data[20:]))
	if w > 1<<30 || h > 1<<30 {
		return frame{}, fmt.Errorf("%w: %d×%d in IHDR", errFrame, w, h)
	}
	depth, colour, interlaced := data[24], data[25], data[28] == 1
	bpp := int64(4) // RGBA, NRGBA
	switch {
	case depth == 16 && colour == 0:
		bpp = 2 // Gray16
	case depth == 16:
		bpp = 8 // RGBA64, NRGBA64
	case colour == 0 || colour == 3:
		bpp = 1 // Gray, Paletted
	}
	n := w * h * bpp
	if interlaced {
		n *= 2 // each pass is decoded into a picture of its own
	}
	return frame{w: int(w), h: int(h), bytes: n}, nil
}

// gifFrame reads a GIF's logical screen; the decoder refuses a frame that
// does not lie inside it, and decodes the first frame only (one byte a
// pixel).
func gifFrame(data []byte) (frame, error) {
	if len(data) < 10 {
		return frame{}, fmt.Errorf("%w: no logical screen", errFrame)
	}
	w, h := int(binary.LittleEndian.Uint16(data[6:])), int(binary.LittleEndian.Uint16(data[8:]))
	return frame{w: w, h: h, bytes: int64(w) * int64(h)}, nil
}
