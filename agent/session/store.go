package session

import (
	"bytes"
	"crypto/rand"
	"encoding/base32"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/tick-agent/tick/agent/internal/flock"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
)

// Store appends one session's lines to its file. It has the method set of
// the agent's Recorder (Message, Todo, Compaction) and of its optional
// recorders (Model, Plan, Mode); every write is one
// write call followed by fsync, done before the method returns. A failed
// write is cut off the file again, so the file keeps only whole lines.
// Its methods are safe for concurrent use.
//
// A Store holds an exclusive lock on its file (flock) until Close, so a
// second tick cannot open the same session (Open fails with a
// *LockedError); the kernel drops the lock when the process dies.
type Store struct {
	id, path string

	mu      sync.Mutex
	f       File
	pidFile string // the lock's pid file, removed on Close ("" if none)
	size    int64  // bytes of complete lines in the file
	closed  bool
}

// File is what a Store writes to; *os.File implements it.
type File interface {
	io.Writer
	Sync() error
	Truncate(size int64) error
	Close() error
}

// ID returns the session's short id.
func (s *Store) ID() string { return s.id }

// Path returns the session file.
func (s *Store) Path() string { return s.path }

// Message records one complete message appended to the conversation.
func (s *Store) Message(m provider.Message) error {
	return s.write("a message", messageLine{Type: typeMessage, Time: now(), Message: m})
}

// Todo records the whole todo list after a change.
func (s *Store) Todo(l todo.List) error {
	if l.Items == nil {
		l.Items = []todo.Item{}
	}
	return s.write("the todo list", todoLine{Type: typeTodo, Time: now(), List: l})
}

// Compaction records that the history sent to the model was replaced.
// kept must be the complete new history the model sees from now on, as
// built by compact.Rebuild: the summary message, the todo list and the
// messages kept verbatim. Messages recorded later with Message are added
// after it on load (Loaded.ModelHistory); the full history is not affected.
func (s *Store) Compaction(summary string, kept []provider.Message) error {
	if kept == nil {
		kept = []provider.Message{}
	}
	return s.write("a compaction", compactionLine{Type: typeCompaction, Time: now(), Summary: summary, Kept: kept})
}

// Model records that the conversation goes on with another model.
func (s *Store) Model(name string) error {
	return s.ModelOn("", name)
}

// ModelOn records a switch to model name of the config's provider
// provider ("": the server the run was configured with).
func (s *Store) ModelOn(provider, name string) error {
	return s.write("the model", modelLine{Type: typeModel, Time: now(), Model: name, Provider: provider})
}

// Plan records the user's side of the plan after a change.
func (s *Store) Plan(p todo.UserPlan) error {
	return s.write("the plan's state", planLine{Type: typePlan, Time: now(), Plan: p})
}

// Mode records the agent's mode (auto, ask, plan) and the mode approving a
// plan returns to.
func (s *Store) Mode(mode, beforePlan string) error {
	return s.write("the mode", modeLine{Type: typeMode, Time: now(), Mode: mode, Before: beforePlan})
}

// Task records the transcript of the subagent of task call id (item: the
// plan item it named, "" for none) when it ends.
func (s *Store) Task(id, item string, msgs []provider.Message) error {
	if msgs == nil {
		msgs = []provider.Message{}
	}
	return s.write("a task's transcript", taskLine{Type: typeTask, Time: now(), Task: id, Item: item, Messages: msgs})
}

// Close closes the file. Later writes fail; a second Close does nothing.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	if s.pidFile != "" {
		_ = os.Remove(s.pidFile) // while the lock is still held
	}
	if err := s.f.Close(); err != nil {
		return fmt.Errorf("close session %s: %w", s.path, err)
	}
	return nil
}

// write appends recs as lines with one write call and syncs the file.
// what names the content in errors.
func (s *Store) write(what string, recs ...any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, r := range recs {
		if err := enc.Encode(r); err != nil {
			return fmt.Errorf("save %s to session %s: %w", what, s.path, err)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return fmt.Errorf("save %s to session %s: %w", what, s.path, os.ErrClosed)
	}
	n, err := s.f.Write(buf.Bytes())
	if err != nil {
		if n > 0 {
			_ = s.f.Truncate(s.size) // keep whole lines only
		}
		return fmt.Errorf("save %s to session %s: %w", what, s.path, err)
	}
	s.size += int64(n)
	if err := s.f.Sync(); err != nil {
		return fmt.Errorf("save %s to session %s: sync: %w", what, s.path, err)
	}
	return nil
}

// Create starts a new session of workspace in the sessions directory dir
// and writes its header. model is the model name to remember (may be
// empty). Missing directories are created with mode 0700, the file with
// 0600.
func Create(dir, workspace, model string) (*Store, error) {
	ws, err := normWorkspace(workspace)
	if err != nil {
		return nil, fmt.Errorf("create session: %w", err)
	}
	wsDir, err := makeWorkspaceDir(dir, ws)
	if err != nil {
		return nil, fmt.Errorf("create session in %s: %w", dir, err)
	}
	return create(wsDir, headerLine{Type: typeSession, Version: Version, Workspace: ws, Started: now(), Model: model})
}

// idEncoding spells ids in lower-case Crockford base32: no i, l, o or u.
var idEncoding = base32.NewEncoding("0123456789abcdefghjkmnpqrstvwxyz").WithPadding(base32.NoPadding)

// newID returns a random 8-character id.
func newID() (string, error) {
	var b [5]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("make a session id: %w", err)
	}
	return idEncoding.EncodeToString(b[:]), nil
}

