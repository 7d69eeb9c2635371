package imagefile

import (
	"encoding/binary"
	"fmt"
)

// jpegFrame walks a JPEG's markers and returns its first SOF's picture
// (the decoder refuses a second), its number of scans and the blocks they
// walk. A progressive JPEG keeps every block's coefficients between scans
// (256 bytes a block), which the estimate counts.
func jpegFrame(data []byte) (frame, error) {
	if len(data) < 4 || data[0] != 0xff || data[1] != 0xd8 {
		return frame{}, fmt.Errorf("%w: no JPEG start marker", errFrame)
	}
	var f frame
	var blocks [256]int64 // of each component, by its id
	sof := false
	for i := 2; i+4 <= len(data); {
		m := data[i+1]
		switch {
		case data[i] != 0xff || m == 0xff:
			i++ // entropy-coded data, or a fill byte
			continue
		case m == 0x00 || m == 0x01 || m >= 0xd0 && m <= 0xd7:
			i += 2 // a stuffed byte, TEM or a restart marker: no length
			continue
		case m == 0xd9:
			return f, nil
		}
		n := int(binary.BigEndian.Uint16(data[i+2:]))
		if n < 2 || i+2+n > len(data) {
			return f, nil // cut short: the decoder fails on it
		}
		seg := data[i+4 : i+2+n]
		switch {
		case m == 0xda:
			f.scans++
			for c := 0; len(seg) > 0 && c < int(seg[0]) && 2+2*c < len(seg); c++ {
				f.work += blocks[seg[1+2*c]]
			}
		case isSOF(m) && !sof:
			sof = true
			var err error
			if f, err = jpegSOF(seg, m == 0xc2, &blocks); err != nil {
				return frame{}, err
			}
		}
		i += 2 + n
	}
	return f, nil
}

// isSOF reports whether m is a start-of-frame marker (not DHT, JPG, DAC).
func isSOF(m byte) bool { return m >= 0xc0 && m <= 0xcf && m != 0xc4 && m != 0xc8 && m != 0xcc }

// jpegSOF reads a SOF segment (precision, height, width, then each
// component's id, sampling factors and table) and sets the blocks of each
// component.
func jpegSOF(seg []byte, progressive bool, blocks *[256]int64) (frame, error) {
	if len(seg) < 6 || len(seg) < 6+3*int(seg[5]) {
		return frame{}, fmt.Errorf("%w: a short SOF segment", errFrame)
	}
	h, w, nc := int(binary.BigEndian.Uint16(seg[1:])), int(binary.BigEndian.Uint16(seg[3:])), int(seg[5])
	f := frame{w: w, h: h, bytes: int64(w) * int64(h) * int64(max(nc, 1))}
	if nc == 4 {
		f.bytes += int64(w) * int64(h) * 4 // CMYK is converted to RGBA
	}
	hmax, vmax := 1, 1
	for c := range nc {
		s := seg[7+3*c]
		hmax, vmax = max(hmax, int(s>>4)), max(vmax, int(s&15))
	}
	mxx, myy := int64((w+8*hmax-1)/(8*hmax)), int64((h+8*vmax-1)/(8*vmax))
	for c := range nc {
		s := seg[7+3*c]
		n := mxx * myy * int64(s>>4) * int64(s&15)
		blocks[seg[6+3*c]] = n
		if progressive {
			f.bytes += n * 256
		}
	}
	return f, nil
}
