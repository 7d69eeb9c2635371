package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider/providertest"
)

// editStep is a reply that edits path, replacing old by new.
func editStep(t *testing.T, path, old, new string) step {
	t.Helper()
	b, err := json.Marshal(map[string]string{"path": path, "old_string": old, "new_string": new})
	if err != nil {
		t.Fatal(err)
	}
	return step{reply: providertest.Reply{ToolCalls: []providertest.Call{{Name: "edit_file", Args: string(b)}}}}
}

// TestE2EEditShownAsDiff: an edit shows in the chat as its removed and
// added lines, numbered, not as the model's "now read" text (issue 35 §1).
func TestE2EEditShownAsDiff(t *testing.T) {
	srv := providertest.New(t)
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "conf.txt"), []byte("name = tick\nport = 80\nmode = fast\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script(t, srv, editStep(t, "conf.txt", "port = 80", "port = 8080"), textStep("port changed"))
	p := startAppAt(t, srv, t.TempDir(), ws, "--yolo")
	p.prompt("change the port")
	p.waitFor("port changed", "2 - port = 80", "2 + port = 8080", "1 line added, 1 removed")
	p.quit()
}

// TestE2EPipeEditDiffInStreamJSON: -p's stream-json carries an edit's
// diff in tool_end's "diff" (the front-ends' data), while the model's
// result stays its concise text (issue 35 §1, the -p seam).
func TestE2EPipeEditDiffInStreamJSON(t *testing.T) {
	bin := sharedTick(t)
	srv := providertest.New(t)
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "conf.txt"), []byte("port = 80\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv.Enqueue(call("edit_file", map[string]any{"path": "conf.txt", "old_string": "80", "new_string": "8080"}), providertest.Reply{Text: "Done."})
	r := runBin(t, bin, ws, pipeEnv(t), "-p", "edit", "--yolo", "--base-url", srv.URL, "--output-format", "stream-json")
	if r.code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	found := false
	for _, ev := range jsonLines(t, r.stdout) {
		if ev["type"] != "tool_end" {
			continue
		}
		found = true
		d, _ := ev["diff"].(string)
		if !strings.Contains(d, "\n-port = 80\n+port = 8080\n") {
			t.Errorf("tool_end's diff = %q", d)
		}
		if out, _ := ev["output"].(string); strings.Contains(out, "@@") || !strings.Contains(out, "Edited conf.txt") {
			t.Errorf("the model's result changed: %q", out)
		}
	}
	if !found {
		t.Fatalf("no tool_end in:\n%s", r.stdout)
	}
	for _, m := range srv.Requests() {
		for _, msg := range m.Messages {
			if strings.Contains(msg.Content, "+port = 8080") {
				t.Errorf("the diff reached the model: %q", msg.Content)
			}
		}
	}
}

// TestE2EThoughtOpens: a model's reasoning shows as "Thought for"; ctrl+o
// opens its text and closes it again (issue 35 §3).
func TestE2EThoughtOpens(t *testing.T) {
	srv := providertest.New(t)
	script(t, srv, step{reply: providertest.Reply{Reasoning: "weighing the squirrel option against the otter option", Text: "Otters."}})
	p := startApp(t, srv)
	p.prompt("which animal")
	s := p.waitFor("Otters.", "Thought for", "ctrl+o to open")
	if strings.Contains(s, "squirrel option") {
		t.Fatalf("the thought is open before ctrl+o:\n%s", s)
	}
	p.send("C-o")
	p.waitFor("weighing the squirrel option against the otter option")
	p.send("C-o")
	p.waitGone("squirrel option")
	p.quit()
}

// TestE2ESessionDiff: /diff lists the two files the session changed (in a
// workspace without git: from the undo points), enter opens a file's
// hunks, esc goes back and closes (issue 35 §2).
func TestE2ESessionDiff(t *testing.T) {
	srv := providertest.New(t)
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "conf.txt"), []byte("name = tick\nport = 80\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]string{"path": "notes.md", "content": "# Notes\nfirst note\n"})
	script(t, srv,
		editStep(t, "conf.txt", "port = 80", "port = 8080"),
		step{reply: providertest.Reply{ToolCalls: []providertest.Call{{Name: "write_file", Args: string(b)}}}},
		textStep("both done"))
	p := startAppAt(t, srv, t.TempDir(), ws, "--yolo")
	p.prompt("change the port and add notes")
	p.waitFor("both done")
	p.prompt("/diff")
	p.waitFor("Changes since", "changed  conf.txt", "created  notes.md")
	// The chat shows the edits as diffs too: each wait names what only
	// the dialog shows (its title, its key line), else it would pass on
	// the chat's lines and the next key would come before the dialog
	// took the last (tmux then reads esc and a key as alt+key).
	p.send("Enter")
	p.waitFor("changed conf.txt", "esc back to the files", "2 - port = 80", "2 + port = 8080")
	p.send("Escape")
	p.waitFor("Changes since", "created  notes.md")
	p.send("Down")
	p.waitFor("▸ created  notes.md")
	p.send("Enter")
	p.waitFor("created notes.md", "esc back to the files", "1 + # Notes", "2 + first note")
	p.send("Escape")
	p.waitFor("Changes since")
	p.send("Escape")
	p.waitGone("Changes since")
	p.quit()
}
