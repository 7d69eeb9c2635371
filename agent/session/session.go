// Package session saves tick's conversations as they happen and loads them
// back, so that a session survives a crash and can be resumed.
//
// # Files
//
// Every session is one append-only JSON Lines file, created with mode 0600
// inside 0700 directories:
//
//	<dir>/<workspace-slug>-<hash8>/<started UTC>-<id>.jsonl
//
// dir is the sessions directory (DefaultDir: $XDG_STATE_HOME/tick/sessions,
// or ~/.local/state/tick/sessions), the slug is the workspace's base name
// and hash8 the first 8 hex digits of the SHA-256 of its absolute path, so
// all sessions of one workspace sit in one directory. The id is 8 lower-case
// letters and digits, short enough to type (Find accepts any unique prefix).
//
// # Lines
//
// Each line is one JSON object with a "type", written with a single write
// call and synced before the method that wrote it returns:
//
//	{"type":"session","version":1,"id":"…","workspace":"/abs","started":"…","model":"…"}
//	{"type":"message","time":"…","message":{provider.Message}}
//	{"type":"todo","time":"…","list":{todo.List}}
//	{"type":"compaction","time":"…","summary":"…","kept":[provider.Message…]}
//	{"type":"model","time":"…","model":"…","provider":"…"}
//	{"type":"plan","time":"…","plan":{todo.UserPlan}}
//	{"type":"mode","time":"…","mode":"plan","before":"auto"}
//	{"type":"task","time":"…","task":"call id","item":"2","messages":[provider.Message…]}
//
// The header comes first. A message line records one complete message
// appended to the conversation; a todo line the whole list after a change;
// a compaction line the summary and the complete history sent to the model
// from then on (kept: the summary message, the todo list message and the
// messages kept verbatim, exactly as the agent uses it). Compaction lines do
// not remove anything: the file keeps the full history, and the model's
// view is rebuilt on load as the kept messages of the latest compaction
// followed by every message recorded after it. A plan line records the
// user's side of the plan (what the model may not undo, the notes it has
// not been told yet, the proposal awaiting approval) after a change, a mode
// line the agent's mode (auto, ask or plan) and the mode approving a plan
// returns to; the last of each counts. A task line keeps a subagent's
// whole transcript when its task call ends (task: the call's id; item:
// the plan item it named), for a resume to show it under its item; an
// unusable one is skipped with a warning. Lines of unknown types are skipped,
// so later versions can add some (tick versions before plan and mode lines
// skip those). A plan or mode line whose content is unusable is skipped
// with a warning rather than stopping the load: it is not the
// conversation.
//
// # Crash safety
//
// Load tolerates what a crash can leave behind: a truncated or garbled last
// line is ignored (with one warning), tool calls that never got a result are
// answered as interrupted, and tool results that answer nothing are dropped,
// so the restored history is a valid request for a strict server. A damaged
// line in the middle stops the load there: everything before it is
// returned along with a *CorruptError naming the line. Open, which
// continues a session, cuts a truncated last line off the file before it
// appends, and continues a file damaged in the middle in a new file (see
// Open).
//
// # Locks and untrusted files
//
// A Store holds an exclusive flock on its file while it is open, so two
// ticks never write one session: Open of a session open elsewhere fails at
// once with a *LockedError naming the other process (its pid is in
// <file>.lock while it holds the lock), and Fork copies such a session
// into a new file instead. The kernel drops a lock when its process dies,
// so a killed tick never blocks a session. Session files are opened
// without following symbolic links, and read line by line, never whole:
// Load and Open skip a line over 64 MiB (with a warning), List reads only
// the first 64 KiB of a line, so a huge line costs the cap, not its size.
package session

import (
	"errors"
	"fmt"
	"time"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
)

// Version is the format version written in the header line.
const Version = 1

// Interrupted is the tool result Load gives a tool call that has none in
// the file: tick itself stopped (killed or crashed) before the tool
// finished, since a call the user interrupts gets its result
// (provider.Interrupted) written by the live loop. The model is told so,
// not that the user interrupted it; a task's work may be in a copy the
// resumed session names to the user (see workcopy.Recover).
const Interrupted = "Error: interrupted: tick was killed (not stopped by the user) before this tool finished; what it did may be partial, and a task's changes may not have been applied. Check before relying on it."

// ErrNoSession is returned (wrapped) by Latest and Find when the workspace
// has no matching session.
var ErrNoSession = errors.New("no session found")

// ErrNotSession is returned (wrapped) by Load and Open for a file that does
// not start with a session header line, such as an empty file left by a
// crash during Create.
var ErrNotSession = errors.New("not a tick session file (no header line)")

// CorruptError reports a damaged line in the middle of a session file.
// Load returns everything before Line together with this error.
type CorruptError struct {
	Path string // the session file
	Line int    // 1-based number of the first damaged line
	Err  error  // what is wrong with it
}

// Error names the file, the line and the problem.
func (e *CorruptError) Error() string {
	return fmt.Sprintf("session file %s is corrupt at line %d (kept the lines before it): %v", e.Path, e.Line, e.Err)
}

// Unwrap returns the underlying problem.
func (e *CorruptError) Unwrap() error { return e.Err }

