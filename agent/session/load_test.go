package session

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/provider/providertest"
	"github.com/tick-agent/tick/todo"
)

// newSession creates a session holding msgs (and list when not nil) and
// closes it, returning its path.
func newSession(t *testing.T, msgs []provider.Message, list *todo.List) string {
	t.Helper()
	st, err := Create(t.TempDir(), t.TempDir(), "m")
	if err != nil {
		t.Fatal(err)
	}
	recordAll(t, st, msgs, list)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	return st.Path()
}

func appendBytes(t *testing.T, path string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
}

func TestDamagedLastLine(t *testing.T) {
	msgs, list := conversation()
	extra := provider.Message{Role: provider.RoleAssistant, Content: "after resume"}
	cases := []struct {
		name   string
		tail   string
		warned bool
	}{
		{"half a line", `{"type":"message","time":"2025-01-01T00:00:00Z","message":{"role":"assi`, true},
		{"garbled line with newline", "\x00\x00garbage\x00\n", true},
		{"zeros after a crash", "\x00\x00\x00\x00\x00\x00", true},
		{"blank tail", "\n\n  ", false},
		{"complete line without newline", `{"type":"message","message":{"role":"assistant","content":"no newline"}}`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := newSession(t, msgs, &list)
			before, _ := os.ReadFile(path)
			appendBytes(t, path, []byte(c.tail))

			ld, err := Load(path)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			want := msgs
			if strings.Contains(c.tail, "no newline") {
				want = append(append([]provider.Message(nil), msgs...), provider.Message{Role: provider.RoleAssistant, Content: "no newline"})
			}
			if !reflect.DeepEqual(ld.History, want) {
				t.Errorf("History = %+v\nwant %+v", ld.History, want)
			}
			if !reflect.DeepEqual(ld.Todos, list) {
				t.Errorf("Todos lost: %+v", ld.Todos)
			}
			warned := len(ld.Warnings) == 1 && strings.Contains(ld.Warnings[0], "ignored a truncated last line")
			if warned != c.warned {
				t.Errorf("Warnings = %q, want a truncation warning: %v", ld.Warnings, c.warned)
			}

			st, ld2, err := Open(path)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			if st.ID() != ld2.Info.ID || st.Path() != path {
				t.Errorf("Open continued %s (%s), want the same file", st.Path(), st.ID())
			}
			if err := st.Message(extra); err != nil {
				t.Fatal(err)
			}
			st.Close()
			after, _ := os.ReadFile(path)
			if !bytes.HasPrefix(after, before) {
				t.Errorf("Open changed the complete lines")
			}
			ld3, err := Load(path)
			if err != nil {
				t.Fatalf("Load after append: %v", err)
			}
			if len(ld3.Warnings) != 0 {
				t.Errorf("warnings after Open and append: %q", ld3.Warnings)
			}
			want = append(append([]provider.Message(nil), want...), extra)
			if !reflect.DeepEqual(ld3.History, want) {
				t.Errorf("History after append = %+v\nwant %+v", ld3.History, want)
			}
		})
	}
}

