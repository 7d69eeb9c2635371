package agent

import (
	"context"
	"sync"
	"time"

	"github.com/tick-agent/tick/provider"
)

// DefaultParallelTasks is how many task calls of one answer run at once
// when neither Config.MaxParallelTasks nor Config.ParallelTasksFunc says:
// the default for hosted providers, which serve many requests at once.
const DefaultParallelTasks = 3

// parallelTasks returns the cap on task calls running at once (at least 1).
func (a *Agent) parallelTasks() int {
	if a.cfg.MaxParallelTasks > 0 {
		return a.cfg.MaxParallelTasks
	}
	if a.cfg.ParallelTasksFunc == nil {
		return DefaultParallelTasks
	}
	a.parOnce.Do(func() { a.par = max(1, a.cfg.ParallelTasksFunc()) })
	return a.par
}

// taskGroup returns the indices of the task calls among calls that run
// side by side: none for a subagent's loop, fewer than two task calls or a
// cap of 1 (they then run in order like every other call).
func (l *loop) taskGroup(calls []provider.ToolCall) []int {
	if l.child {
		return nil
	}
	var idx []int
	for i, c := range calls {
		if c.Name == TaskTool && c.ArgsCut == nil {
			idx = append(idx, i)
		}
	}
	if len(idx) < 2 {
		return nil
	}
	if l.a.parallelTasks() < 2 {
		l.a.parNoted.Do(func() {
			l.emit(Notice{Text: "these tasks run one at a time: the server serves one request at a time (set max_parallel_tasks in the config to run more side by side)"})
		})
		return nil
	}
	return idx
}

// runGroup runs the task calls calls[idx...] side by side, at most
// parallelTasks at a time, each announced by ToolStart when it starts and
// ToolEnd when it ends, and returns their results by index. It returns
// once every call has ended, so no goroutine of the group outlives it; a
// call still waiting for its turn when ctx ends is answered as
// interrupted.
func (l *loop) runGroup(ctx context.Context, calls []provider.ToolCall, idx []int) map[int]callResult {
	slots := make(chan struct{}, l.a.parallelTasks())
	results := make([]callResult, len(idx))
	var wg sync.WaitGroup
	for n, i := range idx {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			results[n] = callResult{out: stoppedResult(ctx), isErr: true}
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			c := calls[i]
			l.emit(toolStart(c))
			start := time.Now()
			r := l.execute(ctx, c)
			l.emit(r.end(c, start))
			results[n] = r
		}()
	}
	wg.Wait()
	out := make(map[int]callResult, len(idx))
	for n, i := range idx {
		out[i] = results[n]
	}
	return out
}
