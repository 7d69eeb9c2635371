package agent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
)

// Interrupt fuzzing parameters: how many runs, the seed of their cancel
// moments and approval answers, and the latest cancel moment. Every run
// is cancelled by then at the latest: its last tool round is a 30-second
// command, so a run always ends by interrupt.
const (
	fuzzRuns      = 200
	fuzzRunsShort = 50
	fuzzSeed      = 4242
	fuzzMaxCancel = 230 * time.Millisecond
)

// fuzzScript is the fake model of TestInterruptAtRandom, chosen by the
// request: the parent turn plans, runs a short command and writes a file
// (both need approval), starts a subagent that runs a command, streams
// text, then runs a long command (again and again if denied); the subagent runs one command and
// answers; the follow-up turn gets a plain answer. Every command carries
// marker in its process name, so /proc shows whether one is left.
func fuzzScript(marker string) func(providertest.Request) providertest.Reply {
	const delay = time.Millisecond
	bash := func(cmd string) providertest.Call {
		b, _ := json.Marshal(map[string]string{"command": fmt.Sprintf(cmd, marker)})
		return providertest.Call{Name: "bash", Args: string(b)}
	}
	reply := func(text string, cs ...providertest.Call) providertest.Reply {
		return providertest.Reply{Text: text, ToolCalls: cs, ChunkSize: 12, ChunkDelay: delay}
	}
	return func(req providertest.Request) providertest.Reply {
		if last := req.Last(); last.Role == "user" && last.Content == "follow up" {
			return providertest.Reply{Text: "ok"}
		}
		rounds := 0
		for _, m := range req.Messages {
			if m.Role == "assistant" {
				rounds++
			}
		}
		child := true
		for _, name := range req.Tools {
			if name == "task" {
				child = false
			}
		}
		if child {
			if rounds == 0 {
				return reply("Child at work.", bash("(exec -a %s sleep 0.02); echo child"))
			}
			return reply("The child is done.")
		}
		switch rounds {
		case 0:
			return reply("Let me plan this.", call("todo", `{"items":[{"id":"1","text":"Run","status":"in_progress"},{"id":"2","text":"Write","status":"pending"}]}`))
		case 1:
			return reply("Running and writing.", bash("(exec -a %s sleep 0.02); echo one"), call("write_file", `{"path":"a.txt","content":"hello\n"}`))
		case 2:
			return reply("Handing over.", call("task", `{"description":"child","prompt":"run a command"}`))
		}
		// From the fourth round on (again after a denial): a command that
		// outlives every cancel moment.
		return reply("Now a long wait, streamed slowly to the end.", bash("(exec -a %s sleep 30); echo long"))
	}
}

// TestInterruptAtRandom cancels a turn at 200 pseudo-random moments
// spread over streaming, tool execution, a subagent and approval waits
// (answered by a goroutine after a random delay), then runs a follow-up
// turn. Each time the strict server must have seen only valid requests,
// every tool call in the history must have exactly one result, and no
// command may be left running. At the end no goroutine may be left.
func TestInterruptAtRandom(t *testing.T) {
	runs := fuzzRuns
	if testing.Short() {
		runs = fuzzRunsShort
	}
	baseline := runtime.NumGoroutine()

	srv := providertest.NewServer()
	transport := &http.Transport{}
	client, err := provider.New(provider.Config{
		BaseURL: srv.URL, APIKey: "test-key", Model: "test-model",
		HTTPClient: &http.Client{Transport: transport}, MaxRetries: -1,
	})
	if err != nil {
		t.Fatal(err)
	}

	t.Cleanup(srv.Close)
	rng := rand.New(rand.NewPCG(fuzzSeed, fuzzSeed))
	phases := map[string]int{}
	failed := 0
	for i := range runs {
		// Stratified: one run in each 1/runs of [0, fuzzMaxCancel].
		cancelAt := time.Duration((float64(i) + rng.Float64()) / float64(runs) * float64(fuzzMaxCancel))
		seed := rng.Uint64()
		ok := t.Run(fmt.Sprintf("%03d-at-%dms", i, cancelAt.Milliseconds()), func(t *testing.T) {
			phases[interruptRun(t, srv, client, i, cancelAt, seed)]++
		})
		if !ok {
			if failed++; failed == 3 {
				t.Fatal("stopping after 3 failed runs")
			}
		}
	}
	t.Logf("where the cancels landed: %v", phases)

	srv.Close()
	transport.CloseIdleConnections()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > baseline && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > baseline {
		var b bytes.Buffer
		_ = pprof.Lookup("goroutine").WriteTo(&b, 1)
		t.Errorf("%d goroutines left behind (%d before, %d after):\n%s", n-baseline, baseline, n, b.String())
	}
}