// Info describes one session, as List shows it.
type Info struct {
	ID        string // short id, unique in the workspace
	Path      string // the session file
	Workspace string // absolute workspace directory
	Model     string // the model in use: the header's, or the last model line's
	// ModelSwitched says Model comes from a model line: the user switched
	// models (/model) in this session.
	ModelSwitched bool
	// Provider is the config's provider the last switch went to ("": the
	// server the run was configured with).
	Provider string
	Started  time.Time // when it was created
	Updated  time.Time // time of its last complete line
	// FirstPrompt is the first line of the first user message, at most
	// 200 characters.
	FirstPrompt string
	// Done and Total are the todo list's progress (todo.List.Counts of the
	// last list recorded).
	Done, Total int
	// Turns counts user messages: prompts and steering messages, not the
	// agent's todo reminders.
	Turns int
}

// Loaded is a session read back from its file.
type Loaded struct {
	Info Info
	// History is the full conversation (without the system prompt),
	// repaired so that it is a valid request: every tool call answered
	// (Interrupted where the file has no result), no tool result without
	// its call, no empty assistant message. Compactions do not shorten it.
	History []provider.Message
	// ModelHistory is what to send to the model on resume: the kept
	// messages of the latest compaction followed by the messages recorded
	// after it, repaired the same way. Without compactions it equals
	// History.
	ModelHistory []provider.Message
	// Todos is the last todo list recorded (empty if none).
	Todos todo.List
	// Summary is the summary of the latest compaction, if any.
	Summary string
	// Compactions counts the compaction lines; Summaries holds their
	// summaries in order (a rewind of the conversation records one too,
	// see agent.MarkRewinds).
	Compactions int
	Summaries   []string
	// CompactedAt holds, for each compaction in order, the index in History
	// of the first message recorded after it (len(History) when none was),
	// so that a replay shows where compactions happened.
	CompactedAt []int
	// Plan is the user's side of the plan from the last plan line (zero
	// if none).
	Plan todo.UserPlan
	// Mode and BeforePlan are the agent's mode and the mode approving a
	// plan returns to, from the last mode line ("" if none).
	Mode, BeforePlan string
	// Tasks are the subagents' transcripts from the task lines, by their
	// task call's id (nil when there are none).
	Tasks map[string][]provider.Message
	// Warnings are human-readable notes on what was repaired or ignored,
	// each said once: a truncated last line, interrupted tool calls,
	// dropped results.
	Warnings []string
}

// wire shapes of the lines.
const (
	typeSession    = "session"
	typeMessage    = "message"
	typeTodo       = "todo"
	typeCompaction = "compaction"
	typeModel      = "model" // the user switched models (/model)
	typePlan       = "plan"  // the user's side of the plan
	typeMode       = "mode"  // the agent's mode
	typeTask       = "task"  // a subagent's transcript
)

type taskLine struct {
	Type     string             `json:"type"`
	Time     time.Time          `json:"time"`
	Task     string             `json:"task"`
	Item     string             `json:"item,omitempty"`
	Messages []provider.Message `json:"messages"`
}

type planLine struct {
	Type string        `json:"type"`
	Time time.Time     `json:"time"`
	Plan todo.UserPlan `json:"plan"`
}

type modeLine struct {
	Type   string    `json:"type"`
	Time   time.Time `json:"time"`
	Mode   string    `json:"mode"`
	Before string    `json:"before,omitempty"`
}

type modelLine struct {
	Type     string    `json:"type"`
	Time     time.Time `json:"time"`
	Model    string    `json:"model"`
	Provider string    `json:"provider,omitempty"`
}

type headerLine struct {
	Type      string    `json:"type"`
	Version   int       `json:"version"`
	ID        string    `json:"id"`
	Workspace string    `json:"workspace"`
	Started   time.Time `json:"started"`
	Model     string    `json:"model,omitempty"`
	// From is the id of the damaged session this one continues (Open).
	From string `json:"from,omitempty"`
}

type messageLine struct {
	Type    string           `json:"type"`
	Time    time.Time        `json:"time"`
	Message provider.Message `json:"message"`
}

type todoLine struct {
	Type string    `json:"type"`
	Time time.Time `json:"time"`
	List todo.List `json:"list"`
}

type compactionLine struct {
	Type    string             `json:"type"`
	Time    time.Time          `json:"time"`
	Summary string             `json:"summary"`
	Kept    []provider.Message `json:"kept"`
}

// record is any line as read back; absent fields stay zero.
type record struct {
	Type      string             `json:"type"`
	Time      time.Time          `json:"time"`
	Version   int                `json:"version"`
	ID        string             `json:"id"`
	Workspace string             `json:"workspace"`
	Started   time.Time          `json:"started"`
	Model     string             `json:"model"`
	Provider  string             `json:"provider"`
	Message   *provider.Message  `json:"message"`
	List      *todo.List         `json:"list"`
	Summary   *string            `json:"summary"`
	Kept      []provider.Message `json:"kept"`
	Plan      *todo.UserPlan     `json:"plan"`
	Mode      string             `json:"mode"`
	Before    string             `json:"before"`
	Task      string             `json:"task"`
	Messages  []provider.Message `json:"messages"`
}

// now is the time stamp written on a line.
func now() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }
