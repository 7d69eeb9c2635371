// Package commands loads the user's custom slash commands: Markdown files
// NAME.md in a project's .tick/commands directory and in the user's
// $XDG_CONFIG_HOME/tick/commands directory each become /NAME.
//
// A file's text is the prompt sent to the model. Expand replaces
// $ARGUMENTS with what follows the command on the input line and $1 … $9
// with its words. Optional front matter between "---" lines may set
// "description:", shown in completion and /help. A project command shadows
// a user command of the same name; the caller drops names its built-in
// commands already use. Load reads only the two directories it is given.
//
// Command files are read through safefile: each must be a regular file
// (opened without blocking, so a named pipe cannot hang start-up) of at
// most 256 KiB, and a project's must resolve inside the project (the
// directory holding .tick), so a link to /dev/zero or to a file elsewhere
// is skipped with a warning that names it and says why.
package commands

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tick-agent/tick/agent/internal/safefile"
)

// maxFile bounds a command file; a larger one is skipped with a warning.
const maxFile = 256 << 10

// maxFiles bounds the entries of a commands directory; a directory with
// more is not read (a warning says so).
const maxFiles = 10_000

// Command is one custom command.
type Command struct {
	Name        string // without the slash, lower case
	Description string // from the front matter; may be empty
	Body        string // the prompt template
	Path        string // the file it came from
	Project     bool   // from the project's directory
}

// Load returns the commands of userDir and projectDir (either may be "" or
// missing), sorted by name, with project commands shadowing user ones, and
// warnings about files it skipped. projectDir is a project's
// .tick/commands; its files must resolve inside the project, the
// directory two levels up.
func Load(userDir, projectDir string) ([]Command, []string) {
	byName := map[string]Command{}
	var warnings []string
	for _, src := range []struct {
		dir     string
		project bool
	}{{userDir, false}, {projectDir, true}} {
		root := ""
		if src.project && src.dir != "" {
			root = filepath.Dir(filepath.Dir(src.dir))
		}
		cmds, warns := loadDir(src.dir, root, src.project)
		warnings = append(warnings, warns...)
		for _, c := range cmds {
			byName[c.Name] = c
		}
	}
	out := make([]Command, 0, len(byName))
	for _, c := range byName {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, warnings
}

// loadDir reads the *.md files of dir, which must resolve inside root
// ("" for anywhere); the directory is listed through safefile too.
func loadDir(dir, root string, project bool) ([]Command, []string) {
	if dir == "" {
		return nil, nil
	}
	entries, err := safefile.ReadDir(root, dir, maxFiles)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	var refused *safefile.Error
	if errors.As(err, &refused) {
		return nil, []string{err.Error()}
	}
	if err != nil {
		return nil, []string{fmt.Sprintf("read the commands in %s: %v", dir, err)}
	}
	var cmds []Command
	var warnings []string
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".md")
		if !ok || e.IsDir() {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if !validName(name) {
			warnings = append(warnings, fmt.Sprintf("%s: skipped: a command name has only letters, digits, - and _", path))
			continue
		}
		c, err := readCommand(root, path)
		if err != nil {
			warnings = append(warnings, err.Error())
			continue
		}
		c.Name, c.Project = strings.ToLower(name), project
		cmds = append(cmds, c)
	}
	return cmds, warnings
}

// readCommand reads one command file, which must resolve inside root.
func readCommand(root, path string) (Command, error) {
	b, err := safefile.Read(root, path, maxFile)
	var refused *safefile.Error
	if errors.As(err, &refused) {
		return Command{}, err
	}
	if err != nil {
		return Command{}, fmt.Errorf("read command %s: %w", path, err)
	}
	desc, body := frontMatter(strings.ReplaceAll(string(b), "\r\n", "\n"))
	if strings.TrimSpace(body) == "" {
		return Command{}, fmt.Errorf("%s: skipped: the command has no text", path)
	}
	return Command{Description: desc, Body: body, Path: path}, nil
}

// frontMatter splits optional front matter ("---" lines around "key:
// value" lines) from text and returns its description and the body.
func frontMatter(text string) (description, body string) {
	rest, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		return "", text
	}
	head, body, ok := strings.Cut(rest, "\n---")
	if !ok {
		return "", text
	}
	body = strings.TrimPrefix(strings.TrimPrefix(body, "\n"), "\r")
	if i := strings.IndexByte(body, '\n'); i >= 0 && strings.TrimSpace(body[:i]) == "" {
		body = body[i+1:]
	}
	for _, line := range strings.Split(head, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if ok && strings.TrimSpace(k) == "description" {
			description = strings.Trim(strings.TrimSpace(v), `"'`)
		}
	}
	return description, body
}

// validName reports whether name can be typed as /name.
func validName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// Expand returns the command's prompt for the text after the command:
// $ARGUMENTS becomes args (trimmed), $1 … $9 its whitespace-separated
// words (empty when missing). When the body uses neither and args is not
// empty, args is appended on a line of its own, so nothing typed is lost.
func (c Command) Expand(args string) string {
	args = strings.TrimSpace(args)
	words := strings.Fields(args)
	used := false
	var b strings.Builder
	body := c.Body
	for i := 0; i < len(body); i++ {
		if body[i] != '$' {
			b.WriteByte(body[i])
			continue
		}
		rest := body[i+1:]
		switch {
		case strings.HasPrefix(rest, "ARGUMENTS"):
			b.WriteString(args)
			i += len("ARGUMENTS")
			used = true
		case len(rest) > 0 && rest[0] >= '1' && rest[0] <= '9':
			if n := int(rest[0] - '1'); n < len(words) {
				b.WriteString(words[n])
			}
			i++
			used = true
		default:
			b.WriteByte('$')
		}
	}
	out := strings.TrimRight(b.String(), "\n")
	if !used && args != "" {
		out += "\n\n" + args
	}
	return out
}
