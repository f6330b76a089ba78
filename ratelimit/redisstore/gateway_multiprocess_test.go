package redisstore_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/gateway"
	"github.com/seed012df1e9/guildkit/guildkittest"
	"github.com/seed012df1e9/guildkit/ratelimit"
	"github.com/seed012df1e9/guildkit/ratelimit/redisstore"
)

// gatewayChildEnv carries the orders of a child process of the gateway
// tests (see runGatewayChild).
const gatewayChildEnv = "GUILDKIT_GATEWAY_CHILD"

type gatewayOrders struct {
	Redis, GatewayURL, Token string
	Count, From, To          int // shards [From, To) of Count
	MaxConcurrency           int
	Lease                    time.Duration
	Sessions                 string // the checkpoint file: read at start, written on "checkpoint"
	HangAtTake               bool   // stop at the first identify take (killed mid-identify)
	Timeline                 bool   // print "up <shard> <unix ns>" as each shard becomes ready
}

// announcingLimiter tells the parent of each take, and can hang there.
type announcingLimiter struct {
	ratelimit.IdentifyLimiter
	say  func(string, ...any)
	hang bool
}

func (l announcingLimiter) Acquire(ctx context.Context, token string, shardID, maxConcurrency int) (func(), error) {
	done, err := l.IdentifyLimiter.Acquire(ctx, token, shardID, maxConcurrency)
	if err == nil {
		l.say("take %d", shardID)
		if l.hang {
			select {} // killed here, the key taken, the IDENTIFY not sent
		}
	}
	return done, err
}

// runGatewayChild is one process of a sharded bot: a gateway.Manager of a
// range of the token's shards, sharing the identify limiter through Redis.
// It prints "ready" when its shards are, "take <shard>" at each identify
// take and "event <guild> <user>" for each GUILD_BAN_ADD; on "checkpoint"
// it saves its sessions and answers "checkpointed"; on "close" it closes.
func runGatewayChild(raw string) int {
	var o gatewayOrders
	if err := json.Unmarshal([]byte(raw), &o); err != nil {
		fmt.Fprintln(os.Stderr, "bad orders:", err)
		return 2
	}
	var out sync.Mutex
	say := func(format string, a ...any) {
		out.Lock()
		defer out.Unlock()
		fmt.Printf(format+"\n", a...)
	}
	rdb := newClient(o.Redis)
	defer rdb.Close()
	lim := announcingLimiter{redisstore.NewIdentifyLimiter(rdb, redisstore.IdentifyOptions{Lease: o.Lease}), say, o.HangAtTake}
	var sessions []gateway.Session
	if b, err := os.ReadFile(o.Sessions); err == nil {
		if err := json.Unmarshal(b, &sessions); err != nil {
			fmt.Fprintln(os.Stderr, "bad sessions:", err)
			return 2
		}
	}
	m, err := gateway.NewManager(o.Token, gateway.WithShardCount(o.Count), gateway.WithShardIDs(gateway.ShardRange(o.From, o.To)...),
		gateway.WithSessions(sessions), gateway.WithStatusObserver(func(s gateway.ShardState) {
			if o.Timeline && s.Status == gateway.StatusReady {
				say("up %d %d", s.Shard[0], time.Now().UnixNano())
			}
		}), gateway.WithShardOptions(gateway.WithURL(o.GatewayURL), gateway.WithIdentifyLimiter(lim),
			gateway.WithMaxConcurrency(o.MaxConcurrency), gateway.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	gateway.On(m, func(_ context.Context, e *gateway.GuildBanAdd) { say("event %d %d", e.GuildID, e.User.ID) })
	ctx := context.Background()
	if err := m.Open(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		return 1
	}
	say("ready")
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		switch sc.Text() {
		case "checkpoint":
			time.Sleep(20 * time.Millisecond) // the last handler has returned
			b, _ := json.Marshal(m.Sessions())
			if err := os.WriteFile(o.Sessions, b, 0o600); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			say("checkpointed")
		case "close":
			_, err := m.Close(ctx)
			if err != nil {
				fmt.Fprintln(os.Stderr, "close:", err)
				return 1
			}
			return 0
		}
	}
	return 0
}

// gatewayChild is a running child process and what it printed.
type gatewayChild struct {
	name   string
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr strings.Builder
	lines  chan string // lines other than events
	exited chan struct{}
}

// sharedLog collects the events every child printed.
type sharedLog struct {
	mu     sync.Mutex
	events map[string][]string // "guild user" → the processes that printed it
}

func startGatewayChild(t testing.TB, name string, o gatewayOrders, log *sharedLog) *gatewayChild {
	t.Helper()
	raw, err := json.Marshal(o)
	require.NoError(t, err)
	ch := &gatewayChild{name: name, cmd: exec.Command(os.Args[0], "-test.run=^$"), lines: make(chan string, 64), exited: make(chan struct{})}
	ch.cmd.Env = append(os.Environ(), gatewayChildEnv+"="+string(raw))
	ch.cmd.Stderr = &ch.stderr
	ch.stdin, err = ch.cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := ch.cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, ch.cmd.Start())
	t.Cleanup(func() {
		_ = ch.cmd.Process.Kill()
		<-ch.exited
	})
	go func() {
		defer close(ch.exited)
		defer close(ch.lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if ev, ok := strings.CutPrefix(sc.Text(), "event "); ok {
				log.mu.Lock()
				log.events[ev] = append(log.events[ev], name)
				log.mu.Unlock()
				continue
			}
			ch.lines <- sc.Text()
		}
		_ = ch.cmd.Wait()
	}()
	return ch
}

