package panel

import (
	"github.com/charmbracelet/x/ansi"
	"github.com/tick-agent/tick/todo"
	"github.com/tick-agent/tick/ui/internal/uitest"
)

// Fixtures of the root's tests the moved panel tests use, as they are there.

// plan is uitest.Plan: a todo list with the given statuses ("p", ">", "x", "-").
func plan(goal string, items ...string) todo.List { return uitest.Plan(goal, items...) }

func stripAll(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = stripANSI(l)
	}
	return out
}

// tourPlan is uitest.TourPlan: typical item lengths in every state.
func tourPlan() todo.List { return uitest.TourPlan() }

func stripANSI(s string) string { return ansi.Strip(s) }

func stripWidth(s string) int { return ansi.StringWidth(s) }
