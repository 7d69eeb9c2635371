package mention

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/tick-agent/tick/agent/internal/imagefile"
	"github.com/tick-agent/tick/agent/internal/safefile"
	"github.com/tick-agent/tick/provider"
)

// Caps on what a prompt's mentions attach.
const (
	MaxFileBytes  = 64 << 10  // of one file
	MaxTotalBytes = 256 << 10 // of all attachments of a prompt
	MaxListing    = 200       // entries of a directory listing
	MaxMentions   = 20        // mentions attached per prompt
	MaxImages     = 5         // images attached per prompt
)

// mentionRE finds @path tokens: at the start or after a space, up to the
// next space.
var mentionRE = regexp.MustCompile(`(?:^|\s)@([^\s@]+)`)

// Resolver turns a mentioned path into a real path inside the workspace,
// refusing one outside it (the tools' Workspace.Resolve).
type Resolver func(path string) (string, error)

// Attached is one mention that was attached.
type Attached struct {
	Path string // as written
	Dir  bool
	Cut  bool // capped
	// Image is set for an image file (PNG, JPEG, GIF, WebP, recognised by
	// content): it goes with the prompt as an image, scaled down over the
	// caps of package imagefile; the prompt's text only names it.
	Image *provider.Image
	// Refused says why an image file was not attached (its Image is nil):
	// too large, damaged or crafted, or its decoding abandoned.
	Refused string
}

// Expand returns prompt with the content of every mentioned file (or the
// listing of every mentioned directory) appended, in the order mentioned,
// and what it attached. Mentions that name nothing, or something outside
// the workspace, are left as they are. An image whose decoding is still
// running when ctx ends is abandoned and named as not attached.
func Expand(ctx context.Context, prompt string, resolve Resolver) (string, []Attached) {
	var b strings.Builder
	var out []Attached
	seen := map[string]bool{}
	left, images := MaxTotalBytes, 0
	for _, m := range mentionRE.FindAllStringSubmatch(prompt, -1) {
		p := strings.TrimRight(m[1], ".,;:!?)]}'\"")
		if seen[p] || len(out) >= MaxMentions || left <= 0 {
			continue
		}
		seen[p] = true
		real, err := resolve(p)
		if err != nil {
			continue
		}
		st, err := os.Stat(real)
		if err != nil {
			continue
		}
		if st.Mode().IsRegular() && images < MaxImages {
			if img, note, refused, ok := readImage(ctx, real, p); ok {
				fmt.Fprintf(&b, "\n\n<image path=%q>%s</image>", p, note)
				out = append(out, Attached{Path: p, Image: img, Refused: refused})
				if img != nil {
					images++
				}
				continue
			}
		}
		var body string
		var cut bool
		if st.IsDir() {
			body, cut = listing(real)
		} else if st.Mode().IsRegular() {
			if body, cut, err = readFile(real, min(MaxFileBytes, left)); err != nil {
				continue
			}
		} else {
			continue
		}
		left -= len(body)
		kind := "file"
		if st.IsDir() {
			kind = "directory"
		}
		fmt.Fprintf(&b, "\n\n<%s path=%q>\n%s", kind, p, body)
		if !strings.HasSuffix(body, "\n") {
			b.WriteByte('\n')
		}
		if cut {
			fmt.Fprintf(&b, "[cut here: %s is longer; use read_file for the rest]\n", p)
		}
		fmt.Fprintf(&b, "</%s>", kind)
		out = append(out, Attached{Path: p, Dir: st.IsDir(), Cut: cut})
	}
	if len(out) == 0 {
		return prompt, nil
	}
	return prompt + "\n\nAttached by the user's @ mentions:" + b.String(), out
}

// readImage reads path as an image when its first bytes say it is one
// (ok); img is nil when it cannot be sent (refused says why), and note
// says what the prompt's text says of it.
func readImage(ctx context.Context, path, name string) (img *provider.Image, note, refused string, ok bool) {
	head, _, err := safefile.ReadPrefix("", path, 512)
	if err != nil || imagefile.MediaType(head) == "" {
		return nil, "", "", false
	}
	data, cut, err := safefile.ReadPrefix("", path, imagefile.MaxFile)
	if err == nil && cut {
		err = fmt.Errorf("larger than %d MiB", imagefile.MaxFile>>20)
	}
	if err == nil {
		var im provider.Image
		var desc string
		if im, desc, err = imagefile.Prepare(ctx, name, data); err == nil {
			return &im, desc + ", attached as an image", "", true
		}
	}
	return nil, fmt.Sprintf("(an image tick could not attach: %v)", err), err.Error(), true
}

// readFile reads at most limit bytes of a text file (path is resolved
// already: opened through safefile, a regular file without blocking);
// binary files are refused.
func readFile(path string, limit int) (string, bool, error) {
	buf, cut, err := safefile.ReadPrefix("", path, int64(limit))
	if err != nil {
		return "", false, err
	}
	if cut {
		for i := 0; i < utf8.UTFMax-1 && len(buf) > 0 && !utf8.Valid(buf); i++ {
			buf = buf[:len(buf)-1] // a rune cut in two
		}
	}
	if strings.IndexByte(string(buf), 0) >= 0 || !utf8.Valid(buf) {
		return "(a binary file: not attached)", false, nil
	}
	return string(buf), cut, nil
}

// listing lists a directory, directories with a trailing slash.
func listing(dir string) (string, bool) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "(cannot list: " + err.Error() + ")", false
	}
	var names []string
	for _, e := range entries {
		if skipDir(e.Name()) {
			continue
		}
		n := e.Name()
		if e.IsDir() {
			n += "/"
		}
		names = append(names, n)
	}
	sort.Strings(names)
	cut := len(names) > MaxListing
	if cut {
		names = names[:MaxListing]
	}
	return strings.Join(names, "\n"), cut
}
