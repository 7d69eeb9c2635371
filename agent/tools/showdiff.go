package tools

import "context"

// MaxShownDiff bounds the diff a tool hands to WithDiff's func: a larger
// one is cut at a line end and marked, so a rewrite of a huge file never
// grows the front-end's memory.
const MaxShownDiff = 64 << 10

// diffKey carries the show func of WithDiff in a context.
type diffKey struct{}

// WithDiff returns ctx carrying show: edit_file and write_file hand it the
// unified diff of the change they made (UnifiedDiff's text, a new file
// against /dev/null), for the front-ends to draw; the model gets the
// tool's concise text result as before. show must be safe to call from
// the goroutine running the tool. Without it, nothing is reported.
func WithDiff(ctx context.Context, show func(diff string)) context.Context {
	if show == nil {
		return ctx
	}
	return context.WithValue(ctx, diffKey{}, show)
}

// showDiff hands diff, bounded by MaxShownDiff, to ctx's show func.
func showDiff(ctx context.Context, diff string) {
	show, _ := ctx.Value(diffKey{}).(func(string))
	if show == nil || diff == "" {
		return
	}
	show(CutDiff(diff, MaxShownDiff))
}

// CutDiff returns diff cut to at most max bytes at a line end, with a
// last line saying how much was left out.
func CutDiff(diff string, max int) string {
	if len(diff) <= max {
		return diff
	}
	cut := diff[:max]
	for i := len(cut) - 1; i >= 0; i-- {
		if cut[i] == '\n' {
			cut = cut[:i+1]
			break
		}
	}
	rest := 0
	for _, c := range diff[len(cut):] {
		if c == '\n' {
			rest++
		}
	}
	return cut + "(the diff goes on for " + plural(rest, "more line") + ")\n"
}
