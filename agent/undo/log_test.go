package undo_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/tick-agent/tick/agent/checkpoint"
	"github.com/tick-agent/tick/agent/undo"
	"github.com/tick-agent/tick/provider"
	"github.com/tick-agent/tick/todo"
)

// done finishes p's snapshot as checkpoint id.
func done(l *undo.Log, p *undo.Point, id string) *undo.Point {
	l.Finish(p, checkpoint.Checkpoint{ID: id}, nil)
	return p
}

// seqs lists the points' sequence numbers.
func seqs(ps undo.Points) []int {
	out := []int{}
	for _, p := range ps {
		out = append(out, p.Seq)
	}
	return out
}

// build makes a Log from kinds: "t" a message, "iN" item N, "aN" the
// apply of kept task N, "r" a retired generation (no point); each point's
// snapshot is done.
func build(t *testing.T, kinds ...string) *undo.Log {
	t.Helper()
	l := &undo.Log{}
	for _, k := range kinds {
		switch k[0] {
		case 't':
			done(l, l.AddTurn(undo.Point{Kind: undo.Turn, Text: "msg"}), "c")
		case 'i':
			p, ok := l.AddItem(undo.Point{Item: k[1:], Text: "item " + k[1:]})
			if !ok {
				t.Fatalf("item %s has a point already", k[1:])
			}
			done(l, p, "c")
		case 'a':
			var n int
			fmt.Sscan(k[1:], &n)
			done(l, l.Add(undo.Point{Kind: undo.Apply, Task: n}), "c")
		case 'r':
			l.Retire()
		}
	}
	return l
}

func TestAddCopiesAndCaps(t *testing.T) {
	l := &undo.Log{}
	hist := make([]provider.Message, 1, 4)
	list := todo.List{Items: []todo.Item{{ID: "1", Text: "a", Status: todo.Pending}}}
	p := l.Add(undo.Point{Kind: undo.Turn, Hist: hist, Todos: list})
	list.Items[0].Text = "changed"
	if p.Todos.Items[0].Text != "a" {
		t.Errorf("the point's list changed with the caller's: %q", p.Todos.Items[0].Text)
	}
	if cap(p.Hist) != 1 {
		t.Errorf("the point's history has capacity %d, want 1 (an append must not write into the caller's)", cap(p.Hist))
	}
	if p.Seq != 1 || p.At.IsZero() {
		t.Errorf("Seq %d, At %v: want 1 and now", p.Seq, p.At)
	}
	for range undo.Max + 5 {
		l.Add(undo.Point{Kind: undo.Turn})
	}
	ps := l.Points()
	if len(ps) != undo.Max || ps[0].Seq != 7 || ps[len(ps)-1].Seq != undo.Max+6 {
		t.Errorf("after %d points: %d kept, %d..%d; want the newest %d", undo.Max+6, len(ps), ps[0].Seq, ps[len(ps)-1].Seq, undo.Max)
	}
}

func TestAddItemOncePerGeneration(t *testing.T) {
	l := &undo.Log{}
	if _, ok := l.AddItem(undo.Point{Item: "1"}); !ok {
		t.Fatal("the first point of #1 was refused")
	}
	if _, ok := l.AddItem(undo.Point{Item: "1"}); ok {
		t.Error("a second point of #1 was added: its first start counts")
	}
	l.Retire()
	p, ok := l.AddItem(undo.Point{Item: "1"})
	if !ok || p.Gen != 1 || p.Kind != undo.Item {
		t.Errorf("#1 of the next plan: ok %v, gen %d, kind %q; want a new item point of generation 1", ok, p.Gen, p.Kind)
	}
}

