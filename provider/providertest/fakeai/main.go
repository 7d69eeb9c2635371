// Command fakeai runs the providertest fake OpenAI-compatible server on a
// real port, for manual runs of tick without a model:
//
//	go run ./provider/providertest/fakeai -addr 127.0.0.1:0 [-script file.json] [-rate 2000]
//
// The first line on stdout is the base URL (ending in /v1); point
// OPENAI_BASE_URL at it. Requests and validation errors are logged on
// stderr. It runs until interrupted.
//
// With -script, the file is a JSON array of replies served in order (the
// fields of providertest.Reply in snake_case; chunk_delay is a Go duration
// such as "50ms" and raw a string). Without it, a demo answers by keywords
// in the last user message:
//
//   - "plan": a multi-round scenario that calls todo (goal, four items with
//     active_form), runs bash commands (ls, echo hi, uname -s), updates the
//     todo at every step and ends with a Markdown summary;
//   - "sleep": a bash call "sleep 30", then a short report;
//   - "long": a Markdown answer of about 20,000 characters;
//   - "think": reasoning deltas before the answer;
//   - anything else: a short Markdown answer with a code block.
//
// Text is streamed at -rate characters per second (0: as fast as
// possible). The demo derives its state from the request history, so it
// works across follow-up turns and restarts.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/tick-agent/tick/provider/providertest"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "address to listen on (host:port; port 0 picks one)")
	script := flag.String("script", "", "JSON file with an array of replies to serve in order (default: the keyword demo)")
	rate := flag.Int("rate", 2000, "streaming speed of the demo in characters per second (0: unthrottled)")
	flag.Parse()
	if err := run(*addr, *script, *rate, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "fakeai:", err)
		os.Exit(1)
	}
}

// run serves until SIGINT or SIGTERM.
func run(addr, script string, rate int, stdout, stderr io.Writer) error {
	var replies []providertest.Reply
	if script != "" {
		var err error
		if replies, err = loadScript(script); err != nil {
			return err
		}
	}
	srv, err := providertest.NewServerAddr(addr)
	if err != nil {
		return err
	}
	defer srv.Close()
	if script != "" {
		srv.Enqueue(replies...)
	} else {
		srv.SetFunc(func(req providertest.Request) providertest.Reply { return Demo(req, rate) })
	}
	fmt.Fprintln(stdout, srv.URL)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go logRequests(ctx, srv, log.New(stderr, "fakeai: ", log.Ltime))
	<-ctx.Done()
	return nil
}

// logRequests logs each request and each server error as they come.
func logRequests(ctx context.Context, srv *providertest.Server, l *log.Logger) {
	seenErrs := 0
	for n := 1; ctx.Err() == nil; {
		reqs := srv.Wait(n, time.Second)
		for ; n <= len(reqs); n++ {
			r := reqs[n-1]
			last := r.Last()
			l.Printf("request %d: model %s, %d messages, %d tools, last %s: %.60q", n, r.Model, len(r.Messages), len(r.Tools), last.Role, last.Content)
		}
		errs := srv.Errors()
		for ; seenErrs < len(errs); seenErrs++ {
			l.Printf("error: %s", errs[seenErrs])
		}
	}
}

// scriptReply is a Reply as written in a script file.
type scriptReply struct {
	providertest.Reply
	ChunkDelay string `json:"chunk_delay,omitempty"` // a Go duration
	Raw        string `json:"raw,omitempty"`         // the event stream as text
}

// loadScript reads a JSON array of replies.
func loadScript(path string) ([]providertest.Reply, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read script: %w", err)
	}
	var raw []scriptReply
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("parse script %s: %w", path, err)
	}
	out := make([]providertest.Reply, len(raw))
	for i, r := range raw {
		out[i] = r.Reply
		if r.ChunkDelay != "" {
			d, err := time.ParseDuration(r.ChunkDelay)
			if err != nil {
				return nil, fmt.Errorf("parse script %s: reply %d: chunk_delay: %w", path, i, err)
			}
			out[i].ChunkDelay = d
		}
		if r.Raw != "" {
			out[i].Raw = []byte(r.Raw)
		}
	}
	return out, nil
}
