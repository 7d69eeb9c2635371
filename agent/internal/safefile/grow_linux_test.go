package safefile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestReadPrefixDoesNotTrustTheSize: a regular file whose size says less
// than it holds (a file growing while it is read; /proc's files say 0) is
// read to its end or to the limit, and cut says so: its size at open is
// never taken as its end.
func TestReadPrefixDoesNotTrustTheSize(t *testing.T) {
	st, err := os.Stat("/proc/self/status")
	if err != nil || !st.Mode().IsRegular() || st.Size() != 0 {
		t.Fatalf("/proc/self/status: %v, %v (size %d)", err, st.Mode(), st.Size())
	}
	b, cut, err := ReadPrefix("", "/proc/self/status", 1<<20)
	if err != nil || cut || !bytes.Contains(b, []byte("Pid:")) {
		t.Errorf("whole: %d bytes, cut %v, %v", len(b), cut, err)
	}
	b, cut, err = ReadPrefix("", "/proc/self/status", 10)
	if err != nil || !cut || len(b) != 10 {
		t.Errorf("capped: %d bytes, cut %v, %v; want 10 bytes, cut", len(b), cut, err)
	}
}

// TestReadPrefixOfAGrowingFile: while a writer appends to a file, what is
// read holds at least what the file held when the read began, and a read
// that stops at the limit says it was cut.
func TestReadPrefixOfAGrowingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log")
	start := bytes.Repeat([]byte("x"), 4096)
	if err := os.WriteFile(path, start, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		for range 256 {
			_, _ = f.Write(bytes.Repeat([]byte("y"), 4096))
		}
	}()
	const limit = 512<<10 + 100 // never the file's size, which grows by 4 KiB
	for range 20 {
		b, cut, err := ReadPrefix("", path, limit)
		if err != nil || len(b) < len(start) || len(b) == limit && !cut || len(b) > limit {
			t.Fatalf("%d bytes, cut %v, %v", len(b), cut, err)
		}
	}
	<-done
	b, cut, err := ReadPrefix("", path, limit)
	if err != nil || !cut || len(b) != limit {
		t.Errorf("after the growth: %d bytes, cut %v, %v; want %d, cut", len(b), cut, err, limit)
	}
}