func TestFinish(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name     string
		kind     undo.Kind
		err      error
		wantKept bool
	}{
		{"a message's snapshot", undo.Turn, nil, true},
		{"an item's snapshot", undo.Item, nil, true},
		{"a message's failed snapshot keeps its conversation", undo.Turn, boom, true},
		{"an item's failed snapshot is dropped", undo.Item, boom, false},
		{"an apply's failed snapshot is dropped", undo.Apply, boom, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := &undo.Log{}
			p := l.Add(undo.Point{Kind: tt.kind, Item: "1"})
			if p.Done() {
				t.Fatal("done before Finish")
			}
			l.Finish(p, checkpoint.Checkpoint{ID: "c1", Skipped: []checkpoint.Skip{{Path: "big"}}}, tt.err)
			s, err := p.Wait(context.Background())
			if !errors.Is(err, tt.err) || (tt.err == nil) != (s.ID == "c1") || len(s.Skipped) != 1 {
				t.Errorf("Wait = %+v, %v", s, err)
			}
			if kept := len(l.Points()) == 1; kept != tt.wantKept {
				t.Errorf("kept %v, want %v", kept, tt.wantKept)
			}
		})
	}
}

func TestWaitEndsWithContext(t *testing.T) {
	l := &undo.Log{}
	p := l.Add(undo.Point{Kind: undo.Turn})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Wait(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Wait on a cancelled context = %v, want context.Canceled", err)
	}
	if _, err := l.Ready(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Ready on a cancelled context = %v, want context.Canceled", err)
	}
}

func TestTurnPoint(t *testing.T) {
	l := &undo.Log{}
	p := l.AddTurn(undo.Point{Kind: undo.Turn})
	if q := l.TakeTurn(); q != p {
		t.Fatalf("TakeTurn = %v, want the turn's point", q)
	}
	if q := l.TakeTurn(); q != nil {
		t.Errorf("a second TakeTurn = %v, want nil: only the first change waits", q)
	}
	if l.EndTurn(p) {
		t.Error("EndTurn after TakeTurn says nobody reported it")
	}
	p2 := l.AddTurn(undo.Point{Kind: undo.Turn})
	if !l.EndTurn(p2) {
		t.Error("EndTurn of a point nobody took says it was reported")
	}
	if q := l.TakeTurn(); q != nil {
		t.Errorf("TakeTurn after EndTurn = %v, want nil", q)
	}
}

func TestReady(t *testing.T) {
	l := &undo.Log{}
	done(l, l.AddTurn(undo.Point{Kind: undo.Turn}), "c1")
	l.Finish(l.AddTurn(undo.Point{Kind: undo.Turn}), checkpoint.Checkpoint{}, errors.New("interrupted"))
	item, _ := l.AddItem(undo.Point{Item: "1"})
	go done(l, item, "c3") // still being taken: Ready waits for it
	ps, err := l.Ready(context.Background())
	if err != nil || !reflect.DeepEqual(seqs(ps), []int{1, 2, 3}) {
		t.Errorf("Ready = %v, %v; want all three (a message without snapshot keeps its conversation)", seqs(ps), err)
	}
}

func TestTarget(t *testing.T) {
	tests := []struct {
		name  string
		log   []string
		item  string
		want  int // the target's Seq, 0 for none
		found bool
	}{
		{"no points", nil, "", 0, false},
		{"messages only", []string{"t", "t"}, "", 0, false},
		{"the last item", []string{"t", "i1", "i2", "t"}, "", 3, true},
		{"an item by id", []string{"t", "i1", "i2"}, "1", 2, true},
		{"an item not started", []string{"t", "i1"}, "2", 0, false},
		{"the last apply", []string{"i1", "a4"}, "", 2, true},
		{"an apply is no item's", []string{"a4"}, "4", 0, false},
		{"an item of a plan put aside", []string{"i1", "r"}, "1", 0, false},
		{"the new plan's item", []string{"i1", "r", "i1"}, "1", 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, ok := build(t, tt.log...).Target(tt.item)
			if ok != tt.found || (ok && p.Seq != tt.want) {
				t.Errorf("Target(%q) = %v, %v; want seq %d, %v", tt.item, p, ok, tt.want, tt.found)
			}
		})
	}
}

