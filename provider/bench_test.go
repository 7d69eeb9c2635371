package provider_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

// BenchmarkStream streams a 100,000-character answer (25,000 chunks of 4
// characters) through Stream over real HTTP.
func BenchmarkStream(b *testing.B) {
	text := strings.Repeat("abcdefghij", 10000)
	srv := providertest.New(b)
	srv.SetFunc(func(providertest.Request) providertest.Reply { return providertest.Reply{Text: text} })
	c := newClient(b, srv.URL, nil)
	req := userRequest("go")
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		resp, err := c.Stream(context.Background(), req, provider.Handler{OnDelta: func(d provider.Delta) { n += len(d.Content) }})
		if err != nil {
			b.Fatal(err)
		}
		if n != len(text) || len(resp.Message.Content) != len(text) {
			b.Fatalf("got %d characters in deltas, %d in the message", n, len(resp.Message.Content))
		}
	}
}
