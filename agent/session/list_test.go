package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
)

// fakeSession writes a session file of workspace ws with the given id,
// start time, user prompts (one line each, an hour apart) and todo list,
// the way Store would, and returns its path.
func fakeSession(t testing.TB, dir, ws, id string, started time.Time, prompts []string, list *todo.List) string {
	t.Helper()
	ws, err := normWorkspace(ws)
	if err != nil {
		t.Fatal(err)
	}
	wsDir, err := makeWorkspaceDir(dir, ws)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	_ = enc.Encode(headerLine{Type: typeSession, Version: Version, ID: id, Workspace: ws, Started: started, Model: "m"})
	at := started
	for _, p := range prompts {
		at = at.Add(time.Hour)
		_ = enc.Encode(messageLine{Type: typeMessage, Time: at, Message: provider.Message{Role: provider.RoleUser, Content: p}})
		_ = enc.Encode(messageLine{Type: typeMessage, Time: at, Message: provider.Message{Role: provider.RoleAssistant, Content: strings.Repeat("answer ", 100)}})
	}
	if list != nil {
		_ = enc.Encode(todoLine{Type: typeTodo, Time: at, List: *list})
	}
	path := filepath.Join(wsDir, started.Format("20060102T150405Z")+"-"+id+".jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestListLatestFind(t *testing.T) {
	dir, ws, other := t.TempDir(), t.TempDir(), t.TempDir()
	t0 := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	list := todo.List{Items: []todo.Item{
		{ID: "1", Text: "a", Status: todo.Completed},
		{ID: "2", Text: "b", Status: todo.Completed},
		{ID: "3", Text: "c", Status: todo.Completed},
		{ID: "4", Text: "d", Status: todo.InProgress},
		{ID: "5", Text: "e", Status: todo.Pending},
	}}
	// Started first but updated last (three turns): listed first.
	fakeSession(t, dir, ws, "aaaa1111", t0, []string{"first task\nwith details", "more", "again"}, &list)
	fakeSession(t, dir, ws, "aaaa2222", t0.Add(time.Minute), []string{"second task"}, nil)
	fakeSession(t, dir, ws, "bbbb3333", t0.Add(2*time.Minute), nil, nil)
	fakeSession(t, dir, other, "cccc4444", t0.Add(time.Hour*24), []string{"elsewhere"}, nil)
	// Noise that must be skipped.
	wsDir := filepath.Join(dir, workspaceDirName(mustNorm(t, ws)))
	for name, content := range map[string]string{"junk.jsonl": "not json\n", "empty.jsonl": "", "notes.txt": "x"} {
		if err := os.WriteFile(filepath.Join(wsDir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}

	all, err := List(dir, ws)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, in := range all {
		ids = append(ids, in.ID)
	}
	if want := []string{"aaaa1111", "aaaa2222", "bbbb3333"}; !reflect.DeepEqual(ids, want) {
		t.Fatalf("List ids = %v, want %v", ids, want)
	}
	first := all[0]
	if first.FirstPrompt != "first task" || first.Turns != 3 || first.Done != 3 || first.Total != 5 ||
		!first.Started.Equal(t0) || !first.Updated.Equal(t0.Add(3*time.Hour)) || first.Model != "m" {
		t.Errorf("Info = %+v", first)
	}
	// List describes a session the way Load does.
	ld, err := Load(first.Path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ld.Info, first) {
		t.Errorf("List gives %+v\nLoad gives %+v", first, ld.Info)
	}

	latest, err := Latest(dir, ws)
	if err != nil || latest.ID != "aaaa1111" {
		t.Errorf("Latest = %v, %v; want aaaa1111", latest.ID, err)
	}
	finds := []struct {
		query, want, errText string
		noSession            bool
	}{
		{query: "aaaa2222", want: "aaaa2222"},
		{query: "b", want: "bbbb3333"},
		{query: " AAAA1 ", want: "aaaa1111"},
		{query: "aaaa", errText: "matches 2 sessions (aaaa1111, aaaa2222)"},
		{query: "cccc", noSession: true},
		{query: "zz", noSession: true},
		{query: "", errText: "empty"},
	}
	for _, f := range finds {
		t.Run("Find "+f.query, func(t *testing.T) {
			in, err := Find(dir, ws, f.query)
			switch {
			case f.want != "":
				if err != nil || in.ID != f.want {
					t.Errorf("Find = %q, %v; want %q", in.ID, err, f.want)
				}
			case f.noSession:
				if !errors.Is(err, ErrNoSession) {
					t.Errorf("Find error = %v, want ErrNoSession", err)
				}
			default:
				if err == nil || !strings.Contains(err.Error(), f.errText) {
					t.Errorf("Find error = %v, want one containing %q", err, f.errText)
				}
			}
		})
	}

	empty := t.TempDir()
	if all, err := List(dir, empty); err != nil || len(all) != 0 {
		t.Errorf("List of a workspace without sessions = %v, %v", all, err)
	}
	if _, err := Latest(dir, empty); !errors.Is(err, ErrNoSession) {
		t.Errorf("Latest without sessions: %v, want ErrNoSession", err)
	}
}

func mustNorm(t testing.TB, ws string) string {
	t.Helper()
	n, err := normWorkspace(ws)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestListAfterCreate(t *testing.T) {
	dir, ws := t.TempDir(), t.TempDir()
	st, err := Create(dir, ws, "m")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	msgs, list := conversation()
	recordAll(t, st, msgs, &list)
	in, err := Find(dir, ws, st.ID()[:5])
	if err != nil {
		t.Fatal(err)
	}
	if in.Path != st.Path() || in.Turns != 2 || in.Done != 1 || in.Total != 2 {
		t.Errorf("Find after Create = %+v", in)
	}
}

func TestDefaultDir(t *testing.T) {
	cases := []struct {
		name string
		env  map[string]string
		want string
		fail bool
	}{
		{"xdg", map[string]string{"XDG_STATE_HOME": "/x/state", "HOME": "/home/u"}, "/x/state/tick/sessions", false},
		{"home", map[string]string{"HOME": "/home/u"}, "/home/u/.local/state/tick/sessions", false},
		{"relative xdg ignored", map[string]string{"XDG_STATE_HOME": "state", "HOME": "/home/u"}, "/home/u/.local/state/tick/sessions", false},
		{"nothing", map[string]string{}, "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := DefaultDir(func(k string) string { return c.env[k] })
			if (err != nil) != c.fail || got != filepath.FromSlash(c.want) {
				t.Errorf("DefaultDir = %q, %v; want %q (fail %v)", got, err, c.want, c.fail)
			}
		})
	}
}

// BenchmarkList lists 100 sessions of 40 turns each (about 60 KB each).
func BenchmarkList(b *testing.B) {
	dir, ws := b.TempDir(), b.TempDir()
	prompts := make([]string, 40)
	for i := range prompts {
		prompts[i] = fmt.Sprintf("prompt %d %s", i, strings.Repeat("context ", 100))
	}
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 100 {
		fakeSession(b, dir, ws, fmt.Sprintf("s%07d", i), t0.Add(time.Duration(i)*time.Minute), prompts, nil)
	}
	b.ResetTimer()
	for range b.N {
		all, err := List(dir, ws)
		if err != nil || len(all) != 100 {
			b.Fatalf("List = %d, %v", len(all), err)
		}
	}
}

// BenchmarkLoad loads one session of 40 turns.
func BenchmarkLoad(b *testing.B) {
	dir, ws := b.TempDir(), b.TempDir()
	prompts := make([]string, 40)
	for i := range prompts {
		prompts[i] = fmt.Sprintf("prompt %d %s", i, strings.Repeat("context ", 100))
	}
	path := fakeSession(b, dir, ws, "s0000001", time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), prompts, nil)
	b.ResetTimer()
	for range b.N {
		if _, err := Load(path); err != nil {
			b.Fatal(err)
		}
	}
}

func TestRemindersAreNotTurns(t *testing.T) {
	dir, ws := t.TempDir(), t.TempDir()
	path := fakeSession(t, dir, ws, "rem12345", time.Now().Add(-time.Hour), []string{"real prompt", todo.Reminder, "second prompt"}, nil)
	infos, err := List(dir, ws)
	if err != nil || len(infos) != 1 {
		t.Fatalf("List = %v, %v", infos, err)
	}
	ld, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]int{"List": infos[0].Turns, "Load": ld.Info.Turns} {
		if got != 2 {
			t.Errorf("%s counts %d turns, want 2 (the reminder is not a turn)", name, got)
		}
	}
}
