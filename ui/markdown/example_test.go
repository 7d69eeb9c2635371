package markdown_test

import (
	"fmt"

	"github.com/tick-agent/tick/ui/markdown"
)

func ExampleRenderer() {
	pool := markdown.NewPool() // share one pool among all messages of a chat
	r := markdown.New(markdown.WithWidth(40), markdown.WithStyle(markdown.ASCII), markdown.WithPool(pool))
	for _, delta := range []string{"## Pl", "an\n\nFirst **step", "** done.\n\n```sh\ngo te", "st ./...\n"} {
		r.Append(delta)
	}
	// The code fence is still open: it is shown as plain text for now.
	for _, l := range r.Lines() {
		fmt.Println("|" + l)
	}
	fmt.Println("----")
	r.Append("```\n")
	r.Finish()
	for _, l := range r.Lines() {
		fmt.Println("|" + l)
	}
	// Output:
	// |  ## Plan
	// |
	// |  First **step** done.
	// |
	// |  ```sh
	// |  go test ./...
	// ----
	// |  ## Plan
	// |
	// |  First **step** done.
	// |
	// |    go test ./...
}

func ExampleRender() {
	for _, l := range markdown.Render("1. one\n2. *two*\n", 30, markdown.ASCII) {
		fmt.Println("|" + l)
	}
	// Output:
	// |  1. one
	// |  2. *two*
}
