package agent

import (
	"github.com/tick-agent/tick/agent/humanize"

	"fmt"

	"github.com/tick-agent/tick/provider"
)

// ArgsCut says that a tool call's arguments were too large to keep: the
// model sent Size bytes, over the Limit one call may have (see
// provider.ToolCall). Such a call is never run.
type ArgsCut = provider.ArgsCut

// toolStart is the ToolStart event of call c, live or replayed: a cut
// call's summary says its arguments were too large.
func toolStart(c provider.ToolCall) ToolStart {
	ev := ToolStart{ID: c.ID, Name: c.Name, Args: c.Arguments, ArgsCut: c.ArgsCut}
	if c.ArgsCut != nil {
		ev.Summary = cutSummary(*c.ArgsCut)
	} else {
		ev.Summary = summary(c.Name, c.Arguments)
	}
	if c.Name == TaskTool {
		ev.Item = taskItem(c.Arguments)
	}
	return ev
}

// hasCutCall reports whether m has a call whose arguments were cut.
func hasCutCall(m provider.Message) bool {
	for _, c := range m.ToolCalls {
		if c.ArgsCut != nil {
			return true
		}
	}
	return false
}

// cutSummary is the one-line text a front-end shows for a cut call in
// place of its key argument.
func cutSummary(cut ArgsCut) string {
	if cut.Calls > 0 {
		return fmt.Sprintf("%s more calls in one answer, over the limit of %d: not run", humanize.Digits(int64(cut.Calls)), cut.Limit)
	}
	return fmt.Sprintf("arguments too large: %s, over the limit of %s", humanize.Bytes(int64(cut.Size)), humanize.Bytes(int64(cut.Limit)))
}

// cutResult is the model's answer to a call whose arguments were cut: what
// happened, in figures, and what to do instead for that tool.
func cutResult(name string, cut ArgsCut) string {
	if cut.Calls > 0 {
		return fmt.Sprintf("Error: this answer held %s more tool calls past the limit of %d calls in one answer; none of those was run (only the first %d were taken). Make fewer calls in one answer, at most %d.",
			humanize.Digits(int64(cut.Calls)), cut.Limit, cut.Limit, cut.Limit)
	}
	return fmt.Sprintf("Error: the arguments of %s were %s bytes, over the limit of %s for one call; nothing was run. %s",
		name, humanize.Digits(int64(cut.Size)), humanize.Bytes(int64(cut.Limit)), cutAdvice(name))
}

// cutAdvice says how to get the work of an over-large call done in calls
// under the limit: specific for the built-in tools that take long text,
// generic for the others (MCP tools among them).
func cutAdvice(name string) string {
	switch name {
	case "write_file":
		return "Write the file in parts: write_file with a first part of the content, then edit_file to append the rest " +
			"(old_string: the last lines written so far, new_string: those lines followed by the next part), each call well under the limit."
	case "edit_file":
		return "Make smaller edits: a shorter old_string that still occurs once, and split a large change into several edit_file calls, each well under the limit."
	case "bash":
		return "Send a shorter command: put long input or a long script in a file first (write_file a first part, then edit_file to append the rest), then run that file with bash."
	}
	return fmt.Sprintf("Send smaller arguments: split the work into several %s calls, each well under the limit.", name)
}