func TestCorruptMiddleLine(t *testing.T) {
	msgs, list := conversation()
	path := newSession(t, msgs[:4], &list) // header, 4 messages, todo: lines 1-6
	appendBytes(t, path, []byte("{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"x\"\n"))
	appendBytes(t, path, []byte(`{"type":"message","message":{"role":"user","content":"after the damage"}}`+"\n"))
	damaged, _ := os.ReadFile(path)

	ld, err := Load(path)
	var ce *CorruptError
	if !errors.As(err, &ce) {
		t.Fatalf("Load error = %v, want a *CorruptError", err)
	}
	if ce.Line != 7 || ce.Path != path || !strings.Contains(err.Error(), "line 7") {
		t.Errorf("CorruptError = %+v (%q), want line 7 of %s", ce, err, path)
	}
	if ld == nil || !reflect.DeepEqual(ld.History, msgs[:4]) || !reflect.DeepEqual(ld.Todos, list) {
		t.Fatalf("Load kept %+v, want the 4 messages and the list before the damage", ld)
	}

	st, ld2, err := Open(path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer st.Close()
	if st.ID() == ld2.Info.ID || st.Path() == path {
		t.Errorf("Open appends to the damaged file %s", st.Path())
	}
	joined := strings.Join(ld2.Warnings, "\n")
	if !strings.Contains(joined, "line 7") || !strings.Contains(joined, st.ID()) {
		t.Errorf("Warnings %q do not name the line and the new session", ld2.Warnings)
	}
	extra := provider.Message{Role: provider.RoleUser, Content: "go on"}
	if err := st.Message(extra); err != nil {
		t.Fatal(err)
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(now, damaged) {
		t.Errorf("the damaged file was changed")
	}
	ld3, err := Load(st.Path())
	if err != nil {
		t.Fatalf("Load of the new session: %v", err)
	}
	want := append(append([]provider.Message(nil), msgs[:4]...), extra)
	if !reflect.DeepEqual(ld3.History, want) || !reflect.DeepEqual(ld3.Todos, list) {
		t.Errorf("new session holds %+v / %+v, want the recovered history, the list and the new message", ld3.History, ld3.Todos)
	}
	if filepath.Dir(st.Path()) != filepath.Dir(path) {
		t.Errorf("new session in %s, want next to the damaged one", st.Path())
	}
}

func TestNotSession(t *testing.T) {
	cases := []struct{ name, content string }{
		{"empty", ""},
		{"half a header", `{"type":"session","version":1,"id":"ab`},
		{"no header", `{"type":"message","message":{"role":"user","content":"hi"}}` + "\n"},
		{"text", "hello\nworld\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s.jsonl")
			if err := os.WriteFile(path, []byte(c.content), 0o600); err != nil {
				t.Fatal(err)
			}
			ld, err := Load(path)
			if !errors.Is(err, ErrNotSession) || ld != nil {
				t.Errorf("Load = %v, %v; want nil, ErrNotSession", ld, err)
			}
			st, _, err := Open(path)
			if !errors.Is(err, ErrNotSession) || st != nil {
				t.Errorf("Open error = %v, want ErrNotSession", err)
			}
		})
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.jsonl")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Load of a missing file = %v, want ErrNotExist", err)
	}
}

func TestUnknownLinesSkipped(t *testing.T) {
	msgs, _ := conversation()
	path := newSession(t, msgs[:1], nil)
	appendBytes(t, path, []byte(`{"type":"usage","tokens":12}`+"\n"))
	st, _, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	recordAll(t, st, msgs[1:4], nil)
	st.Close()
	ld, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ld.History, msgs[:4]) || len(ld.Warnings) != 0 {
		t.Errorf("History %+v, warnings %q; want the 4 messages and no warning", ld.History, ld.Warnings)
	}
}

// crashedHistory is a session killed while tools ran: call_b answered,
// call_a and call_c not, plus a stray result of an unknown call and an
// empty assistant message left by an interrupted stream.
func crashedHistory() []provider.Message {
	return []provider.Message{
		{Role: provider.RoleUser, Content: "fix the tests"},
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{
			{ID: "call_a", Name: "bash", Arguments: `{"command":"go test ./..."}`},
			{ID: "call_b", Name: "read_file", Arguments: `{"path":"a.go"}`},
			{ID: "call_c", Name: "read_file", Arguments: `{"path":"b.go"}`},
		}},
		{Role: provider.RoleTool, ToolCallID: "call_b", Content: "package a"},
		{Role: provider.RoleTool, ToolCallID: "call_zzz", Content: "orphan"},
		{Role: provider.RoleUser, Content: "steered"},
		{Role: provider.RoleAssistant},
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "call_d", Name: "bash", Arguments: `{"command":"sleep 100"}`}}},
	}
}

