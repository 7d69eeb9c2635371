package checkpoint

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func write(t testing.TB, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, dir, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		return "<missing>"
	}
	return string(b)
}

// save makes a checkpoint of s labelled label, failing t if it cannot.
func save(t *testing.T, s *Store, label string) Checkpoint {
	t.Helper()
	cp, err := s.Save(context.Background(), label)
	if err != nil {
		t.Fatal(err)
	}
	return cp
}

func open(t testing.TB) (*Store, string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("git is needed by this test: %v", err)
	}
	ws := t.TempDir()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "shadow"), ws)
	if err != nil {
		t.Fatal(err)
	}
	return s, ws
}

func TestSaveChangesRestore(t *testing.T) {
	ctx := context.Background()
	s, ws := open(t)
	write(t, ws, "keep.txt", "keep\n")
	write(t, ws, "edit.txt", "before\n")
	write(t, ws, "gone.txt", "will be deleted\n")
	write(t, ws, ".gitignore", "ignored.log\n")
	write(t, ws, "ignored.log", "old log\n")
	write(t, ws, "dir with space/[x]*.go", "weird name\n")
	// The project's own repository is left alone.
	write(t, ws, ".git/HEAD", "ref: refs/heads/main\n")
	big := strings.Repeat("x", MaxFileSize+1)
	write(t, ws, "big.bin", big)

	cp := save(t, s, "before #1")
	if len(cp.Skipped) != 1 || cp.Skipped[0].Path != "big.bin" || !strings.Contains(cp.Skipped[0].Why, "over the 5 MB cap") {
		t.Errorf("skipped = %v, want big.bin", cp.Skipped)
	}
	write(t, ws, "edit.txt", "after\n")
	os.Remove(filepath.Join(ws, "gone.txt"))
	write(t, ws, "new/created.txt", "new\n")
	write(t, ws, "ignored.log", "new log\n")
	write(t, ws, "dir with space/[x]*.go", "changed weird\n")
	write(t, ws, ".git/HEAD", "ref: refs/heads/other\n")

	cs, err := s.Changes(ctx, cp.ID)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cs {
		got = append(got, string(c.Kind)+" "+c.Path)
	}
	want := "changed dir with space/[x]*.go|changed edit.txt|deleted gone.txt|created new/created.txt"
	if strings.Join(got, "|") != want {
		t.Fatalf("changes = %q, want %q", strings.Join(got, "|"), want)
	}
	if _, err := s.Restore(ctx, cp.ID); err != nil {
		t.Fatal(err)
	}
	for rel, want := range map[string]string{
		"edit.txt": "before\n", "gone.txt": "will be deleted\n", "new/created.txt": "<missing>",
		"keep.txt": "keep\n", "ignored.log": "new log\n", "dir with space/[x]*.go": "weird name\n",
		".git/HEAD": "ref: refs/heads/other\n", "big.bin": big,
	} {
		if got := read(t, ws, rel); got != want {
			t.Errorf("%s after restore = %.40q, want %.40q", rel, got, want)
		}
	}
	if cs, _ := s.Changes(ctx, cp.ID); len(cs) != 0 {
		t.Errorf("changes after restore: %v", cs)
	}
}

func TestOpenAgain(t *testing.T) {
	ctx := context.Background()
	s, ws := open(t)
	write(t, ws, "a", "1")
	cp := save(t, s, "one")
	s2, err := Open(ctx, s.dir, ws)
	if err != nil {
		t.Fatal(err)
	}
	write(t, ws, "a", "2")
	if cs, err := s2.Changes(ctx, cp.ID); err != nil || len(cs) != 1 {
		t.Fatalf("changes from a reopened store: %v %v", cs, err)
	}
}

// Opening a store runs no git: the repository is made by the first
// operation, so tick can open it before its first frame.
func TestOpenDefersCreation(t *testing.T) {
	ctx := context.Background()
	s, ws := open(t)
	if _, err := os.Stat(filepath.Join(s.dir, "HEAD")); !os.IsNotExist(err) {
		t.Fatalf("Open made the repository (stat HEAD: %v); it should wait for the first operation", err)
	}
	write(t, ws, "a", "1")
	if _, err := s.Save(ctx, "first"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(s.dir, "HEAD")); err != nil {
		t.Fatalf("the first Save did not make the repository: %v", err)
	}
}

// TestTwoStoresTakeTurns opens one repository twice, as two ticks in one
// workspace do: while one store runs an operation the other waits for it
// (and gives up when its context ends) and leaves its index.lock alone;
// an index.lock nobody holds (a snapshot killed midway) is cleared.
func TestTwoStoresTakeTurns(t *testing.T) {
	ctx := context.Background()
	a, ws := open(t)
	write(t, ws, "f", "1")
	if _, err := a.Save(ctx, "first"); err != nil {
		t.Fatal(err)
	}
	b, err := Open(ctx, a.dir, ws)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.lock(ctx); err != nil { // a is in the middle of a snapshot
		t.Fatal(err)
	}
	index := filepath.Join(a.dir, "index.lock")
	write(t, a.dir, "index.lock", "") // as git holds it meanwhile
	short, cancel := context.WithTimeout(ctx, 5*lockPoll)
	defer cancel()
	if _, err := b.Save(short, "second"); err == nil || !strings.Contains(err.Error(), "another tick") {
		t.Fatalf("Save while another store runs one: %v; want it to wait, then fail naming the other tick", err)
	}
	if _, err := os.Stat(index); err != nil {
		t.Fatalf("the other store removed a live index.lock: %v", err)
	}
	a.unlock() // killed midway: its index.lock stays behind
	if _, err := b.Save(ctx, "second"); err != nil {
		t.Fatalf("Save after the other store finished, with its stale index.lock: %v", err)
	}
	done := make(chan error, 1)
	if err := a.lock(ctx); err != nil {
		t.Fatal(err)
	}
	go func() { _, err := b.Save(ctx, "third"); done <- err }()
	a.unlock()
	if err := <-done; err != nil {
		t.Fatalf("Save waiting for the other store: %v", err)
	}
}

