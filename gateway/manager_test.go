package gateway_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/gateway"
	"github.com/seed012df1e9/guildkit/guildkittest"
	"github.com/seed012df1e9/guildkit/ratelimit"
)

// guildOn is a guild id the platform's formula puts on shard k of n.
func guildOn(k, n, i int) guildkit.Snowflake {
	return guildkit.Snowflake(uint64(1000*n*(i+1)+k) << 22)
}

// runClock moves srv's clock 20ms every millisecond until the test ends:
// the identify windows (5 s on the server's clock, which the limiter and
// the shards run on too) pass quickly, and heartbeats keep up. It stands
// still while settled says an IDENTIFY is on its way: at 20 times real
// time, a goroutine of a loaded machine descheduled for 13 ms would
// otherwise stretch an IDENTIFY's transit past the limiter's margin, and
// the server would count less than 5 s to the next one on its key. An
// IDENTIFY that never arrives (its connection gone) holds the clock 1 s of
// real time at most.
func runClock(t *testing.T, srv *guildkittest.Server, settled func() bool) {
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tk := time.NewTicker(time.Millisecond)
		defer tk.Stop()
		var held time.Time
		for {
			select {
			case <-stop:
				return
			case now := <-tk.C:
				if !settled() {
					if held.IsZero() {
						held = now
					}
					if now.Sub(held) < time.Second {
						continue
					}
				}
				held = time.Time{}
				srv.AdvanceClock(20 * time.Millisecond)
			}
		}
	}()
	t.Cleanup(func() { close(stop); <-done })
}

// sentLimiter counts the IDENTIFYs the shards sent: they call done once
// theirs is written.
type sentLimiter struct {
	ratelimit.IdentifyLimiter
	sent atomic.Int64
}

func (l *sentLimiter) Acquire(ctx context.Context, token string, shardID, maxConcurrency int) (func(), error) {
	done, err := l.IdentifyLimiter.Acquire(ctx, token, shardID, maxConcurrency)
	if err != nil {
		return nil, err
	}
	var once sync.Once
	return func() {
		once.Do(func() { l.sent.Add(1) })
		done()
	}, nil
}

type shardedEnv struct {
	srv     *guildkittest.Server
	limiter *sentLimiter
	guilds  []guildkit.Snowflake
}

// newShardedEnv starts a server with max_concurrency mc and perShard
// guilds on each of n shards.
func newShardedEnv(t *testing.T, n, mc, perShard int) *shardedEnv {
	srv := guildkittest.NewServer(t, guildkittest.WithGateway(guildkittest.GatewaySettings{MaxConcurrency: mc}))
	// The server counts 5 s between the IDENTIFYs it receives; the limiter
	// spaces them from when they were sent, with the margin shards started
	// together take for the transit (runClock stops the clock meanwhile).
	e := &shardedEnv{srv: srv, limiter: &sentLimiter{IdentifyLimiter: ratelimit.NewMemoryIdentifyLimiter(ratelimit.IdentifyOptions{
		Clock: srv, Window: ratelimit.IdentifyWindow + 250*time.Millisecond})}}
	for k := range n {
		for i := range perShard {
			e.guilds = append(e.guilds, srv.AddGuild(guildkit.Guild{ID: guildOn(k, n, i)}).ID)
		}
	}
	runClock(t, srv, func() bool {
		st := srv.IdentifyStats()
		return e.limiter.sent.Load() <= int64(st.Total+st.Refused)
	})
	return e
}

