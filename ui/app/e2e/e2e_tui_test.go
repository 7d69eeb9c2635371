package e2e

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent/sandbox"

	"github.com/tick-agent/tick/provider/providertest"
)

// The end-to-end tests of the full-screen app: the real binary in tmux
// (120x40 unless a test resizes it) against the fake server, driven with
// keys and read back with capture-pane, the way a person uses it.

// placeholder is what the input shows when idle and empty.
const placeholder = "Ask tick to do something"

// e2eBuild is the tick binary built once for the whole test binary (the
// tmux tests share it); TestMain removes it.
var e2eBuild struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// TestMain runs the package's tests, then removes the shared binary.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == sandbox.HelperArg {
		os.Exit(sandbox.Main(os.Args[2:])) // tick re-executes itself for commands
	}
	code := m.Run()
	if e2eBuild.dir != "" {
		_ = os.RemoveAll(e2eBuild.dir)
	}
	os.Exit(code)
}

// sharedTick returns the tick binary, building it on first use (once for
// the whole package). A test that needs it is skipped with -short.
func sharedTick(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	e2eBuild.once.Do(func() {
		dir, err := os.MkdirTemp("", "tick-e2e-")
		if err != nil {
			e2eBuild.err = fmt.Errorf("make a directory for the binary: %w", err)
			return
		}
		e2eBuild.dir, e2eBuild.bin = dir, filepath.Join(dir, "tick")
		if out, err := exec.Command("go", "build", "-o", e2eBuild.bin, "github.com/tick-agent/tick").CombinedOutput(); err != nil {
			e2eBuild.err = fmt.Errorf("go build: %w\n%s", err, out)
		}
	})
	if e2eBuild.err != nil {
		t.Fatal(e2eBuild.err)
	}
	return e2eBuild.bin
}

// startApp opens the full-screen app against srv in a fresh workspace and
// home, with extra flags, and waits for the idle input.
func startApp(t *testing.T, srv *providertest.Server, extra ...string) *tmuxPane {
	t.Helper()
	return startAppAt(t, srv, t.TempDir(), t.TempDir(), extra...)
}

// startAppAt is startApp in the given home and workspace directories (a
// test that restarts tick passes the same ones again).
func startAppAt(t *testing.T, srv *providertest.Server, home, ws string, extra ...string) *tmuxPane {
	t.Helper()
	needTmux(t) // before the build
	bin := sharedTick(t)
	env := []string{
		"PATH=" + os.Getenv("PATH"), "TERM=xterm-256color", "HOME=" + home,
		"XDG_STATE_HOME=" + filepath.Join(home, "state"),
		"OPENAI_BASE_URL=" + srv.URL, "OPENAI_API_KEY=test-key",
	}
	p := startTmux(t, env, append([]string{bin, "-C", ws}, extra...)...)
	p.waitFor(placeholder)
	p.waitReady()
	return p
}

// waitReady waits until the program answers keys. tick draws its first
// frame before Bubble Tea puts the terminal in raw mode, so keys sent as
// soon as the prompt shows may be read in cooked mode (enter arriving as
// ctrl+j). The help overlay shows only when the program read the "?".
func (p *tmuxPane) waitReady() {
	p.t.Helper()
	p.typeText("?")
	p.waitFor("Input and turn")
	p.send("Escape")
	p.waitGone("Input and turn")
	p.waitFor(placeholder)
}

// prompt types text and presses enter.
func (p *tmuxPane) prompt(text string) {
	p.t.Helper()
	p.typeText(text)
	p.send("Enter")
}

// step is one scripted reply; when gate is not nil the server holds the
// request (the model is "thinking") until the gate opens.
type step struct {
	reply providertest.Reply
	gate  *gate
}

// script makes srv answer the i-th request with steps[i]. A request past
// the end fails the test.
func script(t *testing.T, srv *providertest.Server, steps ...step) {
	var mu sync.Mutex
	n := 0
	srv.SetFunc(func(providertest.Request) providertest.Reply {
		mu.Lock()
		i := n
		n++
		mu.Unlock()
		if i >= len(steps) {
			t.Errorf("request %d: the script has only %d replies", i+1, len(steps))
			return providertest.Reply{Status: 500, Body: `{"error":{"message":"the test script has no more replies"}}`}
		}
		if g := steps[i].gate; g != nil {
			g.wait()
		}
		return steps[i].reply
	})
}