func TestTakeBack(t *testing.T) {
	tests := []struct {
		name          string
		log           []string
		at            int // the point undone, by Seq
		alone         bool
		wantKept      []int
		wantUnapplied []int
		wantItemsFrom []string
	}{
		{"an item and what came after", []string{"t", "i1", "a7", "i2", "t"}, 2, false, []int{1}, []int{7}, []string{"1", "2"}},
		{"a task's item alone", []string{"t", "i1", "a7", "i2"}, 2, true, []int{1, 3, 4}, nil, []string{"1", "2"}},
		{"the last apply", []string{"i1", "a7"}, 2, false, []int{1}, []int{7}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := build(t, tt.log...)
			p := l.Points().Find(fmt.Sprint(tt.at))
			if got := l.ItemsFrom(p); !reflect.DeepEqual(got, tt.wantItemsFrom) {
				t.Errorf("ItemsFrom = %v, want %v", got, tt.wantItemsFrom)
			}
			if got := l.TakeBack(p, tt.alone); !reflect.DeepEqual(got, tt.wantUnapplied) {
				t.Errorf("TakeBack unapplied %v, want %v", got, tt.wantUnapplied)
			}
			if got := seqs(l.Points()); !reflect.DeepEqual(got, tt.wantKept) {
				t.Errorf("kept %v, want %v", got, tt.wantKept)
			}
		})
	}
}

func TestRewindTo(t *testing.T) {
	tests := []struct {
		name          string
		files, conv   bool
		wantKept      []int
		wantUnapplied []int
		wantGen       int
	}{
		// the log: 1 t, 2 i1, 3 a7, (retired), 4 t, 5 i1; rewound to 2
		{"files and conversation", true, true, []int{1}, []int{7}, 0},
		{"the conversation only", false, true, []int{1}, nil, 0},
		{"the files only: later messages stay", true, false, []int{1, 4}, []int{7}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := build(t, "t", "i1", "a7", "r", "t", "i1")
			p := l.Points().Find("2")
			if got := l.RewindTo(p, tt.files, tt.conv); !reflect.DeepEqual(got, tt.wantUnapplied) {
				t.Errorf("unapplied %v, want %v", got, tt.wantUnapplied)
			}
			if got := seqs(l.Points()); !reflect.DeepEqual(got, tt.wantKept) {
				t.Errorf("kept %v, want %v (the rewound point itself never stays)", got, tt.wantKept)
			}
			if g := l.Gen(); g != tt.wantGen {
				t.Errorf("generation %d, want %d", g, tt.wantGen)
			}
		})
	}
}

func TestPointsLookups(t *testing.T) {
	ps := build(t, "t", "i1", "t", "r", "i1", "t").Points()
	tests := []struct {
		name string
		got  int
		want int
	}{
		{"#1 of generation 0", ps.ItemIndex("1", 0), 1},
		{"#1 of generation 1", ps.ItemIndex("1", 1), 3},
		{"#2", ps.ItemIndex("2", 1), -1},
		{"message 2", first(ps.TurnIndex(2)), 2},
		{"message 4 of 3", first(ps.TurnIndex(4)), -1},
		{"messages", second(ps.TurnIndex(9)), 3},
		{"find 5", ps.Find("5").Seq, 5},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: %d, want %d", tt.name, tt.got, tt.want)
		}
	}
	if ps.Find("9") != nil || ps.Find("x") != nil {
		t.Error("Find of an unknown id found a point")
	}
}

func first(a, _ int) int  { return a }
func second(_, b int) int { return b }

func TestDropAndReset(t *testing.T) {
	l := build(t, "t", "i1", "t")
	l.Drop(l.Points()[1])
	l.Drop(&undo.Point{}) // not there: nothing happens
	if got := seqs(l.Points()); !reflect.DeepEqual(got, []int{1, 3}) {
		t.Errorf("after Drop: %v, want [1 3]", got)
	}
	l.Retire()
	l.AddTurn(undo.Point{Kind: undo.Turn})
	l.Reset()
	if len(l.Points()) != 0 || l.Gen() != 0 || l.TakeTurn() != nil {
		t.Error("Reset left points, a generation or a turn's point")
	}
	if p := l.Add(undo.Point{Kind: undo.Turn}); p.Seq != 1 {
		t.Errorf("the first point after Reset has Seq %d, want 1", p.Seq)
	}
}

