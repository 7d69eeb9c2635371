package agent

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
)

// TodoTool is the name of the agent's todo tool, which replaces the todo
// list; front-ends show its calls as the plan, not as a command.
const TodoTool = "todo"

//go:embed prompts/todo.md
var todoDescription string

// todoSchema is the JSON schema of the todo tool's arguments.
const todoSchema = `{
  "type": "object",
  "properties": {
    "goal": {"type": "string", "description": "One line: what the whole list achieves."},
    "items": {
      "type": "array",
      "description": "The complete list, every item, every call.",
      "maxItems": 20,
      "items": {
        "type": "object",
        "properties": {
          "id": {"type": "string", "description": "Short unique id, e.g. \"1\"."},
          "text": {"type": "string", "description": "The step, imperative: \"Add tests\"."},
          "status": {"type": "string", "enum": ["pending", "in_progress", "completed", "cancelled"]},
          "active_form": {"type": "string", "description": "Present continuous, shown while it runs: \"Adding tests\"."},
          "note": {"type": "string", "description": "Result of a completed item, or why a cancelled one was dropped (required for cancelled)."}
        },
        "required": ["id", "text", "status"]
      }
    }
  },
  "required": ["items"]
}`

// todoTool replaces the agent's todo list. A rejected update leaves the list
// unchanged and tells the model why.
type todoTool struct{ l *loop }

func (t *todoTool) Spec() provider.ToolSpec {
	return provider.ToolSpec{Name: TodoTool, Description: todoDescription, Parameters: json.RawMessage(todoSchema)}
}

func (t *todoTool) Run(ctx context.Context, args json.RawMessage) (string, error) {
	out, err := t.replace(ctx, args)
	t.l.worked = true
	t.l.rejected = ""
	if err != nil {
		t.l.rejected = err.Error()
	} else {
		t.l.planned = true
	}
	return out, err
}

// replace checks the list the model sent and makes it the plan.
func (t *todoTool) replace(ctx context.Context, args json.RawMessage) (string, error) {
	a := t.l.a
	list, err := todo.ParseWith(args, a.tasks.ownedItem)
	if err != nil {
		return "", fmt.Errorf("%w. The list is unchanged; send the complete corrected list", err)
	}
	a.mu.Lock()
	archived, replaced, carried, aside := a.replacesPlanLocked(&list)
	if err := a.checkUserEdits(&list); err != nil {
		a.mu.Unlock()
		return "", fmt.Errorf("%w. The list is unchanged; send the complete list with the user's edits kept", err)
	}
	before := a.todos.Clone()
	a.tasks.carry(before, &list)
	if replaced {
		before = todo.List{}
	}
	a.todos = list
	a.plan.rev++
	rev := a.plan.rev
	a.mu.Unlock()
	t.l.checkpointStarted(ctx, before, a.tasks.withoutOwned(list)) // the model's own item
	if rec := a.cfg.Recorder; rec != nil {
		if replaced {
			_ = rec.Todo(archived) // kept in the session, marked archived
		}
		if err := rec.Todo(list); err != nil {
			t.l.emit(Notice{Text: fmt.Sprintf("could not save the todo list: %v", err)})
		}
	}
	out := list.Render()
	if replaced {
		t.l.savePlan()
		t.l.emit(Notice{Text: replacedText(archived, list, carried, aside)})
		if len(carried) > 0 {
			out = "The user's open items of the previous plan were carried into this one (keep them): " + strings.Join(carried, ", ") + ".\n\n" + out
		}
	}
	t.l.emit(TodoUpdate{List: list.Clone(), Rev: rev})
	return out, nil
}

// replacedText says in the chat that list replaced the archived plan, and
// which of the user's open items were carried into it or set aside.
func replacedText(archived, list todo.List, carried, aside []string) string {
	var s string
	if len(archived.Open()) > len(carried) {
		s = fmt.Sprintf("a plan with a new goal (%q) replaced the open one (%q), which is archived", list.Goal, archived.Goal)
	} else {
		s = fmt.Sprintf("a new plan replaced the finished one (%s), which is archived", planName(archived))
	}
	if len(carried) > 0 {
		s += "; your open items were carried into the new plan: " + strings.Join(carried, ", ")
	}
	if len(aside) > 0 {
		s += "; your open items were set aside with it: " + strings.Join(aside, ", ") + " (add them again with /plan add)"
	}
	return s
}
