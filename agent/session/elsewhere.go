package session

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// InfoOf describes the session file at path (a path given to --resume in
// place of an id).
func InfoOf(path string) (Info, error) {
	info, err := scanInfo(path)
	if err != nil {
		return Info{}, fmt.Errorf("read session file %s: %w", path, err)
	}
	return info, nil
}

// FindAnywhere looks for the session id (or a unique prefix) in every
// workspace's sessions under dir, for the message of an id not found in
// the workspace: it returns the session it found, or an error wrapping
// ErrNoSession.
func FindAnywhere(dir, id string) (Info, error) {
	want := strings.ToLower(strings.TrimSpace(id))
	dirs, err := os.ReadDir(dir)
	if err != nil || want == "" {
		return Info{}, fmt.Errorf("find session %q anywhere: %w", id, ErrNoSession)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		files, err := os.ReadDir(filepath.Join(dir, d.Name()))
		if err != nil {
			continue
		}
		for _, f := range files {
			name := strings.TrimSuffix(f.Name(), ".jsonl")
			_, fid, ok := strings.Cut(name, "-")
			if !ok || name == f.Name() || !strings.HasPrefix(fid, want) {
				continue
			}
			if info, err := scanInfo(filepath.Join(dir, d.Name(), f.Name())); err == nil {
				return info, nil
			}
		}
	}
	return Info{}, errors.Join(fmt.Errorf("find session %q anywhere", id), ErrNoSession)
}
