package printer_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/todo"
	"github.com/tick-agent/tick/ui/printer"
)

// A headless turn: the progress goes to stderr (here also stdout, to show
// it) and the final answer to stdout.
func ExamplePrinter_Run() {
	events := make(chan agent.Event, 8)
	events <- agent.TodoUpdate{List: todo.List{Items: []todo.Item{
		{ID: "1", Text: "Run the tests", Status: todo.InProgress},
	}}}
	events <- agent.ToolStart{ID: "c1", Name: "bash", Summary: "go test ./..."}
	events <- agent.ToolEnd{ID: "c1", Name: "bash", Output: "ok\nexit status 0", Duration: 1200 * time.Millisecond}
	events <- agent.AssistantDone{Text: "All tests pass.", Final: true}
	events <- agent.TurnEnd{Reason: agent.ReasonDone}
	close(events)

	end, err := printer.New(os.Stdout, os.Stdout, printer.Options{}).Run(events)
	fmt.Println(end.Reason, err)
	// Output:
	// [>] #1: Run the tests
	//
	// (0/1 completed)
	//
	// → bash  go test ./...
	//   ✓ 1.2s
	// All tests pass.
	// done <nil>
}

func ExampleMarshalEvent() {
	b, _ := printer.MarshalEvent(agent.ToolStart{ID: "c1", Name: "bash", Args: `{"command":"ls"}`, Summary: "ls"})
	fmt.Println(string(b))
	// Output:
	// {"type":"tool_start","id":"c1","name":"bash","args":"{\"command\":\"ls\"}","summary":"ls"}
}

// benchStream sends 100,000 characters of answer in small deltas, the way a
// fast model streams, through a channel like the agent's, and prints them.
func benchStream(b *testing.B, opts printer.Options) {
	const total, chunk = 100_000, 4
	text := strings.Repeat("word ", chunk/4+1)[:chunk]
	b.SetBytes(total)
	b.ReportAllocs()
	for b.Loop() {
		ch := make(chan agent.Event, 64)
		go func() {
			for n := 0; n < total; n += chunk {
				ch <- agent.TextDelta{Text: text}
			}
			ch <- agent.AssistantDone{Text: strings.Repeat(text, total/chunk), Final: true}
			ch <- agent.TurnEnd{Reason: agent.ReasonDone}
			close(ch)
		}()
		if _, err := printer.New(discard{}, discard{}, opts).Run(ch); err != nil {
			b.Fatal(err)
		}
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// BenchmarkStreamPrinter is the headless baseline the TUI's streaming
// benchmark is compared with.
func BenchmarkStreamPrinter(b *testing.B)     { benchStream(b, printer.Options{}) }
func BenchmarkStreamPrinterJSON(b *testing.B) { benchStream(b, printer.Options{JSON: true}) }