// create makes a new file in wsDir for header h (its ID is filled in) and
// writes the header.
func create(wsDir string, h headerLine) (*Store, error) {
	var (
		f    *os.File
		path string
	)
	for attempt := 0; ; attempt++ {
		id, err := newID()
		if err != nil {
			return nil, err
		}
		h.ID = id
		path = filepath.Join(wsDir, h.Started.Format("20060102T150405Z")+"-"+id+".jsonl")
		f, err = openFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) || attempt == 4 {
			return nil, fmt.Errorf("create session file %s: %w", path, err)
		}
	}
	st := &Store{id: h.ID, path: path, f: f}
	err := f.Chmod(0o600) // whatever the umask
	if err == nil {
		st.pidFile, err = lock(f, path)
	}
	if err == nil {
		err = st.write("the header", h)
	}
	if err != nil {
		_ = f.Close()
		_ = os.Remove(path)
		return nil, fmt.Errorf("create session file %s: %w", path, err)
	}
	syncDir(wsDir)
	return st, nil
}

// syncDir makes a new directory entry durable, where the system allows.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}

// Open continues the session in the file at path: it loads it (see Load)
// and returns a Store that appends to the same file. A truncated last line
// is cut off the file first, so new lines follow the last complete one.
//
// When a line in the middle is damaged, Open leaves that file untouched
// and continues in a new session file in the same directory, which starts
// with everything recovered from before the damage (header field "from"
// names the damaged session). Loaded.Warnings then says so, with the line
// number, and the Store's ID differs from Loaded.Info.ID. The error is nil
// in that case; it is non-nil (with nil results) only when nothing can be
// continued: the file cannot be read or written, or is not a session.
//
// A session open in another tick is not touched: Open fails at once with a
// *LockedError naming that process (Fork copies such a session instead).
// The file is read line by line, never whole, and never through a
// symbolic link.
func Open(path string) (*Store, *Loaded, error) {
	f, err := openFile(path, os.O_RDWR|os.O_APPEND)
	if err != nil {
		return nil, nil, fmt.Errorf("open session %s: %w", path, err)
	}
	pidFile, err := lock(f, path)
	if err != nil {
		_ = f.Close()
		return nil, nil, err
	}
	release := func() {
		_ = os.Remove(pidFile)
		_ = f.Close()
	}
	p, perr := parse(f, path)
	if p == nil {
		release()
		return nil, nil, perr
	}
	ld := p.loaded
	if perr != nil {
		release()
		st, err := continueDamaged(path, ld)
		if err != nil {
			return nil, nil, fmt.Errorf("open session %s: %v; continue it in a new file: %w", path, perr, err)
		}
		ld.Warnings = append(ld.Warnings, perr.Error(),
			fmt.Sprintf("continuing in the new session %s; the damaged file is left as it was", st.ID()))
		return st, ld, nil
	}
	st := &Store{id: ld.Info.ID, path: path, f: f, pidFile: pidFile, size: p.good}
	if fi, err := f.Stat(); err == nil && p.good < fi.Size() {
		if err := f.Truncate(p.good); err != nil {
			release()
			return nil, nil, fmt.Errorf("open session %s: cut off the truncated last line: %w", path, err)
		}
	}
	if p.needNL {
		if _, err := f.Write([]byte("\n")); err != nil {
			release()
			return nil, nil, fmt.Errorf("open session %s: end the last line: %w", path, err)
		}
		st.size++
	}
	_ = f.Chmod(0o600)
	if err := f.Sync(); err != nil {
		release()
		return nil, nil, fmt.Errorf("open session %s: sync: %w", path, err)
	}
	return st, ld, nil
}

