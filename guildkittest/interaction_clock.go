package guildkittest

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// clockTimers are the pending [Server.AfterFunc] functions.
type clockTimers struct {
	mu      sync.Mutex
	pending map[*clockTimer]struct{}
	closed  bool
}

// clockTimer is one AfterFunc function: it runs once, when the server's
// clock reaches at.
type clockTimer struct {
	timers *clockTimers
	now    func() time.Time
	at     time.Time
	f      func()
	state  atomic.Int32 // timerPending, then timerFired or timerStopped
	real   *time.Timer  // wakes it as real time passes; guarded by timers.mu
}

const (
	timerPending int32 = iota
	timerFired
	timerStopped
)

// AfterFunc runs f once the server's clock ([Server.Now]) reaches
// Now()+d: either because real time passed (f then runs in its own
// goroutine, as with time.AfterFunc) or because [Server.AdvanceClock]
// moved the clock to or past that time (f then runs in the goroutine that
// called AdvanceClock, before AdvanceClock returns, so a test sees its
// effects at once, without sleeping). A clock set with [WithClock] that
// does not move with real time is moved by AdvanceClock only.
//
// stop cancels f; it reports true when it stopped f from running, false
// when f has already run or started, or was stopped before. [Server.Close]
// stops every pending function.
//
// AfterFunc and stop are safe for concurrent use and may be called from f.
// With Now, AfterFunc makes the server a clock that code under test can
// run on (an interface of Now() time.Time and AfterFunc(time.Duration,
// func()) func() bool), so deadlines are tested by advancing the clock.
func (s *Server) AfterFunc(d time.Duration, f func()) (stop func() bool) {
	t := &clockTimer{timers: &s.timers, now: s.Now, at: s.Now().Add(d), f: f}
	ts := &s.timers
	ts.mu.Lock()
	if ts.closed {
		ts.mu.Unlock()
		t.state.Store(timerStopped)
		return t.stop
	}
	if ts.pending == nil {
		ts.pending = make(map[*clockTimer]struct{})
	}
	ts.pending[t] = struct{}{}
	t.real = time.AfterFunc(max(d, 0), t.wake)
	ts.mu.Unlock()
	return t.stop
}

// wake runs when the real timer fires: f runs when the server's clock has
// reached at, else the timer waits again for the time left.
func (t *clockTimer) wake() {
	if left := t.at.Sub(t.now()); left > 0 {
		t.timers.mu.Lock()
		if t.state.Load() == timerPending && !t.timers.closed {
			t.real.Reset(left)
		}
		t.timers.mu.Unlock()
		return
	}
	t.fire()
}

// fire runs f unless it ran or was stopped.
func (t *clockTimer) fire() {
	if !t.state.CompareAndSwap(timerPending, timerFired) {
		return
	}
	t.timers.mu.Lock()
	delete(t.timers.pending, t)
	t.real.Stop()
	t.timers.mu.Unlock()
	t.f()
}

func (t *clockTimer) stop() bool {
	if !t.state.CompareAndSwap(timerPending, timerStopped) {
		return false
	}
	t.timers.mu.Lock()
	delete(t.timers.pending, t)
	if t.real != nil {
		t.real.Stop()
	}
	t.timers.mu.Unlock()
	return true
}

// fireDue runs, in the caller's goroutine and in the order of their times,
// the functions due at now.
func (ts *clockTimers) fireDue(now time.Time) {
	ts.mu.Lock()
	var due []*clockTimer
	for t := range ts.pending {
		if !t.at.After(now) {
			due = append(due, t)
		}
	}
	ts.mu.Unlock()
	slices.SortFunc(due, func(a, b *clockTimer) int { return a.at.Compare(b.at) })
	for _, t := range due {
		t.fire()
	}
}

// close stops every pending function; later AfterFunc calls never run.
func (ts *clockTimers) close() {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.closed = true
	for t := range ts.pending {
		if t.state.CompareAndSwap(timerPending, timerStopped) {
			t.real.Stop()
		}
	}
	ts.pending = nil
}