func (e *shardedEnv) shardOptions() gateway.ManagerOption {
	return gateway.WithShardOptions(gateway.WithURL(e.srv.GatewayURL()), gateway.WithClock(e.srv),
		gateway.WithIdentifyLimiter(e.limiter), gateway.WithMaxConcurrency(e.srv.GatewaySettings().MaxConcurrency),
		gateway.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
}

// awaitShards waits until m runs n shards, every one of them ready.
func awaitShards(t *testing.T, m *gateway.Manager, n int, what string) {
	t.Helper()
	require.Eventually(t, func() bool {
		if m.ShardCount() != n {
			return false
		}
		for _, s := range m.States() {
			if s.Status != gateway.StatusReady {
				return false
			}
		}
		return true
	}, 10*time.Second, time.Millisecond, what)
}

// banEverywhere bans a new user in every guild of e and checks that each
// ban reaches the handlers once, from the shard of n carrying its guild.
func (e *shardedEnv) banEverywhere(t *testing.T, rec *received, n int) {
	t.Helper()
	u := e.srv.AddUser(guildkit.User{Username: "after"})
	for _, g := range e.guilds {
		require.NoError(t, e.srv.Client().Bans.Create(context.Background(), g, u.ID, nil))
		key := fmt.Sprintf("ban %d %d", g, u.ID)
		require.Eventually(t, func() bool { return rec.count(key) == 1 }, 10*time.Second, time.Millisecond, key)
		rec.mu.Lock()
		assert.Equal(t, [2]int{gateway.ShardFor(g, n), n}, rec.shards[key])
		rec.mu.Unlock()
	}
}

// received records the events the handlers got.
type received struct {
	mu     sync.Mutex
	events map[string]int // "NAME guild user" → times delivered
	shards map[string][2]int
	order  []string
}

func newReceived() *received {
	return &received{events: make(map[string]int), shards: make(map[string][2]int)}
}

func (r *received) add(ctx context.Context, key string) {
	sh, _ := gateway.ShardOf(ctx)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events[key]++
	r.shards[key] = sh
	r.order = append(r.order, key)
}

func (r *received) count(key string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.events[key]
}

func (r *received) register(m gateway.Registrar) {
	gateway.On(m, func(ctx context.Context, e *gateway.GuildBanAdd) {
		r.add(ctx, fmt.Sprintf("ban %d %d", e.GuildID, e.User.ID))
	})
	gateway.On(m, func(ctx context.Context, e *gateway.GuildMemberAdd) {
		r.add(ctx, fmt.Sprintf("join %d %d", e.GuildID, e.User.ID))
	})
}

// TestManagerStartsBucketsInOrder: 8 shards at max_concurrency 4 start in
// two buckets, every shard of the first before any of the second, with no
// IDENTIFY refused and never more than 4 in 5 s on the server's count;
// every guild's events come from the shard the formula names.
func TestManagerStartsBucketsInOrder(t *testing.T) {
	e := newShardedEnv(t, 8, 4, 1)
	var mu sync.Mutex
	var readyOrder []int
	rec := newReceived()
	m, err := gateway.NewManager(e.srv.Token(), gateway.WithShardCount(8), e.shardOptions(),
		gateway.WithStatusObserver(func(s gateway.ShardState) {
			if s.Status == gateway.StatusReady {
				mu.Lock()
				readyOrder = append(readyOrder, s.Shard[0])
				mu.Unlock()
			}
		}))
	require.NoError(t, err)
	rec.register(m)
	ctx := context.Background()
	require.NoError(t, m.Open(ctx))
	defer func() { assert.NoError(t, m.End(ctx)) }()

	for _, s := range m.States() {
		assert.Equal(t, gateway.StatusReady, s.Status, "shard %v", s.Shard)
	}
	st := e.srv.IdentifyStats()
	assert.Equal(t, 8, st.Total)
	assert.Zero(t, st.Refused)
	assert.Zero(t, st.InvalidSessions)
	assert.LessOrEqual(t, st.MaxPerWindow, 4)
	mu.Lock()
	require.Len(t, readyOrder, 8)
	for i, id := range readyOrder {
		assert.Equal(t, i/4, id/4, "shard %d ready out of its bucket's turn: %v", id, readyOrder)
	}
	mu.Unlock()

	cl := e.srv.Client()
	u := e.srv.AddUser(guildkit.User{Username: "banned"})
	for _, g := range e.guilds {
		require.NoError(t, cl.Bans.Create(ctx, g, u.ID, nil))
	}
	for _, g := range e.guilds {
		key := fmt.Sprintf("ban %d %d", g, u.ID)
		require.Eventually(t, func() bool { return rec.count(key) == 1 }, 10*time.Second, time.Millisecond, key)
		rec.mu.Lock()
		assert.Equal(t, [2]int{gateway.ShardFor(g, 8), 8}, rec.shards[key])
		rec.mu.Unlock()
		assert.Equal(t, gateway.ShardFor(g, 8), m.ShardFor(g))
	}
}

// TestManagerSessionsResume: Close returns every shard's session; a new
// manager given them resumes all (no IDENTIFY), and receives the events
// sent while no process ran.
func TestManagerSessionsResume(t *testing.T) {
	e := newShardedEnv(t, 4, 2, 1)
	ctx := context.Background()
	m, err := gateway.NewManager(e.srv.Token(), gateway.WithShardCount(4), e.shardOptions())
	require.NoError(t, err)
	newReceived().register(m) // a session resumed keeps the intents it identified with
	require.NoError(t, m.Open(ctx))
	sessions, err := m.Close(ctx)
	require.NoError(t, err)
	require.Len(t, sessions, 4)
	before := e.srv.IdentifyStats().Total

	u := e.srv.AddUser(guildkit.User{Username: "while-away"})
	for _, g := range e.guilds {
		require.NoError(t, e.srv.Client().Bans.Create(ctx, g, u.ID, nil))
	}
	rec := newReceived()
	m2, err := gateway.NewManager(e.srv.Token(), gateway.WithShardCount(4), e.shardOptions(), gateway.WithSessions(sessions))
	require.NoError(t, err)
	rec.register(m2)
	require.NoError(t, m2.Open(ctx))
	defer func() { assert.NoError(t, m2.End(ctx)) }()
	assert.Equal(t, before, e.srv.IdentifyStats().Total, "a shard identified instead of resuming")
	for _, g := range e.guilds {
		key := fmt.Sprintf("ban %d %d", g, u.ID)
		require.Eventually(t, func() bool { return rec.count(key) == 1 }, 10*time.Second, time.Millisecond, "%s not replayed", key)
	}
}

// TestManagerReshard: 2 shards grow to 4 under a steady stream of member
// and ban events in every guild: every event is received exactly once; the
// copies both sets received are suppressed and counted.
func TestManagerReshard(t *testing.T) {
	e := newShardedEnv(t, 4, 2, 2) // guilds spread over 4 shards' worth of ids
	ctx := context.Background()
	rec := newReceived()
	m, err := gateway.NewManager(e.srv.Token(), gateway.WithShardCount(2), e.shardOptions())
	require.NoError(t, err)
	rec.register(m)
	require.NoError(t, m.Open(ctx))
	defer func() { assert.NoError(t, m.End(ctx)) }()

	var sent []string
	var sentMu sync.Mutex
	record := func(key string) {
		sentMu.Lock()
		sent = append(sent, key)
		sentMu.Unlock()
	}
	stop := make(chan struct{})
	var streams sync.WaitGroup
	streams.Add(2)
	go func() { // members join, a guild after another, as fast as the server takes them
		defer streams.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			g := e.guilds[i%len(e.guilds)]
			u := e.srv.JoinMember(g, guildkit.User{Username: fmt.Sprintf("m%d", i)})
			record(fmt.Sprintf("join %d %d", g, u.User.ID))
			time.Sleep(time.Millisecond)
		}
	}()
	go func() { // bans through REST, as fast as its rate limits let them
		defer streams.Done()
		cl := e.srv.Client()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			g := e.guilds[i%len(e.guilds)]
			u := e.srv.AddUser(guildkit.User{Username: fmt.Sprintf("b%d", i)})
			if err := cl.Bans.Create(ctx, g, u.ID, nil); err != nil {
				t.Errorf("ban: %v", err)
				return
			}
			record(fmt.Sprintf("ban %d %d", g, u.ID))
		}
	}()
	// The stream runs before the reshard begins, and goes on after it: wait
	// for events sent rather than for time to pass, so that a slow machine
	// does not reshard an idle bot.
	sentAtLeast := func(n int) func() bool {
		return func() bool {
			sentMu.Lock()
			defer sentMu.Unlock()
			return len(sent) >= n
		}
	}
	require.Eventually(t, sentAtLeast(20), 10*time.Second, time.Millisecond, "the stream sent nothing before the reshard")
	require.NoError(t, m.Reshard(ctx, 4))
	sentMu.Lock()
	before := len(sent)
	sentMu.Unlock()
	require.Eventually(t, sentAtLeast(before+20), 10*time.Second, time.Millisecond, "the stream sent nothing after the reshard")
	close(stop)
	streams.Wait()
	assert.Equal(t, 4, m.ShardCount())
	for _, s := range m.States() {
		assert.Equal(t, 4, s.Shard[1])
		assert.Equal(t, gateway.StatusReady, s.Status)
	}

	sentMu.Lock()
	defer sentMu.Unlock()
	require.NotEmpty(t, sent)
	require.Eventually(t, func() bool {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		for _, k := range sent {
			if rec.events[k] == 0 {
				return false
			}
		}
		return true
	}, 10*time.Second, time.Millisecond, "events lost")
	rec.mu.Lock()
	defer rec.mu.Unlock()
	dups := 0
	for _, k := range sent {
		if rec.events[k] > 1 {
			dups++
		}
	}
	extra := slices.DeleteFunc(slices.Collect(mapsKeys(rec.events)), func(k string) bool { return slices.Contains(sent, k) })
	assert.Empty(t, extra, "events never sent")
	assert.Zero(t, dups, "events delivered twice")
	st := m.Stats()
	t.Logf("%d events over the reshard; %d copies suppressed, %d delivered twice; %d guilds handed over",
		len(sent), st.Suppressed, dups, st.HandedOver)
	assert.Positive(t, st.HandedOver)
	assert.Zero(t, e.srv.IdentifyStats().Refused)
}

