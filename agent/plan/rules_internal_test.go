package plan

import (
	"testing"

	"github.com/tick-agent/tick/todo"
)

func TestNextID(t *testing.T) {
	tests := []struct {
		ids  []string
		want string
	}{
		{nil, "1"},
		{[]string{"1", "2"}, "3"},
		{[]string{"7", "a", "2"}, "8"},
		{[]string{"a", "b"}, "1"},
	}
	for _, tt := range tests {
		var l todo.List
		for _, id := range tt.ids {
			l.Items = append(l.Items, todo.Item{ID: id})
		}
		if got := nextID(l); got != tt.want {
			t.Errorf("nextID(%v) = %s, want %s", tt.ids, got, tt.want)
		}
	}
}

func TestSameGoal(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"", "x", true},
		{"Ship  it", "ship it", true},
		{"ship", "test", false},
	}
	for _, tt := range tests {
		if got := sameGoal(tt.a, tt.b); got != tt.want {
			t.Errorf("sameGoal(%q, %q) = %v", tt.a, tt.b, got)
		}
	}
}
