package tools

import "context"

// exitKey carries the report func of WithExitStatus in a context.
type exitKey struct{}

// WithExitStatus returns ctx carrying report: a tool that runs a process
// (bash) hands it the process's exit status once the process has ended
// (a process killed by a signal counts as 128+N, as a shell reports it).
// The status travels as data: the caller never reads it back out of the
// result's text, which the process itself wrote. report must be safe to
// call from the goroutine running the tool.
func WithExitStatus(ctx context.Context, report func(code int)) context.Context {
	if report == nil {
		return ctx
	}
	return context.WithValue(ctx, exitKey{}, report)
}

// reportExit hands code to ctx's report func, when it has one.
func reportExit(ctx context.Context, code int) {
	if report, ok := ctx.Value(exitKey{}).(func(int)); ok {
		report(code)
	}
}
