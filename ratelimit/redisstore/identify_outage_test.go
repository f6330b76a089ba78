package redisstore_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit/ratelimit"
	"github.com/seed012df1e9/guildkit/ratelimit/redisstore"
)

// TestIdentifyWaitsForRedis: while Redis is down, Acquire identifies
// nobody: it waits, reports the outage through Down, and gives up with the
// caller. When Redis is back, empty (a restart without persistence: the key
// another process took just before is forgotten), a process that saw it
// gone takes no key before a lease and a window have passed since it went,
// so that the forgotten take still counts.
func TestIdentifyWaitsForRedis(t *testing.T) {
	rs := startRedis(t)
	const window, lease = 200 * time.Millisecond, 600 * time.Millisecond
	opts := redisstore.IdentifyOptions{Window: window, Lease: lease, PollInterval: 10 * time.Millisecond,
		RetryInterval: 20 * time.Millisecond, Timeout: 300 * time.Millisecond}
	a := redisstore.NewIdentifyLimiter(rs.client(t), opts)
	var logs syncBuffer
	opts.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	b := redisstore.NewIdentifyLimiter(rs.client(t), opts)
	ctx := context.Background()
	tok := ratelimit.TokenHash("Bot outage")

	_, err := a.Acquire(ctx, tok, 0, 1) // A dies mid-identify: never done
	require.NoError(t, err)
	rs.stop(t)
	wentAt := time.Now()

	short, cancel := context.WithTimeout(ctx, 3*window)
	defer cancel()
	done, err := b.Acquire(short, tok, 1, 1)
	require.ErrorIs(t, err, context.DeadlineExceeded, "B took a key while Redis was down")
	assert.Nil(t, done)
	require.ErrorIs(t, b.Down(), redisstore.ErrUnavailable)
	assert.NotContains(t, b.Down().Error(), tok)

	rs.start(t)
	done, err = b.Acquire(ctx, tok, 2, 1)
	require.NoError(t, err)
	took := time.Since(wentAt)
	done()
	assert.GreaterOrEqual(t, took, lease+window, "B took a key Redis may have forgotten")
	assert.Less(t, took, lease+window+time.Second, "B waited longer than the hold")
	assert.NoError(t, b.Down())
	out := logs.String()
	assert.Equal(t, 1, strings.Count(out, "Redis is unavailable"), out)
	assert.Equal(t, 1, strings.Count(out, "Redis serves again"), out)
	assert.NotContains(t, out, tok)
}

// TestIdentifyDoneWhileRedisDown: a done that cannot reach Redis leaves
// the key to its lease: the next take comes no earlier than the lease, so
// the IDENTIFY the done announced is covered.
func TestIdentifyDoneWhileRedisDown(t *testing.T) {
	rs := startRedis(t)
	const window, lease = 200 * time.Millisecond, 600 * time.Millisecond
	l := redisstore.NewIdentifyLimiter(rs.client(t), redisstore.IdentifyOptions{Window: window, Lease: lease,
		PollInterval: 10 * time.Millisecond, RetryInterval: 20 * time.Millisecond, Timeout: 300 * time.Millisecond})
	ctx := context.Background()
	tok := ratelimit.TokenHash("Bot done-down")
	done, err := l.Acquire(ctx, tok, 0, 1)
	require.NoError(t, err)
	takenAt := time.Now()
	rs.stop(t)
	done()
	require.ErrorIs(t, l.Down(), redisstore.ErrUnavailable)
	rs.start(t)
	done, err = l.Acquire(ctx, tok, 1, 1)
	require.NoError(t, err)
	done()
	assert.GreaterOrEqual(t, time.Since(takenAt), lease)
}
