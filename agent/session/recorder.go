package session

import (
	"fmt"
	"sync"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
)

// Recorder saves a conversation as it happens: it implements the agent's
// Recorder (Message, Todo, Compaction) and its optional ModelRecorder,
// PlanRecorder and ModeRecorder. A new session's file is created
// on the first write, so that a run that never sends a prompt leaves no
// empty session behind (which `tick -c` would otherwise pick over the last
// real one); a resumed session appends to the Store that Open (or Fork)
// returned.
//
// When the file cannot be created, the first write returns the error
// (the agent shows it once as a notice) and later writes are dropped
// silently. Its methods are safe for concurrent use.
type Recorder struct {
	dir, workspace string // where and for what a new file is created

	mu       sync.Mutex
	model    string     // named in a new file's header
	mode     *modeLine  // a mode to write after a new file's header
	switched *modelLine // a model switch to write after a new file's header
	st       *Store
	failed   bool // creating the file failed; save nothing more
	closed   bool
}

// NewRecorder returns a Recorder that creates a session of workspace in
// the sessions directory dir on its first write.
func NewRecorder(dir, workspace, model string) *Recorder {
	return &Recorder{dir: dir, workspace: workspace, model: model}
}

// Continue returns a Recorder that appends to st, a session of workspace
// in dir (for /new and /sessions, which start or list others there).
func Continue(dir, workspace, model string, st *Store) *Recorder {
	return &Recorder{dir: dir, workspace: workspace, model: model, st: st}
}

// Dir returns the sessions directory.
func (r *Recorder) Dir() string { return r.dir }

// store returns the Store to write to, creating it on first use; nil (and
// maybe an error to report once) when nothing is saved.
func (r *Recorder) store() (*Store, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.st != nil || r.failed || r.closed {
		return r.st, nil
	}
	st, err := Create(r.dir, r.workspace, r.model)
	if err != nil {
		r.failed = true
		return nil, fmt.Errorf("not saving this session: %w", err)
	}
	r.st = st
	if m := r.switched; m != nil {
		r.switched = nil
		if err := st.ModelOn(m.Provider, m.Model); err != nil {
			return st, err
		}
	}
	if m := r.mode; m != nil {
		r.mode = nil
		if err := st.Mode(m.Mode, m.Before); err != nil {
			return st, err
		}
	}
	return st, nil
}

// write runs f on the Store, creating it on first use. Nothing is saved
// when the file could not be created; the error of creating it (or of
// writing the mode held for it) is returned once.
func (r *Recorder) write(f func(*Store) error) error {
	st, err := r.store()
	if st == nil {
		return err
	}
	if werr := f(st); werr != nil {
		return werr
	}
	return err
}

// Message records one complete message.
func (r *Recorder) Message(m provider.Message) error {
	return r.write(func(st *Store) error { return st.Message(m) })
}

// Todo records the todo list after a change.
func (r *Recorder) Todo(l todo.List) error {
	return r.write(func(st *Store) error { return st.Todo(l) })
}

// Compaction records a compaction; kept is the new history sent to the
// model.
func (r *Recorder) Compaction(summary string, kept []provider.Message) error {
	return r.write(func(st *Store) error { return st.Compaction(summary, kept) })
}

// Model records a switch of model (/model) on the server the run was
// configured with: in the session file when it exists, else as the model
// its header will name and a model line written right after it (so that
// a session resumed later carries the choice on, as one switched after
// its first message does).
func (r *Recorder) Model(name string) error { return r.ModelOn("", name) }

// ModelOn records a switch to model name of the config's provider
// provider ("": the server the run was configured with), as Model does.
func (r *Recorder) ModelOn(provider, name string) error {
	r.mu.Lock()
	st := r.st
	if st == nil {
		if provider == "" {
			r.model = name
		}
		r.switched = &modelLine{Model: name, Provider: provider}
	}
	r.mu.Unlock()
	if st == nil {
		return nil
	}
	return st.ModelOn(provider, name)
}

// Task records a subagent's transcript when its task ends (see
// Store.Task).
func (r *Recorder) Task(id, item string, msgs []provider.Message) error {
	return r.write(func(st *Store) error { return st.Task(id, item, msgs) })
}

// Plan records the user's side of the plan after a change.
func (r *Recorder) Plan(p todo.UserPlan) error {
	return r.write(func(st *Store) error { return st.Plan(p) })
}

// Mode records the agent's mode: in the session file when it exists, else
// right after its header once it is created (switching modes alone leaves
// no session behind).
func (r *Recorder) Mode(mode, beforePlan string) error {
	r.mu.Lock()
	st := r.st
	if st == nil {
		r.mode = &modeLine{Mode: mode, Before: beforePlan}
	}
	r.mu.Unlock()
	if st == nil {
		return nil
	}
	return st.Mode(mode, beforePlan)
}

// ID returns the session's id, or "" while no file exists.
func (r *Recorder) ID() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.st == nil {
		return ""
	}
	return r.st.ID()
}

// Close closes the file, if one was created. Later writes are dropped.
func (r *Recorder) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	if r.st == nil {
		return nil
	}
	return r.st.Close()
}
