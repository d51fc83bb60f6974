package combine

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// waitQueued polls until n members wait in q.
func waitQueued(t *testing.T, queued func() int, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for queued() != n {
		if time.Now().After(deadline) {
			t.Fatalf("%d queued, want %d", queued(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestQueueRunsAtOnceWhileALaneIsFree(t *testing.T) {
	var q Queue[int, string]
	if turn, _ := q.Join(2, 1); turn != Free {
		t.Fatalf("first of two lanes: %v, want Free", turn)
	}
	if turn, _ := q.Join(2, 2); turn != Free {
		t.Fatalf("second of two lanes: %v, want Free", turn)
	}
	if q.TryLane(2) {
		t.Fatal("a third lane was taken of two")
	}
	q.HandOver()
	if !q.TryLane(2) {
		t.Fatal("a lane handed back with nobody queued is not free")
	}
}

// A member queued behind a busy lane is either answered by the leader's
// statement or handed the lane, in the order it queued; Take leaves what
// accept refuses in place.
func TestQueueHandsTheLaneOnAndTakesWhatItAccepts(t *testing.T) {
	var q Queue[int, string]
	if !q.TryLane(1) {
		t.Fatal("the only lane is busy")
	}
	type got struct {
		turn Turn
		res  string
	}
	results := make([]chan got, 5)
	for i := range results {
		results[i] = make(chan got, 1)
		go func() {
			turn, res := q.Join(1, i)
			results[i] <- got{turn, res}
		}()
		waitQueued(t, q.Queued, i+1)
	}
	// The leader takes the even items, two at most: 0 and 2.
	took := q.Take(2, func(item int) bool { return item%2 == 0 })
	items := Batch(-1, took)
	if len(items) != 3 || items[0] != -1 || items[1] != 0 || items[2] != 2 {
		t.Fatalf("batch %v, want [-1 0 2]", items)
	}
	AnswerTaken(took, []string{"leader", "zero", "two"})
	for i, want := range map[int]string{0: "zero", 2: "two"} {
		if g := <-results[i]; g.turn != Answered || g.res != want {
			t.Fatalf("member %d: %v %q, want Answered %q", i, g.turn, g.res, want)
		}
	}
	if q.Queued() != 3 {
		t.Fatalf("%d queued after the take, want 3 (1, 3, 4)", q.Queued())
	}
	q.HandOver() // the statement is done: member 1 leads
	if g := <-results[1]; g.turn != Lead {
		t.Fatalf("member 1: %v, want Lead", g.turn)
	}
	took = q.Take(10, nil)
	AnswerTaken(took, []string{"", "three", "four"})
	if g := <-results[3]; g.res != "three" {
		t.Fatalf("member 3: %q", g.res)
	}
	if g := <-results[4]; g.res != "four" {
		t.Fatalf("member 4: %q", g.res)
	}
	q.HandOver()
	if !q.TryLane(1) {
		t.Fatal("the lane is not free after the last statement")
	}
}

// Many goroutines through one lane: every member gets exactly one
// outcome, at most one statement runs at a time, and every item is
// served exactly once.
func TestQueueServesEveryMemberOnceUnderContention(t *testing.T) {
	var q Queue[int, int]
	var running, maxRunning atomic.Int32
	served := make([]atomic.Int32, 400)
	statement := func(items []int) []int {
		if n := running.Add(1); n > maxRunning.Load() {
			maxRunning.Store(n)
		}
		time.Sleep(50 * time.Microsecond)
		out := make([]int, len(items))
		for i, it := range items {
			served[it].Add(1)
			out[i] = it * 10
		}
		running.Add(-1)
		return out
	}
	var wg sync.WaitGroup
	for i := range served {
		wg.Add(1)
		go func() {
			defer wg.Done()
			turn, res := q.Join(1, i)
			if turn != Answered {
				took := q.Take(7, nil)
				results := statement(Batch(i, took))
				AnswerTaken(took, results)
				res = results[0]
				q.HandOver()
			}
			if res != i*10 {
				t.Errorf("item %d answered %d", i, res)
			}
		}()
	}
	wg.Wait()
	for i := range served {
		if n := served[i].Load(); n != 1 {
			t.Fatalf("item %d served %d times", i, n)
		}
	}
	if maxRunning.Load() != 1 {
		t.Fatalf("%d statements ran at once on one lane", maxRunning.Load())
	}
}

// A key's queue exists while a statement runs on it; keys do not wait for
// each other.
func TestKeyedQueuesPerKey(t *testing.T) {
	k := NewKeyed[string, int, string]()
	if turn, _ := k.Join("a", 1); turn != Free {
		t.Fatalf("key a: %v, want Free", turn)
	}
	if turn, _ := k.Join("b", 2); turn != Free {
		t.Fatalf("key b while a runs: %v, want Free", turn)
	}
	done := make(chan Turn, 1)
	go func() {
		turn, _ := k.Join("a", 3)
		done <- turn
	}()
	waitQueued(t, func() int {
		k.mu.Lock()
		defer k.mu.Unlock()
		return len(k.queues["a"].pending)
	}, 1)
	k.HandOver("a")
	if turn := <-done; turn != Lead {
		t.Fatalf("queued on a: %v, want Lead", turn)
	}
	if took := k.Take("a", 5); len(took) != 0 {
		t.Fatalf("took %d from an empty queue", len(took))
	}
	k.HandOver("a")
	k.HandOver("b")
	k.mu.Lock()
	left := len(k.queues)
	k.mu.Unlock()
	if left != 0 {
		t.Fatalf("%d key queues left with no statement running", left)
	}
}