// TestLogUnderRace takes points from several goroutines (tasks starting
// items, a message, applies) while others list, wait, undo and rewind, as
// parallel tasks do while the user goes back; run with -race (each
// method of Log taken off its lock in turn was caught).
func TestLogUnderRace(t *testing.T) {
	l := &undo.Log{}
	var work, users sync.WaitGroup
	for g := range 4 {
		work.Add(1)
		go func() {
			defer work.Done()
			runTask(t, l, g)
		}()
	}
	work.Add(1)
	go func() {
		defer work.Done()
		runTurns(l)
	}()
	stop := make(chan struct{})
	users.Add(2)
	go func() {
		defer users.Done()
		t.Logf("the user went back %d times", goBack(t, l, stop))
	}()
	go func() {
		defer users.Done()
		look(l, stop)
	}()
	work.Wait()
	close(stop)
	users.Wait()
	ps := l.Points()
	if len(ps) > undo.Max {
		t.Errorf("%d points kept, want at most %d", len(ps), undo.Max)
	}
	for i, p := range ps {
		if i > 0 && p.Seq <= ps[i-1].Seq {
			t.Fatalf("points out of order: %v", seqs(ps))
		}
		if s, ok := p.Result(); !ok || (p.Kind != undo.Turn && s.ID == "") {
			t.Errorf("point %d (%s) kept with snapshot %+v, done %v: a failed one is dropped", p.Seq, p.Kind, s, ok)
		}
	}
}

// runTask is task g: its items' points (one snapshot in seven fails),
// the ones after their patches, an apply now and then, a plan put aside,
// and its first change waiting for the message's point.
func runTask(t *testing.T, l *undo.Log, g int) {
	for i := range 100 {
		if q := l.TakeTurn(); q != nil {
			_, _ = q.Wait(context.Background())
		}
		p, ok := l.AddItem(undo.Point{Item: fmt.Sprint(g*1000 + i), Hist: make([]provider.Message, i)})
		if !ok {
			t.Errorf("item %d refused", g*1000+i)
			return
		}
		if i%7 == 0 {
			l.Finish(p, checkpoint.Checkpoint{}, errors.New("too slow")) // dropped
			continue
		}
		done(l, p, fmt.Sprint("c", p.Seq))
		time.Sleep(50 * time.Microsecond) // the task's patch goes in
		l.SetAfter(p, "after")
		if i%10 == 0 {
			done(l, l.Add(undo.Point{Kind: undo.Apply, Task: i}), "a")
		}
		if i%30 == 0 {
			l.Retire()
		}
	}
}

// runTurns is the turns: a message's point, its snapshot in the
// background, the turn's end.
func runTurns(l *undo.Log) {
	for range 100 {
		p := l.AddTurn(undo.Point{Kind: undo.Turn})
		go done(l, p, "m")
		time.Sleep(50 * time.Microsecond) // the turn runs
		l.EndTurn(p)
	}
}

// goBack is the user while tasks run, until stop: /rewind's list, /diff,
// /undo of an item alone or with what came after, a files-only rewind.
func goBack(t *testing.T, l *undo.Log, stop <-chan struct{}) (rounds int) {
	for i := 0; ; i++ {
		select {
		case <-stop:
			return rounds
		default:
		}
		ps, err := l.Ready(context.Background())
		if err != nil {
			t.Error(err)
			return rounds
		}
		if p, ok := l.Target(""); ok {
			_ = len(l.ItemsFrom(p)) + len(l.Later(p))
			if i%3 == 0 {
				l.TakeBack(p, i%2 == 0)
			}
		}
		if len(ps) > 0 && i%5 == 0 {
			l.RewindTo(ps[len(ps)/2], true, false)
		}
		if i%4 == 0 {
			l.Retire() // the user puts the plan aside
		}
		rounds++
	}
}

// look reads, until stop, what the UI reads of the points: each one's
// checkpoint after its task, and the plan's generation; and it takes back
// a point already gone (an undo after a rewind dropped it), which changes
// nothing.
func look(l *undo.Log, stop <-chan struct{}) {
	gone := &undo.Point{Seq: 1 << 30}
	for {
		select {
		case <-stop:
			return
		default:
		}
		for _, p := range l.Points() {
			_ = l.After(p)
			_ = l.Gen() + p.Seq + len(p.Hist)
		}
		l.Drop(gone)
		l.TakeBack(gone, false)
	}
}
