// Package chat is the TUI's transcript pane, a part the root ui routes
// to: a Model holding the conversation's entries (prompts, answers
// rendered as Markdown block by block, thoughts, tool calls with their live
// output, notices, errors), drawn lazily for the pane's size, scrolled by
// an anchor, and the logical text a mouse selection copies. The root
// routes the agent's events and the scroll keys to it (its KeyMap is the
// root's, style.KeyMap) and lays its View out; /copy and /export are the
// root's commands that read it (LastAnswer, Markdown). It imports the
// style leaf, never the root ui.
package chat

import (
	"github.com/tick-agent/tick/ui/style"

	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/tick-agent/tick/agent"
	"github.com/tick-agent/tick/todo"
	"github.com/tick-agent/tick/ui/markdown"
	"github.com/tick-agent/tick/ui/termsafe"
)

// Model is the transcript pane. Each entry caches its rendered lines for the
// current width and is rendered again only when it changed; an assistant
// answer is laid out block by block, each Markdown block rendered (once per
// width, by its markdown.Renderer) only when it reaches the screen. Drawing
// the pane costs the visible lines, not the length of the session or of the
// answer.
//
// Scrolling keeps an anchor (an entry, a part of it and a line inside that,
// see scroll.go) instead of an absolute line number: moving the view and
// drawing it only touch the parts on screen, even right after a resize,
// when the others have not been rendered for the new width yet.
type Model struct {
	st      *style.Styles
	mdStyle markdown.Style
	pool    *markdown.Pool

	entries []*entry
	width   int
	height  int
	blank   []string // one empty line, the gap above an answer (never modified)

	follow bool     // stick to the bottom
	top    anchor   // first line on screen when not following
	shown  []anchor // where each line of the last view comes from (idx -1: none)

	tools     map[string]*toolCall // running top-level and nested calls by id
	toolEntry map[string]int       // top-level tool calls: entry index by id
	live      map[int]bool         // entries whose content depends on the clock
	streaming int                  // assistant entry receiving text, or -1
	reasoning int                  // reasoning entry receiving text, or -1
	retry     int                  // the last retry notice, or -1
	now       time.Time
}

// New returns an empty transcript drawn with st (shared with the root,
// which restyles it in place: see Restyle), following the bottom.
func New(st *style.Styles) *Model {
	return &Model{
		st:        st,
		mdStyle:   markdownStyle(st),
		pool:      markdown.NewPool(),
		follow:    true,
		tools:     map[string]*toolCall{},
		toolEntry: map[string]int{},
		live:      map[int]bool{},
		blank:     []string{""},
		streaming: -1,
		retry:     -1,
		reasoning: -1,
		width:     80,
		height:    10,
	}
}

// markdownStyle is the answers' Markdown style for st's background.
func markdownStyle(st *style.Styles) markdown.Style {
	if st.Dark {
		return markdown.Dark
	}
	return markdown.Light
}

// Restyle follows a change of the shared Styles: every entry is rendered
// again, the answers with the Markdown style of the new background.
func (c *Model) Restyle() {
	c.mdStyle = markdownStyle(c.st)
	for _, e := range c.entries {
		e.dirty = true
		if e.md != nil {
			e.md = c.newAssistant(e.md.Text(), e.md.Finished()).md
		}
	}
}

// SetSize sets the pane's size. Entries are rendered for the new width
// only when they come into view.
func (c *Model) SetSize(w, h int) {
	c.width, c.height = max(w, 1), max(h, 1)
}

// add appends an entry and returns its index. Its text and hint are made
// safe for the terminal: user text (pasted too), notices and errors may
// quote what the model or a server sent.
func (c *Model) add(e *entry) int {
	e.text, e.hint = termsafe.Text(e.text), termsafe.Text(e.hint)
	e.dirty = true
	c.entries = append(c.entries, e)
	return len(c.entries) - 1
}

// changed marks entry i for rendering again.
func (c *Model) changed(i int) {
	if i >= 0 && i < len(c.entries) {
		c.entries[i].dirty = true
	}
}

// gap reports whether entry i gets a blank line above it: not the first
// entry, and not a tool call right under another one.
func (c *Model) gap(i int) bool {
	if i == 0 {
		return false
	}
	return !(c.entries[i].kind == entryTool && c.entries[i-1].kind == entryTool)
}

