package input

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// imageExts are the file name endings a pasted path is taken as an image
// by (the agent checks the content when it attaches it).
var imageExts = map[string]bool{".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".webp": true}

// ImagePaste turns a pasted path of an image file inside the workspace
// (what a terminal pastes for a dropped file: plain, quoted, with
// backslash-escaped spaces, or a file:// URL) into an @ mention of it, so
// the prompt attaches the image; anything else comes back unchanged. A
// path with spaces cannot be a mention and stays as it is.
func ImagePaste(s, workspace string) string {
	p := strings.TrimSpace(s)
	if p == "" || strings.ContainsAny(p, "\n\r") || workspace == "" {
		return s
	}
	if u, err := url.Parse(p); err == nil && u.Scheme == "file" {
		p = u.Path
	}
	if len(p) >= 2 && (p[0] == '\'' || p[0] == '"') && p[len(p)-1] == p[0] {
		p = p[1 : len(p)-1]
	}
	p = strings.ReplaceAll(p, `\ `, " ")
	if !imageExts[strings.ToLower(filepath.Ext(p))] || strings.ContainsAny(p, " \t@") {
		return s
	}
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(workspace, abs)
	}
	rel, err := filepath.Rel(workspace, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return s
	}
	if st, err := os.Stat(abs); err != nil || !st.Mode().IsRegular() {
		return s
	}
	return "@" + filepath.ToSlash(rel) + " "
}