// BenchmarkSave10k measures checkpoints of a workspace of 10,000 small
// files: the first one hashes everything, later ones only stat.
func BenchmarkSave10k(b *testing.B) { benchSave(b, 10000, "pkg%03d", false) }

// benchSave measures checkpoints of a workspace of n small files, in
// directories of 100 named by dirFmt: "first" a fresh store's snapshot,
// which hashes everything, "incremental" a later one after one file
// changed, which only stats. With repo the workspace is a git repository
// with its files committed.
func benchSave(b *testing.B, n int, dirFmt string, repo bool) {
	ctx := context.Background()
	s, ws := open(b)
	for i := 0; i < n; i++ {
		write(b, ws, fmt.Sprintf(dirFmt+"/file%d.go", i/100, i), fmt.Sprintf("package p%d\n// %s\n", i, strings.Repeat("x", 200)))
	}
	if repo {
		userRepo(b, ws)
	}
	b.Run("first", func(b *testing.B) {
		cpu0 := childCPU(b)
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			os.RemoveAll(s.dir)
			s2, err := Open(ctx, s.dir, ws)
			if err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			if _, err := s2.Save(ctx, "first"); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(childCPU(b)-cpu0)/float64(time.Millisecond)/float64(b.N), "git-cpu-ms/op")
	})
	b.Run("incremental", func(b *testing.B) {
		cpu0, self0 := childCPU(b), selfCPU(b)
		for i := 0; i < b.N; i++ {
			write(b, ws, fmt.Sprintf(dirFmt+"/file0.go", 0), fmt.Sprintf("package p0 // %d\n", i))
			if _, err := s.Save(ctx, "next"); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(childCPU(b)-cpu0)/float64(time.Millisecond)/float64(b.N), "git-cpu-ms/op")
		b.ReportMetric(float64(selfCPU(b)-self0)/float64(time.Millisecond)/float64(b.N), "tick-cpu-ms/op")
	})
}

// childCPU is the user and system time the process's finished children
// (git) have used: on a loaded machine a steadier measure than wall time.
func childCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// selfCPU is the user and system time the process has used (the quick
// pass's stat walk runs in it, not in git), less steady than childCPU's
// figure: it includes the benchmark's own writes.
func selfCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// userRepo makes ws a git repository with its files committed, as the
// user's git would (outside the shadow repository), with no automatic gc:
// one detached after the commit would run during the benchmark and race
// the removal of the temporary directory.
func userRepo(t testing.TB, ws string) {
	t.Helper()
	for _, args := range [][]string{{"init", "-q"}, {"-c", "gc.auto=0", "add", "-A"}, {"-c", "gc.auto=0", "commit", "-qm", "user's commit"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = ws
		cmd.Env = append(gitlessEnv(), "GIT_AUTHOR_NAME=u", "GIT_AUTHOR_EMAIL=u@x", "GIT_COMMITTER_NAME=u", "GIT_COMMITTER_EMAIL=u@x",
			"GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
}

// TestRestoreRemovesEmptiedDirs checks that undoing the creation of files
// in new directories removes those directories, and keeps a directory
// that still holds something: a file of the checkpoint, or an ignored
// file.
func TestRestoreRemovesEmptiedDirs(t *testing.T) {
	ctx := context.Background()
	s, ws := open(t)
	write(t, ws, "keep/old.txt", "old\n")
	write(t, ws, ".gitignore", "*.log\n")
	cp := save(t, s, "before")
	write(t, ws, "new/deep/er/file.go", "package er\n")
	write(t, ws, "keep/added.txt", "added\n")
	write(t, ws, "logs/run/new.txt", "new\n")
	write(t, ws, "logs/run/out.log", "ignored, kept\n")
	if _, err := s.Restore(ctx, cp.ID); err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{"new", "keep/added.txt", "logs/run/new.txt"} {
		if _, err := os.Lstat(filepath.Join(ws, gone)); !os.IsNotExist(err) {
			t.Errorf("%s is still there after the undo (%v)", gone, err)
		}
	}
	for _, kept := range []string{"keep/old.txt", "logs/run/out.log"} {
		if _, err := os.Stat(filepath.Join(ws, kept)); err != nil {
			t.Errorf("%s was removed: %v", kept, err)
		}
	}
	if _, err := os.Stat(ws); err != nil {
		t.Fatalf("the workspace is gone: %v", err)
	}
}
