package markdown_test

import (
	"slices"
	"sync"
	"testing"

	"github.com/tick-agent/tick/ui/markdown"
)

func TestPlainFences(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"no fence", "just *text*\n", "just *text*\n"},
		{"no language", "```\nx\n```\n", "```text\nx\n```\n"},
		{"known language", "```go\nx\n```\n", "```go\nx\n```\n"},
		{"known alias any case", "```Bash extra words\nx\n```", "```Bash extra words\nx\n```"},
		{"unknown language", "~~~~ nosuchlang {.x}\nx\n~~~~\n", "~~~~text\nx\n~~~~\n"},
		{"indented", "   ```\n   x\n   ```\n", "   ```text\n   x\n   ```\n"},
		{"inner fence is content", "````\n```\n````\n", "````text\n```\n````\n"},
		{"two fences", "```\na\n```\ntext\n```py\nb\n```", "```text\na\n```\ntext\n```py\nb\n```"},
		{"open fence without newline", "```", "```text"},
	}
	pool := markdown.NewPool()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := pool.PlainFences(tt.in); got != tt.want {
				t.Errorf("plainFences(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestPoolConcurrentUse renders from several goroutines through one pool;
// run with -race.
func TestPoolConcurrentUse(t *testing.T) {
	pool := markdown.NewPoolSize(2)
	markdown.Render("```go\nx := 1\n```", 40, markdown.Dark, markdown.WithPool(pool)) // glamour registers its code theme once
	want := markdown.Render(sampleDoc, 50, markdown.Dark, markdown.WithPool(pool))
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 4 {
		wg.Go(func() {
			for i := range 3 {
				w := 50 + (g+i)%3*10 // three widths through a pool of two
				got := markdown.Render(sampleDoc, w, markdown.Dark, markdown.WithPool(pool))
				if w == 50 && !slices.Equal(got, want) {
					errs <- "concurrent render differs"
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
