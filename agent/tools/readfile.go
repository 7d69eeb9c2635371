package tools

import (
	"github.com/tick-agent/tick/agent/humanize"

	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/tick-agent/tick/agent/internal/imagefile"
	"github.com/tick-agent/tick/agent/internal/safefile"
	"github.com/tick-agent/tick/provider"
)

//go:embed read_file.md
var readFileDescription string

const readFileExpected = `{"path": "...", "offset": 1, "limit": 2000}`

const readFileSchema = `{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "The file to read, relative to the workspace (or absolute inside it)."},
    "offset": {"type": "integer", "description": "The first line to show, counting from 1. Default 1."},
    "limit": {"type": "integer", "description": "How many lines to show. Default 2000."}
  },
  "required": ["path"],
  "additionalProperties": false
}`

// Limits of read_file.
const (
	readDefaultLimit = 2000    // lines shown when the model names no limit
	readMaxLineBytes = 2000    // longer lines are cut
	readMaxBytes     = 100_000 // total output, about 25k tokens
	binarySniff      = 8192    // bytes examined to tell binary from text
	readCountLimit   = 64 << 20
)

// ReadFile is the read_file tool: it shows a text file's lines with line
// numbers, like `cat -n`, from an offset and up to a limit.
type ReadFile struct {
	ws *Workspace
}

// NewReadFile returns the read_file tool for ws.
func NewReadFile(ws *Workspace) *ReadFile { return &ReadFile{ws: ws} }

// Spec describes the tool to the model.
func (r *ReadFile) Spec() provider.ToolSpec {
	return provider.ToolSpec{Name: "read_file", Description: readFileDescription, Parameters: json.RawMessage(readFileSchema)}
}

// Run reads the file. Lines are numbered from 1 ("     1\tpackage main");
// lines longer than 2000 bytes are cut with a marker; at most limit lines
// (default 2000) and about 100 kB are shown, and the result ends by saying
// how many lines remain and which offset reads on. Directories, binary
// files, missing files and paths outside the workspace are errors.
func (r *ReadFile) Run(ctx context.Context, raw json.RawMessage) (string, error) {
	a, err := parseArgs("read_file", readFileExpected, raw)
	if err != nil {
		return "", err
	}
	path, err := a.path()
	if err != nil {
		return "", err
	}
	offset, err := a.integer("offset")
	if err != nil {
		return "", err
	}
	limit, err := a.integer("limit")
	if err != nil {
		return "", err
	}
	if offset < 0 {
		return "", a.errorf(nil, `"offset" must be a line number from 1, not %d`, offset)
	}
	if limit < 0 {
		return "", a.errorf(nil, `"limit" must be a positive number of lines, not %d`, limit)
	}
	offset = max(offset, 1)
	if limit == 0 {
		limit = readDefaultLimit
	}

	f, err := openFile(r.ws, path, "read file", "check the path (e.g. with bash: ls)")
	if err != nil {
		return "", err
	}
	defer f.Close()
	if imagefile.MediaType(f.head) != "" {
		return readImage(ctx, r.ws, path, f)
	}
	size, err := f.asText()
	if err != nil {
		return "", err
	}
	if size == 0 {
		return "(empty file)", nil
	}

	br := bufio.NewReaderSize(f.File, 64<<10)
	var out strings.Builder
	lineNo, shown, pending := 0, 0, 0
	var consumed int64
	for {
		if err := ctx.Err(); err != nil {
			return "", fmt.Errorf("read file %q: %w", path, err)
		}
		line, n, err := readLine(br, readMaxLineBytes)
		if n == 0 && err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return "", fmt.Errorf("read file %q: %w", path, err)
		}
		lineNo++
		consumed += int64(n)
		if lineNo < offset {
			continue
		}
		text := strings.TrimSuffix(strings.TrimSuffix(string(line), "\n"), "\r")
		text = strings.ToValidUTF8(text, "\uFFFD")
		full := n // the line's length without its newline
		if err == nil {
			full--
		}
		if full > readMaxLineBytes {
			text = strings.TrimRight(text, "\r\n") + fmt.Sprintf(" … [line truncated: %d bytes]", full)
		}
		entry := fmt.Sprintf("%6d\t%s\n", lineNo, text)
		if out.Len()+len(entry) > readMaxBytes && shown > 0 {
			lineNo--
			pending = 1
			break
		}
		out.WriteString(entry)
		shown++
		if shown == limit {
			break
		}
	}
	if shown == 0 {
		return "", fmt.Errorf("read file %q: offset %d is past the end of the file (%s)", path, offset, plural(lineNo, "line"))
	}
	// Count what remains after the last line shown.
	if size-consumed > readCountLimit {
		fmt.Fprintf(&out, "... more lines remain (the file is %s); use offset=%d to read on", humanize.Size(size), lineNo+1)
		return out.String(), nil
	}
	more, err := countRemaining(br, pending)
	if err != nil {
		return "", fmt.Errorf("read file %q: %w", path, err)
	}
	if more > 0 {
		word := "lines"
		if more == 1 {
			word = "line"
		}
		fmt.Fprintf(&out, "... %d more %s; use offset=%d to read on", more, word, lineNo+1)
	}
	return strings.TrimSuffix(out.String(), "\n"), nil
}

