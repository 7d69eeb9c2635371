package tools

import (
	"bytes"
	"fmt"
)

// binarySample is how much of a command's output is looked at to tell
// binary from text (see looksBinary).
const binarySample = 8 << 10

// binaryOutput reports whether a command's output is binary: its start
// holds a NUL byte, or it is at least 64 bytes and looksBinary. (A few
// stray bytes in a short text stay text, sanitised.)
func binaryOutput(s string) bool {
	sample := []byte(s[:min(len(s), binarySample)])
	return bytes.IndexByte(sample, 0) >= 0 || len(sample) >= 64 && looksBinary(sample)
}

// binaryNote is what the model gets instead of binary output of total
// bytes.
func binaryNote(total int64) string {
	return fmt.Sprintf("(binary output, %d bytes: not shown; redirect it to a file and look at it with od -c, xxd or file)\n", total)
}
