package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/tick-agent/tick/provider/providertest"
)

// Demo answers req by keywords in the last user message (see the package
// doc). Its state is derived from the history: the step of a scenario is
// the number of assistant messages since that user message. rate is the
// streaming speed in characters per second; 0 streams unthrottled.
func Demo(req providertest.Request, rate int) providertest.Reply {
	u := lastPrompt(req.Messages)
	prompt := ""
	step := 0
	var results []string // tool results since the prompt
	if u >= 0 {
		prompt = strings.ToLower(req.Messages[u].Content)
		for _, m := range req.Messages[u+1:] {
			switch m.Role {
			case "assistant":
				step++
			case "tool":
				results = append(results, m.Content)
			}
		}
	}
	var r providertest.Reply
	switch {
	case strings.Contains(prompt, "plan"):
		r = planStep(step, results)
	case strings.Contains(prompt, "sleep"):
		r = sleepStep(step, results)
	case strings.Contains(prompt, "long"):
		r = providertest.Reply{Text: longAnswer(20000)}
	case step > 0:
		r = providertest.Reply{Text: "Done. The last result was:\n\n```\n" + last(results) + "\n```\n"}
	default:
		r = providertest.Reply{Text: shortAnswer}
	}
	if strings.Contains(prompt, "think") && step == 0 {
		r.Reasoning = "The user wants a demonstration. I will answer briefly and clearly."
	}
	pace(&r, rate)
	return r
}

// lastPrompt returns the index of the last user message that is not a
// reminder added by the agent, or -1.
func lastPrompt(msgs []providertest.Message) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" && !strings.HasPrefix(strings.TrimSpace(msgs[i].Content), "<reminder>") {
			return i
		}
	}
	return -1
}

// pace sets chunking so that text streams at about rate characters per
// second: one chunk every 10ms.
func pace(r *providertest.Reply, rate int) {
	if rate <= 0 {
		return
	}
	r.ChunkSize = max(1, rate/100)
	r.ChunkDelay = time.Duration(r.ChunkSize) * time.Second / time.Duration(rate)
}

func last(s []string) string {
	if len(s) == 0 {
		return "(nothing)"
	}
	return strings.TrimSpace(s[len(s)-1])
}

// planItems are the demo plan's items: text and active form.
var planItems = [][2]string{
	{"Look around the workspace", "Looking around the workspace"},
	{"Say hi from the shell", "Saying hi from the shell"},
	{"Check the operating system", "Checking the operating system"},
	{"Write the summary", "Writing the summary"},
}

// planCommands are the bash commands of the first three items.
var planCommands = []string{"ls", "echo hi", "uname -s"}

// todoArgs renders the todo call with the first done items completed and
// the next one in progress (none when done == len(planItems)).
func todoArgs(done int) string {
	type item struct {
		ID         string `json:"id"`
		Text       string `json:"text"`
		Status     string `json:"status"`
		ActiveForm string `json:"active_form"`
		Note       string `json:"note,omitempty"`
	}
	var items []item
	for i, it := range planItems {
		st := "pending"
		note := ""
		switch {
		case i < done:
			st = "completed"
			if i < len(planCommands) {
				note = "ran " + planCommands[i]
			}
		case i == done:
			st = "in_progress"
		}
		items = append(items, item{ID: fmt.Sprint(i + 1), Text: it[0], Status: st, ActiveForm: it[1], Note: note})
	}
	b, _ := json.Marshal(map[string]any{"goal": "Show how tick plans and works", "items": items})
	return string(b)
}

// planStep is step n of the plan scenario: todo, then for each command
// bash and a todo update, then the last item and the final answer.
func planStep(n int, results []string) providertest.Reply {
	todo := func(done int) providertest.Reply {
		return providertest.Reply{ToolCalls: []providertest.Call{{Name: "todo", Args: todoArgs(done)}}}
	}
	bash := func(cmd string) providertest.Reply {
		args, _ := json.Marshal(map[string]string{"command": cmd})
		return providertest.Reply{ToolCalls: []providertest.Call{{Name: "bash", Args: string(args)}}}
	}
	switch {
	case n == 0:
		r := todo(0)
		r.Text = "I'll plan this first, then work through the list.\n"
		return r
	case n <= 2*len(planCommands):
		i := (n - 1) / 2
		if n%2 == 1 {
			return bash(planCommands[i])
		}
		return todo(i + 1)
	case n == 2*len(planCommands)+1:
		return todo(len(planItems))
	}
	var b strings.Builder
	b.WriteString("## Summary\n\nAll four items are done:\n\n")
	for i, it := range planItems {
		fmt.Fprintf(&b, "%d. **%s**", i+1, it[0])
		if i < len(planCommands) {
			fmt.Fprintf(&b, " — ran `%s`", planCommands[i])
		}
		b.WriteString("\n")
	}
	b.WriteString("\nThe shell said:\n\n```\n")
	var outs []string
	for _, r := range results {
		if !strings.Contains(r, "[") { // skip rendered todo lists
			outs = append(outs, strings.TrimSpace(r))
		}
	}
	b.WriteString(strings.Join(outs, "\n"))
	b.WriteString("\n```\n")
	return providertest.Reply{Text: b.String()}
}

// sleepStep runs "sleep 30", then reports.
func sleepStep(n int, results []string) providertest.Reply {
	if n == 0 {
		return providertest.Reply{
			Text:      "Sleeping for 30 seconds; press esc to interrupt.\n",
			ToolCalls: []providertest.Call{{Name: "bash", Args: `{"command":"sleep 30"}`}},
		}
	}
	return providertest.Reply{Text: "The command returned:\n\n```\n" + last(results) + "\n```\n"}
}

const shortAnswer = "## Hello from fakeai\n\n" +
	"This is the **demo server**. Try a prompt containing *plan*, *sleep*, *long* or *think*.\n\n" +
	"- Lists render as bullets\n- `inline code` stays inline\n\n" +
	"```go\npackage main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n```\n"

// longAnswer returns a Markdown document of at least n characters.
func longAnswer(n int) string {
	var b strings.Builder
	b.WriteString("# A long answer\n\nThis answer is long on purpose, to show streaming and scrolling.\n\n")
	for i := 1; b.Len() < n; i++ {
		fmt.Fprintf(&b, "## Section %d\n\n", i)
		fmt.Fprintf(&b, "Paragraph %d explains a point at some length. The quick brown fox jumps over the lazy dog, "+
			"and then it jumps back again, because a demo needs text that wraps across several lines of a terminal.\n\n", i)
		fmt.Fprintf(&b, "- first point of section %d\n- second point, with `code`\n- third point, **bold**\n\n", i)
		if i%3 == 0 {
			fmt.Fprintf(&b, "```sh\nfor i in $(seq 1 %d); do echo \"$i\"; done\n```\n\n", i)
		}
		if i%5 == 0 {
			fmt.Fprintf(&b, "| item | value |\n|------|-------|\n| section | %d |\n| length | %d |\n\n", i, b.Len())
		}
	}
	return b.String()
}
