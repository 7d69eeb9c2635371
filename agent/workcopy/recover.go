package workcopy

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// MaxAge is how long copies a killed tick left are kept before Recover
// removes them.
const MaxAge = 7 * 24 * time.Hour

// sessionPrefix starts the name of the directory holding one session's
// task copies (see SessionDir).
const sessionPrefix = "tick-tasks-"

// SessionDir returns the directory under the system's temporary
// directory that holds the task copies of session id, so that a session
// resumed after tick was killed finds the copies its tasks left (see
// Recover). It returns "" for an empty id. The directory is not made.
func SessionDir(id string) string {
	safe := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, id)
	if safe == "" {
		return ""
	}
	return filepath.Join(os.TempDir(), sessionPrefix+safe)
}

// Recover is for a session being resumed: it returns the task copies
// session id left behind (tick was killed or crashed while its tasks held
// work: a live tick removes a copy it merged and names one it keeps), and
// removes the copies of every session older than MaxAge at now, returning
// those too. Links are not followed; errors reading one directory skip it.
func Recover(id string, now time.Time) (kept, removed []string) {
	own := SessionDir(id)
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), sessionPrefix+"*", "tick-task-*"))
	sort.Strings(dirs)
	for _, d := range dirs {
		info, err := os.Lstat(d)
		pinfo, perr := os.Lstat(filepath.Dir(d))
		if err != nil || perr != nil || !info.IsDir() || !pinfo.IsDir() { // links are not followed
			continue
		}
		if now.Sub(info.ModTime()) > MaxAge {
			if os.RemoveAll(d) == nil {
				removed = append(removed, d)
				// what New kept for a merge, then the session's directory, once empty
				_ = os.RemoveAll(filepath.Join(filepath.Dir(d), ".base-"+filepath.Base(d)))
				_ = os.Remove(filepath.Dir(d))
			}
			continue
		}
		if own != "" && filepath.Dir(d) == own {
			kept = append(kept, d)
		}
	}
	return kept, removed
}

// RecoverNotes is Recover's findings in words for the user, "" lines left
// out: the copies found (tick was killed with tasks holding work) and the
// old ones cleaned.
func RecoverNotes(kept, removed []string) []string {
	var out []string
	if len(kept) > 0 {
		out = append(out, fmt.Sprintf("this session's tasks left %d copies with work not applied (tick was killed while they ran, or kept them unapplied): %s — compare each with the workspace (diff -r COPY .), apply what you want, then delete it", len(kept), strings.Join(kept, ", ")))
	}
	if len(removed) > 0 {
		out = append(out, fmt.Sprintf("removed %d task copies older than a week: %s", len(removed), strings.Join(removed, ", ")))
	}
	return out
}
