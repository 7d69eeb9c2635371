package imagefile

import (
	"bytes"
	"context"
	"fmt"
	"image"
)

// checkFrame refuses data, whose header says cfg, when what its decoder
// would decode differs from cfg or is more than tick decodes.
func checkFrame(mt string, data []byte, cfg image.Config) error {
	f, err := inspect(mt, data)
	switch {
	case err != nil:
		return err
	case f.w != cfg.Width || f.h != cfg.Height:
		return fmt.Errorf("%w: the header says %d×%d but the picture decoded is %d×%d", errFrame, cfg.Width, cfg.Height, f.w, f.h)
	case int64(f.w)*int64(f.h) > MaxPixels:
		return fmt.Errorf("%d×%d pixels is more than tick decodes (%d megapixels)", f.w, f.h, MaxPixels>>20)
	case f.scans > MaxScans:
		return fmt.Errorf("%d scans is more than tick decodes (%d)", f.scans, MaxScans)
	case f.work > MaxScanBlocks:
		return fmt.Errorf("its %d scans walk %d million blocks, more than tick decodes (%d million)", f.scans, f.work>>20, MaxScanBlocks>>20)
	case f.bytes > MaxDecodeBytes:
		return fmt.Errorf("decoding it would take about %d MiB, more than tick spends on an image (%d MiB)", f.bytes>>20, MaxDecodeBytes>>20)
	}
	return nil
}

// decodeConfig reads data's header, a decoder's panic recovered as an
// error.
func decodeConfig(data []byte) (cfg image.Config, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the decoder failed on it (%v); the file is damaged or crafted", p)
		}
	}()
	cfg, _, err = image.DecodeConfig(bytes.NewReader(data))
	return cfg, err
}

// shrunk is the outcome of decodeShrink's goroutine.
type shrunk struct {
	out  []byte
	w, h int
	err  error
}

// decodeShrink decodes data (whose header says cfg) and shrinks it, in a
// goroutine that recovers a decoder's panic. It returns when that is done,
// or abandons it when ctx ends or DecodeTimeout passes: the goroutine
// cannot be stopped, but checkFrame has bounded what it allocates and the
// work it does.
func decodeShrink(ctx context.Context, data []byte, cfg image.Config) ([]byte, int, int, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, DecodeTimeout, fmt.Errorf("it took longer than %s", DecodeTimeout))
	defer cancel()
	if ctx.Err() != nil {
		return nil, 0, 0, fmt.Errorf("decoding abandoned: %w", context.Cause(ctx))
	}
	done := make(chan shrunk, 1)
	go func() {
		var r shrunk
		defer func() {
			if p := recover(); p != nil {
				r = shrunk{err: fmt.Errorf("the decoder failed on it (%v); the file is damaged or crafted", p)}
			}
			done <- r
		}()
		r = decodeAndShrink(data, cfg)
	}()
	select {
	case r := <-done:
		return r.out, r.w, r.h, r.err
	case <-ctx.Done():
		return nil, 0, 0, fmt.Errorf("decoding abandoned: %w", context.Cause(ctx))
	}
}

// decodeAndShrink decodes data, checks the picture has the size its
// header (cfg) says, and shrinks it.
func decodeAndShrink(data []byte, cfg image.Config) shrunk {
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return shrunk{err: fmt.Errorf("decode: %w", err)}
	}
	if b := src.Bounds(); b.Dx() != cfg.Width || b.Dy() != cfg.Height {
		return shrunk{err: fmt.Errorf("%w: the header says %d×%d but %d×%d decoded", errFrame, cfg.Width, cfg.Height, b.Dx(), b.Dy())}
	}
	out, w, h, err := shrink(src)
	return shrunk{out: out, w: w, h: h, err: err}
}
