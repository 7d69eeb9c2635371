package hooks

import (
	"reflect"
	"testing"
)

// TestMerge: the first config's hooks run first, event by event, and
// merging leaves both inputs as they were (no shared backing arrays).
func TestMerge(t *testing.T) {
	user := Config{PreToolUse: make([]Hook, 1, 4), Stop: []Hook{{Command: "user-stop"}}}
	user.PreToolUse[0] = Hook{Command: "user-pre"}
	project := Config{PreToolUse: []Hook{{Command: "project-pre"}}, UserPromptSubmit: []Hook{{Command: "project-prompt"}}}

	got := user.Merge(project)
	want := Config{
		PreToolUse:       []Hook{{Command: "user-pre"}, {Command: "project-pre"}},
		UserPromptSubmit: []Hook{{Command: "project-prompt"}},
		Stop:             []Hook{{Command: "user-stop"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Merge() = %+v, want %+v", got, want)
	}
	again := user.Merge(Config{PreToolUse: []Hook{{Command: "other"}}})
	if got.PreToolUse[1].Command != "project-pre" || again.PreToolUse[1].Command != "other" {
		t.Fatalf("two merges share the user's array: %+v, %+v", got.PreToolUse, again.PreToolUse)
	}
	if len(user.PreToolUse) != 1 || len(project.PreToolUse) != 1 {
		t.Fatal("Merge changed its inputs")
	}
}
