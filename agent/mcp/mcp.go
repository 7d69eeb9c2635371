// Package mcp is tick's client for Model Context Protocol servers, built on
// the official Go SDK. A Manager starts the configured servers in parallel in
// the background (stdio commands or streamable HTTP endpoints), lists their
// tools and offers each one to the agent as an ordinary tools.Tool named
// mcp__SERVER__TOOL.
//
// Contract:
//   - Start returns at once; servers connect in the background. Status and
//     Counts report their progress, Updates signals every change.
//   - Tools waits for servers still starting, at most until StartTimeout
//     after Start, and returns the tools of the ready ones plus notes naming
//     the servers left out (slow or failed), each said once.
//   - A server that crashes, hangs (per-call timeout) or returns an error
//     result gives the model an error it can act on, never a panic; a tool
//     whose schema the API would reject is fixed or left out with a note.
//   - Close stops every server: stdio servers get their stdin closed, then
//     their whole process group is killed, so nothing outlives tick.
//
// MCP servers are the user's own programs: they run outside tick's command
// sandbox. The package reads no environment and no files of its own: the
// caller passes the environment stdio servers inherit.
package mcp

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/tick-agent/tick/agent/tools"
)

// Defaults for the zero values of Options and Server.
const (
	DefaultStartTimeout = 30 * time.Second // how long a first request waits
	DefaultCallTimeout  = 60 * time.Second // one tool call
	connectTimeout      = 2 * time.Minute  // a server still not up fails
	stopGrace           = 2 * time.Second  // stdin closed -> process group killed
)

// Server is one configured MCP server: a stdio command (Command, Args, Env,
// Cwd) or a streamable HTTP endpoint (URL, Headers).
type Server struct {
	Name    string
	Command string
	Args    []string
	Env     map[string]string // added to Options.Environ
	Cwd     string            // working directory; empty is Options.Dir
	URL     string
	Headers map[string]string
	Timeout time.Duration // per tool call; 0 is DefaultCallTimeout
	Project bool          // defined by the project's .tick/config.toml
	// Check, when set, is asked before the server's program starts: an
	// error (a file it runs changed since the user trusted it) fails the
	// server with that error, and nothing is started.
	Check func() error `json:"-"`
}

// Options configure a Manager.
type Options struct {
	Servers      []Server
	StartTimeout time.Duration // 0 is DefaultStartTimeout
	Environ      []string      // environment of stdio servers (KEY=VALUE)
	Dir          string        // default working directory of stdio servers
	Version      string        // tick's version, sent to servers
	// After, when not nil, holds the servers back until it is closed (tick
	// closes it once its first frame is drawn: starting a process from a
	// goroutine competes with the first frame). Nil starts them at once.
	After <-chan struct{}
}

// State is where a server is in its life.
type State int

// The states of a server.
const (
	Starting State = iota
	Ready
	Failed
	Stopped
)

// String returns the state's lower-case name.
func (s State) String() string {
	switch s {
	case Starting:
		return "starting"
	case Ready:
		return "ready"
	case Failed:
		return "failed"
	default:
		return "stopped"
	}
}

// Status is a snapshot of one server for /mcp and `tick mcp list`.
type Status struct {
	Name      string
	Transport string // "stdio" or "http"
	Target    string // the command line or the URL
	State     State
	Err       string   // why it failed
	Stderr    string   // the tail of a stdio server's stderr
	Tools     []string // the names offered to the model
	Skipped   []string // tools left out, each with the reason
	Project   bool
}

// Manager runs the configured MCP servers. Its methods are safe for
// concurrent use; Counts, Settled, Status, Wait, Tools and Close also
// work on a nil *Manager (no servers).
type Manager struct {
	opts    Options
	ctx     context.Context
	cancel  context.CancelFunc
	started time.Time
	wg      sync.WaitGroup
	updates chan struct{}

	mu        sync.Mutex
	servers   []*server
	taken     map[string]bool // tool-name prefixes in use
	announced map[string]bool // servers whose absence was noted
	closed    bool
}

