package assist

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// TestEachPartRunsOnce starts many parts from many groups while helpers
// take what they can, and wants every part run exactly once and Wait to
// return only after all of a group's parts.
func TestEachPartRunsOnce(t *testing.T) {
	const groups, parts = 50, 20
	var runs [groups * parts]atomic.Int32
	stop := make(chan struct{})
	var helpers sync.WaitGroup
	var helped atomic.Int32
	for range 3 {
		helpers.Add(1)
		go func() {
			defer helpers.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if Help() {
					helped.Add(1)
				} else {
					runtime.Gosched()
				}
			}
		}()
	}
	var jobs sync.WaitGroup
	for g := range groups {
		jobs.Add(1)
		go func() {
			defer jobs.Done()
			var grp Group
			for p := range parts {
				grp.Go(func() { runs[g*parts+p].Add(1) })
			}
			grp.Wait()
			for p := range parts {
				if n := runs[g*parts+p].Load(); n != 1 {
					t.Errorf("group %d part %d ran %d times before Wait returned", g, p, n)
				}
			}
		}()
	}
	jobs.Wait()
	close(stop)
	helpers.Wait()
	t.Logf("%d of %d parts run by helpers", helped.Load(), groups*parts)
}

// TestQueueDrainsWithoutHelpers wants the queue to stay small when nobody
// calls Help: parts their goroutines took leave it.
func TestQueueDrainsWithoutHelpers(t *testing.T) {
	for range 100 {
		var g Group
		for range 10 {
			g.Go(func() {})
		}
		g.Wait()
	}
	var g Group
	g.Go(func() {})
	g.Wait()
	queue.mu.Lock()
	n := len(queue.parts)
	queue.mu.Unlock()
	if n > 10 {
		t.Errorf("%d parts left queued after all ran", n)
	}
}

// TestHelpRunsQueuedPart wants Help to run a part whose goroutine has not
// started, and the part's own goroutine then to leave it alone.
func TestHelpRunsQueuedPart(t *testing.T) {
	old := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(old)
	var g Group
	ran := 0
	g.Go(func() { ran++ })
	// With one processor, the new goroutine cannot have run yet.
	if !Help() {
		t.Fatal("Help found nothing to run")
	}
	g.Wait()
	runtime.Gosched() // let the part's goroutine find it taken
	if ran != 1 {
		t.Fatalf("part ran %d times", ran)
	}
}