// interruptRun is one run of TestInterruptAtRandom: a turn cancelled at
// cancelAt, then a follow-up turn. It returns where the cancel landed.
func interruptRun(t *testing.T, srv *providertest.Server, client *provider.Client, n int, cancelAt time.Duration, seed uint64) string {
	marker := fmt.Sprintf("tick-fuzz-%d-%03d", os.Getpid(), n)
	t.Cleanup(func() { killWith(marker) })
	srv.SetFunc(fuzzScript(marker))
	errsBefore := len(srv.Errors())
	ag, err := agent.New(agent.Config{Model: client, ModelName: "test-model", Workspace: t.TempDir(), Approval: agent.ApproveAsk, NoCompletionReminder: true}) // its follow-up answers with items open
	if err != nil {
		t.Fatal(err)
	}

	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	timer := time.AfterFunc(cancelAt, cancel)
	defer timer.Stop()
	var approvers sync.WaitGroup
	defer approvers.Wait()

	var evs []agent.Event
	for ev := range ag.Run(ctx, "do the work") {
		evs = append(evs, ev)
		req, ok := ev.(agent.ApprovalRequest)
		if !ok {
			continue
		}
		// Answer after a random delay, mostly allowing, sometimes always
		// or denying; the turn may be cancelled meanwhile.
		wait := time.Duration(rng.IntN(15)) * time.Millisecond
		ans := agent.Approval{Allow: true}
		switch rng.IntN(10) {
		case 0:
			ans = agent.Approval{Reason: "not now"}
		case 1:
			ans = agent.Approval{Allow: true, Always: true}
		}
		approvers.Add(1)
		go func() {
			defer approvers.Done()
			time.Sleep(wait)
			req.Reply <- ans // buffered: never blocks
		}()
	}
	if te := checkEvents(t, "first turn", evs); te != agent.ReasonInterrupted {
		t.Errorf("the first turn ended %s, want interrupted", te)
	}
	phase := phaseOf(ag.History())

	if pids := waitGone(marker, time.Second); len(pids) > 0 {
		t.Errorf("commands still running after the turn ended: %v", pids)
	}

	evs = nil
	for ev := range ag.Run(context.Background(), "follow up") {
		evs = append(evs, ev)
	}
	if te := checkEvents(t, "follow-up", evs); te != agent.ReasonDone {
		t.Errorf("the follow-up turn ended %s", te)
	}
	if errs := srv.Errors()[errsBefore:]; len(errs) > 0 {
		t.Errorf("the server rejected requests: %v", errs)
	}
	checkPairs(t, ag.History())
	return phase
}

// phaseOf says where in the turn the interrupt landed, from the history
// it left. A call never run is answered with the bare interrupted wording
// after a call of the same message that completed.
func phaseOf(history []provider.Message) string {
	names := map[string]string{}
	for _, m := range history {
		for _, c := range m.ToolCalls {
			names[c.ID] = c.Name
		}
	}
	ranBefore := false // a call of the current message completed
	for _, m := range history {
		if m.Role != provider.RoleTool {
			ranBefore = false
			continue
		}
		if !strings.Contains(m.Content, provider.Interrupted) {
			ranBefore = true
			continue
		}
		switch name := names[m.ToolCallID]; {
		case strings.Contains(m.Content, "waiting for approval"):
			return "approval wait"
		case name == agent.TaskTool:
			return "subagent"
		case m.Content == provider.Interrupted && ranBefore:
			return "between calls"
		default:
			return name
		}
	}
	if last := history[len(history)-1]; last.Role == provider.RoleAssistant && len(last.ToolCalls) == 0 {
		return "stream"
	}
	return "between rounds"
}

