package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider/providertest"
)

// cpuTicks returns the user and system CPU time of process pid so far, in
// clock ticks (1/100 s on Linux).
func cpuTicks(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatalf("read the CPU time of tick: %v", err)
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	u, _ := strconv.Atoi(f[11]) // utime, field 14
	s, _ := strconv.Atoi(f[12]) // stime, field 15
	return u + s
}

// TestE2ETaskStreamCPU is the harness for the cost of parallel tasks in
// the full-screen app: the real binary in tmux, tasks whose subagents
// stream text at 2,000 characters a second each, one task, then three at
// once. It checks that the rows are live and every stream completes, and
// logs tick's CPU time over the same window of each phase (the figure
// for the report; no timing is asserted): run it with
// go test -count=1 -v -run TestE2ETaskStreamCPU ./ui/app/e2e/
func TestE2ETaskStreamCPU(t *testing.T) {
	t.Parallel()
	const (
		rate   = 2000 // characters a second, per task
		stream = 5 * time.Second
		window = 3 * time.Second
	)
	text := strings.Repeat("streaming subagent text, ", int(stream.Seconds())*rate/25)
	srv := providertest.New(t)
	srv.SetFunc(func(r providertest.Request) providertest.Reply {
		if n, ok := strings.CutPrefix(r.Messages[1].Content, "CHILD "); ok {
			if r.Last().Role == "user" {
				// 4 characters a chunk every 2 ms: 2,000 a second.
				return providertest.Reply{Text: text, ChunkSize: 4, ChunkDelay: 2 * time.Millisecond}
			}
			return providertest.Reply{Text: "report " + n}
		}
		last := r.LastUser()
		if r.Last().Role != "user" {
			return providertest.Reply{Text: "phase done: " + last}
		}
		if last == "plan" { // the plan the rows sit under
			return todoStep("Streams", pending(todoItem{ID: "1", Text: "ONE"}, todoItem{ID: "2", Text: "TWO"}, todoItem{ID: "3", Text: "THREE"})...).reply
		}
		k := 1
		if last == "three" {
			k = 3
		}
		var cs []providertest.Call
		for i := 1; i <= k; i++ {
			b, _ := json.Marshal(map[string]any{"description": fmt.Sprintf("stream %d", i), "prompt": fmt.Sprintf("CHILD %d", i), "item": fmt.Sprint(i)})
			cs = append(cs, providertest.Call{Name: "task", Args: string(b)})
		}
		return providertest.Reply{ToolCalls: cs}
	})
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, ".tick"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, ".tick", "config.toml"), []byte("max_parallel_tasks = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startAppAt(t, srv, t.TempDir(), ws, "--yolo")
	pid := p.program()
	p.prompt("plan")
	p.waitFor("phase done: plan", "THREE")
	measure := func(prompt string, k, open int) float64 {
		p.prompt(prompt)
		if !srv.WaitOpen(open, 0) {
			t.Fatalf("%s: the server never saw %d streams at once", prompt, k)
		}
		p.waitFor(fmt.Sprintf("stream %d · ", k)) // the rows are live
		before := cpuTicks(t, pid)
		time.Sleep(window)
		used := cpuTicks(t, pid) - before
		p.waitFor("phase done: " + prompt)
		return float64(used) * 10 / window.Seconds() // ms of CPU per second
	}
	one := measure("one", 1, 1)
	three := measure("three", 3, 3)
	t.Logf("tick's CPU while tasks stream at %d chars/s each: one task %.0f ms/s, three tasks %.0f ms/s (%.2fx)", rate, one, three, three/max(one, 1))
	checkValid(t, srv)
}
