package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/tick-agent/tick/agent/internal/safefile"
)

// maxFileSize caps a config file; anything larger is not a config file.
const maxFileSize = 1 << 20

// FileError is a config file that cannot be used: Path:Line: Msg. Line is
// 0 when the error has no line (the file cannot be read).
type FileError struct {
	Path string
	Line int
	Msg  string
	Err  error // the underlying error, if any
}

func (e *FileError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Path, e.Msg)
}

func (e *FileError) Unwrap() error { return e.Err }

// file is one loaded config file.
type file struct {
	path     string
	data     []byte
	cfg      Config
	loose    bool     // group or others may read it
	warnings []string // unknown keys, as "path:line: ..."
}

// readFile loads the user's config file at path. A missing file is (nil,
// nil); one that is not a regular file or is larger than maxFileSize is a
// *FileError.
func readFile(path string) (*file, error) {
	return readIn("", path)
}

// readProjectFile loads a project's config file at path, which must
// resolve inside workspace. A missing file is (nil, nil); one that cannot
// be opened or is refused (a *safefile.Error) is an error other than a
// *FileError, which the caller turns into a warning: a repository's odd
// file may not stop tick. A file that does not parse is a *FileError.
func readProjectFile(workspace, path string) (*file, error) {
	return readIn(workspace, path)
}

// readIn loads the config file at path through safefile (opened without
// blocking, a regular file, inside root unless root is "", capped).
func readIn(root, path string) (*file, error) {
	if path == "" {
		return nil, nil
	}
	f, st, err := safefile.Open(root, path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil && root != "":
		return nil, err // refused or unreadable: the caller warns
	case err != nil:
		return nil, &FileError{Path: path, Msg: fmt.Sprintf("read the config file: %v", err), Err: err}
	}
	defer f.Close()
	if st.Size() > maxFileSize {
		err := &safefile.Error{Path: path, Reason: safefile.ErrTooLarge, Detail: fmt.Sprintf("over %d KiB", maxFileSize>>10)}
		if root != "" {
			return nil, err
		}
		return nil, &FileError{Path: path, Msg: "read the config file: " + err.Error(), Err: err}
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFileSize))
	if err != nil {
		return nil, &FileError{Path: path, Msg: fmt.Sprintf("read the config file: %v", err), Err: err}
	}
	cf, err := parse(path, data)
	if err != nil {
		return nil, err
	}
	cf.loose = st.Mode().Perm()&0o077 != 0
	return cf, nil
}

// parse decodes data, the contents of path. Unknown keys become warnings;
// syntax errors, wrong types and invalid values are FileErrors with the
// line.
func parse(path string, data []byte) (*file, error) {
	f := &file{path: path, data: data}
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(&f.cfg)
	var strict *toml.StrictMissingError
	var derr *toml.DecodeError
	switch {
	case errors.As(err, &strict):
		for _, e := range strict.Errors {
			line, _ := e.Position()
			f.warnings = append(f.warnings, fmt.Sprintf("%s:%d: unknown key %s (ignored)", path, line, strings.Join(e.Key(), ".")))
		}
	case errors.As(err, &derr):
		line, _ := derr.Position()
		msg := strings.TrimPrefix(derr.Error(), "toml: ")
		if k := derr.Key(); len(k) > 0 {
			msg = strings.Join(k, ".") + ": " + msg
		}
		return nil, &FileError{Path: path, Line: line, Msg: msg, Err: err}
	case err != nil:
		return nil, &FileError{Path: path, Msg: err.Error(), Err: err}
	}
	if key, err := f.cfg.validate(); err != nil {
		return nil, &FileError{Path: path, Line: lineOf(data, key), Msg: err.Error(), Err: err}
	}
	return f, nil
}

// lineOf returns the 1-based line where key is first assigned or opened
// as a table in data, 0 when it is not found. It locates validation errors,
// which the decoder does not place.
func lineOf(data []byte, key string) int {
	if key == "" {
		return 0
	}
	re := regexp.MustCompile(`^\s*(\[+\s*)?("?)` + regexp.QuoteMeta(key) + `\b`)
	for i, line := range strings.Split(string(data), "\n") {
		if re.MatchString(line) {
			return i + 1
		}
	}
	return 0
}

// checkURL refuses a base URL that is not http(s)://host.
func checkURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("base URL %q must start with http:// or https:// and name a host", s)
	}
	return nil
}

// UserPath returns the user config file, $XDG_CONFIG_HOME/tick/config.toml,
// else $HOME/.config/tick/config.toml; "" when neither variable is set.
func UserPath(env func(string) string) string {
	dir := UserDir(env)
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "config.toml")
}

// UserDir returns tick's user config directory, $XDG_CONFIG_HOME/tick,
// else $HOME/.config/tick; "" when neither variable is set. The user's
// AGENTS.md lives there too.
func UserDir(env func(string) string) string {
	if x := strings.TrimSpace(env("XDG_CONFIG_HOME")); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "tick")
	}
	if h := strings.TrimSpace(env("HOME")); h != "" {
		return filepath.Join(h, ".config", "tick")
	}
	return ""
}

// ProjectPath returns the project config file of workspace.
func ProjectPath(workspace string) string {
	return filepath.Join(workspace, ".tick", "config.toml")
}