// continueDamaged creates a new session next to the damaged file at path,
// holding what was recovered from it.
func continueDamaged(path string, ld *Loaded) (*Store, error) {
	h := headerLine{
		Type: typeSession, Version: Version, Workspace: ld.Info.Workspace,
		Started: now(), Model: ld.Info.Model, From: ld.Info.ID,
	}
	st, err := create(filepath.Dir(path), h)
	if err != nil {
		return nil, err
	}
	t := now()
	recs := make([]any, 0, len(ld.History)+2)
	for _, m := range ld.History {
		recs = append(recs, messageLine{Type: typeMessage, Time: t, Message: m})
	}
	if !ld.Todos.Empty() {
		recs = append(recs, todoLine{Type: typeTodo, Time: t, List: ld.Todos})
	}
	if ld.Compactions > 0 {
		kept := ld.ModelHistory
		if kept == nil {
			kept = []provider.Message{}
		}
		recs = append(recs, compactionLine{Type: typeCompaction, Time: t, Summary: ld.Summary, Kept: kept})
	}
	if !ld.Plan.Zero() {
		recs = append(recs, planLine{Type: typePlan, Time: t, Plan: ld.Plan})
	}
	if ld.Mode != "" {
		recs = append(recs, modeLine{Type: typeMode, Time: t, Mode: ld.Mode, Before: ld.BeforePlan})
	}
	if len(recs) > 0 {
		if err := st.write("the recovered history", recs...); err != nil {
			_ = st.Close()
			return nil, err
		}
	}
	return st, nil
}

// Fork copies the session at path into a new session file in the same
// directory (header field "from" names the original) and returns a Store
// for the copy: for continuing a session that is open in another tick,
// which keeps its own file. The original is only read, and needs no lock.
// Loaded describes the original; Loaded.Warnings says it was forked.
func Fork(path string) (*Store, *Loaded, error) {
	ld, err := Load(path)
	if ld == nil {
		return nil, nil, fmt.Errorf("fork session %s: %w", path, err)
	}
	if err != nil {
		ld.Warnings = append(ld.Warnings, err.Error())
	}
	st, err := continueDamaged(path, ld)
	if err != nil {
		return nil, nil, fmt.Errorf("fork session %s: %w", path, err)
	}
	ld.Warnings = append(ld.Warnings, fmt.Sprintf("forked session %s into the new session %s; the original is left as it was", ld.Info.ID, st.ID()))
	return st, ld, nil
}

// LockedError is returned by Open for a session file that another tick
// has open. PID is that process (0 when it could not be read).
type LockedError struct {
	Path string
	PID  int
}

// Error names the file and the process.
func (e *LockedError) Error() string {
	who := "another tick"
	if e.PID > 0 {
		who = fmt.Sprintf("another tick (pid %d)", e.PID)
	}
	return fmt.Sprintf("session %s is open in %s", e.Path, who)
}

// Unwrap makes errors.Is(err, ErrLocked) true.
func (e *LockedError) Unwrap() error { return ErrLocked }

// ErrLocked is wrapped by every *LockedError.
var ErrLocked = errors.New("the session is open in another tick")

// lock takes the exclusive lock of the session file f at path and writes
// this process's pid next to it (path + ".lock"), for a second tick's
// error message; it returns that file's path. It fails with a
// *LockedError when another open file holds the lock.
//
// A holder whose pid is gone is a tick that was killed while one of its
// commands was starting: until that command's exec closes it, the child
// holds a copy of the file and so the lock. The lock is tried again for
// up to staleWait then, instead of naming a process that is gone. So is
// a lock whose pid file is missing: its holder is closing (Close removes
// the pid file just before it lets the lock go), or could not write it.
func lock(f *os.File, path string) (pidFile string, err error) {
	pidFile = path + ".lock"
	deadline := time.Now().Add(staleWait)
	for {
		ok, err := flock.Try(f)
		if err != nil {
			return "", fmt.Errorf("lock session %s: %w", path, err)
		}
		if ok {
			break
		}
		pid := readPID(pidFile)
		if pid > 0 && !gone(pid) || time.Now().After(deadline) {
			return "", &LockedError{Path: path, PID: pid}
		}
		time.Sleep(staleWait / 20)
	}
	pf, err := openFile(pidFile, os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
	if err != nil {
		return "", nil // the lock holds; only the pid goes unsaid
	}
	_, _ = fmt.Fprintf(pf, "%d\n", os.Getpid())
	_ = pf.Close()
	return pidFile, nil
}

// staleWait is how long a lock whose holder is gone is tried again.
const staleWait = 2 * time.Second

// readPID reads the pid a lock holder wrote; 0 when there is none.
func readPID(pidFile string) int {
	f, err := openFile(pidFile, os.O_RDONLY)
	if err != nil {
		return 0
	}
	defer f.Close()
	var pid int
	if _, err := fmt.Fscan(io.LimitReader(f, 32), &pid); err != nil || pid <= 0 {
		return 0
	}
	return pid
}
