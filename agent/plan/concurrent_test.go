package plan_test

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tick-agent/tick/agent/plan"
	"github.com/tick-agent/tick/todo"
)

// revs collects the revisions the Book hands out, from every goroutine.
type revs struct {
	mu   sync.Mutex
	seen map[int]string
	dup  []string
}

func (r *revs) add(rev int, who string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if prev, ok := r.seen[rev]; ok {
		r.dup = append(r.dup, fmt.Sprintf("rev %d from %s and %s", rev, prev, who))
	}
	r.seen[rev] = who
}

// The seam of parallel tasks and the user's edits: tasks start and note
// items, the model sends its list and the user edits the plan, all at
// once. Under -race nothing races; every change gets its own revision;
// every item the user added is in the plan as the user wrote it, or in a
// plan put aside (a finished plan the model replaced): the model's lists
// that would drop one were refused, none slipped in between a check and
// its write.
func TestParallelTasksAndUserEdits(t *testing.T) {
	start := todo.List{Goal: "g"}
	for i := 1; i <= 8; i++ {
		start.Items = append(start.Items, todo.Item{ID: fmt.Sprint(i), Text: fmt.Sprint("item ", i), Status: todo.Pending})
	}
	b := bookWith(start)
	r := &revs{seen: map[int]string{}}
	var accepted atomic.Int32
	var aside []todo.List // the plans the model's lists replaced (its goroutine's until Wait)
	var wg sync.WaitGroup
	for task := 1; task <= 4; task++ {
		wg.Add(1)
		go func() { // a task on items task and task+4
			defer wg.Done()
			for n := range 50 {
				id := fmt.Sprint(task + 4*(n%2))
				if st, started, err := b.Start(id); err == nil && started {
					r.add(st.Rev, "start #"+id)
				}
				if _, rev, ok := b.SetNote(id, fmt.Sprint("result ", n)); ok {
					r.add(rev, "note #"+id)
				}
				b.Snapshot()
			}
		}()
	}
	wg.Add(1)
	go func() { // the model sends its list back, an item completed
		defer wg.Done()
		for n := range 50 {
			l := b.List()
			if len(l.Items) < 2 {
				break
			}
			l.Items[n%len(l.Items)].Status = todo.Completed
			for i := range l.Items { // the model rewords its own items
				if strings.HasPrefix(l.Items[i].Text, "item ") {
					l.Items[i].Text += "."
				}
			}
			if n%10 == 9 { // and now and then drops the last item, maybe the user's
				l.Items = l.Items[:len(l.Items)-1]
			}
			if res, err := b.Replace(l); err == nil {
				r.add(res.Rev, "model")
				accepted.Add(1)
				if res.Replaced {
					aside = append(aside, res.Archived)
				}
			}
		}
	}()
	added := make(chan todo.Item, 20)
	wg.Add(1)
	go func() { // the user adds items and rewords one, and toggles a gate
		defer wg.Done()
		defer close(added)
		for n := range 10 {
			l, rev, err := b.Edit(plan.Edit{Op: plan.OpAdd, Text: fmt.Sprint("user ", n)})
			if err != nil {
				t.Error(err)
				return
			}
			r.add(rev, "user add")
			added <- l.Items[len(l.Items)-1]
			if _, rev, err := b.Edit(plan.Edit{Op: plan.OpStopAfter, ID: "1"}); err == nil {
				r.add(rev, "user gate")
			}
			b.User()
			b.TakeNotes()
		}
	}()
	wg.Wait()
	if accepted.Load() == 0 {
		t.Error("no list of the model's was accepted: the test tests nothing of Replace")
	}
	if len(r.dup) > 0 {
		t.Errorf("revisions handed out twice: %v", r.dup)
	}
	list, rev := b.Snapshot()
	if len(r.seen) != rev {
		t.Errorf("%d changes counted, final revision %d", len(r.seen), rev)
	}
	kept := map[string]bool{} // texts in the plan or in a plan put aside
	for _, l := range append(aside, list) {
		for _, it := range l.Items {
			kept[it.Text] = true
		}
	}
	for want := range added {
		if !kept[want.Text] {
			t.Errorf("the user's item %q was lost: %s", want.Text, ids(list))
		}
	}
	up := b.User()
	for _, id := range up.Added {
		if i := list.Find(id); i < 0 || list.Items[i].Text != up.Text[id] {
			t.Errorf("the user's item #%s is not as the user wrote it (%q): %s", id, up.Text[id], ids(list))
		}
	}
}

// Wake never blocks, from any number of goroutines, and a wait on Resume
// after a drain sees only a wake that came after it.
func TestWakeFromManyGoroutines(t *testing.T) {
	b := plan.New()
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				b.Wake()
			}
		}()
	}
	wg.Wait()
	select { // a pause drains what came before it
	case <-b.Resume():
	default:
		t.Fatal("no wake kept for the next pause")
	}
	select {
	case <-b.Resume():
		t.Fatal("more than one wake kept")
	default:
	}
	go b.Wake()
	<-b.Resume()
}
