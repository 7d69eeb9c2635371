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

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
)

// Store appends one session's lines to its file. It has the method set of
// the agent's Recorder (Message, Todo, Compaction); every write is one
// write call followed by fsync, done before the method returns. A failed
// write is cut off the file again, so the file keeps only whole lines.
// Its methods are safe for concurrent use.
type Store struct {
	id, path string

	mu     sync.Mutex
	f      *os.File
	size   int64 // bytes of complete lines in the file
	closed bool
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
	return s.write("the model", modelLine{Type: typeModel, Time: now(), Model: name})
}

// Close closes the file. Later writes fail; a second Close does nothing.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
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
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
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
func Open(path string) (*Store, *Loaded, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("open session %s: %w", path, err)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		_ = f.Close()
		return nil, nil, fmt.Errorf("open session %s: %w", path, err)
	}
	p, perr := parse(data, path)
	if p == nil {
		_ = f.Close()
		return nil, nil, perr
	}
	ld := p.loaded
	if perr != nil {
		_ = f.Close()
		st, err := continueDamaged(path, ld)
		if err != nil {
			return nil, nil, fmt.Errorf("open session %s: %v; continue it in a new file: %w", path, perr, err)
		}
		ld.Warnings = append(ld.Warnings, perr.Error(),
			fmt.Sprintf("continuing in the new session %s; the damaged file is left as it was", st.ID()))
		return st, ld, nil
	}
	st := &Store{id: ld.Info.ID, path: path, f: f, size: int64(p.good)}
	if p.good < len(data) {
		if err := f.Truncate(int64(p.good)); err != nil {
			_ = f.Close()
			return nil, nil, fmt.Errorf("open session %s: cut off the truncated last line: %w", path, err)
		}
	}
	if p.needNL {
		if _, err := f.Write([]byte("\n")); err != nil {
			_ = f.Close()
			return nil, nil, fmt.Errorf("open session %s: end the last line: %w", path, err)
		}
		st.size++
	}
	_ = f.Chmod(0o600)
	if err := f.Sync(); err != nil {
		_ = f.Close()
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
	if len(recs) > 0 {
		if err := st.write("the recovered history", recs...); err != nil {
			_ = st.Close()
			return nil, err
		}
	}
	return st, nil
}