func mapsKeys(m map[string]int) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func TestShardForAndBuckets(t *testing.T) {
	t.Parallel()
	assert.Equal(t, 0, gateway.ShardFor(0, 4))
	assert.Equal(t, 3, gateway.ShardFor(guildkit.Snowflake(7<<22), 4))
	assert.Equal(t, 2, gateway.ShardFor(guildkit.Snowflake(7<<22|0x3fffff), 5), "the low 22 bits do not count")
	assert.Equal(t, 0, gateway.ShardFor(12345<<22, 0))
	assert.Equal(t, [][]int{{0, 1, 2, 3}, {4, 5, 6, 7}, {8}}, gateway.Buckets(gateway.ShardRange(0, 9), 4))
	assert.Equal(t, [][]int{{2, 3}, {4, 5}}, gateway.Buckets([]int{5, 3, 4, 2, 3}, 4))
	assert.Equal(t, [][]int{{0}, {1}}, gateway.Buckets([]int{1, 0}, 0))
}

func TestNewManagerChecks(t *testing.T) {
	t.Parallel()
	_, err := gateway.NewManager("")
	assert.Error(t, err)
	_, err = gateway.NewManager("tok")
	assert.ErrorContains(t, err, "WithURL or WithClient")
	_, err = gateway.NewManager("tok", gateway.WithShardCount(4), gateway.WithShardIDs(1, 4, 1),
		gateway.WithShardOptions(gateway.WithURL("ws://127.0.0.1:1")))
	assert.ErrorContains(t, err, "[4 1]")
	m, err := gateway.NewManager("secret-token", gateway.WithShardCount(2), gateway.WithShardOptions(gateway.WithURL("ws://127.0.0.1:1")))
	require.NoError(t, err)
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%d", "%o", "%x", "%t", "%e", "%U"} {
		assert.NotContains(t, fmt.Sprintf(verb, m), "secret", verb)
	}
}

