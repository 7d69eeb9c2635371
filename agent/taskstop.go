package agent

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// errStopped is the error of a task the user stopped alone (StopTask).
var errStopped = errors.New("stopped by the user")

// taskSet is the running subagents of an Agent, by their task call's id,
// so that one can be stopped alone. Its zero value is ready.
type taskSet struct {
	mu sync.Mutex
	m  map[string]*runningTask

	itemMu  sync.Mutex // serialises item starts and their undo points
	mergeMu sync.Mutex // serialises isolated tasks' patches
	gateMu  sync.Mutex // one task waits at a gate at a time; guards the parent loop's passed

	held []string    // guarded by mu: the tasks whose merges plan mode held, and their copies
	kept []*keptTask // guarded by mu: the tasks kept with conflicting changes (taskapply.go)

	// Guarded by mu: the patch being applied (see StopMerges).
	exiting   bool          // tick is exiting: no patch starts
	stopApply chan struct{} // closed to stop the patch being applied
	stopped   bool          // stopApply was closed
	applying  string        // the description of its task
	outcome   string        // how the stopped patch went
}

// runningTask is one running subagent.
type runningTask struct {
	cancel    context.CancelFunc
	item      string // the plan item it works on, "" for none
	stopped   bool   // StopTask cancelled it
	cancelled string // the user cancelled its item with this reason (cancelItem)
}

// taskEnd is how a task's run ended from outside it.
type taskEnd struct {
	stopped   bool   // the user stopped it alone (StopTask)
	cancelled string // the user cancelled its item, with this reason
}

// start registers the subagent of call id working on plan item item ("":
// none) and returns its context, which StopTask and cancelItem cancel,
// and the func that unregisters it and reports how it was stopped from
// outside. The caller must call end.
func (s *taskSet) start(ctx context.Context, id, item string) (context.Context, func() taskEnd) {
	ctx, cancel := context.WithCancel(ctx)
	rt := &runningTask{cancel: cancel, item: item}
	s.mu.Lock()
	if s.m == nil {
		s.m = map[string]*runningTask{}
	}
	s.m[id] = rt
	s.mu.Unlock()
	return ctx, func() taskEnd {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.m[id] == rt {
			delete(s.m, id)
		}
		cancel()
		return taskEnd{stopped: rt.stopped, cancelled: rt.cancelled}
	}
}

// cancelItem stops at once the running tasks working on plan item id,
// which the user cancelled with reason: their changes are not applied
// (see mergeBack). It returns how many it stopped.
func (s *taskSet) cancelItem(id, reason string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, rt := range s.m {
		if rt.item == id && rt.cancelled == "" {
			rt.cancelled = reason
			rt.cancel()
			n++
		}
	}
	return n
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

// beginApply registers the patch of the task desc about to be applied and
// returns the channel that stops it while it is staged (see StopMerges);
// false once tick is exiting: no patch starts then. Call it with mergeMu
// held, and endApply after.
func (s *taskSet) beginApply(desc string) (<-chan struct{}, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.exiting {
		return nil, false
	}
	s.stopApply = make(chan struct{})
	s.applying = desc
	return s.stopApply, true
}

// endApply records how the patch being applied went (the parent model's
// note) for StopMerges.
func (s *taskSet) endApply(note string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopApply != nil && s.stopped {
		s.outcome = fmt.Sprintf("the task %q: %s", s.applying, note)
	}
	s.stopApply, s.applying = nil, ""
}

// StopMerges is for a tick that exits while its turn may still run (a
// second SIGTERM or SIGINT): no task's patch starts any more, and one
// being applied is rolled back while it is only staged, or else finished
// (applying is all or nothing). It waits for that patch and returns a
// line saying which way it went, "" when none was being applied.
func (a *Agent) StopMerges() string {
	s := &a.tasks
	s.mu.Lock()
	s.exiting = true
	if s.stopApply != nil && !s.stopped {
		s.stopped = true
		close(s.stopApply)
	}
	s.mu.Unlock()
	s.mergeMu.Lock() // the patch in progress has ended
	defer s.mergeMu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.outcome
	s.outcome = ""
	return out
}

// hold records that plan mode held the merge of the task desc, whose copy
// is dir (see mergeBack); ApprovePlan offers it.
func (s *taskSet) hold(desc, dir string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.held = append(s.held, fmt.Sprintf("the task %q: its copy %s", desc, dir))
}

// takeHeld returns and forgets the merges plan mode held.
func (s *taskSet) takeHeld() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := s.held
	s.held = nil
	return h
}
