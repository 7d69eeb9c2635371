package provider_test

import (
	"context"
	"fmt"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

// Stream a scripted answer from the fake server: text deltas arrive as
// they stream, and the assembled message comes back at the end.
func ExampleClient_Stream() {
	srv := providertest.NewServer()
	defer srv.Close()
	srv.Enqueue(providertest.Reply{
		Text:      "Listing files.",
		ToolCalls: []providertest.Call{{ID: "call_1", Name: "bash", Args: `{"command":"ls"}`}},
	})

	c, err := provider.New(provider.Config{BaseURL: srv.URL, Model: "local-model"})
	if err != nil {
		fmt.Println(err)
		return
	}
	req := provider.Request{Messages: []provider.Message{{Role: provider.RoleUser, Content: "What is here?"}}}
	var pieces []string
	resp, err := c.Stream(context.Background(), req, provider.Handler{
		OnDelta: func(d provider.Delta) {
			if d.Content != "" { // empty deltas mark tool-call fragments
				pieces = append(pieces, d.Content)
			}
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%q\n", pieces)
	fmt.Println(resp.Message.Content, resp.FinishReason)
	for _, tc := range resp.Message.ToolCalls {
		fmt.Println(tc.ID, tc.Name, tc.Arguments)
	}
	// Output:
	// ["List" "ing " "file" "s."]
	// Listing files. tool_calls
	// call_1 bash {"command":"ls"}
}