// TestManagerReshardsOn4011: a server that allows 2 guilds per session
// closes the 2 shards carrying 4 each with 4011; Open reshards to 4 and
// returns with every shard ready and every guild's GUILD_CREATE delivered.
func TestManagerReshardsOn4011(t *testing.T) {
	e := newShardedEnv(t, 4, 2, 2)
	e.srv.SetGatewaySettings(guildkittest.GatewaySettings{MaxConcurrency: 2, GuildsPerShard: 2})
	ctx := context.Background()
	var mu sync.Mutex
	created := map[guildkit.Snowflake]int{}
	m, err := gateway.NewManager(e.srv.Token(), gateway.WithShardCount(2), e.shardOptions())
	require.NoError(t, err)
	gateway.On(m, func(_ context.Context, g *gateway.GuildCreate) {
		mu.Lock()
		created[g.ID]++
		mu.Unlock()
	})
	require.NoError(t, m.Open(ctx))
	defer func() { assert.NoError(t, m.End(ctx)) }()
	assert.Equal(t, 4, m.ShardCount())
	for _, s := range m.States() {
		assert.Equal(t, gateway.StatusReady, s.Status, "shard %v", s.Shard)
	}
	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(created) == len(e.guilds)
	}, 10*time.Second, time.Millisecond)
	mu.Lock()
	for g, n := range created {
		assert.Equal(t, 1, n, "guild %d created %d times", g, n)
	}
	mu.Unlock()
	assert.Zero(t, e.srv.IdentifyStats().Refused)
}

