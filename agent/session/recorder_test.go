package session

import (
	"os"
	"testing"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
)

func TestRecorderCreatesOnFirstWrite(t *testing.T) {
	dir, ws := t.TempDir(), t.TempDir()
	r := NewRecorder(dir, ws, "first-model")
	if r.ID() != "" {
		t.Fatal("an id before the first write")
	}
	if all, _ := List(dir, ws); len(all) != 0 {
		t.Fatalf("a file before the first write: %+v", all)
	}
	if err := r.Model("second-model"); err != nil {
		t.Fatal(err)
	}
	if err := r.Message(provider.Message{Role: provider.RoleUser, Content: "hi"}); err != nil {
		t.Fatal(err)
	}
	if err := r.Todo(todo.List{Items: []todo.Item{{ID: "1", Text: "a", Status: todo.Pending}}}); err != nil {
		t.Fatal(err)
	}
	all, err := List(dir, ws)
	if err != nil || len(all) != 1 || all[0].ID != r.ID() || all[0].Model != "second-model" || all[0].Total != 1 {
		t.Fatalf("List = %+v, %v; want the recorder's session with the switched model", all, err)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if err := r.Message(provider.Message{Role: provider.RoleUser, Content: "late"}); err == nil {
		t.Error("a write after Close succeeded")
	}
}

func TestRecorderUnusableDir(t *testing.T) {
	file := t.TempDir() + "/file"
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	r := NewRecorder(file, t.TempDir(), "m")
	if err := r.Message(provider.Message{Role: provider.RoleUser, Content: "hi"}); err == nil {
		t.Fatal("the first write into an unusable directory succeeded")
	}
	if err := r.Message(provider.Message{Role: provider.RoleUser, Content: "again"}); err != nil {
		t.Errorf("later writes are not dropped silently: %v", err)
	}
}
