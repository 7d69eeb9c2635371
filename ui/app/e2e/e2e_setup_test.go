package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/ui/app"

	"github.com/tick-agent/tick/provider/providertest"
)

// TestE2EFirstRunSetup is a new user's first run: nothing configured, a
// local server (the fake, announced as Ollama on its own port so nothing
// else on the machine is probed) answering /v1/models. The setup screen
// lists it and its models, the user filters and picks one, the file is
// written 0600 and the session starts; a later tick -p uses the file with
// no variables.
func TestE2EFirstRunSetup(t *testing.T) {
	needTmux(t)
	bin := sharedTick(t)
	srv := providertest.New(t)
	srv.SetModels("llama3.2:3b", "qwen2.5-coder:7b", "qwen2.5:14b")
	srv.Enqueue(providertest.Reply{Text: "Hello from the local model."})
	home, ws := t.TempDir(), t.TempDir()
	env := []string{
		"PATH=" + os.Getenv("PATH"), "TERM=xterm-256color", "HOME=" + home,
		"XDG_STATE_HOME=" + filepath.Join(home, "state"),
		"TICK_LOCAL_SERVERS=ollama=" + srv.URL + "," + deadAPI(t),
	}
	p := startTmux(t, env, bin, "-C", ws)
	p.waitFor("Welcome to tick", "Ollama", "3 models", "OpenRouter", "Custom URL")
	p.send("Enter")
	p.waitFor("llama3.2:3b", "qwen2.5-coder:7b", "type to filter")
	p.typeText("coder")
	p.waitGone("llama3.2:3b")
	p.send("Enter")
	p.waitFor(placeholder, "qwen2.5-coder:7b", "set up: qwen2.5-coder:7b on Ollama")
	p.prompt("hi")
	p.waitFor("Hello from the local model.")
	if got := srv.Requests()[0].Model; got != "qwen2.5-coder:7b" {
		t.Errorf("the first turn asked for %q, want the picked qwen2.5-coder:7b", got)
	}

	path := filepath.Join(home, ".config", "tick", "config.toml")
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("config file: %v, mode %v; want 0600", err, st.Mode())
	}
	if dst, _ := os.Stat(filepath.Dir(path)); dst.Mode().Perm() != 0o700 {
		t.Errorf("config directory mode %v, want 0700", dst.Mode())
	}

	srv.Enqueue(providertest.Reply{Text: "headless answer"})
	r := tick(t, map[string]string{"HOME": home, "XDG_STATE_HOME": filepath.Join(home, "state")}, "", "-p", "again", "-C", ws)
	if r.code != app.ExitOK || !strings.Contains(r.stdout, "headless answer") {
		t.Fatalf("tick -p after setup: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

// deadAPI returns the API root of a loopback port nothing listens on.
func deadAPI(t *testing.T) string {
	t.Helper()
	srv := providertest.NewServer()
	u := srv.URL
	srv.Close()
	return u
}

// TestE2EInstructionsAndInit: the welcome names the AGENTS.md loaded, and
// /init asks the model to write one.
func TestE2EInstructionsAndInit(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Text: "I will look around and write it."})
	home, ws := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "AGENTS.md"), []byte("Use tabs."), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startAppAt(t, srv, home, ws)
	p.waitFor("project instructions: AGENTS.md")
	p.typeText("/init")
	p.send("Enter")
	p.waitFor("I will look around and write it.")
	req := srv.Requests()[0]
	if last := req.Last().Content; !strings.Contains(last, "Write an AGENTS.md") {
		t.Errorf("/init sent %q", last)
	}
	if !strings.Contains(req.Messages[0].Content, "Use tabs.") {
		t.Errorf("the system prompt lacks AGENTS.md")
	}
}

// TestE2EModelPicker: /model lists the server's models with the current
// one marked, filters as you type, switches from the next request (status
// bar too), saves the default after a confirmation, and tick -c keeps the
// session's model.
func TestE2EModelPicker(t *testing.T) {
	srv := providertest.New(t)
	srv.SetModels("alpha-7b", "beta-13b", "gamma-70b")
	srv.Enqueue(providertest.Reply{Text: "first answer"}, providertest.Reply{Text: "second answer"}, providertest.Reply{Text: "third answer"})
	home, ws := t.TempDir(), t.TempDir()
	p := startAppAt(t, srv, home, ws, "--model", "alpha-7b")
	p.prompt("one")
	p.waitFor("first answer")
	p.typeText("/model")
	p.send("Enter")
	p.waitFor("alpha-7b (current)", "beta-13b", "gamma-70b")
	p.typeText("gam")
	p.waitGone("beta-13b")
	p.send("Enter")
	p.waitFor("Also make gamma-70b the default")
	time.Sleep(deliberatePause) // the question takes a key after a pause
	p.send("y")
	p.waitFor("gamma-70b is now the default model")
	if scr := p.screen(); !strings.Contains(lastLine(scr), "gamma-70b") {
		t.Errorf("the status bar does not show the new model:\n%s", scr)
	}
	p.prompt("two")
	p.waitFor("second answer")
	if got := srv.Requests()[1].Model; got != "gamma-70b" {
		t.Errorf("the next request asked for %q, want gamma-70b", got)
	}
	data, err := os.ReadFile(filepath.Join(home, ".config", "tick", "config.toml"))
	if err != nil || !strings.Contains(string(data), "gamma-70b") {
		t.Errorf("the default was not saved: %v\n%s", err, data)
	}
	// Switched again but only for this session: the default stays.
	p.typeText("/model")
	p.send("Enter")
	p.waitFor("gamma-70b (current)")
	p.typeText("beta")
	p.send("Enter")
	p.waitFor("Also make beta-13b the default")
	time.Sleep(deliberatePause)
	p.send("n")
	p.waitFor("model: beta-13b from the next request")
	p.send("C-c")
	p.send("C-c")
	waitFor(screenTimeout, func() bool { gone, _ := p.dead(); return gone })

	// tick -c carries on with the session's model, not the default.
	r := tick(t, map[string]string{"HOME": home, "XDG_STATE_HOME": filepath.Join(home, "state"), "OPENAI_BASE_URL": srv.URL}, "", "-c", "-p", "three", "-C", ws)
	if r.code != app.ExitOK {
		t.Fatalf("tick -c: exit %d: %s", r.code, r.stderr)
	}
	if got := srv.Requests()[2].Model; got != "beta-13b" {
		t.Errorf("tick -c asked for %q, want the session's beta-13b", got)
	}
}