// TestManagerReshardsOnLive4011: when the server closes running shards
// with 4011 (the bot is now in too many guilds for them), the manager
// reshards by itself, and the events keep coming, from the new set.
func TestManagerReshardsOnLive4011(t *testing.T) {
	e := newShardedEnv(t, 4, 2, 1) // 4 guilds, 2 per shard of 2
	ctx := context.Background()
	rec := newReceived()
	m, err := gateway.NewManager(e.srv.Token(), gateway.WithShardCount(2), e.shardOptions())
	require.NoError(t, err)
	rec.register(m)
	require.NoError(t, m.Open(ctx))
	defer func() { assert.NoError(t, m.End(ctx)) }()

	e.srv.SetGatewaySettings(guildkittest.GatewaySettings{MaxConcurrency: 2, GuildsPerShard: 1})
	awaitShards(t, m, 4, "no reshard after 4011")
	e.banEverywhere(t, rec, 4)
}

// TestManagerReportsFailedShards: a token the gateway refuses (4004)
// fails every shard; Open says so, each shard's state carries the close
// error, and the status observer saw the failures; no state or error
// holds the token.
func TestManagerReportsFailedShards(t *testing.T) {
	e := newShardedEnv(t, 2, 2, 1)
	const bad = "not-the-bot-token.secret"
	var mu sync.Mutex
	failed := map[int]error{}
	m, err := gateway.NewManager(bad, gateway.WithShardCount(2), e.shardOptions(),
		gateway.WithStatusObserver(func(s gateway.ShardState) {
			if s.Status == gateway.StatusFailed {
				mu.Lock()
				failed[s.Shard[0]] = s.Err
				mu.Unlock()
			}
		}))
	require.NoError(t, err)
	ctx := context.Background()
	err = m.Open(ctx)
	defer func() { _ = m.End(ctx) }()
	var ce *gateway.CloseError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, gateway.CloseCode(4004), ce.Code)
	assert.NotContains(t, err.Error(), "secret")
	for _, s := range m.States() {
		assert.Equal(t, gateway.StatusFailed, s.Status)
		require.ErrorAs(t, s.Err, &ce)
		assert.NotContains(t, fmt.Sprintf("%v %+v", s, s.Err), "secret")
	}
	mu.Lock()
	defer mu.Unlock()
	assert.Len(t, failed, 2)
}

// TestManagerStatusObserverHearsEveryStatus: the status observer is told
// every change, the wait for the identify limiter and IDENTIFY's wait for
// READY included, in order per shard; and it ends with the close.
func TestManagerStatusObserverHearsEveryStatus(t *testing.T) {
	e := newShardedEnv(t, 2, 1, 1) // max_concurrency 1: shard 1 waits for shard 0's window
	var mu sync.Mutex
	seen := map[int][]gateway.Status{}
	m, err := gateway.NewManager(e.srv.Token(), gateway.WithShardCount(2), e.shardOptions(),
		gateway.WithStatusObserver(func(s gateway.ShardState) {
			mu.Lock()
			defer mu.Unlock()
			seen[s.Shard[0]] = append(seen[s.Shard[0]], s.Status)
		}))
	require.NoError(t, err)
	ctx := context.Background()
	require.NoError(t, m.Open(ctx))
	_, err = m.Close(ctx)
	require.NoError(t, err)
	mu.Lock()
	defer mu.Unlock()
	want := []gateway.Status{gateway.StatusConnecting, gateway.StatusWaiting, gateway.StatusIdentifying,
		gateway.StatusReady, gateway.StatusClosed}
	for id := range 2 {
		assert.Equal(t, want, seen[id], "shard %d", id)
	}
}

