package compact

import (
	"strings"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
)

// Split divides history into old messages, to be summarised, and the
// latest messages, kept verbatim: kept starts at the keepTurns-th last
// user message (the whole history when it has fewer), then moves later
// while the kept part is estimated above maxKept tokens (0 or less: no
// cap), so one long turn does not keep everything.
//
// kept always starts at a user or assistant message, never at a tool
// result, so an assistant message and its tool results stay on the same
// side and kept is valid after Rebuild's summary message. kept may start
// at an assistant message (when one turn is too long to keep whole) and
// may be empty (when even the last step is above the cap). old is empty
// when there is nothing to compact. Both are copies.
func Split(history []provider.Message, keepTurns, maxKept int) (old, kept []provider.Message) {
	if keepTurns <= 0 {
		return splitAt(history, len(history))
	}
	start, seen := 0, 0
	for i := len(history) - 1; i >= 0; i-- {
		if history[i].Role == provider.RoleUser {
			if seen++; seen == keepTurns {
				start = i
				break
			}
		}
	}
	return splitAt(history, fit(history, start, maxKept))
}

// fit returns the first boundary at or after start from which the rest of
// history is estimated at no more than maxKept tokens.
func fit(history []provider.Message, start, maxKept int) int {
	n := len(history)
	// suffix[i] is the estimate of history[i:] without the reply primer.
	suffix := make([]int, n+1)
	for i := n - 1; i >= 0; i-- {
		suffix[i] = suffix[i+1] + cost(history[i])
	}
	for i := start; i < n; i++ {
		if history[i].Role == provider.RoleTool {
			continue
		}
		if maxKept <= 0 || suffix[i]+replyOverhead <= maxKept {
			return i
		}
	}
	return n
}

// splitAt copies history[:i] and history[i:].
func splitAt(history []provider.Message, i int) (old, kept []provider.Message) {
	if i > 0 {
		old = append([]provider.Message(nil), history[:i]...)
	}
	if i < len(history) {
		kept = append([]provider.Message(nil), history[i:]...)
	}
	return old, kept
}

// Texts of the rebuilt history.
const (
	summaryIntro = "The earlier part of this conversation was replaced by the summary below to save context.\n\n"
	todoIntro    = "\n\nThis is the current todo list: the plan, preserved across the compaction. Keep it up to date with the todo tool.\n\n"
	continueText = "\n\nContinue from where the conversation stopped."
	ack          = "Understood. I have the summary and the current plan, and will carry on from there."
)

// IsSummary reports whether content is the first message of a history
// Rebuild made: the summary that replaced the older messages.
func IsSummary(content string) bool {
	return strings.HasPrefix(content, summaryIntro)
}

// Rebuild returns the history to send to the model after a compaction:
// one user message holding the summary inside <summary> tags followed,
// when todos is not empty, by todos.Render() verbatim with a line saying
// it is the current plan; then the kept messages. When kept starts with a
// user message, a short assistant acknowledgement goes between, so roles
// alternate for servers that insist; when kept is empty, the summary
// message ends by asking the model to continue.
func Rebuild(summary string, todos todo.List, kept []provider.Message) []provider.Message {
	var b strings.Builder
	b.WriteString(summaryIntro)
	b.WriteString("<summary>\n")
	b.WriteString(strings.TrimSpace(summary))
	b.WriteString("\n</summary>")
	if !todos.Empty() {
		b.WriteString(todoIntro)
		b.WriteString(todos.Render())
	}
	if len(kept) == 0 {
		b.WriteString(continueText)
	}
	out := make([]provider.Message, 0, len(kept)+2)
	out = append(out, provider.Message{Role: provider.RoleUser, Content: b.String()})
	if len(kept) > 0 && kept[0].Role != provider.RoleAssistant {
		out = append(out, provider.Message{Role: provider.RoleAssistant, Content: ack})
	}
	return append(out, kept...)
}
