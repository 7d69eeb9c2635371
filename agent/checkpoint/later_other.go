//go:build !unix

package checkpoint

import "errors"

// lstatKey is not available here: every snapshot takes the full staging.
func lstatKey(p string) (fileKey, error) {
	return fileKey{}, errors.ErrUnsupported
}

// statEntries is not available here (see lstatKey).
func statEntries(work string, ents []indexEntry, indexMtime int64) ([]string, bool) {
	return nil, false
}

// dirFDs is not used here (see lstatKey).
type dirFDs struct{ work string }

// close does nothing here.
func (d *dirFDs) close() {}

// readEntry is not available here (see lstatKey).
func readEntry(dirs *dirFDs, p string) (uint32, []byte, fileKey, bool) {
	return 0, nil, fileKey{}, false
}