// lines returns entry i (not an assistant answer: see part) rendered for
// the current width, rendering it if needed.
func (c *Model) lines(i int) []string {
	e := c.entries[i]
	if e.width == c.width && !e.dirty {
		return e.lines
	}
	e.lines = e.render(c.st, c.width, c.gap(i), c.now)
	for j, l := range e.lines {
		if len(l) > c.width && ansi.StringWidth(l) > c.width {
			e.lines[j] = ansi.Truncate(l, c.width, "")
		}
	}
	e.width, e.dirty = c.width, false
	return e.lines
}

// --- content -------------------------------------------------------------

// AddUser adds a message of the user.
func (c *Model) AddUser(text string) {
	c.endStream()
	c.add(&entry{kind: entryUser, text: text})
}

// AddNotice adds a notice: what tick says about the conversation.
func (c *Model) AddNotice(text string) {
	c.add(&entry{kind: entryNotice, text: text})
}

// RetryNotice shows that a model call is retried: in the notice of the
// previous retry when that is still the last entry, so that retries
// replace each other in one line instead of piling up.
func (c *Model) RetryNotice(text string) {
	if n := len(c.entries); n > 0 && c.retry == n-1 && c.entries[n-1].kind == entryNotice {
		c.entries[n-1].text = termsafe.Text(text)
		c.changed(n - 1)
		return
	}
	c.retry = c.add(&entry{kind: entryNotice, text: text})
}

// AddError adds an error and the hint of what to do about it.
func (c *Model) AddError(text, hint string) {
	c.endStream()
	c.add(&entry{kind: entryError, text: text, hint: hint})
}

// AddInterrupted adds the line that says what an interrupt or an early
// end left.
func (c *Model) AddInterrupted(text string) {
	c.add(&entry{kind: entryInterrupted, text: text})
}

// newAssistant returns an assistant entry holding md.
func (c *Model) newAssistant(md string, finished bool) *entry {
	r := markdown.New(markdown.WithWidth(c.width), markdown.WithStyle(c.mdStyle), markdown.WithPool(c.pool))
	r.Append(md)
	if finished {
		r.Finish()
	}
	return &entry{kind: entryAssistant, md: r, visible: strings.TrimSpace(md) != ""}
}

// AppendText adds a streamed piece of the answer.
func (c *Model) AppendText(s string) {
	if s == "" {
		return
	}
	c.endReasoning()
	if c.streaming < 0 {
		c.streaming = c.add(c.newAssistant("", false))
	}
	e := c.entries[c.streaming]
	e.md.Append(s) // the renderer knows what changed; no dirty flag
	if !e.visible && strings.TrimSpace(s) != "" {
		e.visible = true
	}
}

// WithdrawText hides the answer streamed so far in this response: it
// turned out to be the model's thoughts (agent.ReasoningDelta.Rethought).
func (c *Model) WithdrawText() {
	if c.streaming < 0 {
		return
	}
	c.entries[c.streaming].visible = false
	c.changed(c.streaming)
	c.streaming = -1
}

// AppendReasoning adds a streamed piece of the model's thinking.
func (c *Model) AppendReasoning(s string) {
	if s == "" {
		return
	}
	if c.reasoning < 0 {
		c.reasoning = c.add(&entry{kind: entryReasoning, start: c.now})
	}
	e := c.entries[c.reasoning]
	if room := maxThought - len(e.text); room < len(s) { // bounded: the rest is dropped
		s = strings.ToValidUTF8(s[:max(room, 0)], "")
	}
	e.text += s
	e.dirty = true
}

// maxThought bounds the text of one thought the chat keeps (and opens
// with ctrl+o); a longer one is kept up to here.
const maxThought = 256 << 10

// AssistantDone ends one model response. text is shown only when no delta
// carried it.
func (c *Model) AssistantDone(text string) {
	c.endReasoning()
	if c.streaming < 0 && strings.TrimSpace(text) != "" {
		c.add(c.newAssistant(text, true))
		return
	}
	c.endStream()
}

// endStream finishes the answer being streamed, if any.
func (c *Model) endStream() {
	c.endReasoning()
	if c.streaming >= 0 {
		c.entries[c.streaming].md.Finish()
		c.changed(c.streaming)
		c.streaming = -1
	}
}

func (c *Model) endReasoning() {
	if c.reasoning >= 0 {
		e := c.entries[c.reasoning]
		e.end = c.now
		if e.end.Before(e.start) {
			e.end = e.start
		}
		c.changed(c.reasoning)
		c.reasoning = -1
	}
}

