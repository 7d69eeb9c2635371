// Package prompthist keeps the prompts a user sent in one workspace across
// restarts, for the input's history (↑).
//
// A history is one file of JSON lines, each a JSON string (so multi-line
// prompts stay one entry), created with mode 0600 in a directory of mode
// 0700. Load returns at most Max entries, the oldest first; Append adds one
// and rewrites the file with the newest Max entries when it holds too many.
// Prompts longer than MaxEntry bytes are not kept, nor are lines that do
// not decode (a file cut by a crash loses one entry, not the history).
// Callers run both off the UI's update loop.
package prompthist

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tick-agent/tick/agent/atomicfile"
)

// Max is the most prompts a history keeps.
const Max = 500

// MaxEntry is the longest prompt, in bytes, that is kept.
const MaxEntry = 64 << 10

// Load returns the prompts saved at path, the oldest first; a missing file
// is an empty history.
func Load(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the prompt history %s: %w", path, err)
	}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 2*MaxEntry+16)
	for sc.Scan() {
		var s string
		if json.Unmarshal(sc.Bytes(), &s) == nil && strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	// A line too long for the scanner ends the reading: keep what came
	// before it rather than failing.
	if len(out) > Max {
		out = out[len(out)-Max:]
	}
	return out, nil
}

// Append adds prompt to the history at path, creating the file and its
// directory. A blank prompt, or one longer than MaxEntry, is not kept.
func Append(path, prompt string) error {
	if strings.TrimSpace(prompt) == "" || len(prompt) > MaxEntry {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create the prompt history directory: %w", err)
	}
	line, err := json.Marshal(prompt)
	if err != nil {
		return fmt.Errorf("encode a prompt for the history: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("open the prompt history %s: %w", path, err)
	}
	if st, err := f.Stat(); err == nil && st.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, st.Size()-1); err == nil && last[0] != '\n' {
			line = append([]byte{'\n'}, line...) // a line cut by a crash stays alone
		}
	}
	_, werr := f.Write(append(line, '\n'))
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		return fmt.Errorf("write the prompt history %s: %w", path, err)
	}
	return trim(path)
}

// trim rewrites the file with its newest Max entries once it holds half
// as many again (so most appends do not rewrite it).
func trim(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read the prompt history %s: %w", path, err)
	}
	if bytes.Count(data, []byte{'\n'}) <= Max+Max/2 {
		return nil
	}
	all, err := Load(path)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	for _, s := range all {
		line, _ := json.Marshal(s)
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := atomicfile.WritePrivate(path, b.Bytes()); err != nil {
		return fmt.Errorf("trim the prompt history: %w", err)
	}
	return nil
}
