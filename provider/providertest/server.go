// Package providertest is a fake OpenAI-compatible Chat Completions server
// for tests: real HTTP (httptest) and real server-sent events, serving
// scripted replies and validating requests the way the real API does.
//
// Typical use:
//
//	srv := providertest.New(t) // closed by t.Cleanup
//	srv.Enqueue(providertest.Reply{Text: "hello"})
//	// point the client at srv.URL (it ends in /v1) ...
//	reqs := srv.Requests()
//
// The server answers POST /v1/chat/completions and GET /v1/models. Each
// chat request is decoded, recorded (Requests) and validated: a model is
// required; messages must be non-empty with known roles; every assistant
// tool call (with id, type "function", name and arguments) must be
// answered by exactly one tool message before the next non-tool message;
// a tool message must answer a pending call; tools must be valid function
// specs. An invalid request gets 400 with an OpenAI-style error JSON naming
// the problem, and the problem is listed by Errors; no reply is consumed.
// A valid request is answered by Func when set, else by the next queued
// Reply; with neither it gets 500 "providertest: no scripted reply" (also
// listed by Errors).
package providertest

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Server is a running fake server. Its methods are safe for concurrent use.
type Server struct {
	// URL is the base URL, ending in /v1 (e.g. http://127.0.0.1:4321/v1).
	URL string
	// Func, when set, computes the reply to each valid request instead of
	// the queue. Set it before the first request (or use SetFunc).
	Func func(Request) Reply

	ts        *httptest.Server
	quit      chan struct{}
	closeOnce sync.Once

	mu      sync.Mutex
	fn      func(Request) Reply // set by SetFunc; wins over Func
	queue   []Reply
	reqs    []Request
	errs    []string
	changed chan struct{} // closed and replaced when a request is recorded
	ids     int
	models  []string // GET /v1/models lists these; nil: ModelName
	open    int      // chat requests being answered now
	maxOpen int      // the most chat requests ever open at once
}

// SetModels sets the models GET /v1/models lists (default: ModelName).
func (s *Server) SetModels(names ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models = append([]string(nil), names...)
}

// New starts a server that is closed by t.Cleanup.
func New(t testing.TB) *Server {
	t.Helper()
	s := NewServer()
	t.Cleanup(s.Close)
	return s
}

// NewServer starts a server on a loopback port. The caller must Close it.
func NewServer() *Server {
	s := newServer()
	s.ts = httptest.NewServer(s)
	s.URL = s.ts.URL + "/v1"
	return s
}

// NewServerAddr starts a server listening on addr (host:port, port 0 picks
// one). The caller must Close it.
func NewServerAddr(addr string) (*Server, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("providertest: listen on %s: %w", addr, err)
	}
	s := newServer()
	s.ts = httptest.NewUnstartedServer(s)
	s.ts.Listener.Close()
	s.ts.Listener = l
	s.ts.Start()
	s.URL = s.ts.URL + "/v1"
	return s, nil
}

func newServer() *Server {
	return &Server{quit: make(chan struct{}), changed: make(chan struct{})}
}

// Close unblocks hanging replies, closes client connections and shuts the
// server down. It is safe to call more than once.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		close(s.quit)
		s.ts.CloseClientConnections()
		s.ts.Close()
	})
}

// Enqueue appends replies to the queue; each valid request consumes one.
func (s *Server) Enqueue(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append(s.queue, replies...)
}

// SetFunc sets the function that computes replies (see Func); nil goes
// back to Func or the queue.
func (s *Server) SetFunc(f func(Request) Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fn = f
}

// Pending returns the number of queued replies not yet served.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue)
}

// Requests returns copies of the chat requests received so far, valid or
// not, in arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Request, len(s.reqs))
	for i, r := range s.reqs {
		out[i] = r.clone()
	}
	return out
}

// Errors returns the problems the server found so far: validation
// failures (as sent in the 400 answers) and requests that found no
// scripted reply.
func (s *Server) Errors() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.errs...)
}

// Wait blocks until at least n chat requests were received, the timeout
// passed or the server closed, and returns the requests received so far.
// A timeout of 0 means 10 seconds.
func (s *Server) Wait(n int, timeout time.Duration) []Request {
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		got, ch := len(s.reqs), s.changed
		s.mu.Unlock()
		if got >= n {
			return s.Requests()
		}
		select {
		case <-ch:
		case <-deadline.C:
			return s.Requests()
		case <-s.quit:
			return s.Requests()
		}
	}
}

// Open returns the number of chat requests being answered right now:
// received and not yet fully answered.
func (s *Server) Open() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.open
}

// MaxOpen returns the most chat requests that were open at the same
// time so far (see Open): the concurrency the server saw.
func (s *Server) MaxOpen() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.maxOpen
}

