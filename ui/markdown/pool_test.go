package markdown_test

import (
	"slices"
	"sync"
	"testing"

	"github.com/tick-agent/tick/ui/markdown"
)

// TestFenceLanguage: a fence's language is the first word of its info
// string, any case; code in a language tick has no lexer for (or no
// language at all) is drawn as plain text, without trying every lexer.
func TestFenceLanguage(t *testing.T) {
	tests := []struct{ info, want string }{
		{"", ""},
		{"go", "go"},
		{"Bash extra words", "bash"},
		{"nosuchlang {.x}", ""},
		{"py", "python"},
		{"tsx", "typescript"},
		{"c++", "cpp"},
		{"shell", "bash"},
		{"console", "console"},
		{"yml", "yaml"},
		{"Dockerfile", "dockerfile"},
		{"js{.line-numbers}", "javascript"},
		{"text", ""},
	}
	for _, tt := range tests {
		t.Run(tt.info, func(t *testing.T) {
			if got := markdown.LexerName(tt.info); got != tt.want {
				t.Errorf("lexer for %q = %q, want %q", tt.info, got, tt.want)
			}
		})
	}
}

// TestPoolConcurrentUse renders from several goroutines through one pool;
// run with -race.
func TestPoolConcurrentUse(t *testing.T) {
	pool := markdown.NewPoolSize(2)
	markdown.Render("```go\nx := 1\n```", 40, markdown.Dark, markdown.WithPool(pool)) // builds the Go lexer before the race
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
