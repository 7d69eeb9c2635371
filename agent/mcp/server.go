package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// server is one MCP server's connection and state.
type server struct {
	cfg     Server
	opts    Options
	notify  func()
	settled chan struct{} // closed when the server leaves Starting
	prefix  string        // "mcp__NAME__", sanitised
	stderr  *tailBuffer

	mu        sync.Mutex
	state     State
	err       string
	session   *sdk.ClientSession
	pid       int // a started stdio server's process (and group) id
	tools     []*tool
	skipped   []string
	skipNotes []string // skipped tools not yet reported to the model's turn
	stopped   bool
}

// newServer returns a server for cfg; taken holds the tool-name prefixes of
// the servers made before, so two servers never share one.
func newServer(cfg Server, opts Options, notify func(), taken map[string]bool) *server {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultCallTimeout
	}
	short := sanitize(cfg.Name)
	if len(short) > serverNameMax {
		short = short[:serverNameMax]
	}
	prefix := "mcp__" + short + "__"
	for i := 2; taken[prefix]; i++ {
		prefix = fmt.Sprintf("mcp__%s%d__", short, i)
	}
	taken[prefix] = true
	return &server{cfg: cfg, opts: opts, notify: notify, settled: make(chan struct{}), prefix: prefix, stderr: newTailBuffer(stderrMax)}
}

// run connects, lists the tools and watches the connection until it ends.
func (s *server) run(ctx context.Context) {
	session, err := s.connect(ctx)
	if err != nil {
		s.fail(err)
		return
	}
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		session.Close()
		return
	}
	s.session = session
	s.state = Ready
	s.mu.Unlock()
	close(s.settled)
	s.notify()
	err = session.Wait()
	s.mu.Lock()
	if !s.stopped {
		s.state = Failed
		s.err = "the server closed the connection"
		if err != nil {
			s.err += ": " + err.Error()
		}
	}
	s.mu.Unlock()
	s.notify()
}

// connect starts the transport, initialises the session and lists tools.
func (s *server) connect(ctx context.Context) (*sdk.ClientSession, error) {
	cctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	t, err := s.transport(ctx)
	if err != nil {
		return nil, err
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "tick", Version: s.opts.Version}, &sdk.ClientOptions{
		Capabilities: &sdk.ClientCapabilities{},
		ToolListChangedHandler: func(_ context.Context, req *sdk.ToolListChangedRequest) {
			go s.refresh(ctx, req.Session) // not on the connection's own goroutine
		},
	})
	session, err := client.Connect(cctx, t, nil)
	if err != nil {
		s.killGroup()
		if errors.Is(cctx.Err(), context.DeadlineExceeded) {
			return nil, fmt.Errorf("did not start within %s", connectTimeout)
		}
		if s.cfg.URL == "" && errors.Is(err, sdk.ErrConnectionClosed) {
			return nil, errors.New("the server closed its output before it answered (it probably exited: see its stderr)")
		}
		return nil, fmt.Errorf("connect: %w", err)
	}
	var list []*sdk.Tool
	for t, err := range session.Tools(cctx, nil) {
		if err != nil {
			session.Close()
			s.killGroup()
			return nil, fmt.Errorf("list tools: %w", err)
		}
		list = append(list, t)
	}
	s.setTools(list)
	return session, nil
}

// refresh lists the tools again after the server said they changed; the
// new list is offered from the next turn on.
func (s *server) refresh(ctx context.Context, session *sdk.ClientSession) {
	cctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	var list []*sdk.Tool
	for t, err := range session.Tools(cctx, nil) {
		if err != nil {
			return // keep the tools it had
		}
		list = append(list, t)
	}
	s.setTools(list)
	s.notify()
}