// TestManagerReshardsBeforeTheGuildLimit: a shard that nears the guild
// limit makes the manager reshard by itself, without a gap, before any
// shard is closed with 4011; every guild's events then arrive once, from
// the new set.
func TestManagerReshardsBeforeTheGuildLimit(t *testing.T) {
	e := newShardedEnv(t, 2, 2, 1) // one guild on each shard of 2
	e.srv.SetGatewaySettings(guildkittest.GatewaySettings{MaxConcurrency: 2, GuildsPerShard: 3})
	var fatal atomic.Int32
	ctx := context.Background()
	rec := newReceived()
	m, err := gateway.NewManager(e.srv.Token(), gateway.WithShardCount(2), e.shardOptions(),
		gateway.WithShardOptions(gateway.WithObserver(guildkit.Observer{Gateway: func(_ context.Context, ev guildkit.GatewayEvent) {
			if ev.Code == int(gateway.CloseShardingRequired) {
				fatal.Add(1)
			}
		}})),
		gateway.WithReshardPolicy(gateway.ReshardPolicy{GuildLimit: 3, Near: 0.5}))
	require.NoError(t, err)
	rec.register(m)
	gateway.On(m, func(context.Context, *gateway.GuildCreate) {}) // GUILDS: the joins are seen
	require.NoError(t, m.Open(ctx))
	defer func() { assert.NoError(t, m.End(ctx)) }()
	assert.Equal(t, 2, m.ShardCount(), "one guild a shard is not near the limit")

	// The bot joins a second guild on shard 0 of 2 (shard 2 of 4): 2 of 3,
	// past half the limit.
	e.guilds = append(e.guilds, e.srv.AddGuild(guildkit.Guild{ID: guildOn(2, 2, 1)}).ID)
	awaitShards(t, m, 4, "no reshard before the limit")
	e.banEverywhere(t, rec, 4)
	assert.Equal(t, 4, m.ShardCount(), "no shard of 4 is near the limit")
	assert.Zero(t, fatal.Load(), "a shard was closed with 4011")
}

// recommending is a transport whose GET /gateway/bot answer recommends
// shards shards (when set), whatever the server says.
type recommending struct{ shards atomic.Int32 }

func (r *recommending) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	n := r.shards.Load()
	if err != nil || n == 0 || !strings.HasSuffix(req.URL.Path, "/gateway/bot") {
		return resp, err
	}
	defer resp.Body.Close()
	var body map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return nil, err
	}
	body["shards"] = n
	b, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
	resp.Header.Del("Content-Length")
	return resp, nil
}

// TestManagerReshardsOnTheRecommendation: when GET /gateway/bot, asked
// every Interval, recommends more shards than run, the manager reshards to
// that count without a gap, and every guild's events arrive once, from
// the new set.
func TestManagerReshardsOnTheRecommendation(t *testing.T) {
	e := newShardedEnv(t, 4, 2, 1)
	var rt recommending
	rest := e.srv.Client(guildkit.WithHTTPClient(&http.Client{Transport: &rt}))
	ctx := context.Background()
	rec := newReceived()
	m, err := gateway.NewManager(e.srv.Token(), gateway.WithShardCount(2), e.shardOptions(),
		gateway.WithShardOptions(gateway.WithClient(rest)), gateway.WithReshardPolicy(gateway.ReshardPolicy{Interval: 10 * time.Second}))
	require.NoError(t, err)
	rec.register(m)
	require.NoError(t, m.Open(ctx))
	defer func() { assert.NoError(t, m.End(ctx)) }()
	assert.Equal(t, 2, m.ShardCount())

	rt.shards.Store(4)
	awaitShards(t, m, 4, "no reshard to the recommended count")
	e.banEverywhere(t, rec, 4)
}

// TestManagerIdleShardsSayWhy: a shard whose Open failed before it
// started (GET /gateway/bot refused) stays idle, and its state says why.
func TestManagerIdleShardsSayWhy(t *testing.T) {
	e := newShardedEnv(t, 2, 2, 1)
	const bad = "not-the-bot-token.secret"
	rest, err := guildkit.New(guildkit.BotToken(bad), guildkit.WithBaseURL(e.srv.BaseURL()))
	require.NoError(t, err)
	m, err := gateway.NewManager(e.srv.Token(), gateway.WithShardCount(2), e.shardOptions(),
		gateway.WithShardOptions(gateway.WithClient(rest)))
	require.NoError(t, err)
	ctx := context.Background()
	require.Error(t, m.Open(ctx))
	defer func() { _ = m.End(ctx) }()
	for _, s := range m.States() {
		assert.Equal(t, gateway.StatusIdle, s.Status)
		require.Error(t, s.Err, "shard %v is idle and says nothing", s.Shard)
		assert.Contains(t, s.Err.Error(), "finding the gateway")
		assert.NotContains(t, s.Err.Error(), "secret")
	}
}
