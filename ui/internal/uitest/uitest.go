// Package uitest holds the fixtures the tests of ui and its parts share
// (plans in every state), so that each package's tests build them the same
// way. It is for tests only.
package uitest

import (
	"strings"

	"github.com/tick-agent/tick/todo"
)

// Plan is a todo list with goal and one item per entry of items, each
// "<status> <text>": status ">" in progress (its active form text+"ing"),
// "x" completed, "-" cancelled (noted "not needed"), anything else
// pending. Item IDs count from "1".
func Plan(goal string, items ...string) todo.List {
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

// TourPlan is a plan with item texts of a typical length (about 35
// characters) in every state.
func TourPlan() todo.List {
	return todo.List{Goal: "Give a quick tour of this project", Items: []todo.Item{
		{ID: "1", Text: "Look around the workspace carefully", Status: todo.Completed, Note: "ran ls, found go.mod"},
		{ID: "2", Text: "Say hi from the shell to everybody", Status: todo.Completed},
		{ID: "3", Text: "Check the operating system version", ActiveForm: "Checking the operating system version", Status: todo.InProgress},
		{ID: "4", Text: "Write the summary of what was found", Status: todo.Pending},
		{ID: "5", Text: "Drop the old build scripts quickly", Status: todo.Cancelled, Note: "not needed"},
	}}
}
