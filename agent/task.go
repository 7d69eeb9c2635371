package agent

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/tick-agent/tick/agent/sandbox"
	"github.com/tick-agent/tick/agent/tools"
	"github.com/tick-agent/tick/agent/workcopy"
	"github.com/tick-agent/tick/provider"
)

// TaskTool is the name of the agent's subagent tool; the events of its
// child loop arrive wrapped in Subagent under its call.
const TaskTool = "task"

// subagentRounds caps the model calls of one subagent.
const subagentRounds = 30

//go:embed prompts/task.md
var taskDescription string

const taskSchema = `{
  "type": "object",
  "properties": {
    "description": {"type": "string", "description": "3-6 words saying what the subagent does, shown to the user."},
    "prompt": {"type": "string", "description": "The whole task for the subagent: it sees nothing else of this conversation."},
    "item": {"type": "string", "description": "The id of the plan item this task works on, if any: it goes in_progress while the task runs and the task's result becomes its note; you still complete it."},
    "read_only": {"type": "boolean", "description": "true when the task only reads (searching, reviewing): it works in the workspace itself and cannot change files."}
  },
  "required": ["description", "prompt"],
  "additionalProperties": false
}`

// taskTool runs a subagent: a child loop with a fresh history, the base
// tools (no task, no todo) and at most subagentRounds model calls. Only its
// final text goes back to the parent; its events are forwarded wrapped in
// Subagent.
type taskTool struct{ l *loop }

func (t *taskTool) Spec() provider.ToolSpec {
	return provider.ToolSpec{Name: TaskTool, Description: taskDescription, Parameters: json.RawMessage(taskSchema)}
}

type taskArgs struct {
	Description string `json:"description"`
	Prompt      string `json:"prompt"`
	Item        string `json:"item"`
	ReadOnly    bool   `json:"read_only"`
}

func (t *taskTool) Run(ctx context.Context, raw json.RawMessage) (string, error) {
	var args taskArgs
	if err := json.Unmarshal(raw, &args); err != nil {
		return "", fmt.Errorf(`invalid arguments for task: %w; expected {"description": "...", "prompt": "..."}`, err)
	}
	if strings.TrimSpace(args.Prompt) == "" {
		return "", errors.New(`task needs a non-empty "prompt" with the whole task for the subagent`)
	}
	parent := t.l
	id := callID(ctx)
	item := itemID(args.Item)
	if item != "" && !args.ReadOnly {
		if err := parent.taskGate(ctx, item); err != nil {
			return "", err
		}
	}
	if item != "" {
		if err := parent.startItem(ctx, item, !parent.isolated(args.ReadOnly)); err != nil {
			return "", err
		}
	}
	wc, err := parent.isolate(ctx, args.ReadOnly)
	if err != nil {
		return "", err
	}
	if wc == nil && item != "" && parent.isolated(args.ReadOnly) { // too large to copy: in place
		parent.checkpointItem(ctx, item)
	}
	child, err := parent.newChild(id, args.Description, args.Prompt, args.ReadOnly, wc)
	if err != nil {
		return "", err
	}
	if item != "" && wc != nil {
		child.itemPoint = func(ctx context.Context) { parent.checkpointItem(ctx, item) }
	}
	tctx, end := parent.a.tasks.start(ctx, id, item) // StopTask and a cancel of item end tctx alone
	final := child.run(tctx)
	how := end()
	if child.sbx != nil {
		child.sbx.Close() // its watches of the copy's directories, now
	}
	res, err := taskResult(final, lastAssistantText(*child.hist), how, item)
	parent.recordTask(id, item, *child.hist)
	if wc != nil {
		switch note := parent.mergeBack(ctx, wc, args.Description, item, err != nil); {
		case note == "":
		case err == nil || errors.Is(err, context.Canceled):
			res = strings.TrimSpace(res + "\n\n" + note)
		default:
			err = fmt.Errorf("%w\n%s", err, note)
		}
	}
	if item != "" && err == nil {
		parent.noteItem(item, res)
	}
	return res, err
}

// newChild returns the loop of the subagent of task call id (described
// by desc), its history
// holding prompt: read-only ones get plan mode's tools, one with a copy
// of the workspace (wc) the tools of the copy; with the standard tools
// and a sandbox, each gets a runner of its own (see ownTools).
func (l *loop) newChild(id, desc, prompt string, readOnly bool, wc *workcopy.Copy) (*loop, error) {
	ts, dir, r, err := l.taskTools(readOnly, wc)
	if err != nil {
		if wc != nil {
			_ = wc.Remove()
		}
		return nil, err
	}
	hist := []provider.Message{{Role: provider.RoleUser, Content: prompt}}
	return &loop{
		ws:        dir,
		sbx:       r,
		a:         l.a,
		system:    l.a.subagentPrompt(),
		tools:     ts,
		emit:      func(ev Event) { l.emit(Subagent{ParentID: id, Event: ev}) },
		raw:       l.raw,
		maxRounds: subagentRounds,
		spent:     l.spent,
		child:     true,
		task:      id,
		taskName:  desc,
		extra:     l.extra,
		readOnly:  readOnly,
		mu:        &sync.Mutex{},
		hist:      &hist,
	}, nil
}

// taskTools returns the tools of a subagent, the directory they work in
// ("" the workspace) and their own runner (nil: the agent's).
func (l *loop) taskTools(readOnly bool, wc *workcopy.Copy) ([]tools.Tool, string, *sandbox.Runner, error) {
	ts, dir := l.childTools(), ""
	var r *sandbox.Runner
	if wc != nil || (l.a.cfg.Tools == nil && l.runner() != nil) {
		dir = l.a.cfg.Workspace
		if wc != nil {
			dir = wc.Dir
		}
		own, own2, err := l.ownTools(dir)
		if err != nil {
			return nil, "", nil, err
		}
		if wc == nil && l.a.Mode() == ModePlan {
			own = planTools(own)
		}
		ts, r = own, own2
	}
	if readOnly {
		ts = planTools(ts)
	}
	return ts, dir, r, nil
}

// taskResult is what a subagent's run gives the parent model: its final
// text, or why it has none.
func taskResult(end TurnEnd, final string, how taskEnd, item string) (string, error) {
	switch {
	case how.cancelled != "":
		return "", fmt.Errorf("the user cancelled plan item #%s (%q): its subagent was %w at once", item, how.cancelled, errStopped)
	case how.stopped:
		if final == "" {
			return "", fmt.Errorf("the subagent was %w before it wrote anything", errStopped)
		}
		return "", fmt.Errorf("the subagent was %w; what it had written last: %s", errStopped, final)
	case end.Reason == ReasonInterrupted:
		return final, context.Canceled
	case errors.Is(end.Err, errRoundCap):
		return fmt.Sprintf("%s\n\n(the subagent stopped after %d model calls without finishing)", final, subagentRounds), nil
	case end.Err != nil:
		return "", fmt.Errorf("the subagent failed: %w", end.Err)
	case final == "":
		return "(the subagent finished without a summary)", nil
	}
	return final, nil
}

// lastAssistantText returns the text of the last assistant message.
func lastAssistantText(hist []provider.Message) string {
	for i := len(hist) - 1; i >= 0; i-- {
		if hist[i].Role == provider.RoleAssistant && hist[i].Content != "" {
			return hist[i].Content
		}
	}
	return ""
}

type callIDKey struct{}

// withCallID stores the id of the tool call being run in ctx.
func withCallID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, callIDKey{}, id)
}

// callID returns the id stored by withCallID.
func callID(ctx context.Context) string {
	id, _ := ctx.Value(callIDKey{}).(string)
	return id
}
