package tools

import "fmt"

// binarySample is how much of a command's output is looked at to tell
// binary from text (see looksBinary).
const binarySample = 8 << 10

// binaryNote is what the model gets instead of binary output of total
// bytes.
func binaryNote(total int64) string {
	return fmt.Sprintf("(binary output, %d bytes: not shown; redirect it to a file and look at it with od -c, xxd or file)\n", total)
}
