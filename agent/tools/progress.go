package tools

import (
	"context"
	"io"
)

// progressKey carries a Progress writer in a context.
type progressKey struct{}

// WithProgress returns ctx carrying w: a tool that produces output while
// it runs (bash) also writes that output to w as it comes, so that a
// front-end can show it live. w's Write must not block for long and must
// be safe to call from another goroutine than the one running the tool;
// what it receives is raw (untrusted, possibly cut inside a character).
func WithProgress(ctx context.Context, w io.Writer) context.Context {
	if w == nil {
		return ctx
	}
	return context.WithValue(ctx, progressKey{}, w)
}

// progressTo returns dst, teeing into ctx's Progress writer when it has
// one. A failing Progress writer never stops the copy into dst.
func progressTo(ctx context.Context, dst io.Writer) io.Writer {
	if w, ok := ctx.Value(progressKey{}).(io.Writer); ok && w != nil {
		return io.MultiWriter(dst, lenient{w})
	}
	return dst
}

// lenient is a writer whose errors are dropped.
type lenient struct{ w io.Writer }

func (l lenient) Write(p []byte) (int, error) {
	_, _ = l.w.Write(p)
	return len(p), nil
}