func TestRepairUnansweredCalls(t *testing.T) {
	path := newSession(t, crashedHistory(), nil)
	ld, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Role provider.Role
		ID   string
		Text string
	}
	var got []row
	for _, m := range ld.ModelHistory {
		got = append(got, row{m.Role, m.ToolCallID, m.Content})
	}
	want := []row{
		{provider.RoleUser, "", "fix the tests"},
		{provider.RoleAssistant, "", ""},
		{provider.RoleTool, "call_b", "package a"},
		{provider.RoleTool, "call_a", Interrupted},
		{provider.RoleTool, "call_c", Interrupted},
		{provider.RoleUser, "", "steered"},
		{provider.RoleAssistant, "", ""},
		{provider.RoleTool, "call_d", Interrupted},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("repaired history:\n%+v\nwant\n%+v", got, want)
	}
	if !reflect.DeepEqual(ld.History, ld.ModelHistory) {
		t.Errorf("History and ModelHistory differ without compaction")
	}
	joined := strings.Join(ld.Warnings, "\n")
	if !strings.Contains(joined, "3 tool call(s)") || !strings.Contains(joined, "1 tool result(s)") {
		t.Errorf("Warnings %q do not count the repairs", ld.Warnings)
	}
	if !strings.Contains(Interrupted, "interrupted") || !strings.HasPrefix(Interrupted, "Error: ") {
		t.Errorf("Interrupted = %q, want an Error: text saying interrupted", Interrupted)
	}
}