// gate holds a scripted reply until the test opens it. t.Cleanup opens it
// too, so no request is left blocking the server's Close.
type gate struct {
	ch      chan struct{}
	once    sync.Once
	reached chan struct{} // closed when a request waits at the gate
	rOnce   sync.Once
}

func newGate(t *testing.T) *gate {
	g := &gate{ch: make(chan struct{}), reached: make(chan struct{})}
	t.Cleanup(g.open)
	return g
}

func (g *gate) open() { g.once.Do(func() { close(g.ch) }) }

func (g *gate) wait() {
	g.rOnce.Do(func() { close(g.reached) })
	select {
	case <-g.ch:
	case <-time.After(30 * time.Second):
	}
}

// waitReached waits until a request is held at the gate.
func (g *gate) waitReached(t *testing.T) {
	t.Helper()
	select {
	case <-g.reached:
	case <-time.After(screenTimeout):
		t.Fatal("the model request never reached the gate")
	}
}

// todoItem is one item of a scripted todo call.
type todoItem struct {
	ID         string `json:"id"`
	Text       string `json:"text"`
	Status     string `json:"status"`
	ActiveForm string `json:"active_form,omitempty"`
	Note       string `json:"note,omitempty"`
}

// pending returns items with every status set to pending.
func pending(items ...todoItem) []todoItem {
	for i := range items {
		items[i].Status = "pending"
	}
	return items
}

// todoStep is a reply calling todo with goal and items.
func todoStep(goal string, items ...todoItem) step {
	b, _ := json.Marshal(map[string]any{"goal": goal, "items": items})
	return step{reply: providertest.Reply{ToolCalls: []providertest.Call{{Name: "todo", Args: string(b)}}}}
}

// bashStep is a reply running command with bash.
func bashStep(command string) step {
	return step{reply: call("bash", map[string]any{"command": command})}
}

// textStep is a plain answer.
func textStep(text string) step { return step{reply: providertest.Reply{Text: text}} }

// planItems are three items with item done completed and the next one in
// progress (done == 3: all completed).
func planItems(done int) []todoItem {
	base := []todoItem{
		{ID: "1", Text: "Write the parser", ActiveForm: "Writing the parser"},
		{ID: "2", Text: "Add the tests", ActiveForm: "Adding the tests"},
		{ID: "3", Text: "Update the docs", ActiveForm: "Updating the docs"},
	}
	for i := range base {
		switch {
		case i < done:
			base[i].Status = "completed"
		case i == done:
			base[i].Status = "in_progress"
		default:
			base[i].Status = "pending"
		}
	}
	return base
}

// TestE2EPlanPanel: a prompt opens the todo panel with every item while
// the turn runs; ctrl+t collapses and reopens it; at the end of the turn
// it collapses to one summary line, and ctrl+t opens it again.
func TestE2EPlanPanel(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	hold := newGate(t)
	held := bashStep("echo parsed")
	held.gate = hold
	script(t, srv,
		todoStep("Build the parser", planItems(0)...),
		held,
		todoStep("Build the parser", planItems(1)...),
		bashStep("echo tested"),
		todoStep("Build the parser", planItems(3)...),
		textStep("All three steps are done."),
	)
	p := startApp(t, srv, "--yolo")
	p.prompt("build the parser, please")

	hold.waitReached(t)
	scr := p.waitFor("Build the parser", "0/3", "Writing the parser", "Add the tests", "Update the docs", "esc to interrupt")
	if !strings.Contains(scr, "Plan · 0/3") {
		t.Errorf("the chat does not show the todo call as one compact line:\n%s", scr)
	}

	p.send("C-t") // collapse by hand while the turn runs
	p.waitGone("Add the tests", "Update the docs")
	p.send("C-t")
	p.waitFor("Writing the parser", "Add the tests", "Update the docs")

	hold.open()
	p.waitFor("All three steps are done.", placeholder)
	scr = p.waitUntil("the panel collapsed to one line", func(s string) bool {
		return strings.Contains(s, "Plan 3/3") && !strings.Contains(s, "Add the tests")
	})
	if n := strings.Count(scr, "Plan 3/3"); n != 1 {
		t.Errorf("the summary line shows %d times, want once:\n%s", n, scr)
	}

	p.send("C-t")
	p.waitFor("Write the parser", "Add the tests", "Update the docs")
	p.send("C-t")
	p.waitGone("Add the tests")
	checkValid(t, srv)
}

