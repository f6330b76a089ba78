package redisstore_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
	"github.com/seed012df1e9/guildkit/ratelimit"
)

// Faults in the multi-process set-up: a global 429, a process killed while
// it holds a discovery claim, and Redis stopped in the middle of a run.

// waitFor polls cond until it holds or 10 s pass.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestMultiProcessGlobal429: the server answers one request with a global
// 429. The process that gets it stores the pause in Redis, every other
// process waits it out, and the server answers no other 429.
func TestMultiProcessGlobal429(t *testing.T) {
	rs := startRedis(t)
	rdb := rs.client(t)
	srv := guildkittest.NewServer(t, guildkittest.WithGlobalLimit(50, time.Second),
		guildkittest.WithGlobalWindow(guildkittest.SlidingWindow))
	g := srv.AddGuild(guildkit.Guild{})
	orders := childOrders{BaseURL: srv.BaseURL(), Token: srv.Token(), Redis: rs.Addr(), Guilds: []guildkit.Snowflake{g.ID}, Calls: 5, Workers: 1}
	victim := startChild(t, orders)
	var others []*child
	for range 3 {
		others = append(others, startChild(t, orders))
	}
	srv.InjectGlobalLimit(time.Second)
	victim.start()
	pause := "{gk:" + ratelimit.TokenHash("Bot "+srv.Token()) + "}:pause"
	waitFor(t, "the pause in Redis", func() bool { return rdb.Exists(context.Background(), pause).Val() == 1 })
	for _, ch := range others {
		ch.start()
	}
	res := victim.result(t)
	assert.Empty(t, res.Errors)
	assert.Equal(t, 5, res.OK)
	assert.Equal(t, 1, res.Hits, "the one injected 429")
	for i, ch := range others {
		res := ch.result(t)
		assert.Empty(t, res.Errors, "child %d", i)
		assert.Equal(t, 5, res.OK, "child %d", i)
		assert.Zero(t, res.Hits, "child %d", i)
		assert.Positive(t, res.GlobalWaits, "child %d waited out the pause another process met", i)
		assert.Empty(t, res.Leaked)
	}
	assert.Equal(t, 1, srv.RateLimited(), "no 429 after the first")
	assert.Equal(t, 1, srv.GlobalRateLimited())
}

// TestMultiProcessClaimHolderKilled: a process that holds the discovery
// claim of a new bucket is killed (SIGKILL) before its answer. The others
// wait for the claim rather than all probing the unknown limit, and go on
// once its TTL has passed.
func TestMultiProcessClaimHolderKilled(t *testing.T) {
	rs := startRedis(t)
	srv := guildkittest.NewServer(t, guildkittest.WithRouteLimit("GET /guilds/{guild.id}", 5, time.Second))
	g := srv.AddGuild(guildkit.Guild{})
	target, err := url.Parse(srv.URL)
	require.NoError(t, err)
	rp := httputil.NewSingleHostReverseProxy(target)
	// The proxy holds the first request for the guild until its client goes
	// away, and counts the requests that reach it.
	var seen atomic.Int32
	arrived := make(chan struct{})
	var once sync.Once
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/guilds/"+g.ID.String()) {
			if seen.Add(1) == 1 {
				once.Do(func() { close(arrived) })
				<-r.Context().Done()
				return
			}
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(proxy.Close)
	orders := childOrders{
		BaseURL: proxy.URL + guildkittest.APIPrefix, Token: srv.Token(), Redis: rs.Addr(),
		Guilds: []guildkit.Snowflake{g.ID}, Calls: 1, Workers: 1, ClaimTTL: 1500 * time.Millisecond,
	}
	claimer := startChild(t, orders)
	var others []*child
	for range 3 {
		others = append(others, startChild(t, orders))
	}
	claimer.start()
	select {
	case <-arrived:
	case <-time.After(10 * time.Second):
		t.Fatal("the claimer's request never arrived")
	}
	for _, ch := range others {
		ch.start()
	}
	time.Sleep(300 * time.Millisecond) // the others are now waiting on the claim
	assert.Equal(t, int32(1), seen.Load(), "while the claim holds, nobody else probes the bucket")
	require.NoError(t, claimer.cmd.Process.Signal(syscall.SIGKILL))
	for i, ch := range others {
		res := ch.result(t)
		assert.Empty(t, res.Errors, "child %d", i)
		assert.Equal(t, 1, res.OK, "child %d goes on after the claim's TTL", i)
		assert.Empty(t, res.Leaked)
	}
	<-claimer.done
	assert.False(t, claimer.cmd.ProcessState.Success(), "the claimer was killed")
	assert.Equal(t, int32(4), seen.Load())
	assert.Zero(t, srv.RateLimited())
}

// TestMultiProcessRedisStops: Redis is stopped in the middle of the
// multi-process scenario and started again a second later (empty: no
// persistence). Every process falls back to its share of the global rate,
// says so once, goes back to Redis when it answers, and says that once;
// every call succeeds; no process panics or leaves a goroutine behind.
func TestMultiProcessRedisStops(t *testing.T) {
	rs := startRedis(t)
	srv := guildkittest.NewServer(t,
		guildkittest.WithGlobalLimit(50, time.Second), guildkittest.WithGlobalWindow(guildkittest.SlidingWindow),
		guildkittest.WithRouteLimit("GET /guilds/{guild.id}", 10, time.Second),
		guildkittest.WithRouteLimit("GET /guilds/{guild.id}/roles", 5, time.Second))
	var guilds []guildkit.Snowflake
	for range mpGuilds {
		guilds = append(guilds, srv.AddGuild(guildkit.Guild{}).ID)
	}
	const procs = 4
	var children []*child
	for i := range procs {
		children = append(children, startChild(t, childOrders{
			BaseURL: srv.BaseURL(), Token: srv.Token(), Redis: rs.Addr(), Guilds: guilds,
			Total: mpCalls, Calls: mpCalls / procs, First: i, Stride: procs, Workers: 15, Retry: 200 * time.Millisecond, UntilUp: true,
		}))
	}
	for _, ch := range children {
		ch.start()
	}
	waitFor(t, "the first requests", func() bool { return len(srv.Requests()) >= 60 })
	rs.stop(t)
	time.Sleep(time.Second)
	rs.start(t)
	ok := 0
	for i, ch := range children {
		res := ch.result(t)
		assert.Empty(t, res.Errors, "child %d", i)
		assert.Empty(t, res.Leaked, "child %d", i)
		// Told of the outage and of its end, in turn. The children's
		// clients do not retry (MaxRetries -1, to notice an outage at once),
		// so a connection the pool kept from before the restart can fail
		// once more right after it: a second, short outage, told and ended
		// like the first. A child whose calls all ended before Redis was
		// back makes a few more (UntilUp) until it says so.
		assert.GreaterOrEqual(t, res.StoreDown, 1, "child %d said that Redis was gone", i)
		assert.LessOrEqual(t, res.StoreDown, 2, "child %d: one outage, and at most one stale connection after it", i)
		assert.Equal(t, res.StoreDown, res.StoreUp, "child %d said it was back after each outage it told of", i)
		ok += res.OK
		if res.Extra > 0 {
			t.Logf("child %d: %d calls after its share, to see Redis back", i, res.Extra)
		}
	}
	assert.Equal(t, mpCalls, ok, "every call succeeds")
	t.Logf("429s during the outage: %d (global %d)", srv.RateLimited(), srv.GlobalRateLimited())
}