// countRemaining counts the lines left in br; pending is a line already
// read but not shown (1) or none (0).
func countRemaining(br *bufio.Reader, pending int) (int, error) {
	n := pending
	for {
		_, k, err := readLine(br, 0)
		if k > 0 {
			n++
		}
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// readLine reads one line with its newline, keeping at most keep bytes of
// it (cut at a rune boundary); n is the line's full length in bytes. err is
// io.EOF after the last line.
func readLine(br *bufio.Reader, keep int) (line []byte, n int, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		n += len(chunk)
		if room := keep - len(line); room > 0 {
			line = append(line, chunk[:min(room, len(chunk))]...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if n > keep {
			line = trimToRune(line)
		}
		return line, n, err
	}
}

// trimToRune drops an incomplete rune from the end of b.
func trimToRune(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			return b
		}
	}
	return b
}

// openText opens the file at path in ws for reading as text, refusing
// paths outside the workspace, missing files, directories, special files
// and binary files with errors that say what to do instead. It returns the
// file positioned at its start and its size. action names the operation in
// errors, e.g. "read file"; missingHint says what to do about a missing
// file.
func openText(ws *Workspace, path, action, missingHint string) (*os.File, int64, error) {
	f, err := openFile(ws, path, action, missingHint)
	if err != nil {
		return nil, 0, err
	}
	size, err := f.asText()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f.File, size, nil
}

// sniffedFile is a workspace file opened once, with its first bytes read
// (head): enough to tell an image, binary data or text.
type sniffedFile struct {
	*os.File
	fi           fs.FileInfo
	head         []byte
	path, action string // for errors: as the model named it, the operation
	abs          string
}

// openFile opens the file at path in ws and reads its first binarySniff
// bytes, refusing paths outside the workspace, missing files, directories
// and special files with errors that say what to do instead (see
// openText). The caller closes it.
func openFile(ws *Workspace, path, action, missingHint string) (*sniffedFile, error) {
	abs, err := ws.Resolve(path)
	if err != nil {
		return nil, fmt.Errorf("%s %q: %w", action, path, err)
	}
	fi, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s %q: no such file in the workspace %s; %s: %w", action, path, ws.Root(), missingHint, err)
	}
	if err != nil {
		return nil, fmt.Errorf("%s %q: %w", action, path, err)
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s %q: it is a directory, not a file; list it with bash (ls %s)", action, path, ShellQuote(ws.Rel(abs)))
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s %q: not a regular file (%s)", action, path, fi.Mode().Type())
	}
	f, fi, err := safefile.Open("", abs) // without blocking, should a pipe have replaced it
	if err != nil {
		return nil, fmt.Errorf("%s %q: %w", action, path, err)
	}
	sample := make([]byte, binarySniff)
	k, err := io.ReadFull(f, sample)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		f.Close()
		return nil, fmt.Errorf("%s %q: %w", action, path, err)
	}
	return &sniffedFile{File: f, fi: fi, head: sample[:k], path: path, action: action, abs: abs}, nil
}

// asText refuses a binary file and otherwise puts f back at its start;
// it returns the file's size.
func (f *sniffedFile) asText() (int64, error) {
	if looksBinary(f.head) {
		return 0, fmt.Errorf("%s %q: it is a binary file (%s), and only text can be read; inspect it with bash (e.g. file, xxd | head)", f.action, f.path, humanize.Size(f.fi.Size()))
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return 0, fmt.Errorf("%s %q: %w", f.action, f.path, err)
	}
	return f.fi.Size(), nil
}

// ShellQuote returns s as one word for a POSIX shell: as it is when it
// has only letters, digits and -_./+,:@, else in single quotes.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+,:@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
