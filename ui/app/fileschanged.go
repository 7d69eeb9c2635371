package app

import (
	"io/fs"
	"path/filepath"
	"sort"
	"time"

	"github.com/tick-agent/tick/agent/sandbox"
	"github.com/tick-agent/tick/ui/printer"
)

// maxWatchedFiles caps the files a -p run compares before and after its
// turn; past it files_changed is left out rather than guessed.
const maxWatchedFiles = 200_000

// fileState is what a file's change is told by: size, modification time
// and mode.
type fileState struct {
	size int64
	mod  time.Time
	mode fs.FileMode
}

// workspaceFiles lists the workspace's files (git metadata left out) with
// their state, or nil when there are more than maxWatchedFiles.
func workspaceFiles(root string) map[string]fileState {
	files := map[string]fileState{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: not ours to report
		}
		if d.Name() == sandbox.GitMetaName && path != root {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if len(files) >= maxWatchedFiles {
			return fs.SkipAll
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		files[filepath.ToSlash(rel)] = fileState{info.Size(), info.ModTime(), info.Mode()}
		return nil
	})
	if err != nil || len(files) >= maxWatchedFiles {
		return nil
	}
	return files
}

// filesChanged compares two listings of workspaceFiles: the files added,
// modified and deleted, by path. Either listing nil gives nil.
func filesChanged(before, after map[string]fileState) []printer.FileChange {
	if before == nil || after == nil {
		return nil
	}
	out := []printer.FileChange{}
	for p, a := range after {
		b, ok := before[p]
		switch {
		case !ok:
			out = append(out, printer.FileChange{Path: p, Kind: printer.FileAdded})
		case b != a:
			out = append(out, printer.FileChange{Path: p, Kind: printer.FileModified})
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			out = append(out, printer.FileChange{Path: p, Kind: printer.FileDeleted})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}
