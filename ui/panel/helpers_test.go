package panel

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/tick-agent/tick/todo"
)

// Fixtures of the root's tests the moved panel tests use, as they are there.

// plan is a todo list with the given statuses ("p", ">", "x", "-").
func plan(goal string, items ...string) todo.List {
	l := todo.List{Goal: goal}
	for i, s := range items {
		st, text, _ := strings.Cut(s, " ")
		it := todo.Item{ID: string(rune('1' + i)), Text: text}
		switch st {
		case ">":
			it.Status = todo.InProgress
			it.ActiveForm = text + "ing"
		case "x":
			it.Status = todo.Completed
		case "-":
			it.Status = todo.Cancelled
			it.Note = "not needed"
		default:
			it.Status = todo.Pending
		}
		l.Items = append(l.Items, it)
	}
	return l
}

func stripAll(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = stripANSI(l)
	}
	return out
}

// tourPlan is a plan with item texts of a typical length (about 35
// characters) in every state.
func tourPlan() todo.List {
	return todo.List{Goal: "Give a quick tour of this project", Items: []todo.Item{
		{ID: "1", Text: "Look around the workspace carefully", Status: todo.Completed, Note: "ran ls, found go.mod"},
		{ID: "2", Text: "Say hi from the shell to everybody", Status: todo.Completed},
		{ID: "3", Text: "Check the operating system version", ActiveForm: "Checking the operating system version", Status: todo.InProgress},
		{ID: "4", Text: "Write the summary of what was found", Status: todo.Pending},
		{ID: "5", Text: "Drop the old build scripts quickly", Status: todo.Cancelled, Note: "not needed"},
	}}
}

func stripANSI(s string) string { return ansi.Strip(s) }

func stripWidth(s string) int { return ansi.StringWidth(s) }
