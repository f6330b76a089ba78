package redisstore_test

import (
	"bufio"
	"context"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit/ratelimit"
	"github.com/seed012df1e9/guildkit/ratelimit/redisstore"
	"github.com/seed012df1e9/guildkit/ratelimit/storetest"
)

// monitorArgs splits a MONITOR line's quoted arguments:
// `1.2 [0 lua] "GET" "k"` gives "lua" and ["GET", "k"].
func monitorArgs(line string) (client string, args []string) {
	open := strings.IndexByte(line, '[')
	end := strings.IndexByte(line, ']')
	if open < 0 || end < open {
		return "", nil
	}
	if f := strings.Fields(line[open+1 : end]); len(f) == 2 {
		client = f[1]
	}
	rest := line[end+1:]
	for {
		q := strings.IndexByte(rest, '"')
		if q < 0 {
			return client, args
		}
		var b strings.Builder
		i := q + 1
		for ; i < len(rest) && rest[i] != '"'; i++ {
			if rest[i] == '\\' && i+1 < len(rest) {
				i++
				switch rest[i] {
				case 'x':
					if n, err := strconv.ParseUint(rest[i+1:i+3], 16, 8); err == nil {
						b.WriteByte(byte(n))
						i += 2
						continue
					}
				case 'n':
					b.WriteByte('\n')
					continue
				}
			}
			b.WriteByte(rest[i])
		}
		args = append(args, b.String())
		rest = rest[min(i+1, len(rest)):]
	}
}

// TestScriptsDeclareTheirKeys: every key a script reads or writes is one
// of the keys it was given (Redis's scripting rule, which a Cluster routes
// by and servers such as Dragonfly enforce), and none is empty. The
// conformance suite and an outage with its way back run while MONITOR
// shows each script's commands after the EVALSHA that ran it.
func TestScriptsDeclareTheirKeys(t *testing.T) {
	rs := startRedis(t)
	cli, err := exec.LookPath("redis-cli")
	if err != nil {
		t.Skip("redis-cli is not installed")
	}
	mon := exec.Command(cli, "-p", strconv.Itoa(rs.Port()), "monitor")
	out, err := mon.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, mon.Start())
	var mu sync.Mutex
	var lines []string
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			mu.Lock()
			lines = append(lines, sc.Text())
			mu.Unlock()
		}
	}()
	rdb := rs.client(t)
	waitFor(t, "the monitor", func() bool {
		_ = rdb.Ping(context.Background()).Err()
		mu.Lock()
		defer mu.Unlock()
		return len(lines) > 0
	})

	t.Run("storetest", func(t *testing.T) {
		storetest.Run(t, func(t *testing.T, cfg storetest.Config) ratelimit.Store {
			return redisstore.New(rdb, redisstore.Options{ClaimTTL: cfg.ClaimTTL, PollInterval: 20 * time.Millisecond})
		})
	})
	// An outage, with invalid requests to carry back and a bucket held to
	// its share on the way back.
	ctx := context.Background()
	store := redisstore.New(rdb, redisstore.Options{RetryInterval: 20 * time.Millisecond})
	tok := ratelimit.TokenHash("Bot keys")
	r := &ratelimit.Reservation{Token: tok, Method: "GET", Route: "/guilds/{guild.id}", Major: "1"}
	require.NoError(t, store.Reserve(ctx, r))
	require.NoError(t, store.Observe(ctx, r, &ratelimit.Observation{Status: 200, Bucket: "k", Limited: true, Limit: 8, Remaining: 7, ResetAfter: 2 * time.Second, HasReset: true}))
	require.NoError(t, rdb.ClientPause(ctx, 300*time.Millisecond).Err()) // unanswered for a while: an outage
	short := redisstore.New(rdb, redisstore.Options{Timeout: 50 * time.Millisecond, RetryInterval: 20 * time.Millisecond})
	r = &ratelimit.Reservation{Token: tok, Method: "GET", Route: "/guilds/{guild.id}", Major: "1"}
	require.NoError(t, short.Reserve(ctx, r))
	require.True(t, r.Fallback)
	require.NoError(t, short.Observe(ctx, r, &ratelimit.Observation{Status: 403, Bucket: "k", Limited: true, Limit: 8, Remaining: 5, ResetAfter: 2 * time.Second, HasReset: true}))
	waitFor(t, "Redis back", func() bool {
		r := &ratelimit.Reservation{Token: tok, Method: "GET", Route: "/guilds/{guild.id}", Major: "1"}
		require.NoError(t, short.Reserve(ctx, r))
		if r.Ticket.Held {
			require.NoError(t, short.Observe(ctx, r, &ratelimit.Observation{Status: 200, Bucket: "k", Limited: true, Limit: 8, Remaining: 4, ResetAfter: time.Second, HasReset: true}))
		}
		return !r.Fallback
	})
	n, err := short.InvalidRequests(ctx, tok)
	require.NoError(t, err)
	assert.Equal(t, 1, n)

	require.NoError(t, mon.Process.Kill())
	wg.Wait()
	_ = mon.Wait()

	scripts, checked := 0, 0
	var declared map[string]bool
	for _, line := range lines {
		client, args := monitorArgs(line)
		if len(args) == 0 {
			continue
		}
		cmd := strings.ToLower(args[0])
		if client != "lua" {
			declared = nil
			if (cmd == "evalsha" || cmd == "eval") && len(args) >= 3 {
				n, err := strconv.Atoi(args[2])
				require.NoError(t, err, line)
				declared = make(map[string]bool)
				for _, k := range args[3 : 3+n] {
					assert.NotEmpty(t, k, "an empty key: %s", line)
					declared[k] = true
				}
				scripts++
			}
			continue
		}
		if cmd == "time" {
			continue
		}
		require.NotNil(t, declared, "a script command after no EVALSHA: %s", line)
		require.GreaterOrEqual(t, len(args), 2, line)
		assert.True(t, declared[args[1]], "the script touches a key it was not given: %s", line)
		checked++
	}
	t.Logf("%d scripts run, %d of their commands checked", scripts, checked)
	assert.Greater(t, scripts, 100)
	assert.Greater(t, checked, 500)
}