// expect waits for the line want, skipping "take" lines.
func (ch *gatewayChild) expect(t *testing.T, want string, within time.Duration) {
	t.Helper()
	deadline := time.After(within)
	for {
		select {
		case line, ok := <-ch.lines:
			if !ok {
				t.Fatalf("%s ended before %q: %s", ch.name, want, ch.stderr.String())
			}
			if line == want {
				return
			}
			if !strings.HasPrefix(line, "take ") && !strings.HasPrefix(line, "up ") {
				t.Fatalf("%s: %q while waiting for %q", ch.name, line, want)
			}
		case <-deadline:
			t.Fatalf("%s: no %q within %v", ch.name, want, within)
		}
	}
}

func (ch *gatewayChild) send(line string) { _, _ = io.WriteString(ch.stdin, line+"\n") }

// TestGatewayMultiProcess: four processes run the 16 shards of one token
// (four each, the emulator's gateway at max_concurrency 4 on loopback,
// the identify limiter shared through a real redis-server). A first run
// of process 3 is killed mid-identify, its keys taken: the others wait
// out its lease. Every shard becomes ready with no IDENTIFY refused, no
// INVALID_SESSION and never more than 4 IDENTIFYs in 5 s (the emulator
// counts them). Each ban is received once, by the process whose shard
// carries its guild. Process 1, killed after a checkpoint of its sessions
// and restarted from it, resumes (no IDENTIFY) and receives the bans made
// while it was dead, once. Real time: about 20 s.
func TestGatewayMultiProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("real 5-second identify windows")
	}
	rs := startRedis(t)
	srv, err := guildkittest.Listen("127.0.0.1:0", guildkittest.WithGateway(guildkittest.GatewaySettings{MaxConcurrency: 4}))
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	const count, procs = 16, 4
	var guilds []guildkit.Snowflake
	for k := range count {
		for i := range 2 {
			guilds = append(guilds, srv.AddGuild(guildkit.Guild{ID: guildkit.Snowflake(uint64(1000*count*(i+1)+k) << 22)}).ID)
		}
	}
	dir := t.TempDir()
	orders := func(p int) gatewayOrders {
		return gatewayOrders{Redis: rs.Addr(), GatewayURL: srv.GatewayURL(), Token: srv.Token(), Count: count,
			From: p * count / procs, To: (p + 1) * count / procs, MaxConcurrency: 4, Lease: 3 * time.Second,
			Sessions: filepath.Join(dir, fmt.Sprintf("sessions-%d.json", p))}
	}
	log := &sharedLog{events: make(map[string][]string)}
	start := time.Now()

	o := orders(3)
	o.HangAtTake = true
	dying := startGatewayChild(t, "process 3 (first run)", o, log)
	select {
	case line := <-dying.lines:
		require.True(t, strings.HasPrefix(line, "take "), "first run: %q: %s", line, dying.stderr.String())
	case <-time.After(30 * time.Second):
		t.Fatal("the first run took no key")
	}
	time.Sleep(100 * time.Millisecond) // its other shards take their keys too
	require.NoError(t, dying.cmd.Process.Kill())
	<-dying.exited
	killedAt := time.Now()

	children := make([]*gatewayChild, procs)
	for p := range procs {
		children[p] = startGatewayChild(t, fmt.Sprintf("process %d", p), orders(p), log)
	}
	for _, ch := range children {
		ch.expect(t, "ready", 90*time.Second)
	}
	readyIn := time.Since(start)
	st := srv.IdentifyStats()
	assert.Equal(t, count, st.Total, "IDENTIFYs")
	assert.Zero(t, st.Refused, "IDENTIFYs refused for concurrency")
	assert.Zero(t, st.InvalidSessions)
	assert.LessOrEqual(t, st.MaxPerWindow, 4)
	assert.GreaterOrEqual(t, time.Since(killedAt), 3*time.Second, "the dead run's lease was not waited out")
	t.Logf("16 shards ready in %v (the dead run's 3 s lease, then 4 buckets 5 s apart); %d IDENTIFYs, at most %d per 5 s",
		readyIn.Round(100*time.Millisecond), st.Total, st.MaxPerWindow)

	ctx := context.Background()
	cl := srv.Client()
	ban := func(round string) []string {
		var keys []string
		for _, g := range guilds {
			u := srv.AddUser(guildkit.User{Username: round})
			require.NoError(t, cl.Bans.Create(ctx, g, u.ID, nil))
			keys = append(keys, fmt.Sprintf("%d %d", g, u.ID))
		}
		return keys
	}
	owner := func(key string) string {
		var g guildkit.Snowflake
		_, _ = fmt.Sscan(key, &g)
		return fmt.Sprintf("process %d", gateway.ShardFor(g, count)/(count/procs))
	}
	received := func(keys []string) {
		t.Helper()
		require.Eventually(t, func() bool {
			log.mu.Lock()
			defer log.mu.Unlock()
			for _, k := range keys {
				if len(log.events[k]) == 0 {
					return false
				}
			}
			return true
		}, 30*time.Second, 10*time.Millisecond, "bans not received")
	}
	first := ban("first")
	received(first)

	// Process 1 saves its sessions, dies, and misses a round of bans.
	children[1].send("checkpoint")
	children[1].expect(t, "checkpointed", 10*time.Second)
	require.NoError(t, children[1].cmd.Process.Kill())
	<-children[1].exited
	second := ban("second")
	children[1] = startGatewayChild(t, "process 1", orders(1), log)
	children[1].expect(t, "ready", 30*time.Second)
	received(second)
	assert.Equal(t, count, srv.IdentifyStats().Total, "the restarted process identified instead of resuming")

	for _, ch := range children {
		ch.send("close")
	}
	for _, ch := range children {
		select {
		case <-ch.exited:
		case <-time.After(30 * time.Second):
			t.Fatalf("%s did not close", ch.name)
		}
		assert.True(t, ch.cmd.ProcessState.Success(), "%s: %v: %s", ch.name, ch.cmd.ProcessState, ch.stderr.String())
	}
	log.mu.Lock()
	defer log.mu.Unlock()
	for _, k := range append(first, second...) {
		assert.Equal(t, []string{owner(k)}, log.events[k], "ban %s", k)
	}
	st = srv.IdentifyStats()
	assert.Zero(t, st.Refused)
	assert.Zero(t, st.InvalidSessions)
}
