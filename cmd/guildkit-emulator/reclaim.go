package main

import (
	"context"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// After a burst (a thousand sessions each sent hundreds of dispatches),
// the emulator's heap shrinks back once the sessions acknowledge what they
// got; but the Go runtime keeps the pages of the burst's peak until a
// collection, which an idle emulator may not run for minutes. So the
// emulator watches its allocation rate, and once a busy period is over it
// collects and gives the memory back to the system at each quiet tick for
// a minute (the heartbeats that acknowledge the burst come within one
// interval, 41.25 s).
const (
	reclaimEvery    = 5 * time.Second
	reclaimBusy     = 16 << 20 // allocated in one tick: busy
	reclaimQuiet    = 4 << 20  // allocated in one tick: quiet
	reclaimAfterFor = 12       // quiet ticks reclaimed after a busy period
)

// reclaimAfterBursts runs until ctx ends: at each tick it reads how much
// was allocated so far (allocated is called once at the start and once a
// tick), and calls free at each of the first reclaimAfterFor quiet ticks
// after a busy one.
func reclaimAfterBursts(ctx context.Context, tick <-chan time.Time, allocated func() uint64, free func()) {
	prev := allocated()
	left := 0
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick:
		}
		now := allocated()
		delta := now - prev
		prev = now
		switch {
		case delta >= reclaimBusy:
			left = reclaimAfterFor
		case left > 0 && delta < reclaimQuiet:
			left--
			free()
		}
	}
}

// heapAllocated is the bytes allocated on the heap since the process
// started.
func heapAllocated() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// startReclaiming reclaims after bursts until ctx ends.
func startReclaiming(ctx context.Context) {
	t := time.NewTicker(reclaimEvery)
	go func() {
		defer t.Stop()
		reclaimAfterBursts(ctx, t.C, heapAllocated, debug.FreeOSMemory)
	}()
}
