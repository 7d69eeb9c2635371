package session

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
)

// DefaultDir returns the sessions directory: $XDG_STATE_HOME/tick/sessions
// when XDG_STATE_HOME is an absolute path, else
// $HOME/.local/state/tick/sessions. getenv is os.Getenv in production. It
// fails when neither variable helps.
func DefaultDir(getenv func(string) string) (string, error) {
	if s := getenv("XDG_STATE_HOME"); s != "" && filepath.IsAbs(s) {
		return filepath.Join(s, "tick", "sessions"), nil
	}
	home := getenv("HOME")
	if home == "" {
		home = getenv("USERPROFILE")
	}
	if home == "" {
		return "", errors.New("find the sessions directory: neither XDG_STATE_HOME nor HOME is set")
	}
	return filepath.Join(home, ".local", "state", "tick", "sessions"), nil
}

// normWorkspace returns the absolute, symlink-free form of a workspace
// path, so that one directory always maps to one sessions folder.
func normWorkspace(ws string) (string, error) {
	if ws == "" {
		return "", errors.New("the workspace is empty")
	}
	abs, err := filepath.Abs(ws)
	if err != nil {
		return "", fmt.Errorf("resolve workspace %q: %w", ws, err)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	return abs, nil
}

// workspaceDirName returns the folder name of a normalised workspace:
// a slug of its base name and 8 hex digits of the SHA-256 of its path.
func workspaceDirName(ws string) string {
	sum := sha256.Sum256([]byte(ws))
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(filepath.Base(ws)) {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '_'
		switch {
		case ok:
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= 40 {
			break
		}
	}
	slug := strings.Trim(b.String(), "-.")
	if slug == "" {
		slug = "root"
	}
	return slug + "-" + hex.EncodeToString(sum[:4])
}

// makeWorkspaceDir creates dir (if missing) and the workspace's folder in
// it, both private (0700), and returns the folder.
func makeWorkspaceDir(dir, ws string) (string, error) {
	if err := mkdirPrivate(dir); err != nil {
		return "", err
	}
	wsDir := filepath.Join(dir, workspaceDirName(ws))
	if err := mkdirPrivate(wsDir); err != nil {
		return "", err
	}
	if err := os.Chmod(wsDir, 0o700); err != nil {
		return "", fmt.Errorf("make %s private: %w", wsDir, err)
	}
	return wsDir, nil
}

// mkdirPrivate creates path and its missing parents with mode 0700
// (whatever the umask). Existing directories are left as they are.
func mkdirPrivate(path string) error {
	fi, err := os.Stat(path)
	if err == nil {
		if !fi.IsDir() {
			return fmt.Errorf("create directory %s: a file is in the way", path)
		}
		return nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("create directory %s: %w", path, err)
	}
	if parent := filepath.Dir(path); parent != path {
		if err := mkdirPrivate(parent); err != nil {
			return err
		}
	}
	if err := os.Mkdir(path, 0o700); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil // created meanwhile by someone else
		}
		return fmt.Errorf("create directory %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o700); err != nil {
		return fmt.Errorf("make %s private: %w", path, err)
	}
	return nil
}

// List returns the sessions of workspace found in the sessions directory
// dir, most recently updated first. Files that are not sessions are
// skipped; a damaged session is described by what comes before the
// damage. A workspace without sessions gives an empty list.
//
// Each file is read whole, but only the header, the first user message and
// the last todo list are decoded; the other lines are only scanned.
func List(dir, workspace string) ([]Info, error) {
	ws, err := normWorkspace(workspace)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	wsDir := filepath.Join(dir, workspaceDirName(ws))
	entries, err := os.ReadDir(wsDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list sessions in %s: %w", wsDir, err)
	}
	var out []Info
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		info, err := scanInfo(filepath.Join(wsDir, e.Name()))
		if err != nil || info.Workspace != ws {
			continue
		}
		out = append(out, info)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if !a.Updated.Equal(b.Updated) {
			return a.Updated.After(b.Updated)
		}
		if !a.Started.Equal(b.Started) {
			return a.Started.After(b.Started)
		}
		return a.ID > b.ID
	})
	return out, nil
}

// Latest returns the most recently updated session of workspace, or an
// error wrapping ErrNoSession.
func Latest(dir, workspace string) (Info, error) {
	all, err := List(dir, workspace)
	if err != nil {
		return Info{}, err
	}
	if len(all) == 0 {
		return Info{}, fmt.Errorf("find the latest session of %s: %w", workspace, ErrNoSession)
	}
	return all[0], nil
}

// Find returns the session of workspace whose id is id or starts with it
// (case-insensitive). It fails with an error wrapping ErrNoSession when
// none matches, and with an error listing the candidates when the prefix
// is ambiguous.
func Find(dir, workspace, id string) (Info, error) {
	want := strings.ToLower(strings.TrimSpace(id))
	if want == "" {
		return Info{}, errors.New("find session: the id is empty")
	}
	all, err := List(dir, workspace)
	if err != nil {
		return Info{}, err
	}
	var found []Info
	for _, in := range all {
		if in.ID == want {
			return in, nil
		}
		if strings.HasPrefix(in.ID, want) {
			found = append(found, in)
		}
	}
	switch len(found) {
	case 0:
		return Info{}, fmt.Errorf("find session %q of %s: %w", id, workspace, ErrNoSession)
	case 1:
		return found[0], nil
	}
	ids := make([]string, len(found))
	for i, in := range found {
		ids[i] = in.ID
	}
	return Info{}, fmt.Errorf("find session %q: the prefix matches %d sessions (%s): type more of the id", id, len(found), strings.Join(ids, ", "))
}

