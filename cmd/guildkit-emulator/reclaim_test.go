package main

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestReclaimAfterBursts: memory is given back at each quiet tick for a
// minute after a busy one, and never while busy or long idle.
func TestReclaimAfterBursts(t *testing.T) {
	t.Parallel()
	// What each tick allocates: idle, a burst of two busy ticks and then
	// quiet ones, then busy again with a quiet tick between (reclaimed
	// once, the count starting again) and a tick neither busy nor quiet.
	var script []uint64
	for range 5 {
		script = append(script, 1<<20)
	}
	script = append(script, 64<<20, 64<<20)
	for range reclaimAfterFor + 5 {
		script = append(script, 1<<20)
	}
	script = append(script, 32<<20, 0, 32<<20, 8<<20)

	var total uint64
	calls := 0
	allocated := func() uint64 { // called once at the start, then once a tick
		if calls > 0 {
			total += script[calls-1]
		}
		calls++
		return total
	}
	frees := 0
	tick := make(chan time.Time)
	done := make(chan struct{})
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		defer close(done)
		reclaimAfterBursts(ctx, tick, allocated, func() { frees++ })
	}()
	for range script {
		tick <- time.Time{}
	}
	cancel()
	<-done
	assert.Equal(t, len(script)+1, calls)
	assert.Equal(t, reclaimAfterFor+1, frees)
}
