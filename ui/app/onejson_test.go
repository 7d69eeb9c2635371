package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/tick-agent/tick/agent/session"
	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/todo"
	"github.com/tick-agent/tick/ui/printer"
)

// oneObject parses stdout as exactly one JSON object, failing otherwise.
func oneObject(t *testing.T, stdout string) map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(stdout))
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%q", err, stdout)
	}
	if dec.More() {
		t.Fatalf("stdout holds more than one JSON value:\n%q", stdout)
	}
	return obj
}

// lastEvent parses stream-json output and returns its last event,
// failing unless every line is a JSON object.
func lastEvent(t *testing.T, stdout string) map[string]any {
	t.Helper()
	var last map[string]any
	for _, line := range strings.Split(strings.TrimRight(stdout, "\n"), "\n") {
		last = nil
		if err := json.Unmarshal([]byte(line), &last); err != nil {
			t.Fatalf("a stream-json line is not an object: %v\n%q", err, line)
		}
	}
	return last
}

// TestSecondSignalResult: a second signal before the turn ends still
// prints the result (json: the one object; stream-json: a "result" event
// last), with the signal's exit code.
func TestSecondSignalResult(t *testing.T) {
	for _, format := range []string{printer.FormatJSON, printer.FormatStreamJSON} {
		t.Run(format, func(t *testing.T) {
			f := newFixture(t)
			ag, err := f.options(t).NewAgent("fake", 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			f.srv.Enqueue(providertest.Reply{Text: "thinking", Hang: true})
			sigs := make(chan os.Signal, 2)
			sigs <- syscall.SIGTERM
			sigs <- syscall.SIGTERM
			var out, errb bytes.Buffer
			code := RunHeadless(Headless{Prompt: "hang", Printer: printer.Options{Format: format}}, ag, sigs, &out, &errb)
			if code != ExitTerminated {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, ExitTerminated, errb.String())
			}
			obj := lastEvent(t, out.String())
			if format == printer.FormatJSON {
				obj = oneObject(t, out.String())
			} else if obj["type"] != "result" {
				t.Fatalf("the stream does not end with a result: %v", obj)
			}
			if obj["exit_code"] != float64(ExitTerminated) || obj["exit_reason"] != ReasonTerminated || obj["is_error"] != true {
				t.Errorf("result %v: want exit 143, terminated, is_error", obj)
			}
		})
	}
}

// TestStartFailuresPrintOneObject: every way -p fails before its turn
// prints, with --output-format json, exactly one result object on stdout
// (with stream-json, a stream ending in a result event): a flag error,
// an unknown --resume, a start-up failure.
func TestStartFailuresPrintOneObject(t *testing.T) {
	env := func(k string) string {
		if k == "HOME" || k == "XDG_STATE_HOME" || k == "XDG_CONFIG_HOME" {
			return t.TempDir()
		}
		return ""
	}
	srv := providertest.New(t)
	ws := t.TempDir()
	for _, tt := range []struct {
		name string
		args []string
		code int
	}{
		{"unknown flag after the format", []string{"-p", "x", "--output-format", "json", "--frobnicate"}, ExitUsage},
		{"unknown flag before the format", []string{"--frobnicate", "-p", "x", "--output-format=json"}, ExitUsage},
		{"no model server", []string{"-p", "x", "--output-format", "json", "-C", ws}, ExitUsage},
		{"unknown --resume", []string{"--resume", "nope", "-p", "x", "--output-format", "json", "--base-url", srv.URL, "-C", ws}, ExitError},
	} {
		for _, stream := range []bool{false, true} {
			args := append([]string(nil), tt.args...)
			if stream {
				for i, a := range args {
					switch a {
					case "--output-format=json":
						args[i] = "--output-format=stream-json"
					case "json":
						args[i] = "stream-json"
					}
				}
			}
			t.Run(tt.name+map[bool]string{false: "/json", true: "/stream-json"}[stream], func(t *testing.T) {
				var out, errb bytes.Buffer
				code := Main(args, strings.NewReader(""), &out, &errb, env)
				if code != tt.code {
					t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.code, errb.String())
				}
				obj := lastEvent(t, out.String())
				if !stream {
					obj = oneObject(t, out.String())
				} else if obj["type"] != "result" {
					t.Fatalf("the stream does not end with a result: %q", out.String())
				}
				if obj["exit_code"] != float64(tt.code) || obj["is_error"] != true || obj["message"] == "" {
					t.Errorf("result %v: want exit_code %d, is_error and the message", obj, tt.code)
				}
				if _, ok := obj["total_cost_usd"]; !ok {
					t.Errorf("result %v has no total_cost_usd", obj)
				}
			})
		}
	}
}

// TestResultOfARestoredPlan: a resumed run starts from the plan the agent
// holds after the restore (as an undo left it: #2 back to pending, #3
// cancelled by the user); stopped by SIGTERM before the model shows the
// list again, its result lists #2 open and counts #3 cancelled.
func TestResultOfARestoredPlan(t *testing.T) {
	f := newFixture(t)
	ag, err := f.options(t).NewAgent("fake", 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	list := todo.List{Goal: "Ship", Items: []todo.Item{
		{ID: "1", Text: "Build", Status: todo.Completed},
		{ID: "2", Text: "Test", Status: todo.Pending},
		{ID: "3", Text: "Deploy", Status: todo.Cancelled, Note: "not now"},
	}}
	if err := ag.Restore(nil, list); err != nil {
		t.Fatal(err)
	}
	f.srv.Enqueue(providertest.Reply{Text: "thinking", Hang: true})
	sigs := make(chan os.Signal, 1)
	sigs <- syscall.SIGTERM
	var out, errb bytes.Buffer
	ld := &session.Loaded{Info: session.Info{ID: "old"}, Todos: list}
	code := RunHeadless(Headless{Prompt: "carry on", Loaded: ld, Printer: printer.Options{Format: printer.FormatJSON}}, ag, sigs, &out, &errb)
	obj := oneObject(t, out.String())
	if code != ExitTerminated || fmt.Sprint(obj["open_items"]) != "[Test]" || obj["cancelled_items"] != 1.0 {
		t.Errorf("exit %d, open_items %v, cancelled_items %v; want 143, [Test], 1\nstderr:\n%s", code, obj["open_items"], obj["cancelled_items"], errb.String())
	}
}
