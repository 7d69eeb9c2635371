package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tick-agent/tick/agent/internal/safefile"
	"github.com/tick-agent/tick/provider"
)

//go:embed write_file.md
var writeFileDescription string

const writeFileExpected = `{"path": "...", "content": "..."}`

const writeFileSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "The file to write, relative to the workspace (or absolute inside it)."},
    "content": {"type": "string", "description": "The complete new content of the file."}
  },
  "required": ["path", "content"],
  "additionalProperties": false
}`

// maxEditBytes bounds the files write_file and edit_file read whole.
const maxEditBytes = 32 << 20

// WriteFile is the write_file tool: it writes a whole file, creating it and
// its parent directories if needed, atomically.
type WriteFile struct {
	ws *Workspace
}

// NewWriteFile returns the write_file tool for ws.
func NewWriteFile(ws *Workspace) *WriteFile { return &WriteFile{ws: ws} }

// Spec describes the tool to the model.
func (w *WriteFile) Spec() provider.ToolSpec {
	return provider.ToolSpec{Name: "write_file", Description: writeFileDescription, Parameters: json.RawMessage(writeFileSchema)}
}

// writeCall is one decoded and resolved call.
type writeCall struct {
	path, abs, rel string
	content        string
	exists         bool
	old            string // the current content, when exists
	oldBinary      bool
	mode           fs.FileMode
}

func (w *WriteFile) prepare(raw json.RawMessage) (*writeCall, error) {
	a, err := parseArgs("write_file", writeFileExpected, raw)
	if err != nil {
		return nil, err
	}
	c := &writeCall{mode: 0o644}
	if c.path, err = a.path(); err != nil {
		return nil, err
	}
	if c.content, err = a.str("content", true); err != nil {
		return nil, err
	}
	if c.abs, err = w.ws.Resolve(c.path); err != nil {
		return nil, fmt.Errorf("write file %q: %w", c.path, err)
	}
	c.rel = w.ws.Rel(c.abs)
	fi, err := os.Stat(c.abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return c, nil
	case err != nil:
		return nil, fmt.Errorf("write file %q: %w", c.path, err)
	case fi.IsDir():
		return nil, fmt.Errorf("write file %q: it is a directory", c.path)
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("write file %q: not a regular file (%s)", c.path, fi.Mode().Type())
	}
	c.exists, c.mode = true, fi.Mode().Perm()
	if fi.Size() <= maxEditBytes {
		data, err := safefile.Read("", c.abs, maxEditBytes)
		if err != nil {
			return nil, fmt.Errorf("write file %q: read the current content: %w", c.path, err)
		}
		c.old = string(data)
		c.oldBinary = looksBinary(data[:min(len(data), binarySniff)])
	} else {
		c.oldBinary = true // too large to show; treat like binary in previews
	}
	return c, nil
}

// Preview returns the path (relative to the workspace) as the summary and
// a unified diff against the current content as the detail; for a new file
// every line is an addition.
func (w *WriteFile) Preview(raw json.RawMessage) (summary, detail string, err error) {
	c, err := w.prepare(raw)
	if err != nil {
		return "", "", err
	}
	switch {
	case !c.exists:
		detail = UnifiedDiff("/dev/null", "b/"+c.rel, "", c.content)
		if detail == "" {
			detail = "(new empty file)"
		}
	case c.oldBinary:
		detail = fmt.Sprintf("(replaces a binary or very large file with %s of text)", plural(len(c.content), "byte"))
	default:
		detail = UnifiedDiff("a/"+c.rel, "b/"+c.rel, c.old, c.content)
		if detail == "" {
			detail = "(no changes: the file already has this content)"
		}
	}
	return c.rel, detail, nil
}

// Run writes the file and says whether it was created or overwritten, with
// its size in bytes and lines. An existing file keeps its permissions. The
// change's unified diff (a new file's against /dev/null; none over a
// binary or very large file) goes to the context's WithDiff func.
func (w *WriteFile) Run(ctx context.Context, raw json.RawMessage) (string, error) {
	c, err := w.prepare(raw)
	if err != nil {
		return "", err
	}
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("write file %q: %w", c.path, err)
	}
	if err := os.MkdirAll(filepath.Dir(c.abs), 0o755); err != nil {
		return "", fmt.Errorf("write file %q: create parent directories: %w", c.path, err)
	}
	if err := writeAtomic(c.abs, []byte(c.content), c.mode); err != nil {
		return "", fmt.Errorf("write file %q: %w", c.path, err)
	}
	switch {
	case !c.exists:
		showDiff(ctx, UnifiedDiff("/dev/null", "b/"+c.rel, "", c.content))
	case !c.oldBinary:
		showDiff(ctx, UnifiedDiff("a/"+c.rel, "b/"+c.rel, c.old, c.content))
	}
	size := fmt.Sprintf("%s, %s", plural(len(c.content), "byte"), plural(countLines(c.content), "line"))
	switch {
	case !c.exists:
		return fmt.Sprintf("Created %s (%s).", c.rel, size), nil
	case !c.oldBinary && c.old == c.content:
		return fmt.Sprintf("Wrote %s (%s); the content was already the same.", c.rel, size), nil
	default:
		return fmt.Sprintf("Overwrote %s (%s).", c.rel, size), nil
	}
}

// writeAtomic replaces the file at abs with data: it writes a temporary
// file in the same directory, syncs it, gives it mode and renames it over
// abs, so readers see the old content or the new, never a mix.
func writeAtomic(abs string, data []byte, mode fs.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(abs), "."+filepath.Base(abs)+".tick-*.tmp")
	if err != nil {
		return fmt.Errorf("create temporary file: %w", err)
	}
	name := tmp.Name()
	fail := func(step string, err error) error {
		tmp.Close()
		os.Remove(name)
		return fmt.Errorf("%s %s: %w", step, name, err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fail("write", err)
	}
	if err := tmp.Chmod(mode); err != nil {
		return fail("set the mode of", err)
	}
	if err := tmp.Sync(); err != nil {
		return fail("sync", err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(name)
		return fmt.Errorf("close %s: %w", name, err)
	}
	if err := os.Rename(name, abs); err != nil {
		os.Remove(name)
		return fmt.Errorf("rename %s to %s: %w", name, abs, err)
	}
	return nil
}
