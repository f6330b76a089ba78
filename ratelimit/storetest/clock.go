package storetest

import (
	"sort"
	"sync"
	"time"
)

// ManualClock is a [ratelimit.Clock] that moves only when told to: the
// identify suite runs a limiter that accepts a clock on one, so that its
// 5-second windows take no wall-clock time.
type ManualClock struct {
	mu     sync.Mutex
	now    time.Time
	seq    uint64
	timers map[uint64]*manualTimer
}

type manualTimer struct {
	at  time.Time
	seq uint64
	f   func()
}

// NewManualClock returns a clock at a fixed instant.
func NewManualClock() *ManualClock {
	return &ManualClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), timers: make(map[uint64]*manualTimer)}
}

// Now implements [ratelimit.Clock].
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc implements [ratelimit.Clock]: f runs when [ManualClock.Advance]
// passes now+d (at once, on the caller's goroutine, when d <= 0).
func (c *ManualClock) AfterFunc(d time.Duration, f func()) func() bool {
	if d <= 0 {
		f()
		return func() bool { return false }
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	id := c.seq
	c.timers[id] = &manualTimer{at: c.now.Add(d), seq: id, f: f}
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		_, ok := c.timers[id]
		delete(c.timers, id)
		return ok
	}
}

// Advance moves the clock by d and runs the functions that fell due, in
// the order of their instants, without holding the clock's lock.
func (c *ManualClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []*manualTimer
	for id, t := range c.timers {
		if !t.at.After(c.now) {
			due = append(due, t)
			delete(c.timers, id)
		}
	}
	c.mu.Unlock()
	sort.Slice(due, func(i, j int) bool {
		if !due[i].at.Equal(due[j].at) {
			return due[i].at.Before(due[j].at)
		}
		return due[i].seq < due[j].seq
	})
	for _, t := range due {
		t.f()
	}
}

// Pending returns how many functions wait for the clock.
func (c *ManualClock) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}