// StartTool adds a tool call line.
func (c *Model) StartTool(ev agent.ToolStart) {
	c.endStream()
	t := newToolCall(ev, c.now)
	i := c.add(&entry{kind: entryTool, tool: t})
	c.tools[ev.ID] = t
	c.toolEntry[ev.ID] = i
	c.live[i] = true
}

// newToolCall is the chat's record of a call that starts at now. A call
// whose arguments were cut shows the agent's summary of that ("arguments
// too large: ...") as an error, in place of its key argument.
func newToolCall(ev agent.ToolStart, now time.Time) *toolCall {
	return &toolCall{id: ev.ID, name: ev.Name, summary: style.OneLine(ev.Summary), cut: ev.ArgsCut != nil, start: now}
}

// EndTool completes a tool call line.
func (c *Model) EndTool(ev agent.ToolEnd) {
	t, ok := c.tools[ev.ID]
	if !ok {
		return
	}
	finishTool(t, ev)
	delete(c.tools, ev.ID)
	if i, ok := c.toolEntry[ev.ID]; ok {
		delete(c.live, i)
		c.changed(i)
	}
}

func finishTool(t *toolCall, ev agent.ToolEnd) {
	t.state = toolOK
	if ev.IsError {
		t.state = toolFailed
	}
	t.dur = ev.Duration
	t.output = style.Sanitize(ev.Output)
	t.diff = ev.Diff // sanitised as it is drawn (style.DiffLines)
	t.live = ""
}

// Plan shows the counts of list on the latest todo call.
func (c *Model) Plan(l todo.List) {
	for i := len(c.entries) - 1; i >= 0; i-- {
		e := c.entries[i]
		if e.kind == entryTool && e.tool.name == agent.TodoTool {
			e.tool.planDone, e.tool.planTotal = l.Counts()
			e.tool.planSet = true
			e.dirty = true
			return
		}
		if e.kind == entryUser {
			return
		}
	}
}

// Subagent shows an event of a subagent under its task call.
func (c *Model) Subagent(parentID string, ev agent.Event) {
	parent, ok := c.tools[parentID]
	if !ok {
		return
	}
	i := c.toolEntry[parentID]
	switch ev := ev.(type) {
	case agent.ToolStart:
		t := newToolCall(ev, c.now)
		if parent.childIdx == nil {
			parent.childIdx = map[string]int{}
		}
		parent.childIdx[ev.ID] = len(parent.children)
		parent.children = append(parent.children, t)
	case agent.ToolEnd:
		if k, ok := parent.childIdx[ev.ID]; ok {
			finishTool(parent.children[k], ev)
		}
	case agent.ToolOutput:
		k, ok := parent.childIdx[ev.ID]
		if !ok || parent.children[k].state != toolRunning {
			return
		}
		parent.children[k].live = liveText(ev.Tail, ev.Total > int64(len(ev.Tail)))
	default:
		return
	}
	c.changed(i)
}

// EndTurn finishes whatever the turn left open: the streamed answer and
// tool calls that never got their end (their state becomes failed).
func (c *Model) EndTurn() {
	c.endStream()
	for id, t := range c.tools {
		t.state = toolFailed
		t.dur = c.now.Sub(t.start)
		for _, k := range t.children {
			if k.state == toolRunning {
				k.state = toolFailed
			}
		}
		delete(c.tools, id)
	}
	for i := range c.live {
		c.changed(i)
		delete(c.live, i)
	}
}

// SetNow sets the chat's clock (a tool call's start, a thought's end)
// without redrawing the entries that show it (see Tick).
func (c *Model) SetNow(now time.Time) { c.now = now }

// Following reports whether the pane sticks to the bottom.
func (c *Model) Following() bool { return c.follow }

// Tick advances the clock of entries that show elapsed time.
func (c *Model) Tick(now time.Time) {
	c.now = now
	for i := range c.live {
		c.changed(i)
	}
	if c.reasoning >= 0 {
		c.changed(c.reasoning)
	}
}

// Clear empties the transcript.
func (c *Model) Clear() {
	st := c.st
	w, h := c.width, c.height
	*c = *New(st)
	c.SetSize(w, h)
}

// LastAnswer is the Markdown of the last answer in the transcript, "" for
// none.
func (c *Model) LastAnswer() string {
	for i := len(c.entries) - 1; i >= 0; i-- {
		if e := c.entries[i]; e.kind == entryAssistant && e.visible {
			return e.md.Source()
		}
	}
	return ""
}
