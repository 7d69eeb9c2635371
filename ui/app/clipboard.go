package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/tick-agent/tick/agent/session"
	"github.com/tick-agent/tick/ui"
)

// Caps of a clipboard image read.
const (
	clipMax     = 20 << 20 // bytes read from the clipboard tool
	clipTimeout = 3 * time.Second
)

// pngMagic starts every PNG file.
var pngMagic = []byte("\x89PNG\r\n\x1a\n")

// clipTool is one way to read a PNG from the system clipboard: list says
// whether an image is there (nil: get fails or prints nothing when there
// is none), get prints it.
type clipTool struct {
	name      string
	list, get []string
}

// clipTools are the clipboard tools tick knows, for this system and
// environment: wl-paste under Wayland, xclip under X11, pngpaste on macOS.
func clipTools(env func(string) string) []clipTool {
	var ts []clipTool
	if env("WAYLAND_DISPLAY") != "" {
		ts = append(ts, clipTool{"wl-paste", []string{"--list-types"}, []string{"--no-newline", "--type", "image/png"}})
	}
	if env("DISPLAY") != "" {
		ts = append(ts, clipTool{"xclip", []string{"-selection", "clipboard", "-t", "TARGETS", "-o"}, []string{"-selection", "clipboard", "-t", "image/png", "-o"}})
	}
	if runtime.GOOS == "darwin" {
		ts = append(ts, clipTool{"pngpaste", nil, []string{"-"}})
	}
	return ts
}

// clipboardImage returns the TUI's ClipboardImage: it asks the first
// clipboard tool on PATH for a PNG, saves it in dir (created 0700, the
// file 0600) and returns its path; "" and no error when the clipboard
// holds no image; an error wrapping ui.ErrNoClipboardTool, naming the tool
// to install, when none is there. It runs the tool without a shell, with
// a timeout, and reads at most 20 MiB.
func clipboardImage(dir string, env func(string) string) func() (string, error) {
	return func() (string, error) {
		tools := clipTools(env)
		if len(tools) == 0 {
			return "", fmt.Errorf("%w: no display to read a clipboard from (use the terminal's own paste, e.g. ctrl+shift+v)", ui.ErrNoClipboardTool)
		}
		var names []string
		for _, t := range tools {
			names = append(names, t.name)
			bin, err := exec.LookPath(t.name)
			if err != nil {
				continue
			}
			data, err := t.image(bin)
			if err != nil || data == nil {
				return "", err
			}
			return savePasted(dir, data)
		}
		return "", fmt.Errorf("%w: install %s (not found on PATH), or paste with the terminal's own paste (ctrl+shift+v)", ui.ErrNoClipboardTool, clipInstall(names))
	}
}

// clipInstall says which packages bring the clipboard tools names.
func clipInstall(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n
		if n == "wl-paste" {
			out[i] = "wl-clipboard (wl-paste)"
		}
	}
	return strings.Join(out, " or ")
}

// image reads the clipboard's PNG with the tool at bin; nil when there is
// none.
func (t clipTool) image(bin string) ([]byte, error) {
	if t.list != nil {
		types, err := runClip(bin, t.list)
		if err != nil || !bytes.Contains(types, []byte("image/png")) {
			return nil, nil // no image (or no clipboard): paste text instead
		}
	}
	data, err := runClip(bin, t.get)
	if err != nil {
		if t.list == nil {
			return nil, nil // pngpaste fails when there is no image
		}
		return nil, fmt.Errorf("read the clipboard with %s: %w", t.name, err)
	}
	if !bytes.HasPrefix(data, pngMagic) {
		return nil, nil
	}
	return data, nil
}

// runClip runs a clipboard tool and returns its output, capped.
func runClip(bin string, args []string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), clipTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var out capped
	out.max = clipMax
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		return nil, err
	}
	if out.over {
		return nil, fmt.Errorf("the image is larger than %d MiB", clipMax>>20)
	}
	return out.buf.Bytes(), nil
}

// capped keeps at most max bytes and notes that more came.
type capped struct {
	buf  bytes.Buffer
	max  int
	over bool
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room < len(p) {
		c.over = true
		p = p[:max(room, 0)]
	}
	c.buf.Write(p)
	return len(p), nil
}

// savePasted writes a pasted image into dir under a new name.
func savePasted(dir string, data []byte) (string, error) {
	if dir == "" {
		return "", errors.New("no state directory to keep the image in")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("save the pasted image: %w", err)
	}
	name := filepath.Join(dir, "clip-"+strings.ReplaceAll(time.Now().UTC().Format("20060102-150405.000000000"), ".", "-")+".png")
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", fmt.Errorf("save the pasted image: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return "", fmt.Errorf("save the pasted image %s: %w", name, err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("save the pasted image %s: %w", name, err)
	}
	return name, nil
}

// pastedImagesDir is where the app keeps images pasted from the
// clipboard: beside the sessions directory; "" when there is no state
// directory.
func pastedImagesDir(env func(string) string) string {
	dir, err := session.DefaultDir(env)
	if err != nil {
		return ""
	}
	return filepath.Join(filepath.Dir(dir), "pasted")
}
