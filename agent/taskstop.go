package agent

import (
	"context"
	"errors"
	"sync"
)

// errStopped is the error of a task the user stopped alone (StopTask).
var errStopped = errors.New("stopped by the user")

// taskSet is the running subagents of an Agent, by their task call's id,
// so that one can be stopped alone. Its zero value is ready.
type taskSet struct {
	mu    sync.Mutex
	m     map[string]*runningTask
	owned map[string]bool // the plan items tasks own (see ownedItem)

	itemMu  sync.Mutex // serialises item starts and their undo points
	mergeMu sync.Mutex // serialises isolated tasks' patches
}

// runningTask is one running subagent.
type runningTask struct {
	cancel  context.CancelFunc
	stopped bool // StopTask cancelled it
}

// start registers the subagent of call id and returns its context, which
// StopTask cancels, and the func that unregisters it and reports whether
// the user stopped it. The caller must call end.
func (s *taskSet) start(ctx context.Context, id string) (context.Context, func() (stopped bool)) {
	ctx, cancel := context.WithCancel(ctx)
	rt := &runningTask{cancel: cancel}
	s.mu.Lock()
	if s.m == nil {
		s.m = map[string]*runningTask{}
	}
	s.m[id] = rt
	s.mu.Unlock()
	return ctx, func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.m[id] == rt {
			delete(s.m, id)
		}
		cancel()
		return rt.stopped
	}
}

// StopTask stops the running subagent of the task call id alone: its
// model call and commands end as on an interrupt, the turn and the other
// tasks go on, and the parent model gets "stopped by the user" as the
// call's result (with what the subagent had written). It reports whether
// such a task was running.
func (a *Agent) StopTask(id string) bool {
	s := &a.tasks
	s.mu.Lock()
	defer s.mu.Unlock()
	rt, ok := s.m[id]
	if !ok {
		return false
	}
	rt.stopped = true
	rt.cancel()
	return true
}
