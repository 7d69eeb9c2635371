package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider/providertest"
)

// Input that does what was typed (issue 20): a queued message a failed
// turn hands back, tab completion, an unknown command, ↑ enter after a
// failure, and /model's default.

// TestE2EQueuedBackAfterError: a message queued (tab) during a turn that
// ends in a 400 comes back into the input, and the chat says so.
func TestE2EQueuedBackAfterError(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	hold := newGate(t)
	script(t, srv, step{reply: providertest.Reply{Status: 400, Body: `{"error":{"message":"bad request: the item is still open"}}`}, gate: hold})
	p := startApp(t, srv)
	p.prompt("start the work")
	hold.waitReached(t)
	p.typeText("then write the docs")
	p.send("Tab")
	p.waitFor("queued: then write the docs", "1 queued")
	hold.open()
	scr := p.waitFor("the item is still open", "the message you queued was not sent: it is back in the input")
	if !strings.Contains(lastLines(scr, 3), "› then write the docs") {
		t.Fatalf("the queued message is not back in the input:\n%s", scr)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Fatalf("%d requests, want 1", n)
	}
}

// TestE2ETabCompletionSpace: tab completes a /command and leaves a space,
// so the argument typed next is not glued to it.
func TestE2ETabCompletionSpace(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	p := startApp(t, srv)
	p.typeText("/thi")
	p.waitFor("/think")
	p.send("Tab")
	p.typeText("high")
	p.waitUntil("the argument after a space", func(s string) bool {
		return strings.Contains(lastLines(s, 3), "› /think high")
	})
	p.send("Enter")
	p.waitFor("high")
	if strings.Contains(p.screen(), "/thinkhigh") {
		t.Fatalf("the argument was glued to the command:\n%s", p.screen())
	}
}

// TestE2EUnknownCommand: an unknown /word is not sent: the chat names the
// closest command and enter again sends it as typed; a path (a second /)
// is sent at once.
func TestE2EUnknownCommand(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	script(t, srv, textStep("Sent after all."), textStep("About the hosts file."))
	p := startApp(t, srv)
	p.prompt("/modle now")
	p.waitFor("unknown command /modle — enter again to send it as a message", "did you mean /model?")
	time.Sleep(300 * time.Millisecond)
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("the unknown command was sent: %d requests", n)
	}
	if !strings.Contains(lastLines(p.screen(), 3), "› /modle now") {
		t.Fatalf("the text left the input:\n%s", p.screen())
	}
	p.send("Enter")
	p.waitFor("Sent after all.")
	if got := srv.Requests()[0].LastUser(); got != "/modle now" {
		t.Fatalf("sent %q, want the text as typed", got)
	}
	p.prompt("/etc/hosts is wrong")
	p.waitFor("About the hosts file.")
	if got := srv.Requests()[1].LastUser(); got != "/etc/hosts is wrong" {
		t.Fatalf("sent %q, want the path as typed", got)
	}
}

// TestE2EUpEnterRetries: ↑ then enter on a failed turn's prompt retries
// it (as ctrl+r): one user message in the chat and in the request.
func TestE2EUpEnterRetries(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	script(t, srv,
		step{reply: providertest.Reply{Status: 400, Body: `{"error":{"message":"the server had a bad moment"}}`}},
		textStep("Fixed on the second try."),
	)
	p := startApp(t, srv)
	p.prompt("fix the build")
	p.waitFor("bad moment", "ctrl+r")
	p.send("Up")
	p.waitUntil("the prompt recalled", func(s string) bool { return strings.Contains(lastLines(s, 3), "› fix the build") })
	p.send("Enter")
	scr := p.waitFor("retrying the failed turn", "Fixed on the second try.")
	if n := strings.Count(scr, "› fix the build"); n != 1 {
		t.Fatalf("the prompt shows %d times:\n%s", n, scr)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	users := 0
	for _, m := range reqs[1].Messages {
		if m.Role == "user" {
			users++
		}
	}
	if users != 1 {
		t.Fatalf("the retry sent %d user messages, want 1", users)
	}
}

// TestE2EModelDefault: keys typed while /model asks "Also make it the
// default?" go to the input; y after a pause saves a working pair, the
// model with the provider it came from, for another provider's model and
// for one of the server in use alike.
func TestE2EModelDefault(t *testing.T) {
	srv, other := providertest.New(t), providertest.New(t)
	srv.SetModels("alpha-7b")
	other.SetModels("delta-3b")
	home, ws := t.TempDir(), t.TempDir()
	cfgFile := filepath.Join(home, ".config", "tick", "config.toml")
	if err := os.MkdirAll(filepath.Dir(cfgFile), 0o700); err != nil {
		t.Fatal(err)
	}
	conf := "[providers.first]\nbase_url = \"" + srv.URL + "\"\n\n[providers.other]\nbase_url = \"" + other.URL + "\"\n"
	if err := os.WriteFile(cfgFile, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	p := startAppAt(t, srv, home, ws, "--model", "alpha-7b")
	p.typeText("/model")
	p.send("Enter")
	p.waitFor("alpha-7b (current)", "other: delta-3b")
	p.typeText("delta")
	p.send("Enter")
	p.waitFor("Also make other: delta-3b the default")
	p.typeText("yes and")
	p.waitFor("your typing went to the input")
	time.Sleep(deliberatePause)
	p.send("y")
	p.waitFor("delta-3b is now the default model")
	if !strings.Contains(lastLines(p.screen(), 3), "› yes and") {
		t.Fatalf("the keys typed during the question were lost:\n%s", p.screen())
	}
	data, _ := os.ReadFile(cfgFile)
	if s := string(data); !strings.Contains(s, `provider = "other"`) || !strings.Contains(s, `model = "delta-3b"`) {
		t.Fatalf("saved another provider's model without its provider:\n%s", s)
	}

	p.send("C-c") // clear the input
	p.typeText("/model")
	p.send("Enter")
	p.waitFor("other: delta-3b (current)", "alpha-7b")
	p.typeText("alpha")
	p.send("Enter")
	p.waitFor("Also make alpha-7b the default")
	time.Sleep(deliberatePause)
	p.send("y")
	p.waitFor("alpha-7b is now the default model")
	data, _ = os.ReadFile(cfgFile)
	if s := string(data); !strings.Contains(s, `provider = "first"`) || !strings.Contains(s, `model = "alpha-7b"`) {
		t.Fatalf("saved the server's model beside another provider:\n%s", s)
	}
}

// TestE2EModelNotListed: at start-up, when the server does not list the
// configured model, the status bar says so.
func TestE2EModelNotListed(t *testing.T) {
	t.Parallel()
	srv := providertest.New(t)
	srv.SetModels("alpha-7b")
	p := startApp(t, srv, "--model", "alhpa-7b")
	p.waitFor("alhpa-7b is not on the server's list · /model")
	p.typeText("hello") // it stays after a key
	p.waitFor("› hello")
	if !strings.Contains(lastLine(p.screen()), "not on the server's list") {
		t.Errorf("the warning went at the first key:\n%s", p.screen())
	}
}
