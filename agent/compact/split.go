package compact

import (
	"strings"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
)

// Split divides history into old messages, to be summarised, and the
// latest messages, kept verbatim: kept starts at the keepTurns-th last
// user turn (the whole history when it has fewer), then moves later
// while the kept part is estimated above maxKept tokens (0 or less: no
// cap), so one long turn does not keep everything.
//
// kept always starts at a user or assistant message, never at a tool
// result, so an assistant message and its tool results stay on the same
// side and kept is valid after Rebuild's summary message. kept may start
// at an assistant message (when one turn is too long to keep whole) and
// may be empty (when even the last step is above the cap). old is empty
// when there is nothing to compact. Both are copies.
//
// A user turn is a message the user wrote: the loop's reminders to the
// model (todo.IsReminder) and an earlier compaction's summary (IsSummary) are
// not turns, so a run of reminders cannot push the user's prompt out of
// kept. The prompt of a turn too long to keep whole can still fall in old;
// Pinned picks it (and the user's other short messages) back out.
func Split(history []provider.Message, keepTurns, maxKept int) (old, kept []provider.Message) {
	if keepTurns <= 0 {
		return splitAt(history, len(history))
	}
	start, seen := 0, 0
	for i := len(history) - 1; i >= 0; i-- {
		if isTurn(history[i]) {
			if seen++; seen == keepTurns {
				start = i
				break
			}
		}
	}
	return splitAt(history, fit(history, start, maxKept))
}

// isTurn reports whether m is a message the user wrote.
func isTurn(m provider.Message) bool {
	return m.Role == provider.RoleUser && !todo.IsReminder(m.Content) && !IsSummary(m.Content)
}

// PinBytes is the size up to which an earlier user message of the same
// stretch (since the last summary) is pinned by Pinned; the last one is
// pinned whatever its size.
const PinBytes = 4000

// Pinned returns the user's own messages in old that must survive a
// compaction verbatim, in order: the last one (the prompt of the turn
// that is running, when its turn was too long to keep whole) always, and
// every other one written since the last compaction's summary when it is
// at most PinBytes long. It returns nil when kept already holds a user
// turn written after all of them (nothing of the current turn is lost),
// or when old has none. The caller puts them before kept: each is a user
// message, and kept starts at a user or assistant message, so the
// history stays valid. The result is a copy.
func Pinned(old, kept []provider.Message) []provider.Message {
	for _, m := range kept {
		if isTurn(m) {
			return nil
		}
	}
	from := 0
	for i := len(old) - 1; i >= 0; i-- {
		if old[i].Role == provider.RoleUser && IsSummary(old[i].Content) {
			from = i + 1
			break
		}
	}
	last := -1
	for i := len(old) - 1; i >= from; i-- {
		if isTurn(old[i]) {
			last = i
			break
		}
	}
	if last < 0 {
		return nil
	}
	var out []provider.Message
	for i := from; i <= last; i++ {
		if isTurn(old[i]) && (i == last || len(old[i].Content) <= PinBytes) {
			out = append(out, old[i])
		}
	}
	return out
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
