package markdown

// Source returns the message's Markdown as appended so far (line endings
// made LF), unrendered: what /copy and /export hand on.
func (r *Renderer) Source() string { return string(r.text) }
