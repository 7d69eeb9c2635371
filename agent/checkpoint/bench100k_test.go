package checkpoint

import "testing"

// BenchmarkSave100k measures checkpoints of a workspace of 100,000 small
// files, as BenchmarkSave10k does at 10,000: the first snapshot hashes
// everything, an incremental one only stats. It is the cost of the undo
// point tick makes at every user message (taken off the input path).
func BenchmarkSave100k(b *testing.B) { benchSave(b, 100000, "pkg%04d", false) }

// BenchmarkSave100kGit is BenchmarkSave100k in a git workspace whose
// files are committed (the user's HEAD), as most workspaces are: the
// first snapshot borrows the user's objects and index.
func BenchmarkSave100kGit(b *testing.B) { benchSave(b, 100000, "pkg%04d", true) }

// BenchmarkSave20kGit is BenchmarkSave100kGit at 20,000 files, a quicker
// measure of the same (run it where the 100k one takes too long).
func BenchmarkSave20kGit(b *testing.B) { benchSave(b, 20000, "pkg%03d", true) }