// lastLine returns the last non-empty line of a screen.
func lastLine(scr string) string {
	lines := strings.Split(strings.TrimRight(scr, "\n "), "\n")
	return lines[len(lines)-1]
}

// TestE2EMention: @ opens a fuzzy picker over the workspace's files
// (ignored ones left out), tab inserts the path, and on send the file's
// content goes to the model with the prompt.
func TestE2EMention(t *testing.T) {
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Text: "read it"})
	home, ws := t.TempDir(), t.TempDir()
	for rel, text := range map[string]string{
		"src/deep/notes.txt":      "the notes say 42",
		"src/deep/notes.log":      "ignored log",
		"node_modules/x/notes.js": "dependency",
		".gitignore":              "*.log\n",
	} {
		p := filepath.Join(ws, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := startAppAt(t, srv, home, ws)
	p.typeText("what is in @notes")
	p.waitFor("@src/deep/notes.txt", "tab/enter inserts")
	if scr := p.screen(); strings.Contains(scr, "notes.log") || strings.Contains(scr, "node_modules") {
		t.Errorf("the picker offers ignored files:\n%s", scr)
	}
	p.send("Tab")
	p.waitFor("› what is in @src/deep/notes.txt")
	p.typeText("?")
	p.send("Enter")
	p.waitFor("attached src/deep/notes.txt", "read it")
	last := srv.Requests()[0].Last().Content
	if !strings.Contains(last, "the notes say 42") || !strings.Contains(last, `<file path="src/deep/notes.txt">`) {
		t.Errorf("the request lacks the attached file:\n%s", last)
	}
}

// TestE2EModelPickerOtherProvider: /model lists the models of the config
// file's other providers too; picking one sends the next request there.
func TestE2EModelPickerOtherProvider(t *testing.T) {
	srv, other := providertest.New(t), providertest.New(t)
	srv.SetModels("alpha-7b")
	other.SetModels("delta-3b")
	srv.Enqueue(providertest.Reply{Text: "from the first"})
	other.Enqueue(providertest.Reply{Text: "from the other"})
	home, ws := t.TempDir(), t.TempDir()
	cfgFile := filepath.Join(home, ".config", "tick", "config.toml")
	if err := os.MkdirAll(filepath.Dir(cfgFile), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfgFile, []byte("[providers.other]\nbase_url = \""+other.URL+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := startAppAt(t, srv, home, ws, "--model", "alpha-7b")
	p.prompt("one")
	p.waitFor("from the first")
	p.typeText("/model")
	p.send("Enter")
	p.waitFor("alpha-7b (current)", "other: delta-3b")
	p.typeText("delta")
	p.send("Enter")
	p.waitFor("Also make other: delta-3b the default")
	time.Sleep(deliberatePause)
	p.send("n")
	p.waitGone("Also make other: delta-3b the default") // an answer, then typing (see ui.AnswerHold)
	p.prompt("two")
	p.waitFor("from the other")
	if reqs := other.Requests(); len(reqs) != 1 || reqs[0].Model != "delta-3b" {
		t.Fatalf("the other server got %d requests (model %q)", len(reqs), reqs[0].Model)
	}
	if len(srv.Requests()) != 1 {
		t.Errorf("the first server got %d requests, want 1", len(srv.Requests()))
	}
}

// TestE2EFirstRunSetupRewrites: the setup screen saving into a file the
// editor cannot change in place (an inline providers table, with a
// comment) says in the chat that the file was rewritten and its comments
// were not kept, and the settings still work.
func TestE2EFirstRunSetupRewrites(t *testing.T) {
	needTmux(t)
	bin := sharedTick(t)
	srv := providertest.New(t)
	srv.SetModels("llama3.2:3b")
	srv.Enqueue(providertest.Reply{Text: "Hello again."})
	home, ws := t.TempDir(), t.TempDir()
	path := filepath.Join(home, ".config", "tick", "config.toml")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("# spare servers\nproviders = { spare = { context_window = 8192 } }\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{
		"PATH=" + os.Getenv("PATH"), "TERM=xterm-256color", "HOME=" + home,
		"XDG_STATE_HOME=" + filepath.Join(home, "state"),
		"TICK_LOCAL_SERVERS=ollama=" + srv.URL,
	}
	p := startTmux(t, env, bin, "-C", ws)
	p.waitFor("Welcome to tick", "Ollama", "1 model")
	p.send("Enter")
	p.waitFor("llama3.2:3b")
	p.send("Enter")
	p.waitFor(placeholder, "set up: llama3.2:3b on Ollama", "file was rewritten and its comments were not kept")
	p.prompt("hi")
	p.waitFor("Hello again.")
	data, err := os.ReadFile(path)
	if err != nil || strings.Contains(string(data), "# spare servers") || !strings.Contains(string(data), "8192") {
		t.Errorf("the rewritten file: %v\n%s", err, data)
	}
}
