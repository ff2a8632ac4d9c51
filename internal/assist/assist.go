// Package assist runs the parts of one job on whichever goroutine gets to
// them first: the goroutine started for each part, or a worker that has
// finished its own job and asks for more.
//
// A program that keeps a fixed pool of busy workers (one per core, as
// 'hipgen translate' does) starves the goroutines a job starts for its
// parts: the scheduler queues them on the starting worker's processor,
// which no other processor steals from while all are busy, so the parts
// run one after another there. Workers that call Help between jobs take
// such parts over as soon as they are free, oldest first.
package assist

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// A Group runs the parts of one job. The zero value is ready to use.
type Group struct {
	wg sync.WaitGroup
}

// part is one function given to Group.Go; taken tells whether a goroutine
// has started it.
type part struct {
	f     func()
	taken atomic.Bool
	g     *Group
}

// queue holds, oldest first, the parts that may not have started; queued
// is their number, read without the lock by Help.
var queue struct {
	mu     sync.Mutex
	parts  []*part
	queued atomic.Int32
}

// Go runs f on a new goroutine, unless a worker calling Help starts it
// first.
func (g *Group) Go(f func()) {
	p := &part{f: f, g: g}
	g.wg.Add(1)
	queue.mu.Lock()
	// Parts their own goroutines took leave the front, so the queue
	// holds no more than the parts in flight even where nobody helps.
	i := 0
	for i < len(queue.parts) && queue.parts[i].taken.Load() {
		queue.parts[i] = nil
		i++
	}
	queue.parts = append(queue.parts[i:], p)
	queue.queued.Store(int32(len(queue.parts)))
	queue.mu.Unlock()
	go p.run()
}

// run runs the part unless another goroutine has, and reports whether it
// did.
func (p *part) run() bool {
	if !p.taken.CompareAndSwap(false, true) {
		return false
	}
	defer p.g.wg.Done()
	p.f()
	return true
}

// Wait waits until every part given to Go has returned.
func (g *Group) Wait() { g.wg.Wait() }

// Help runs the oldest part of any group that no goroutine has started,
// and reports whether it found one. It costs next to nothing when there is
// none, so that a worker may ask between the steps of its own job.
func Help() bool {
	for queue.queued.Load() > 0 {
		queue.mu.Lock()
		if len(queue.parts) == 0 {
			queue.mu.Unlock()
			return false
		}
		p := queue.parts[0]
		queue.parts[0] = nil
		queue.parts = queue.parts[1:]
		queue.queued.Store(int32(len(queue.parts)))
		queue.mu.Unlock()
		if p.run() {
			// The goroutine waiting for the part's group, if this
			// was its last part, is now queued to run next on this
			// processor, where it would wait for this worker's next
			// job to end: yield to it (and to anything else queued
			// here) first.
			runtime.Gosched()
			return true
		}
	}
	return false
}