// WaitOpen blocks until at least n chat requests have been open at the
// same time (MaxOpen reaches n), the timeout passed (0 means 10 seconds)
// or the server closed, and reports whether they were. A reply Func can call it to hold its answer
// until its siblings arrived, so that a test sees overlap by content and
// counts, not by the clock.
func (s *Server) WaitOpen(n int, timeout time.Duration) bool {
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		got, ch := s.maxOpen, s.changed
		s.mu.Unlock()
		if got >= n {
			return true
		}
		select {
		case <-ch:
		case <-deadline.C:
			return false
		case <-s.quit:
			return false
		}
	}
}

// setOpen changes the count of open chat requests by d and wakes the
// waiters. The caller holds s.mu.
func (s *Server) setOpen(d int) {
	s.open += d
	s.maxOpen = max(s.maxOpen, s.open)
	close(s.changed)
	s.changed = make(chan struct{})
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimSuffix(r.URL.Path, "/")
	switch {
	case path == "/v1/models" && r.Method == http.MethodGet:
		s.writeModels(w)
	case path == "/v1/chat/completions" && r.Method == http.MethodPost:
		s.chat(w, r)
	case path == "/v1/chat/completions" || path == "/v1/models":
		w.Header().Set("Allow", "GET, POST")
		writeError(w, Reply{Status: http.StatusMethodNotAllowed, Body: errorJSON(http.StatusMethodNotAllowed, "Method "+r.Method+" not allowed for "+r.URL.Path, "")})
	default:
		writeError(w, Reply{Status: http.StatusNotFound, Body: errorJSON(http.StatusNotFound, "Invalid URL ("+r.Method+" "+r.URL.Path+")", "")})
	}
}

// writeModels answers GET /v1/models.
func (s *Server) writeModels(w http.ResponseWriter) {
	s.mu.Lock()
	names := s.models
	s.mu.Unlock()
	if names == nil {
		names = []string{ModelName}
	}
	type model struct {
		ID      string `json:"id"`
		Object  string `json:"object"`
		Created int64  `json:"created"`
		OwnedBy string `json:"owned_by"`
	}
	list := struct {
		Object string  `json:"object"`
		Data   []model `json:"data"`
	}{Object: "list", Data: []model{}}
	for _, n := range names {
		list.Data = append(list.Data, model{ID: n, Object: "model", Created: 1727346178, OwnedBy: "providertest"})
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(list)
}

// ModelName is the model GET /v1/models lists by default.
const ModelName = "providertest-model"

// chat serves one chat-completions request.
func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	req, bad := decode(body)
	req.Header = r.Header.Clone()

	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	s.setOpen(1) // also wakes Wait
	// The request stops counting as open just before the last byte of its
	// answer goes out: the client cannot have read it, and sent another
	// request, while it still counts.
	release := sync.OnceFunc(func() {
		s.mu.Lock()
		s.setOpen(-1)
		s.mu.Unlock()
	})
	defer release()
	if bad != nil {
		s.errs = append(s.errs, bad.Error())
		s.mu.Unlock()
		release()
		writeError(w, Reply{Status: http.StatusBadRequest, Body: errorJSON(http.StatusBadRequest, bad.msg, bad.param)})
		return
	}
	fn := s.fn
	if fn == nil {
		fn = s.Func
	}
	var (
		reply Reply
		have  bool
	)
	if fn == nil && len(s.queue) > 0 {
		reply, have = s.queue[0], true
		s.queue = s.queue[1:]
	}
	if fn == nil && !have {
		s.errs = append(s.errs, "providertest: no scripted reply")
	}
	s.mu.Unlock()

	switch {
	case fn != nil:
		reply = fn(req.clone())
	case !have:
		release()
		writeError(w, Reply{Status: http.StatusInternalServerError, Body: errorJSON(http.StatusInternalServerError, "providertest: no scripted reply", "")})
		return
	}
	s.serve(w, r, req, reply, release)
}

// serve writes one reply to a valid request, calling release just before
// the last write.
func (s *Server) serve(w http.ResponseWriter, r *http.Request, req Request, reply Reply, release func()) {
	switch {
	case reply.Raw != nil:
		s.stream(w, r, reply, rawEvents(reply.Raw), true, 0, release)
	case reply.Status != 0 && reply.Status != http.StatusOK, reply.Body != "":
		release()
		writeError(w, reply)
	case !req.Stream && reply.ErrorEvent != "":
		release()
		writeError(w, Reply{Body: reply.ErrorEvent})
	case !req.Stream:
		calls := s.fillIDs(reply.ToolCalls)
		release()
		writeCompletion(w, req, reply, calls)
	default:
		events, hangAt := reply.events(req, s.fillIDs(reply.ToolCalls))
		s.stream(w, r, reply, events, false, hangAt, release)
	}
}

// fillIDs returns a copy of calls with empty ids replaced by unique ones.
func (s *Server) fillIDs(calls []Call) []Call {
	out := make([]Call, len(calls))
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, c := range calls {
		if c.ID == "" {
			s.ids++
			c.ID = fmt.Sprintf("call_pt%d", s.ids)
		}
		out[i] = c
	}
	return out
}
