package ratelimit_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit/ratelimit"
	"github.com/seed012df1e9/guildkit/ratelimit/storetest"
)

func TestSlidingWindow(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rate float64
		want ratelimit.GlobalLimit
	}{
		{50, ratelimit.GlobalLimit{Limit: 50, Window: time.Second + ratelimit.DefaultMargin, Margin: ratelimit.DefaultMargin}},
		{1, ratelimit.GlobalLimit{Limit: 1, Window: time.Second + ratelimit.DefaultMargin, Margin: ratelimit.DefaultMargin}},
		{0.5, ratelimit.GlobalLimit{Limit: 1, Window: 2*time.Second + 2*ratelimit.DefaultMargin, Margin: 2 * ratelimit.DefaultMargin}},
		{0, ratelimit.GlobalLimit{}},
		{-3, ratelimit.GlobalLimit{}},
	} {
		assert.Equal(t, tc.want, ratelimit.SlidingWindow(tc.rate), "%v", tc.rate)
	}
	big := ratelimit.SlidingWindow(1e12)
	assert.Equal(t, 4096, big.Limit, "a huge rate keeps a bounded log")
	assert.Less(t, big.Window, time.Microsecond)
}

func TestTokenHash(t *testing.T) {
	t.Parallel()
	h := ratelimit.TokenHash("Bot secret-token")
	assert.Len(t, h, 32)
	assert.NotContains(t, h, "secret")
	assert.Equal(t, h, ratelimit.TokenHash("Bot secret-token"), "stable")
	assert.NotEqual(t, h, ratelimit.TokenHash("Bot other"))
	assert.Equal(t, "none", ratelimit.TokenHash(""))
	assert.False(t, strings.Contains(ratelimit.SecretHash("abc"), "abc"))
}

// TestMemoryGlobalSlidingWindow: at most Limit reservations in any Window;
// the next waits for the oldest to leave the window, and takes nothing while
// it waits.
func TestMemoryGlobalSlidingWindow(t *testing.T) {
	t.Parallel()
	m := ratelimit.NewMemoryStore(ratelimit.MemoryOptions{})
	ctx := t.Context()
	g := ratelimit.GlobalLimit{Limit: 3, Window: 300 * time.Millisecond}
	for i := range 3 {
		r := &ratelimit.Reservation{Token: "t", Method: "GET", Route: "/x/{a}", Major: string(rune('a' + i)), Global: g}
		require.NoError(t, m.Reserve(ctx, r))
		require.Zero(t, r.Wait, "reservation %d", i)
		require.NoError(t, m.Observe(ctx, r, &ratelimit.Observation{Status: 200}))
	}
	r := &ratelimit.Reservation{Token: "t", Method: "GET", Route: "/x/{a}", Major: "d", Global: g}
	require.NoError(t, m.Reserve(ctx, r))
	assert.True(t, r.GlobalWait)
	assert.False(t, r.Ticket.Held)
	assert.Positive(t, r.Wait)
	assert.LessOrEqual(t, r.Wait, g.Window)
	// Another token has its own window.
	other := &ratelimit.Reservation{Token: "u", Method: "GET", Route: "/x/{a}", Major: "d", Global: g}
	require.NoError(t, m.Reserve(ctx, other))
	assert.Zero(t, other.Wait)
	require.NoError(t, m.Release(ctx, other))

	time.Sleep(r.Wait)
	require.NoError(t, m.Reserve(ctx, r))
	assert.Zero(t, r.Wait, "the oldest left the window")
	require.NoError(t, m.Release(ctx, r))
}

func TestMemoryStoreConformance(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, cfg storetest.Config) ratelimit.Store {
		return ratelimit.NewMemoryStore(ratelimit.MemoryOptions{ClaimTTL: cfg.ClaimTTL})
	})
}

// TestMemoryBucketShare: with a BucketShare, a bucket admits at most that
// share of its limit in each window (at least one), whatever the answers
// say is left; a slot given back counts no more, nor does an answer to a
// request the store did not reserve for (another process's send).
func TestMemoryBucketShare(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	for _, tc := range []struct {
		limit int
		share float64
		want  int // sends per window
	}{
		{8, 0.25, 2}, {5, 0.25, 1}, {1, 0.25, 1}, {9, 0.5, 4}, {4, 0, 4},
	} {
		m := ratelimit.NewMemoryStore(ratelimit.MemoryOptions{BucketShare: tc.share})
		res := func() *ratelimit.Reservation {
			return &ratelimit.Reservation{Token: "t", Method: "GET", Route: "/x/{a}", Major: "1"}
		}
		// The discovery claim is the first send of the first window, which
		// the answer makes 500ms long: far more than the sends take.
		const window = 500 * time.Millisecond
		r := res()
		require.NoError(t, m.Reserve(ctx, r))
		require.True(t, r.Ticket.Claim)
		require.NoError(t, m.Observe(ctx, r, &ratelimit.Observation{Status: 200, Limited: true, Limit: tc.limit, Remaining: tc.limit - 1, ResetAfter: window, HasReset: true}))
		sent := 1
		for range tc.limit {
			r := res()
			require.NoError(t, m.Reserve(ctx, r))
			if r.Wait > 0 {
				assert.False(t, r.Pending)
				assert.LessOrEqual(t, r.Wait, window, "waits for the window's end")
				break
			}
			sent++
			require.NoError(t, m.Observe(ctx, r, &ratelimit.Observation{Status: 200, Limited: true, Limit: tc.limit, Remaining: tc.limit - sent, ResetAfter: window - 50*time.Millisecond, HasReset: true}))
		}
		assert.Equal(t, tc.want, sent, "limit %d, share %v: first window", tc.limit, tc.share)

		// A new window, once the store says so: the share again; a released
		// slot is free again.
		deadline := time.Now().Add(5 * time.Second)
		for r = res(); ; {
			require.NoError(t, m.Reserve(ctx, r))
			if r.Wait == 0 {
				break
			}
			require.True(t, time.Now().Before(deadline), "the window never ended")
			time.Sleep(r.Wait)
		}
		require.NoError(t, m.Release(ctx, r))
		// An answer to a request this store did not reserve for tells of the
		// bucket, but is not one of this store's sends: the share is whole.
		require.NoError(t, m.Observe(ctx, res(), &ratelimit.Observation{Status: 200, Limited: true, Limit: tc.limit, Remaining: tc.limit, ResetAfter: window, HasReset: true}))
		var held []*ratelimit.Reservation
		for range tc.limit + 1 {
			r := res()
			require.NoError(t, m.Reserve(ctx, r))
			if r.Wait > 0 {
				break
			}
			held = append(held, r)
		}
		assert.Len(t, held, tc.want, "limit %d, share %v: second window", tc.limit, tc.share)
		for _, r := range held {
			require.NoError(t, m.Release(ctx, r))
		}
	}
}
