package e2e

import (
	"github.com/tick-agent/tick/ui/app/apptest"

	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent/session"
	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/ui/app"
)

// crashKills is how many moments TestKillAndContinue kills tick at.
const crashKills = 50

// crashSeed fixes where in the run the kills land.
const crashSeed = 20250301

// crashScript is the fake model of TestKillAndContinue: a multi-round
// session with a plan, commands (each a `sleep 0.05` renamed to marker, so
// it can be found in /proc), file writes and streamed text, chosen by how
// many rounds the request already holds. The resumed run's request, whose
// last user message is "continue", gets a plain answer.
func crashScript(marker string) func(providertest.Request) providertest.Reply {
	const delay = 4 * time.Millisecond
	bash := func(step int) providertest.Call {
		args, _ := json.Marshal(map[string]string{"command": fmt.Sprintf("(exec -a %s sleep 0.05); echo step %d", marker, step)})
		return providertest.Call{Name: "bash", Args: string(args)}
	}
	write := func(path, content string) providertest.Call {
		args, _ := json.Marshal(map[string]string{"path": path, "content": content})
		return providertest.Call{Name: "write_file", Args: string(args)}
	}
	plan := func(statuses ...string) providertest.Call {
		c := todoCall("Run the three steps", "1:"+statuses[0]+":Run step one", "2:"+statuses[1]+":Run step two", "3:"+statuses[2]+":Write the report")
		return c
	}
	reply := func(text string, size int, calls ...providertest.Call) providertest.Reply {
		return providertest.Reply{Text: text, ToolCalls: calls, ChunkSize: size, ChunkDelay: delay}
	}
	return func(req providertest.Request) providertest.Reply {
		if req.LastUser() == "continue" {
			return providertest.Reply{Text: "Carrying on from the plan."}
		}
		round := 0
		for _, m := range req.Messages {
			if m.Role == "assistant" {
				round++
			}
		}
		switch round {
		case 0:
			return reply("I will plan this in three steps.", 16, plan("in_progress", "pending", "pending"))
		case 1:
			return reply("Running step one now.", 6, bash(1))
		case 2:
			return reply("", 6, write("step1.txt", "step one went fine\n"))
		case 3:
			return reply("Step one is done.", 16, plan("completed", "in_progress", "pending"))
		case 4:
			return reply("Two commands at once.", 6, bash(2), bash(3))
		case 5:
			return reply("Writing the report.", 6, write("report.md", "# Report\n\nAll three steps ran.\n"))
		case 6:
			return reply("", 16, plan("completed", "completed", "completed"))
		}
		return reply("All three steps ran: step1.txt and report.md are written, and the plan is complete.", 3)
	}
}

// crashRun is one run of the binary.
type crashRun struct {
	bin, ws, state, url string
}

// command returns the command running tick with args.
func (c crashRun) command(args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	cmd := exec.Command(c.bin, quietReminder(append(args, "--yolo", "-C", c.ws))...)
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + filepath.Join(c.state, "home"),
		"XDG_STATE_HOME=" + c.state,
		"OPENAI_BASE_URL=" + c.url,
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	return cmd, &out, &errb
}