// send streams history plus a user prompt to a strict fake server and
// returns the error of the call and the validation failures it saw.
func send(t *testing.T, history []provider.Message) (error, []string) {
	t.Helper()
	srv := providertest.New(t)
	srv.Enqueue(providertest.Reply{Text: "ok"})
	c, err := provider.New(provider.Config{BaseURL: srv.URL, Model: "m", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	msgs := append(append([]provider.Message(nil), history...), provider.Message{Role: provider.RoleUser, Content: "carry on"})
	_, err = c.Stream(context.Background(), provider.Request{Messages: msgs}, provider.Handler{})
	return err, srv.Errors()
}

func TestRepairedHistoryAcceptedByStrictServer(t *testing.T) {
	raw := crashedHistory()
	// Control: the history as the file holds it is refused.
	if err, errs := send(t, raw); err == nil || len(errs) == 0 {
		t.Fatalf("the strict server accepted the unrepaired history (err %v)", err)
	}
	ld, err := Load(newSession(t, raw, nil))
	if err != nil {
		t.Fatal(err)
	}
	if err, errs := send(t, ld.ModelHistory); err != nil || len(errs) != 0 {
		t.Errorf("repaired history refused: %v %q", err, errs)
	}
}

func TestCompactionModelHistory(t *testing.T) {
	msgs, list := conversation()
	st, err := Create(t.TempDir(), t.TempDir(), "m")
	if err != nil {
		t.Fatal(err)
	}
	recordAll(t, st, msgs[:5], &list)
	summaryMsg := provider.Message{Role: provider.RoleUser, Content: "<summary>S1</summary>"}
	kept := []provider.Message{summaryMsg, msgs[4]}
	if err := st.Compaction("S1", kept); err != nil {
		t.Fatal(err)
	}
	after := []provider.Message{msgs[5], {Role: provider.RoleAssistant, Content: "ok"}}
	recordAll(t, st, after, nil)
	// A second compaction wins over the first.
	kept2 := []provider.Message{{Role: provider.RoleUser, Content: "<summary>S2</summary>"}, after[1]}
	if err := st.Compaction("S2", kept2); err != nil {
		t.Fatal(err)
	}
	last := provider.Message{Role: provider.RoleUser, Content: "next"}
	recordAll(t, st, []provider.Message{last}, nil)
	st.Close()

	ld, err := Load(st.Path())
	if err != nil {
		t.Fatal(err)
	}
	full := append(append(append([]provider.Message(nil), msgs[:5]...), after...), last)
	if !reflect.DeepEqual(ld.History, full) {
		t.Errorf("History = %+v\nwant the full history %+v", ld.History, full)
	}
	model := append(append([]provider.Message(nil), kept2...), last)
	if !reflect.DeepEqual(ld.ModelHistory, model) {
		t.Errorf("ModelHistory = %+v\nwant %+v", ld.ModelHistory, model)
	}
	if ld.Summary != "S2" || ld.Compactions != 2 {
		t.Errorf("Summary %q, Compactions %d; want S2, 2", ld.Summary, ld.Compactions)
	}
	if ld.Info.Turns != 3 {
		t.Errorf("Turns = %d, want 3 (summaries are not turns)", ld.Info.Turns)
	}
}

func FuzzLoad(f *testing.F) {
	header := `{"type":"session","version":1,"id":"abcd1234","workspace":"/w","started":"2025-01-01T00:00:00Z"}` + "\n"
	f.Add([]byte(header))
	f.Add([]byte(header + `{"type":"message","message":{"role":"assistant","tool_calls":[{"id":"a","name":"bash","arguments":"{}"}]}}` + "\n" +
		`{"type":"message","message":{"role":"tool","tool_call_id":"b","content":"x"}}` + "\n"))
	f.Add([]byte(header + `{"type":"compaction","summary":"s","kept":[{"role":"user","content":"s"}]}` + "\n" + `{"type":"todo","list":{"items":[{"id":"1","text":"t","status":"pending"}]}}`))
	f.Add([]byte(header + "{\"type\":\"message\"\n\x00\x00"))
	f.Add([]byte("\n\n" + header + `{"type":"message","message":null}` + "\n" + `{"type":1}` + "\n"))
	f.Add([]byte(header + `{"type":"plan","plan":{"added":["1"],"text":{"1":"t"},"pending":["n"],"proposal":{"items":[{"id":"1","text":"t","status":"pending"}]}}}` + "\n" +
		`{"type":"mode","mode":"plan","before":"ask"}` + "\n" + `{"type":"plan","plan":7}` + "\n" + `{"type":"mode","mode":"x"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "s.jsonl")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		ld, err := Load(path)
		if ld == nil {
			if err == nil {
				t.Fatal("Load returned neither a session nor an error")
			}
			return
		}
		if err := ld.Plan.Validate(); err != nil {
			t.Fatalf("loaded an invalid plan state: %v", err)
		}
		if ld.Mode != "" && !modeName(ld.Mode) {
			t.Fatalf("loaded the unknown mode %q", ld.Mode)
		}
		for _, h := range [][]provider.Message{ld.History, ld.ModelHistory} {
			if out, answered, dropped := repair(h); answered != 0 || dropped != 0 || len(out) != len(h) {
				t.Fatalf("loaded history is not repaired: %+v", h)
			}
		}
		st, ld2, err := Open(path)
		if err != nil {
			t.Fatalf("Open failed after Load succeeded: %v", err)
		}
		defer st.Close()
		if err := st.Message(provider.Message{Role: provider.RoleUser, Content: "more"}); err != nil {
			t.Fatal(err)
		}
		ld3, err := Load(st.Path())
		if err != nil {
			t.Fatalf("Load after Open and append: %v", err)
		}
		if len(ld3.History) != len(ld2.History)+1 {
			t.Fatalf("after append: %d messages, want %d", len(ld3.History), len(ld2.History)+1)
		}
	})
}

// TestTaskLines: a task line keeps a subagent's transcript by its call's
// id; an unusable one is skipped with a warning and the rest loads.
func TestTaskLines(t *testing.T) {
	msgs, _ := conversation()
	path := newSession(t, msgs[:1], nil)
	st, _, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	child := []provider.Message{{Role: provider.RoleUser, Content: "CHILD"}, {Role: provider.RoleAssistant, Content: "report"}}
	if err := st.Task("call_1", "2", child); err != nil {
		t.Fatal(err)
	}
	st.Close()
	appendBytes(t, path, []byte(`{"type":"task","task":"","messages":[]}`+"\n"))
	appendBytes(t, path, []byte(`{"type":"task","task":"call_2","messages":[{"role":"wizard"}]}`+"\n"))
	appendBytes(t, path, []byte(`{"type":"task","task":`+"\n"))
	st, _, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	recordAll(t, st, msgs[1:2], nil)
	st.Close()
	ld, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(ld.Tasks) != 1 || !reflect.DeepEqual(ld.Tasks["call_1"], child) {
		t.Errorf("Tasks = %+v, want call_1's transcript only", ld.Tasks)
	}
	if len(ld.History) < 2 || ld.History[1].Content != msgs[1].Content || len(ld.Warnings) < 3 {
		t.Errorf("History has %d messages, warnings %q; want the messages after the bad task lines, and a warning for each", len(ld.History), ld.Warnings)
	}
}