// TestE2EInterruptStream: esc stops a streaming answer at once, the chat
// says so, and a follow-up prompt gets its answer from a valid request.
func TestE2EInterruptStream(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	long := "First words of a long answer. " + strings.Repeat("More streamed words follow here. ", 400)
	script(t, srv,
		step{reply: providertest.Reply{Text: long, ChunkSize: 8, ChunkDelay: 20 * time.Millisecond}},
		textStep("Here is the follow-up answer."),
	)
	p := startApp(t, srv)
	p.prompt("tell me a long story")
	p.waitFor("First words of a long answer.", "esc to interrupt")

	p.send("Escape")
	scr := p.waitFor("Interrupted", placeholder)
	if strings.Contains(scr, "esc to interrupt") {
		t.Errorf("the status bar still says the turn runs:\n%s", scr)
	}

	p.prompt("and now?")
	p.waitFor("Here is the follow-up answer.")
	checkValid(t, srv)
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if got := reqs[1].LastUser(); got != "and now?" {
		t.Errorf("the follow-up request ends with user %q, want %q", got, "and now?")
	}
	partial := ""
	for _, m := range reqs[1].Messages {
		if m.Role == "assistant" {
			partial = m.Content
		}
	}
	if !strings.HasPrefix(partial, "First words") || len(partial) >= len(long) {
		t.Errorf("the follow-up request's assistant message = %.80q..., want the partial answer", partial)
	}
}

// TestE2EInterruptCommand: esc during a `sleep 30` command kills it (the
// process is gone), and a follow-up prompt works.
func TestE2EInterruptCommand(t *testing.T) {
	t.Parallel()
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	marker := "tick-e2e-" + hex.EncodeToString(rnd[:])
	t.Cleanup(func() { killMarked(marker) })

	srv := providertest.New(t)
	script(t, srv,
		bashStep("exec -a "+marker+" sleep 30"),
		textStep("The follow-up works."),
	)
	p := startApp(t, srv, "--yolo")
	p.prompt("wait for a while")
	if !waitFor(screenTimeout, func() bool { return len(processesWith(marker)) > 0 }) {
		t.Fatalf("the sleep command never started; the screen:\n%s", p.screen())
	}
	p.waitFor("running bash", "esc to interrupt")

	p.send("Escape")
	p.waitFor("Interrupted", placeholder)
	if !waitFor(5*time.Second, func() bool { return len(processesWith(marker)) == 0 }) {
		t.Errorf("the sleep process is still running after esc: pids %v", processesWith(marker))
	}

	p.prompt("are you there?")
	p.waitFor("The follow-up works.")
	checkValid(t, srv)
	res := toolResults(srv.Requests())
	if len(res) != 1 || !strings.Contains(res[0], "interrupted") {
		t.Errorf("the tool result sent after the interrupt = %q, want one saying it was interrupted", res)
	}
}