// TestKillAndContinue kills the real binary with SIGKILL at 50 moments
// spread over a scripted multi-round run, then carries on with
// `tick -c -p continue` and checks that the resumed request is valid for
// the strict server, holds every message that was complete in the
// session file in order (plus "interrupted" answers for the tool calls the
// kill cut short) and the todo list, and that no command is left running.
//
// The kills must land in every phase of a run: before the first session
// line, while the model streams (or is waited for), while a tool runs, and
// after the turn (the last kill waits for the run to end).
func TestKillAndContinue(t *testing.T) {
	bin := sharedTick(t)
	started := time.Now()

	// A run without a kill: the script works, and its length spreads the
	// kills.
	srv := providertest.New(t)
	marker := fmt.Sprintf("tick-crash-%d-calibrate", os.Getpid())
	srv.SetFunc(crashScript(marker))
	run := crashRun{bin: bin, ws: t.TempDir(), state: t.TempDir(), url: srv.URL}
	cmd, out, errb := run.command("-p", "run the three steps")
	t0 := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("the run without a kill failed: %v\nstderr:\n%s", err, errb)
	}
	length := time.Since(t0)
	if !strings.Contains(out.String(), "All three steps ran") || len(srv.Requests()) != 8 {
		t.Fatalf("the run without a kill made %d requests and answered %q; stderr:\n%s", len(srv.Requests()), out, errb)
	}
	checkValid(t, srv)
	t.Logf("a whole run takes %v; killing at %d moments in it", length.Round(time.Millisecond), crashKills)

	rng := rand.New(rand.NewPCG(crashSeed, crashSeed))
	var (
		mu      sync.Mutex
		byRound = map[int]int{}    // requests received when the kill landed
		byPhase = map[string]int{} // where in the run it landed
	)
	t.Run("kills", func(t *testing.T) {
		for i := range crashKills {
			// One kill in each 1/50th of the run, at a random point of it;
			// the last one after the run has ended.
			frac := (float64(i) + rng.Float64()) / (crashKills - 1)
			delay := time.Duration(frac * float64(length))
			name := fmt.Sprintf("%02d-at-%dms", i, delay.Milliseconds())
			if i == crashKills-1 {
				delay, name = afterTheRun, fmt.Sprintf("%02d-after-the-run", i)
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				round, phase := killAndContinue(t, bin, i, delay)
				mu.Lock()
				byRound[round]++
				byPhase[phase]++
				mu.Unlock()
			})
		}
	})
	t.Logf("kills by requests received before them: %v; by phase: %v; total %v",
		byRound, byPhase, time.Since(started).Round(time.Millisecond))
	for _, p := range []string{phaseNoFile, phaseStream, phaseTool, phaseDone} {
		if byPhase[p] == 0 {
			t.Errorf("no kill landed %s (by phase: %v)", p, byPhase)
		}
	}
}

// afterTheRun as the delay of killAndContinue kills after tick has exited.
const afterTheRun = time.Duration(-1)

// The phases of a run a kill can land in, by what the session file holds.
const (
	phaseNoFile = "before the first session line"
	phaseStream = "while the model answers" // the file ends with a prompt or all results of a round
	phaseTool   = "while a tool runs"       // it ends with calls not all answered
	phaseDone   = "after the turn"          // it ends with the final answer
)

// killPhase says where a kill landed from the messages the file held.
func killPhase(raw []wireMsg, saved bool) string {
	if !saved || len(raw) == 0 {
		return phaseNoFile
	}
	last := raw[len(raw)-1]
	switch {
	case last.Role == "assistant" && last.Calls == "":
		return phaseDone
	case last.Role == "assistant":
		return phaseTool
	case last.Role == "tool":
		// Find the round's calls: answered all of them?
		for i := len(raw) - 1; i >= 0; i-- {
			if raw[i].Role == "assistant" {
				if strings.Count(raw[i].Calls, "\n")+1 > len(raw)-1-i {
					return phaseTool
				}
				break
			}
		}
	}
	return phaseStream
}

