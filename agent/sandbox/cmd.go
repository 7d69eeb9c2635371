package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
)

// Cmd is a command from Runner.Command. Set it up and run it as an
// exec.Cmd (Stdin, Stdout, Stderr; Start and Wait, Run, Output,
// CombinedOutput, the pipes; Process and ProcessState once started and
// waited for), through Cmd's own methods: Start hands the command to the
// runner's spare helper when one of the command's kind is there (see
// spare.go), and otherwise starts the exec.Cmd it carries, which runs the
// same command in a helper of its own. Either way the process in Process
// is the command's helper, and its exit status is the command's.
type Cmd struct {
	*exec.Cmd

	r     *Runner   // nil: never a spare
	kind  spareKind // the spare it fits
	spare *spare    // the spare it runs in, once started in one

	closeAfterStart []io.Closer
	closeAfterWait  []io.Closer
	copies          []func() error // what carries the streams that are not files, once started in a spare
	copyErrs        chan error
}

// Start starts the command (see Cmd).
func (c *Cmd) Start() error {
	if c.Process != nil {
		return errors.New("sandbox: already started")
	}
	var err error
	defer c.r.prewarmAfter()
	if s := c.r.takeSpareFor(c); s != nil {
		if err = c.startIn(s); err == nil {
			c.closeAll(c.closeAfterStart)
			return nil
		}
		s.discard() // it never took the command: start one of its own
	}
	err = c.Cmd.Start()
	c.closeAll(c.closeAfterStart)
	if err != nil {
		c.closeAll(c.closeAfterWait)
	}
	return err
}

// takeSpareFor returns a spare helper for c, or nil (r may be nil).
func (r *Runner) takeSpareFor(c *Cmd) *spare {
	if r == nil || len(c.ExtraFiles) > 0 || len(c.Args) < 3 || c.Args[1] != HelperArg {
		return nil
	}
	return r.takeSpare(c.kind)
}

// startIn hands the command to spare s, with its standard streams: files
// as they are, other readers and writers through pipes copied once it
// runs (as exec.Cmd does).
func (c *Cmd) startIn(s *spare) error {
	var st streams
	defer st.closeTheirs()
	for i := range st.files {
		if err := st.add(c, i); err != nil {
			st.closeOurs()
			return err
		}
	}
	// The spare's own directory is the root: the directory goes as
	// exec.Cmd takes it, relative to ours.
	dir, err := filepath.Abs(c.Dir)
	if err != nil {
		st.closeOurs()
		return fmt.Errorf("start the command in %s: %w", c.Dir, err)
	}
	if err := hand(s.sock, newSpareRequest(c.Args[2:], c.Environ(), dir), st.files); err != nil {
		st.closeOurs()
		return err
	}
	c.spare = s
	c.Process = s.cmd.Process
	c.closeAfterWait = append(c.closeAfterWait, st.ours...)
	c.copies = st.copies
	c.copyErrs = make(chan error, len(st.copies))
	for _, cp := range st.copies {
		go func() { c.copyErrs <- cp() }()
	}
	return nil
}

// streams are the standard streams handed to a spare helper.
type streams struct {
	files  [3]*os.File    // stdin, stdout, stderr as the helper gets them
	theirs []*os.File     // what was opened for the helper: closed once handed
	ours   []io.Closer    // our ends of the pipes: closed after Wait
	copies []func() error // what carries the pipes once the command runs
}

// add sets stream i (0 stdin, 1 stdout, 2 stderr) from c: a file as it
// is, nothing as /dev/null, another reader or writer through a pipe
// (stderr shares stdout's when they are the same writer).
func (st *streams) add(c *Cmd, i int) error {
	if i == 2 && sameWriter(c.Stdout, c.Stderr) {
		st.files[2] = st.files[1]
		return nil
	}
	var r io.Reader
	var w io.Writer
	switch i {
	case 0:
		r = c.Stdin
	case 1:
		w = c.Stdout
	default:
		w = c.Stderr
	}
	if f, ok := r.(*os.File); ok && i == 0 {
		st.files[i] = f
		return nil
	}
	if f, ok := w.(*os.File); ok && i > 0 {
		st.files[i] = f
		return nil
	}
	if r == nil && w == nil {
		flag := os.O_WRONLY
		if i == 0 {
			flag = os.O_RDONLY
		}
		f, err := os.OpenFile(os.DevNull, flag, 0)
		if err != nil {
			return fmt.Errorf("start the command: %w", err)
		}
		st.files[i] = f
		st.theirs = append(st.theirs, f)
		return nil
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("start the command: %w", err)
	}
	if i == 0 {
		st.files[i], st.theirs, st.ours = pr, append(st.theirs, pr), append(st.ours, pw)
		st.copies = append(st.copies, func() error {
			_, err := io.Copy(pw, r)
			pw.Close()
			if errors.Is(err, os.ErrClosed) || errors.Is(err, syscall.EPIPE) {
				err = nil // the command did not read it all
			}
			return err
		})
		return nil
	}
	st.files[i], st.theirs, st.ours = pw, append(st.theirs, pw), append(st.ours, pr)
	st.copies = append(st.copies, func() error { _, err := io.Copy(w, pr); return err })
	return nil
}

