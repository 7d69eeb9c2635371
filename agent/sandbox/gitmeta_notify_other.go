//go:build !linux

package sandbox

// dirNotify is the kernel's word on which directories changed; outside
// Linux there is none and GitMeta stats every directory.
type dirNotify struct{}

func newDirNotify(*GitMeta, int) *dirNotify          { return nil }
func (*dirNotify) add(string, string) bool           { return false }
func (*dirNotify) remove(string)                     {}
func (*dirNotify) drain() ([]string, []string, bool) { return nil, nil, false }
func (*dirNotify) close()                            {}
