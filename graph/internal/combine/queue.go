// Package combine queues concurrent requests so that one database
// statement can serve several of them: the redemptions' look-ups and
// writes (graph/redemption) and the points added to one loyalty card
// (graph/loyaltyv1) share it.
//
// The scheme has no timer. A request that finds a free lane runs at once;
// requests arriving while every lane is busy queue, and when a statement
// is done its runner hands the lane to the first queued request, which
// leads the next statement with more queued requests it takes (Take).
// A queued request waits without watching its context: it is answered,
// or handed the lane, within the statements ahead of it, which the
// database's timeouts bound. Its leader leaves out a request that has
// gone by the time the statement is built.
package combine

import "sync"

// Turn is what Join decided for a request.
type Turn int

const (
	// Free: a lane was free; the request runs now and then calls HandOver.
	Free Turn = iota
	// Lead: a finished statement handed its lane to this queued request;
	// it leads the next statement and then calls HandOver.
	Lead
	// Answered: another request's statement answered this one.
	Answered
)

// Member is a queued request with the item it brings.
type Member[T, R any] struct {
	Item T
	done chan handed[R] // buffered (1): written once
}

// Answer gives m the outcome of the statement that served it.
func (m *Member[T, R]) Answer(r R) { m.done <- handed[R]{res: r} }

// Batch is a statement's items: its leader's first, then those of the
// members it took, in order.
func Batch[T, R any](first T, took []*Member[T, R]) []T {
	items := make([]T, 0, len(took)+1)
	items = append(items, first)
	for _, m := range took {
		items = append(items, m.Item)
	}
	return items
}

// AnswerTaken answers each member taken for a statement with its outcome
// in results, which is in Batch's order (results[0] is the leader's).
func AnswerTaken[T, R any](took []*Member[T, R], results []R) {
	for i, m := range took {
		m.Answer(results[i+1])
	}
}

// handed is what a queued member receives: an answer, or the lane.
type handed[R any] struct {
	lead bool
	res  R
}

// lanes is a queue's state; its owner holds the lock.
type lanes[T, R any] struct {
	running int
	pending []*Member[T, R]
}

// enter takes a lane (nil) or queues item (its member).
func (l *lanes[T, R]) enter(n int, item T) *Member[T, R] {
	if l.running < max(n, 1) {
		l.running++
		return nil
	}
	m := &Member[T, R]{Item: item, done: make(chan handed[R], 1)}
	l.pending = append(l.pending, m)
	return m
}

// take removes, in order, up to limit queued members that accept takes;
// the others keep their places.
func (l *lanes[T, R]) take(limit int, accept func(T) bool) []*Member[T, R] {
	var took []*Member[T, R]
	rest := l.pending[:0]
	for _, m := range l.pending {
		if len(took) < limit && (accept == nil || accept(m.Item)) {
			took = append(took, m)
			continue
		}
		rest = append(rest, m)
	}
	clear(l.pending[len(rest):])
	l.pending = rest
	return took
}

// next frees a lane, or returns the queued member it goes to.
func (l *lanes[T, R]) next() *Member[T, R] {
	if len(l.pending) == 0 {
		l.running--
		return nil
	}
	m := l.pending[0]
	l.pending[0] = nil
	l.pending = l.pending[1:]
	return m
}

// wait blocks a queued member until it is answered or handed the lane.
func wait[T, R any](m *Member[T, R]) (Turn, R) {
	h := <-m.done
	if h.lead {
		return Lead, h.res
	}
	return Answered, h.res
}

// Queue is one database's queue for one kind of statement, running at
// most a given number of statements at once. The zero Queue is ready.
type Queue[T, R any] struct {
	mu sync.Mutex
	l  lanes[T, R]
}

// Join takes one of n lanes (Free), or queues item and waits until it is
// handed a lane (Lead) or answered (Answered, with the answer).
func (q *Queue[T, R]) Join(n int, item T) (Turn, R) {
	q.mu.Lock()
	m := q.l.enter(n, item)
	q.mu.Unlock()
	if m == nil {
		var zero R
		return Free, zero
	}
	return wait(m)
}

// Take removes up to limit queued members that accept takes (nil: any),
// in their order, for the caller's statement; the caller answers each.
// accept runs under the queue's lock, in order, and may remember what it
// took (to refuse a later member that conflicts).
func (q *Queue[T, R]) Take(limit int, accept func(T) bool) []*Member[T, R] {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.l.take(limit, accept)
}

// HandOver gives the caller's lane, its statement done, to the first
// queued member, or frees it.
func (q *Queue[T, R]) HandOver() {
	q.mu.Lock()
	m := q.l.next()
	q.mu.Unlock()
	if m != nil {
		m.done <- handed[R]{lead: true}
	}
}

// TryLane takes one of n lanes if one is free, without queueing: false
// when every lane is busy. The caller then calls HandOver when done.
func (q *Queue[T, R]) TryLane(n int) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.l.running < max(n, 1) {
		q.l.running++
		return true
	}
	return false
}

// Queued reports how many members wait for a lane.
func (q *Queue[T, R]) Queued() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.l.pending)
}

// Keyed is a queue per key with one lane each (one statement at a time
// per key: a loyalty card's points), kept only while a statement runs on
// its key. The zero Keyed is not ready: use NewKeyed.
type Keyed[K comparable, T, R any] struct {
	mu     sync.Mutex
	queues map[K]*lanes[T, R]
}

// NewKeyed returns an empty Keyed.
func NewKeyed[K comparable, T, R any]() *Keyed[K, T, R] {
	return &Keyed[K, T, R]{queues: map[K]*lanes[T, R]{}}
}

// Join runs item at once when no statement runs on key (Free), or queues
// it and waits until it is handed the key's lane (Lead) or answered.
func (k *Keyed[K, T, R]) Join(key K, item T) (Turn, R) {
	k.mu.Lock()
	l, ok := k.queues[key]
	if !ok {
		l = &lanes[T, R]{}
		k.queues[key] = l
	}
	m := l.enter(1, item)
	k.mu.Unlock()
	if m == nil {
		var zero R
		return Free, zero
	}
	return wait(m)
}

// Take removes up to limit of key's queued members, in order.
func (k *Keyed[K, T, R]) Take(key K, limit int) []*Member[T, R] {
	k.mu.Lock()
	defer k.mu.Unlock()
	if l, ok := k.queues[key]; ok {
		return l.take(limit, nil)
	}
	return nil
}

// HandOver gives key's lane to its first queued member, or drops the
// key's queue.
func (k *Keyed[K, T, R]) HandOver(key K) {
	k.mu.Lock()
	l := k.queues[key]
	m := l.next()
	if m == nil {
		delete(k.queues, key)
	}
	k.mu.Unlock()
	if m != nil {
		m.done <- handed[R]{lead: true}
	}
}