// killAndContinue runs tick, kills it after delay, checks the session file
// and resumes it. It returns how many requests the server had received at
// the kill and the phase of the run it landed in (see killPhase). With
// delay afterTheRun it waits for tick to end on its own.
func killAndContinue(t *testing.T, bin string, n int, delay time.Duration) (round int, phase string) {
	srv := providertest.New(t)
	marker := fmt.Sprintf("tick-crash-%d-%02d", os.Getpid(), n)
	srv.SetFunc(crashScript(marker))
	run := crashRun{bin: bin, ws: t.TempDir(), state: t.TempDir(), url: srv.URL}
	t.Cleanup(func() { killMarked(marker) })

	cmd, _, errb := run.command("-p", "run the three steps")
	if err := cmd.Start(); err != nil {
		t.Fatalf("start tick: %v", err)
	}
	var err error
	if delay == afterTheRun {
		err = cmd.Wait()
		round = len(srv.Requests())
	} else {
		time.Sleep(delay)
		round = len(srv.Requests())
		_ = cmd.Process.Signal(syscall.SIGKILL)
		err = cmd.Wait()
	}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee) && ee.ProcessState.Sys().(syscall.WaitStatus).Signal() == syscall.SIGKILL:
	case err == nil:
		t.Logf("tick finished before the kill")
	default:
		t.Fatalf("tick ended with %v before the kill; stderr:\n%s", err, errb)
	}

	// What the file held at the kill: what the resumed request must hold.
	all, err := session.List(apptest.SessionsIn(run.state), run.ws)
	if err != nil {
		t.Fatalf("list sessions: %v", err)
	}
	var (
		ld   *session.Loaded
		lerr error
		raw  []wireMsg
	)
	if len(all) > 0 {
		ld, lerr = session.Load(all[0].Path)
		raw = rawMessages(t, all[0].Path)
	}
	cmd, _, errb = run.command("-c", "-p", "continue")
	cerr := cmd.Run()
	if len(all) == 0 {
		// Killed before the first line: nothing to continue, and -c says so.
		if ee, ok := cerr.(*exec.ExitError); !ok || ee.ExitCode() != app.ExitError || !strings.Contains(errb.String(), "no earlier session in") {
			t.Errorf("tick -c without a saved session: %v, want exit 1 and a clear message; stderr:\n%s", cerr, errb)
		}
		checkValid(t, srv)
		return round, phaseNoFile
	}
	if len(all) != 1 {
		t.Fatalf("%d sessions after one run, want 1", len(all))
	}
	if lerr != nil {
		t.Fatalf("load the killed session: %v", lerr)
	}
	if ee, ok := cerr.(*exec.ExitError); cerr != nil && (!ok || ee.ExitCode() != app.ExitUnfinished) { // the script's list may be left open
		t.Fatalf("tick -c -p continue: %v; stderr:\n%s", cerr, errb)
	}
	checkValid(t, srv)

	req := apptest.LastRequest(t, srv)
	if req.LastUser() != "continue" {
		t.Fatalf("the last request is not the resumed one: last user message %q", req.LastUser())
	}
	got := fromRequest(req.Messages)
	if len(got) < 2 || got[0].Role != "system" || got[len(got)-1] != (wireMsg{Role: "user", Content: "continue"}) {
		t.Fatalf("the resumed request is not system, history, \"continue\":\n%v", got)
	}
	got = got[1 : len(got)-1]
	if want := fromHistory(ld.ModelHistory); !equalMsgs(got, want) {
		t.Errorf("the resumed history differs from the session file's:\n got %v\nwant %v", got, want)
	}
	// Every complete message line of the file, in order; the only others
	// are answers to calls the kill cut short.
	j := 0
	for _, m := range got {
		switch {
		case j < len(raw) && m == raw[j]:
			j++
		case m.Role == "tool" && m.Content == session.Interrupted:
		default:
			t.Errorf("the resumed request holds %+v, which is not the file's next message %+v", m, nth(raw, j))
		}
	}
	if j != len(raw) {
		t.Errorf("the resumed request lost %d of the %d saved messages, from %+v on", len(raw)-j, len(raw), raw[j])
	}
	if !ld.Todos.Empty() && !strings.Contains(errb.String(), ld.Todos.Render()) {
		t.Errorf("the resumed run did not restore the todo list %q; stderr:\n%s", ld.Todos.Render(), errb)
	}
	if !waitFor(5*time.Second, func() bool { return len(processesWith(marker)) == 0 }) {
		t.Errorf("commands of the killed run are still running: pids %v", processesWith(marker))
	}
	return round, killPhase(raw, true)
}

// rawMessages returns the messages of the complete message lines of a
// session file, read without the session package: the reference for what
// was saved.
func rawMessages(t *testing.T, path string) []wireMsg {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []wireMsg
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var line struct {
			Type    string `json:"type"`
			Message struct {
				Role       string `json:"role"`
				Content    string `json:"content"`
				ToolCallID string `json:"tool_call_id"`
				ToolCalls  []struct {
					ID        string `json:"id"`
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"tool_calls"`
			} `json:"message"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil {
			break // the line the kill cut short
		}
		if line.Type != "message" {
			continue
		}
		m := line.Message
		var calls []string
		for _, c := range m.ToolCalls {
			calls = append(calls, c.ID+" "+c.Name+" "+c.Arguments)
		}
		out = append(out, wireMsg{m.Role, m.Content, m.ToolCallID, strings.Join(calls, "\n")})
	}
	return out
}

func nth(ms []wireMsg, i int) any {
	if i < len(ms) {
		return ms[i]
	}
	return "(none: all were matched)"
}

// killMarked kills the processes whose command line holds marker.
func killMarked(marker string) {
	for _, pid := range processesWith(marker) {
		if p, err := os.FindProcess(atoi(pid)); err == nil {
			_ = p.Kill()
		}
	}
}