// scanRecord is a line as scanInfo decodes it: message contents and
// tool calls are skipped.
type scanRecord struct {
	Type      string    `json:"type"`
	Time      time.Time `json:"time"`
	ID        string    `json:"id"`
	Workspace string    `json:"workspace"`
	Started   time.Time `json:"started"`
	Model     string    `json:"model"`
	Message   *struct {
		Role provider.Role `json:"role"`
	} `json:"message"`
	List *todo.List `json:"list"`
}

// scanInfo describes the session file at path, reading it the way Load
// does but line by line, decoding only what Info needs, and of a line
// longer than maxListLine only its start (see prefixRecord).
func scanInfo(path string) (Info, error) {
	f, err := openFile(path, os.O_RDONLY)
	if err != nil {
		return Info{}, fmt.Errorf("read session %s: %w", path, err)
	}
	defer f.Close()
	var (
		info  Info
		todos todo.List
		first = true
	)
	lr := newLineReader(f, maxListLine)
	for {
		ln, err := lr.next()
		if err != nil {
			break // the end, or a read error: keep what was read
		}
		if ln.blank() {
			continue
		}
		rec, prompt, ok := scanLine(ln)
		if !ok {
			break // a truncated last line or a damaged one: stop, as Load does
		}
		if first {
			if rec.Type != typeSession || rec.ID == "" {
				return Info{}, fmt.Errorf("read session %s: %w", path, ErrNotSession)
			}
			info = Info{ID: rec.ID, Path: path, Workspace: rec.Workspace, Model: rec.Model, Started: rec.Started, Updated: rec.Started}
			first = false
			continue
		}
		switch rec.Type {
		case typeMessage:
			if rec.Message == nil || rec.Message.Role != provider.RoleUser || todo.IsReminder(prompt) {
				break
			}
			if info.Turns == 0 {
				info.FirstPrompt = firstLine(prompt)
			}
			info.Turns++
		case typeTodo:
			if rec.List != nil {
				todos = *rec.List
			}
		}
		if !rec.Time.IsZero() {
			info.Updated = rec.Time
		}
	}
	if first {
		return Info{}, fmt.Errorf("read session %s: %w", path, ErrNotSession)
	}
	info.Done, info.Total = todos.Counts()
	return info, nil
}

// scanLine decodes a line for scanInfo: its record and, for a user
// message, its text (the start of it for a long line). ok is false for a
// line that is not a record.
func scanLine(ln line) (rec scanRecord, prompt string, ok bool) {
	text := bytes.TrimSpace(ln.text)
	if ln.long {
		if !ln.terminated {
			return rec, "", false // a long truncated last line
		}
		rec, prompt = prefixRecord(text)
		return rec, prompt, rec.Type != ""
	}
	if json.Unmarshal(text, &rec) != nil || rec.Type == "" {
		return rec, "", false
	}
	if rec.Message != nil && rec.Message.Role == provider.RoleUser {
		// User messages are small next to the cap: decode them whole.
		var full record
		if json.Unmarshal(text, &full) == nil && full.Message != nil {
			prompt = full.Message.Content
		}
	}
	return rec, prompt, true
}

// prefixRecord reads what it can of the start of a line too long to
// decode: the fields before the long one (type, time, the message's role)
// and as much of a user message's content as the start holds. The writer
// puts these first (see messageLine).
func prefixRecord(b []byte) (rec scanRecord, prompt string) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return rec, ""
	}
	for dec.More() {
		k, err := dec.Token()
		key, _ := k.(string)
		if err != nil {
			break
		}
		switch key {
		case "type", "time":
			var s string
			if dec.Decode(&s) != nil {
				return rec, ""
			}
			if key == "type" {
				rec.Type = s
			} else {
				rec.Time, _ = time.Parse(time.RFC3339Nano, s)
			}
		case "message":
			role, content := prefixMessage(dec, b)
			rec.Message = &struct {
				Role provider.Role `json:"role"`
			}{Role: role}
			return rec, content
		default:
			return rec, ""
		}
	}
	return rec, ""
}

// prefixMessage reads the role of a message whose content may be cut, and
// the start of that content.
func prefixMessage(dec *json.Decoder, b []byte) (provider.Role, string) {
	var role provider.Role
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", ""
	}
	for {
		k, err := dec.Token()
		key, _ := k.(string)
		if err != nil {
			return role, ""
		}
		switch key {
		case "role":
			var s string
			if dec.Decode(&s) != nil {
				return role, ""
			}
			role = provider.Role(s)
		case "content":
			return role, partialString(b[dec.InputOffset():])
		default:
			return role, ""
		}
	}
}

// partialString decodes the JSON string that starts (after a colon) in b
// and may be cut off: as much of it as b holds.
func partialString(b []byte) string {
	i := bytes.IndexByte(b, '"')
	if i < 0 {
		return ""
	}
	b = b[i:]
	if end := bytes.IndexByte(b[1:], '"'); end >= 0 && !bytes.Contains(b[1:end+1], []byte{'\\'}) {
		return string(b[1 : end+1])
	}
	for cut := 0; cut < 8 && cut < len(b); cut++ {
		var s string
		if json.Unmarshal(append(append([]byte(nil), b[:len(b)-cut]...), '"'), &s) == nil {
			return s
		}
	}
	return ""
}