// checkEvents checks the delivery rules of one turn's events and returns
// how it ended.
func checkEvents(t *testing.T, what string, evs []agent.Event) agent.Reason {
	t.Helper()
	if len(evs) == 0 {
		t.Fatalf("%s: no events", what)
	}
	te, ok := evs[len(evs)-1].(agent.TurnEnd)
	if !ok {
		t.Fatalf("%s: the last event is %T, want TurnEnd", what, evs[len(evs)-1])
	}
	if te.Reason == agent.ReasonError {
		t.Errorf("%s ended with an error: %s", what, te.Error)
	}
	open := map[string]bool{}
	var walk func(ev agent.Event, prefix string)
	walk = func(ev agent.Event, prefix string) {
		switch e := ev.(type) {
		case agent.ToolStart:
			open[prefix+e.ID] = true
		case agent.ToolEnd:
			if !open[prefix+e.ID] {
				t.Errorf("%s: ToolEnd %s without its ToolStart", what, e.ID)
			}
			delete(open, prefix+e.ID)
		case agent.Subagent:
			walk(e.Event, prefix+e.ParentID+"/")
		}
	}
	for i, ev := range evs {
		if _, isEnd := ev.(agent.TurnEnd); isEnd && i != len(evs)-1 {
			t.Errorf("%s: a TurnEnd before the last event", what)
		}
		walk(ev, "")
	}
	if len(open) > 0 {
		t.Errorf("%s: tool calls without ToolEnd: %v", what, open)
	}
	return te.Reason
}

// checkPairs checks that every tool call in history is answered by
// exactly one tool message before the next other message, and that no
// tool message answers nothing.
func checkPairs(t *testing.T, history []provider.Message) {
	t.Helper()
	pending := map[string]int{} // answers seen per call of the last assistant message
	flush := func(at int) {
		for id, n := range pending {
			if n != 1 {
				t.Errorf("history[%d]: tool call %s has %d results, want 1", at, id, n)
			}
		}
		pending = map[string]int{}
	}
	for i, m := range history {
		switch m.Role {
		case provider.RoleTool:
			if _, ok := pending[m.ToolCallID]; !ok {
				t.Errorf("history[%d]: a tool result for %q answers no call of the message before", i, m.ToolCallID)
				continue
			}
			pending[m.ToolCallID]++
		case provider.RoleAssistant:
			flush(i)
			for _, c := range m.ToolCalls {
				pending[c.ID] = 0
			}
		default:
			flush(i)
		}
	}
	flush(len(history))
}

// waitGone waits up to timeout for the processes with marker in their
// command line to end, and returns those still running.
func waitGone(marker string, timeout time.Duration) []string {
	deadline := time.Now().Add(timeout)
	for {
		pids := pidsWith(marker)
		if len(pids) == 0 || time.Now().After(deadline) {
			return pids
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// pidsWith returns the pids whose command line contains marker.
func pidsWith(marker string) []string {
	dirs, _ := os.ReadDir("/proc")
	var pids []string
	for _, d := range dirs {
		if d.Name()[0] < '0' || d.Name()[0] > '9' {
			continue
		}
		b, err := os.ReadFile("/proc/" + d.Name() + "/cmdline")
		if err == nil && bytes.Contains(b, []byte(marker)) {
			pids = append(pids, d.Name())
		}
	}
	return pids
}

// killWith kills the processes whose command line contains marker, so a
// failed run leaves nothing behind.
func killWith(marker string) {
	for _, pid := range pidsWith(marker) {
		var n int
		if _, err := fmt.Sscan(pid, &n); err == nil {
			if p, err := os.FindProcess(n); err == nil {
				_ = p.Kill()
			}
		}
	}
}