// TestE2ESteerAndQueue: while the model thinks, enter steers (shown as
// "steering", then delivered in the next model request) and tab queues a
// message that is sent as the next turn once this one ends.
func TestE2ESteerAndQueue(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	hold := newGate(t)
	first := bashStep("echo working")
	first.gate = hold
	script(t, srv,
		first,
		textStep("Steered answer, about cats."),
		textStep("Queued answer, a poem."),
	)
	p := startApp(t, srv, "--yolo")
	p.prompt("start the work")
	hold.waitReached(t)

	p.prompt("mention cats too")
	p.waitFor("steering: mention cats too", "1 steering")
	p.typeText("then write a poem")
	p.send("Tab")
	p.waitFor("queued: then write a poem", "1 queued")

	hold.open()
	p.waitFor("Steered answer, about cats.", "Queued answer, a poem.", placeholder)
	scr := p.waitGone("1 steering", "1 queued", "esc to interrupt")
	if strings.Contains(scr, "steering:") || strings.Contains(scr, "queued:") {
		t.Errorf("a delivered message still shows as pending:\n%s", scr)
	}

	checkValid(t, srv)
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	roles := func(r providertest.Request) string {
		var s []string
		for _, m := range r.Messages[1:] { // after the system prompt
			s = append(s, m.Role)
		}
		return strings.Join(s, " ")
	}
	// The steer message follows the tool result of the first round.
	if got := reqs[1].LastUser(); got != "mention cats too" || roles(reqs[1]) != "user assistant tool user" {
		t.Errorf("second request: roles %q, last user %q; want the steer message after the tool result", roles(reqs[1]), got)
	}
	// The queued message is a new turn after the first one's answer.
	if got := reqs[2].LastUser(); got != "then write a poem" || !strings.HasSuffix(roles(reqs[2]), "tool user assistant user") {
		t.Errorf("third request: roles %q, last user %q; want the queued message as the next turn", roles(reqs[2]), got)
	}
}

// TestE2EResize: the app follows live resizes, shows the panel above the
// input on a narrow terminal, says "too small" on a tiny one without
// crashing, and comes back when the size is restored.
func TestE2EResize(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	hold := newGate(t)
	held := textStep("The turn after the resizes.")
	held.gate = hold
	script(t, srv,
		todoStep("Build the parser", planItems(0)...),
		held,
		textStep("Still answering after all that."),
	)
	p := startApp(t, srv)
	p.prompt("plan the parser")
	hold.waitReached(t)
	p.waitFor("Writing the parser", "Update the docs")

	p.resize(70, 20)
	// Narrow: the panel moves from the right of the chat to above the input.
	scr := p.waitUntil("the panel above the input at 70x20", func(s string) bool {
		l := lineOf(s, "Update the docs")
		return l != "" && !strings.Contains(l, "│") && strings.Contains(s, "esc to interrupt")
	})
	lines := strings.Split(scr, "\n")
	if items, input := lineWith(lines, "Update the docs"), lineWith(lines, "enter to steer"); items < 0 || input < 0 || items > input {
		t.Errorf("at 70 columns the panel (line %d) should sit above the input (line %d):\n%s", items, input, scr)
	}

	p.resize(20, 5)
	p.waitFor("too small")
	p.resize(120, 40)
	p.waitUntil("the panel at the right again at 120x40", func(s string) bool {
		return strings.Contains(lineOf(s, "Update the docs"), "│") && strings.Contains(s, "Writing the parser")
	})

	hold.open()
	p.waitFor("The turn after the resizes.", placeholder)
	p.prompt("one more")
	p.waitFor("Still answering after all that.")
	checkValid(t, srv)
}

// TestE2EHelp: ? on an empty input shows the help overlay listing the keys;
// any key closes it.
func TestE2EHelp(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	p := startApp(t, srv)
	p.typeText("?")
	p.waitFor("Keys", "interrupt", "complete · queue (running)", "retry the failed turn", "quit (empty input)", "todo panel", "/retry")
	p.send("Escape") // closes the help; the "?" was not typed into the input
	p.waitGone("todo panel")
	p.waitFor(placeholder)
}

// lineOf is the first line of a screen containing sub, or "".
func lineOf(screen, sub string) string {
	if i := lineWith(strings.Split(screen, "\n"), sub); i >= 0 {
		return strings.Split(screen, "\n")[i]
	}
	return ""
}

// lineWith is the index of the first line containing s, or -1.
func lineWith(lines []string, s string) int {
	for i, l := range lines {
		if strings.Contains(l, s) {
			return i
		}
	}
	return -1
}
