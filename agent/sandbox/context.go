package sandbox

import "context"

type modeKey struct{}

// WithMode returns ctx carrying the sandbox mode for the commands run with
// it, overriding the runner's default: plan mode passes ReadOnly, a rerun
// the user allowed outside the sandbox passes FullAccess.
func WithMode(ctx context.Context, m Mode) context.Context {
	return context.WithValue(ctx, modeKey{}, m)
}

// ModeFrom returns the mode WithMode put in ctx, or "" (the runner's
// default).
func ModeFrom(ctx context.Context) Mode {
	m, _ := ctx.Value(modeKey{}).(Mode)
	return m
}