// transport returns the stdio or HTTP transport of the server. A stdio
// command runs in its own process group, killed when ctx ends.
func (s *server) transport(ctx context.Context) (sdk.Transport, error) {
	if s.cfg.URL != "" {
		hc := &http.Client{Transport: headerTransport{headers: s.cfg.Headers, base: http.DefaultTransport}}
		return &sdk.StreamableClientTransport{Endpoint: s.cfg.URL, HTTPClient: hc, MaxRetries: 2}, nil
	}
	if s.cfg.Command == "" {
		return nil, errors.New("neither command nor url is set")
	}
	if s.cfg.Check != nil {
		if err := s.cfg.Check(); err != nil {
			return nil, fmt.Errorf("not started: %w", err)
		}
	}
	cmd := exec.CommandContext(ctx, s.cfg.Command, s.cfg.Args...)
	cmd.Dir = s.dir()
	cmd.Env = append([]string(nil), s.opts.Environ...)
	keys := make([]string, 0, len(s.cfg.Env))
	for k := range s.cfg.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		cmd.Env = append(cmd.Env, k+"="+s.cfg.Env[k])
	}
	cmd.Stderr = s.stderr
	setProcessGroup(cmd)
	cmd.WaitDelay = stopGrace
	return &pidTransport{CommandTransport: sdk.CommandTransport{Command: cmd, TerminateDuration: time.Second}, s: s}, nil
}

// pidTransport records the started process's id for killGroup, on the
// goroutine that started it (exec.Cmd's fields are not safe to read from
// another one meanwhile).
type pidTransport struct {
	sdk.CommandTransport
	s *server
}

func (t *pidTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	conn, err := t.CommandTransport.Connect(ctx)
	if p := t.Command.Process; p != nil {
		t.s.mu.Lock()
		t.s.pid = p.Pid
		t.s.mu.Unlock()
	}
	return conn, err
}

// dir is the stdio server's working directory.
func (s *server) dir() string {
	switch {
	case s.cfg.Cwd == "":
		return s.opts.Dir
	case filepath.IsAbs(s.cfg.Cwd) || s.opts.Dir == "":
		return s.cfg.Cwd
	default:
		return filepath.Join(s.opts.Dir, s.cfg.Cwd)
	}
}

// fail marks the server failed with err.
func (s *server) fail(err error) {
	s.mu.Lock()
	if s.stopped {
		s.state = Stopped
	} else {
		s.state = Failed
		s.err = err.Error()
	}
	s.mu.Unlock()
	close(s.settled)
	s.notify()
}

// stop closes the session (a stdio server's stdin first) and kills a stdio
// server's whole process group.
func (s *server) stop() {
	s.mu.Lock()
	s.stopped = true
	if s.state == Ready {
		s.state = Stopped
	}
	session := s.session
	s.mu.Unlock()
	if session != nil {
		session.Close()
	}
	s.killGroup()
}

// killGroup kills a started stdio server's process group, grandchildren
// included.
func (s *server) killGroup() {
	s.mu.Lock()
	pid := s.pid
	s.mu.Unlock()
	killProcessGroup(pid)
}

// call returns the live session, or an error saying why there is none.
func (s *server) live() (*sdk.ClientSession, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != Ready || s.session == nil {
		msg := fmt.Sprintf("MCP server %s is not running (%s", s.cfg.Name, s.state)
		if s.err != "" {
			msg += ": " + s.err
		}
		return nil, errors.New(msg + ")")
	}
	return s.session, nil
}

// status returns a snapshot of the server.
func (s *server) status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := Status{Name: s.cfg.Name, State: s.state, Err: clean(s.err, 500), Stderr: clean(s.stderr.String(), stderrMax), Project: s.cfg.Project}
	if s.cfg.URL != "" {
		st.Transport, st.Target = "http", displayURL(s.cfg.URL)
	} else {
		st.Transport, st.Target = "stdio", strings.Join(append([]string{s.cfg.Command}, s.cfg.Args...), " ")
	}
	for _, t := range s.tools {
		st.Tools = append(st.Tools, t.spec.Name)
	}
	st.Skipped = append([]string(nil), s.skipped...)
	return st
}

// toolList returns the server's tools as agent tools.
func (s *server) toolList() []*tool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*tool(nil), s.tools...)
}

// takeSkipNotes returns the notes about left-out tools once.
func (s *server) takeSkipNotes() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.skipNotes
	s.skipNotes = nil
	return n
}

// displayURL drops the credentials and query of u for display.
func displayURL(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return clean(u, 200)
	}
	p.User, p.RawQuery, p.Fragment = nil, "", ""
	return p.String()
}

// headerTransport adds the configured headers to every request.
type headerTransport struct {
	headers map[string]string
	base    http.RoundTripper
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(h.headers) > 0 {
		r = r.Clone(r.Context())
		for k, v := range h.headers {
			r.Header.Set(k, v)
		}
	}
	return h.base.RoundTrip(r)
}