// closeTheirs closes what was opened for the helper.
func (st *streams) closeTheirs() {
	for _, f := range st.theirs {
		f.Close()
	}
}

// closeOurs closes our ends of the pipes, when the helper never got them.
func (st *streams) closeOurs() {
	for _, f := range st.ours {
		f.Close()
	}
}

// sameWriter reports whether a and b are the same comparable writer.
func sameWriter(a, b io.Writer) (same bool) {
	defer func() { _ = recover() }() // not comparable: not the same
	return a != nil && a == b
}

// Wait waits for the command to end and for its streams to be copied, as
// exec.Cmd.Wait does.
func (c *Cmd) Wait() error {
	if c.spare == nil {
		err := c.Cmd.Wait()
		c.closeAll(c.closeAfterWait)
		return err
	}
	if c.ProcessState != nil {
		return errors.New("sandbox: Wait was already called")
	}
	err := c.spare.cmd.Wait()
	c.ProcessState = c.spare.cmd.ProcessState
	if aerr := answered(c.spare.sock); aerr != nil {
		err = aerr
	}
	c.spare.sock.Close()
	var copyErr error
	for range c.copies {
		if e := <-c.copyErrs; e != nil && copyErr == nil {
			copyErr = e
		}
	}
	c.closeAll(c.closeAfterWait)
	if err == nil {
		err = copyErr
	}
	return err
}

// prewarmAfter starts the next spare helper as a command starts, while
// it runs (r may be nil).
func (r *Runner) prewarmAfter() {
	if r != nil {
		r.prewarm()
	}
}

// Run starts the command and waits for it.
func (c *Cmd) Run() error {
	if err := c.Start(); err != nil {
		return err
	}
	return c.Wait()
}

// Output runs the command and returns its standard output; when Stderr
// was nil, a failing command's ExitError holds (the start and end of)
// what it wrote on its standard error, as exec.Cmd's does.
func (c *Cmd) Output() ([]byte, error) {
	if c.Stdout != nil {
		return nil, errors.New("sandbox: Stdout already set")
	}
	var out bytes.Buffer
	c.Stdout = &out
	var errOut *endsBuffer
	if c.Stderr == nil {
		errOut = &endsBuffer{n: outputStderrMax}
		c.Stderr = errOut
	}
	err := c.Run()
	var ee *exec.ExitError
	if errOut != nil && errors.As(err, &ee) {
		ee.Stderr = errOut.Bytes()
	}
	return out.Bytes(), err
}

// CombinedOutput runs the command and returns its standard output and
// standard error together.
func (c *Cmd) CombinedOutput() ([]byte, error) {
	if c.Stdout != nil || c.Stderr != nil {
		return nil, errors.New("sandbox: Stdout or Stderr already set")
	}
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	err := c.Run()
	return out.Bytes(), err
}

// StdoutPipe returns a pipe that carries the command's standard output;
// Wait closes it.
func (c *Cmd) StdoutPipe() (io.ReadCloser, error) { return c.outPipe(&c.Stdout, "Stdout") }

// StderrPipe returns a pipe that carries the command's standard error;
// Wait closes it.
func (c *Cmd) StderrPipe() (io.ReadCloser, error) { return c.outPipe(&c.Stderr, "Stderr") }

// outPipe makes the pipe of StdoutPipe and StderrPipe for the stream w,
// called name, refusing one already set or a command already started.
func (c *Cmd) outPipe(w *io.Writer, name string) (io.ReadCloser, error) {
	if *w != nil {
		return nil, fmt.Errorf("sandbox: %s already set", name)
	}
	if c.Process != nil {
		return nil, fmt.Errorf("sandbox: %sPipe after the command started", name)
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	*w = pw
	c.closeAfterStart = append(c.closeAfterStart, pw)
	c.closeAfterWait = append(c.closeAfterWait, pr)
	return pr, nil
}

// StdinPipe returns a pipe to the command's standard input; Wait closes
// it.
func (c *Cmd) StdinPipe() (io.WriteCloser, error) {
	if c.Stdin != nil {
		return nil, errors.New("sandbox: Stdin already set")
	}
	if c.Process != nil {
		return nil, errors.New("sandbox: StdinPipe after the command started")
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	c.Stdin = pr
	c.closeAfterStart = append(c.closeAfterStart, pr)
	c.closeAfterWait = append(c.closeAfterWait, pw)
	return pw, nil
}

// closeAll closes fs, ignoring errors (a pipe end the caller closed).
func (c *Cmd) closeAll(fs []io.Closer) {
	for _, f := range fs {
		_ = f.Close()
	}
}
