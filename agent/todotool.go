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

// replace checks the list the model sent and makes it the plan (see
// plan.Book.Replace: a user's edit lands before or after it, never
// inside). The agent's mutex is held around it so that the undo
// generation changes with the plan it counts.
func (t *todoTool) replace(ctx context.Context, args json.RawMessage) (string, error) {
	a := t.l.a
	list, err := todo.ParseWith(args, a.plan.Owned)
	if err != nil {
		return "", fmt.Errorf("%w. The list is unchanged; send the complete corrected list", err)
	}
	a.mu.Lock()
	r, err := a.plan.Replace(list)
	if err != nil {
		a.mu.Unlock()
		return "", fmt.Errorf("%w. The list is unchanged; send the complete list with the user's edits kept", err)
	}
	if r.Replaced {
		a.undo.Retire() // the archived plan's undo points no longer answer for its ids
	}
	a.mu.Unlock()
	t.l.checkpointStarted(ctx, r.Before, a.plan.WithoutOwned(r.List)) // the model's own item
	if rec := a.cfg.Recorder; rec != nil {
		if r.Replaced {
			_ = rec.Todo(r.Archived) // kept in the session, marked archived
		}
		if err := rec.Todo(r.List); err != nil {
			t.l.emit(Notice{Text: fmt.Sprintf("could not save the todo list: %v", err)})
		}
	}
	out := r.List.Render()
	if r.Replaced {
		t.l.savePlan()
		t.l.emit(Notice{Text: replacedText(r)})
		if len(r.Carried) > 0 {
			out = "The user's open items of the previous plan were carried into this one (keep them): " + strings.Join(r.Carried, ", ") + ".\n\n" + out
		}
	}
	t.l.emit(TodoUpdate{List: r.List.Clone(), Rev: r.Rev})
	return out, nil
}