// Start starts every server in the background and returns at once.
func Start(opts Options) *Manager {
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = DefaultStartTimeout
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &Manager{
		opts:      opts,
		ctx:       ctx,
		cancel:    cancel,
		started:   time.Now(),
		updates:   make(chan struct{}, 1),
		announced: map[string]bool{},
		taken:     map[string]bool{},
	}
	m.Add(opts.Servers...)
	return m
}

// Add starts more servers, for example a project's once the user approved
// them. Servers added after Close are not started.
func (m *Manager) Add(servers ...Server) {
	sorted := append([]Server(nil), servers...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return
	}
	for _, cfg := range sorted {
		s := newServer(cfg, m.opts, m.notify, m.taken)
		m.servers = append(m.servers, s)
		m.wg.Add(1)
		go func() {
			defer m.wg.Done()
			if after := m.opts.After; after != nil {
				select {
				case <-after:
				case <-m.ctx.Done():
					return
				}
			}
			s.run(m.ctx)
		}()
	}
	m.notify()
}

// notify signals a change on Updates without blocking.
func (m *Manager) notify() {
	select {
	case m.updates <- struct{}{}:
	default:
	}
}

// Updates receives a value after servers changed state (coalesced: one
// value may stand for several changes). It is never closed.
func (m *Manager) Updates() <-chan struct{} { return m.updates }

// Counts returns how many servers are ready and how many are configured.
func (m *Manager) Counts() (ready, total int) {
	if m == nil {
		return 0, 0
	}
	list := m.list()
	for _, s := range list {
		if s.status().State == Ready {
			ready++
		}
	}
	return ready, len(list)
}

// Settled reports whether no server is still starting.
func (m *Manager) Settled() bool {
	if m == nil {
		return true
	}
	for _, s := range m.list() {
		if s.status().State == Starting {
			return false
		}
	}
	return true
}

// list returns the servers.
func (m *Manager) list() []*server {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]*server(nil), m.servers...)
}

// Status returns a snapshot of every server, sorted by name.
func (m *Manager) Status() []Status {
	if m == nil {
		return nil
	}
	list := m.list()
	out := make([]Status, len(list))
	for i, s := range list {
		out[i] = s.status()
	}
	return out
}

// Wait blocks until no server is still starting, ctx ends or StartTimeout
// has passed since Start.
func (m *Manager) Wait(ctx context.Context) {
	if m == nil {
		return
	}
	deadline := time.NewTimer(time.Until(m.started.Add(m.opts.StartTimeout)))
	defer deadline.Stop()
	for _, s := range m.list() {
		select {
		case <-s.settled:
		case <-ctx.Done():
			return
		case <-deadline.C:
			return
		}
	}
}

// Tools waits like Wait, then returns the tools of the ready servers and a
// note for each server that is left out (still starting, or failed); each
// server's absence is noted once per Manager.
func (m *Manager) Tools(ctx context.Context) ([]tools.Tool, []string) {
	if m == nil {
		return nil, nil
	}
	m.Wait(ctx)
	var ts []tools.Tool
	var notes []string
	list := m.list()
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, s := range list {
		st := s.status()
		switch st.State {
		case Ready:
			for _, t := range s.toolList() {
				ts = append(ts, t)
			}
			if m.announced[st.Name] {
				delete(m.announced, st.Name)
				notes = append(notes, fmt.Sprintf("MCP server %s is ready: its tools are offered from now on", st.Name))
			}
			notes = append(notes, s.takeSkipNotes()...)
		case Starting:
			if !m.announced[st.Name] {
				m.announced[st.Name] = true
				notes = append(notes, fmt.Sprintf("MCP server %s is still starting (waited %s): this request goes without its tools", st.Name, m.opts.StartTimeout))
			}
		case Failed:
			if !m.announced[st.Name] {
				m.announced[st.Name] = true
				notes = append(notes, fmt.Sprintf("MCP server %s failed: %s (see /mcp)", st.Name, st.Err))
			}
		}
	}
	return ts, notes
}

// Close stops every server and waits for them: stdio servers get their
// stdin closed and, after a short grace, their process group killed. It is
// idempotent.
func (m *Manager) Close() error {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	list := m.servers
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range list {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.stop()
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(stopGrace):
	}
	m.cancel() // kills what is left, process groups included
	m.wg.Wait()
	return nil
}
