package checkpoint

import "testing"

// BenchmarkSave100k measures checkpoints of a workspace of 100,000 small
// files, as BenchmarkSave10k does at 10,000: the first snapshot hashes
// everything, an incremental one only stats. It is the cost of the undo
// point tick makes at every user message (taken off the input path).
func BenchmarkSave100k(b *testing.B) { benchSave(b, 100000, "pkg%04d") }
