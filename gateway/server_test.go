package gateway_test

// These tests run the shard against guildkittest's gateway on the server's
// clock: time moves by AdvanceClock, never by sleeping.

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strconv"
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

const patience = 10 * time.Second // a failure bound, never a sleep

// armedClock is the server's clock, telling the test each wait the shard
// arms, so that the test advances the clock only once the shard waits.
type armedClock struct {
	*guildkittest.Server
	mu    sync.Mutex
	armed []time.Duration
	ch    chan struct{}
}

func (c *armedClock) AfterFunc(d time.Duration, f func()) func() bool {
	stop := c.Server.AfterFunc(d, f)
	c.mu.Lock()
	c.armed = append(c.armed, d)
	c.mu.Unlock()
	select {
	case c.ch <- struct{}{}:
	default:
	}
	return stop
}

// forget drops the waits armed so far (stopped ones included).
func (c *armedClock) forget() {
	c.mu.Lock()
	c.armed = nil
	c.mu.Unlock()
}

// advanceWhenArmed waits until the shard armed a wait of d, then moves
// the server's clock by d.
func (c *armedClock) advanceWhenArmed(t *testing.T, d time.Duration) {
	t.Helper()
	c.waitArmed(t, d, true)
	c.AdvanceClock(d)
}

// waitArmed waits until the shard armed a wait of d; take forgets it.
func (c *armedClock) waitArmed(t *testing.T, d time.Duration, take bool) {
	t.Helper()
	deadline := time.After(patience)
	for {
		c.mu.Lock()
		for i, a := range c.armed {
			if a == d {
				if take {
					c.armed = append(c.armed[:i:i], c.armed[i+1:]...)
				}
				c.mu.Unlock()
				return
			}
		}
		c.mu.Unlock()
		select {
		case <-c.ch:
		case <-deadline:
			t.Fatalf("the shard never waited %v", d)
		}
	}
}

type signals struct {
	mu  sync.Mutex
	all []guildkit.GatewayEvent
	ch  chan struct{}
}

func (s *signals) observer() guildkit.Observer {
	return guildkit.Observer{Gateway: func(_ context.Context, e guildkit.GatewayEvent) {
		s.mu.Lock()
		s.all = append(s.all, e)
		s.mu.Unlock()
		select {
		case s.ch <- struct{}{}:
		default:
		}
	}}
}

// wait returns the nth signal of kind sig.
func (s *signals) wait(t *testing.T, sig guildkit.GatewaySignal, n int) guildkit.GatewayEvent {
	t.Helper()
	deadline := time.After(patience)
	for {
		s.mu.Lock()
		k := 0
		for _, e := range s.all {
			if e.Signal == sig {
				if k++; k == n {
					s.mu.Unlock()
					return e
				}
			}
		}
		s.mu.Unlock()
		select {
		case <-s.ch:
		case <-deadline:
			t.Fatalf("no %s signal #%d", sig, n)
		}
	}
}

// events records what the handlers got, in order.
type events struct {
	mu  sync.Mutex
	all []gateway.Event
	ch  chan struct{}
}

func (e *events) add(_ context.Context, ev gateway.Event) {
	e.mu.Lock()
	e.all = append(e.all, ev)
	e.mu.Unlock()
	select {
	case e.ch <- struct{}{}:
	default:
	}
}

func (e *events) waitFor(t *testing.T, what string, cond func([]gateway.Event) bool) []gateway.Event {
	t.Helper()
	deadline := time.After(patience)
	for {
		e.mu.Lock()
		cp := append([]gateway.Event(nil), e.all...)
		e.mu.Unlock()
		if cond(cp) {
			return cp
		}
		select {
		case <-e.ch:
		case <-deadline:
			t.Fatalf("%s: never; got %d events", what, len(cp))
		}
	}
}

func count[E gateway.Event](evs []gateway.Event) int {
	n := 0
	for _, e := range evs {
		if _, ok := e.(E); ok {
			n++
		}
	}
	return n
}

type env struct {
	srv   *guildkittest.Server
	clock *armedClock
	sig   *signals
	ev    *events
	shard *gateway.Shard
	guild guildkit.Guild
	logs  *strings.Builder
}

func newEnv(t *testing.T, opts ...gateway.Option) *env {
	// A clock that moves only with AdvanceClock: every wait is exact.
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	srv := guildkittest.NewServer(t, guildkittest.WithClock(func() time.Time { return start }))
	e := &env{srv: srv, clock: &armedClock{Server: srv, ch: make(chan struct{}, 1)},
		sig: &signals{ch: make(chan struct{}, 1)}, ev: &events{ch: make(chan struct{}, 1)}}
	e.guild = srv.AddGuild(guildkit.Guild{Name: "g"})
	var lmu sync.Mutex
	e.logs = &strings.Builder{}
	logger := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		lmu.Lock()
		defer lmu.Unlock()
		return e.logs.Write(p)
	}), &slog.HandlerOptions{Level: slog.LevelDebug}))
	base := []gateway.Option{gateway.WithClient(srv.Client()), gateway.WithClock(e.clock),
		gateway.WithRandom(func() float64 { return 0.5 }), gateway.WithObserver(e.sig.observer()), gateway.WithLogger(logger),
		gateway.WithIntents(gateway.IntentGuilds | gateway.IntentGuildModeration | gateway.IntentGuildMembers)}
	s, err := gateway.NewShard(srv.Token(), append(base, opts...)...)
	require.NoError(t, err)
	e.shard = s
	gateway.OnAny(s, e.ev.add)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), patience)
		defer cancel()
		_ = s.End(ctx)
		lmu.Lock()
		defer lmu.Unlock()
		assert.NotContains(t, e.logs.String(), srv.Token(), "the token is in the log")
	})
	return e
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func (e *env) open(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	require.NoError(t, e.shard.Open(ctx))
}

// ban bans a new member through REST: GUILD_MEMBER_REMOVE, GUILD_BAN_ADD.
func (e *env) ban(t *testing.T, name string) guildkit.User {
	t.Helper()
	u := e.srv.AddUser(guildkit.User{Username: name})
	e.srv.AddMember(e.guild.ID, guildkit.Member{User: &u})
	require.NoError(t, e.srv.Client().Bans.Create(context.Background(), e.guild.ID, u.ID, nil))
	return u
}

func TestServerReadyGuildCreateAndEvents(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var bans []*gateway.GuildBanAdd
	var mu sync.Mutex
	gateway.On(e.shard, func(_ context.Context, b *gateway.GuildBanAdd) {
		mu.Lock()
		bans = append(bans, b)
		mu.Unlock()
	})
	e.open(t)
	e.ev.waitFor(t, "GUILD_CREATE", func(evs []gateway.Event) bool { return count[*gateway.GuildCreate](evs) == 1 })
	u := e.ban(t, "mallory")
	e.ev.waitFor(t, "GUILD_BAN_ADD", func(evs []gateway.Event) bool { return count[*gateway.GuildBanAdd](evs) == 1 })
	mu.Lock()
	assert.Equal(t, u.ID, bans[0].User.ID)
	assert.Equal(t, e.guild.ID, bans[0].GuildID)
	mu.Unlock()
	e.sig.wait(t, guildkit.GatewayReady, 1)
}

func TestServerReconnectResumesWithReplay(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.open(t)
	e.ev.waitFor(t, "GUILD_CREATE", func(evs []gateway.Event) bool { return count[*gateway.GuildCreate](evs) == 1 })
	_, err := e.srv.InjectGatewayFault(t.Context(), "", guildkittest.GatewayFault{Kind: guildkittest.FaultDrop})
	require.NoError(t, err)
	b := e.sig.wait(t, guildkit.GatewayBackoff, 1)
	// Events while the shard is away wait in the session for its resume.
	e.ban(t, "a")
	e.ban(t, "b")
	e.clock.advanceWhenArmed(t, b.Wait)
	r := e.sig.wait(t, guildkit.GatewayResumed, 1)
	assert.Equal(t, 4, r.Replayed, "two member removals and two bans replayed")
	evs := e.ev.waitFor(t, "both bans", func(evs []gateway.Event) bool { return count[*gateway.GuildBanAdd](evs) == 2 })
	assert.Equal(t, 1, count[*gateway.Ready](evs), "no new session")
	// Exactly once, in order: sequence numbers strictly increase.
	_, err = e.srv.InjectGatewayFault(t.Context(), "", guildkittest.GatewayFault{Kind: guildkittest.FaultReconnect})
	require.NoError(t, err)
	b = e.sig.wait(t, guildkit.GatewayBackoff, 2)
	e.clock.advanceWhenArmed(t, b.Wait)
	e.sig.wait(t, guildkit.GatewayResumed, 2)
	e.ban(t, "c")
	evs = e.ev.waitFor(t, "the third ban", func(evs []gateway.Event) bool { return count[*gateway.GuildBanAdd](evs) == 3 })
	assert.Equal(t, 3, count[*gateway.GuildBanAdd](evs), "no ban twice")
}

func TestServerInvalidSessionIsAGap(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.open(t)
	first := e.sig.wait(t, guildkit.GatewayReady, 1)
	_, err := e.srv.InjectGatewayFault(t.Context(), "", guildkittest.GatewayFault{Kind: guildkittest.FaultInvalidSession})
	require.NoError(t, err)
	lost := e.sig.wait(t, guildkit.GatewaySessionLost, 1)
	assert.Equal(t, first.SessionID, lost.SessionID)
	b := e.sig.wait(t, guildkit.GatewayBackoff, 1)
	e.clock.advanceWhenArmed(t, b.Wait)
	// The identify limiter holds the key for 5 s after the first IDENTIFY.
	e.clock.advanceWhenArmed(t, 5*time.Second-b.Wait)
	second := e.sig.wait(t, guildkit.GatewayReady, 2)
	assert.NotEqual(t, first.SessionID, second.SessionID)
	evs := e.ev.waitFor(t, "SessionLost before the second READY", func(evs []gateway.Event) bool { return count[*gateway.Ready](evs) == 2 })
	var order []string
	for _, ev := range evs {
		if n := ev.EventName(); n == "READY" || n == "GUILDKIT_SESSION_LOST" {
			order = append(order, n)
		}
	}
	assert.Equal(t, []string{"READY", "GUILDKIT_SESSION_LOST", "READY"}, order)
}

func TestServerZombie(t *testing.T) {
	t.Parallel()
	for _, kind := range []guildkittest.FaultKind{guildkittest.FaultWithholdAcks, guildkittest.FaultSilence} {
		t.Run(string(kind), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			e.open(t)
			interval := e.srv.GatewaySettings().HeartbeatInterval
			_, err := e.srv.InjectGatewayFault(t.Context(), "", guildkittest.GatewayFault{Kind: kind})
			require.NoError(t, err)
			e.clock.advanceWhenArmed(t, interval/2) // the first beat: never acknowledged
			e.clock.advanceWhenArmed(t, interval)   // no ACK and nothing else: a zombie
			e.sig.wait(t, guildkit.GatewayZombie, 1)
			b := e.sig.wait(t, guildkit.GatewayBackoff, 1)
			e.clock.advanceWhenArmed(t, b.Wait)
			r := e.sig.wait(t, guildkit.GatewayResumed, 1)
			assert.Equal(t, 1, e.srv.IdentifyStats().Total, "resumed, not identified")
			assert.Equal(t, guildkit.GatewayResumed, r.Signal)
		})
	}
}

func TestServerRequestHeartbeat(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.open(t)
	beats := func() int {
		n := 0
		for _, f := range e.srv.GatewayFrames(e.srv.GatewaySessions()[0].ID) {
			if f.Direction != "out" && f.Op == int(gateway.OpHeartbeat) {
				n++
			}
		}
		return n
	}
	require.Zero(t, beats(), "no beat before the first jittered one")
	_, err := e.srv.InjectGatewayFault(t.Context(), "", guildkittest.GatewayFault{Kind: guildkittest.FaultRequestHeartbeat})
	require.NoError(t, err)
	// The beat goes at once, with no clock moved. An event sent after the
	// request shows the shard has read it; a request answered after that
	// shows the server has read the beat.
	e.ban(t, "after-op-1")
	e.ev.waitFor(t, "the ban after op 1", func(evs []gateway.Event) bool { return count[*gateway.GuildBanAdd](evs) == 1 })
	ctx, cancel := context.WithTimeout(t.Context(), patience)
	defer cancel()
	_, err = e.shard.RequestGuildMembers(ctx, &gateway.MemberRequestParams{GuildID: e.guild.ID, UserIDs: []guildkit.Snowflake{e.srv.BotID()}})
	require.NoError(t, err)
	assert.Equal(t, 1, beats())
}

func TestServerFatalCloses(t *testing.T) {
	t.Parallel()
	for _, code := range []int{4004, 4010, 4011, 4012, 4013, 4014} {
		t.Run(strconv.Itoa(code), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			e.open(t)
			_, err := e.srv.InjectGatewayFault(t.Context(), "", guildkittest.GatewayFault{Kind: guildkittest.FaultClose, Code: code})
			require.NoError(t, err)
			select {
			case <-e.shard.Done():
			case <-time.After(patience):
				t.Fatal("the shard kept going after a fatal code")
			}
			var ce *gateway.CloseError
			require.ErrorAs(t, e.shard.Err(), &ce)
			assert.EqualValues(t, code, ce.Code)
			assert.Equal(t, 1, e.srv.IdentifyStats().Total, "no identify after a fatal code")
		})
	}
}

func TestServerDisallowedIntents(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.srv.SetPrivilegedIntents(0)
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	err := e.shard.Open(ctx)
	var ce *gateway.CloseError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, gateway.CloseDisallowedIntents, ce.Code)
	assert.Contains(t, err.Error(), "GUILD_MEMBERS")
	assert.Contains(t, err.Error(), "developer portal")
}

func TestServerCloseAndResumeInANewShard(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.open(t)
	e.ev.waitFor(t, "GUILD_CREATE", func(evs []gateway.Event) bool { return count[*gateway.GuildCreate](evs) == 1 })
	sess, err := e.shard.Close(t.Context())
	require.NoError(t, err)
	require.NotNil(t, sess)
	assert.EqualValues(t, 2, sess.Sequence)
	u := e.ban(t, "while-away")

	ev2 := &events{ch: make(chan struct{}, 1)}
	s2, err := gateway.NewShard(e.srv.Token(), gateway.WithClient(e.srv.Client()), gateway.WithClock(e.clock),
		gateway.WithSession(sess), gateway.WithIntents(gateway.IntentGuilds|gateway.IntentGuildModeration|gateway.IntentGuildMembers),
		gateway.WithObserver(e.sig.observer()))
	require.NoError(t, err)
	gateway.OnAny(s2, ev2.add)
	t.Cleanup(func() { _ = s2.End(context.Background()) })
	ctx, cancel := context.WithTimeout(t.Context(), patience)
	defer cancel()
	require.NoError(t, s2.Open(ctx))
	// The handlers may see the replay before RESUMED is handed to them:
	// wait for both, then check the order.
	evs := ev2.waitFor(t, "the ban sent meanwhile, then RESUMED", func(evs []gateway.Event) bool {
		return count[*gateway.GuildBanAdd](evs) == 1 && count[*gateway.Resumed](evs) == 1
	})
	assert.Equal(t, 0, count[*gateway.Ready](evs), "resumed, not identified")
	ban := slices.IndexFunc(evs, func(ev gateway.Event) bool { _, ok := ev.(*gateway.GuildBanAdd); return ok })
	resumed := slices.IndexFunc(evs, func(ev gateway.Event) bool { _, ok := ev.(*gateway.Resumed); return ok })
	assert.Less(t, ban, resumed, "the replay comes before RESUMED")
	assert.Equal(t, u.ID, evs[ban].(*gateway.GuildBanAdd).User.ID)
	assert.Equal(t, 1, e.srv.IdentifyStats().Total, "a restart costs no identify")
}

func TestServerRequestGuildMembers(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, name := range []string{"ada", "adele", "bob"} {
		u := e.srv.AddUser(guildkit.User{Username: name})
		e.srv.AddMember(e.guild.ID, guildkit.Member{User: &u})
	}
	e.open(t)
	ctx, cancel := context.WithTimeout(t.Context(), patience)
	defer cancel()
	chunks, err := e.shard.RequestGuildMembers(ctx, &gateway.MemberRequestParams{GuildID: e.guild.ID, Query: guildkit.Some("ad"), Limit: 10})
	require.NoError(t, err)
	require.NotEmpty(t, chunks)
	var names []string
	for _, c := range chunks {
		for _, m := range c.Members {
			names = append(names, m.User.Username)
		}
	}
	assert.ElementsMatch(t, []string{"ada", "adele"}, names)
	// The chunks reached the handlers too.
	e.ev.waitFor(t, "the chunks", func(evs []gateway.Event) bool { return count[*gateway.GuildMembersChunk](evs) == len(chunks) })

	// The whole list (GUILD_MEMBERS asked for): every member.
	chunks, err = e.shard.RequestGuildMembers(ctx, &gateway.MemberRequestParams{GuildID: e.guild.ID, Query: guildkit.Some(""), Limit: 0})
	require.NoError(t, err)
	n := 0
	for _, c := range chunks {
		n += len(c.Members)
	}
	assert.Equal(t, 4, n, "the bot and three members")
}

func TestServerUpdatePresenceAndIdentify(t *testing.T) {
	t.Parallel()
	e := newEnv(t, gateway.WithPresence(&gateway.PresenceUpdateParams{Status: "dnd"}))
	e.open(t)
	sessions := e.srv.GatewaySessions()
	require.Len(t, sessions, 1)
	s := sessions[0]
	assert.Equal(t, "zlib-stream", s.Compression)
	assert.Equal(t, "guildkit", s.Properties["browser"])
	assert.Equal(t, [2]int{0, 1}, s.Shard)
	ctx, cancel := context.WithTimeout(t.Context(), patience)
	defer cancel()
	require.NoError(t, e.shard.UpdatePresence(ctx, &gateway.PresenceUpdateParams{Status: "idle",
		Activities: []gateway.Activity{{Name: "chess", Type: gateway.ActivityPlaying}}}))
	// The server reads payloads in order: once a request is answered, the
	// presence before it was read.
	_, err := e.shard.RequestGuildMembers(ctx, &gateway.MemberRequestParams{GuildID: e.guild.ID, UserIDs: []guildkit.Snowflake{e.srv.BotID()}})
	require.NoError(t, err)
	var sent []string
	for _, f := range e.srv.GatewayFrames(s.ID) {
		if f.Direction != "out" && (f.Op == int(gateway.OpIdentify) || f.Op == int(gateway.OpPresenceUpdate)) {
			sent = append(sent, string(f.Data))
			assert.NotContains(t, string(f.Data), e.srv.Token())
		}
	}
	require.Len(t, sent, 2)
	assert.Contains(t, sent[0], `"status":"dnd"`)
	assert.Contains(t, sent[1], `"activities":[{"name":"chess","type":0}]`)
	assert.Contains(t, sent[1], `"since":null`)

	err = e.shard.UpdatePresence(ctx, &gateway.PresenceUpdateParams{Status: "busy", Activities: []gateway.Activity{{URL: "x"}}})
	var ve *guildkit.ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Len(t, ve.Problems, 3, "status, activity name, url without Streaming")
}

// storeDownLimiter is an identify limiter whose store is unavailable while
// down is set: SetLimit fails at once, as the Redis one's does.
type storeDownLimiter struct {
	*ratelimit.MemoryIdentifyLimiter
	down  atomic.Bool
	tries atomic.Int32
}

var errStoreDown = errors.New("store unavailable")

func (l *storeDownLimiter) SetLimit(ctx context.Context, token string, sl ratelimit.SessionStartLimit) error {
	l.tries.Add(1)
	if l.down.Load() {
		return errStoreDown
	}
	return l.MemoryIdentifyLimiter.SetLimit(ctx, token, sl)
}

// TestServerOpenWaitsForTheLimitersStore: a shard opened while the
// identify limiter cannot record the budget does not give up, nor stay
// idle: it waits, says why when Open's context ends, asks again every
// second, and identifies once the store serves, with the budget recorded
// first.
func TestServerOpenWaitsForTheLimitersStore(t *testing.T) {
	t.Parallel()
	// One shard, one IDENTIFY: the limiter's own clock never makes it wait.
	lim := &storeDownLimiter{MemoryIdentifyLimiter: ratelimit.NewMemoryIdentifyLimiter(ratelimit.IdentifyOptions{})}
	lim.down.Store(true)
	e := newEnv(t, gateway.WithIdentifyLimiter(lim))
	ctx, cancel := context.WithCancel(t.Context())
	opened := make(chan error, 1)
	go func() { opened <- e.shard.Open(ctx) }()
	// Connected, HELLO came: the shard waits for the store, asking again
	// each second.
	e.clock.advanceWhenArmed(t, time.Second)
	e.clock.advanceWhenArmed(t, time.Second)
	e.clock.waitArmed(t, time.Second, false) // the second retry failed too
	assert.Equal(t, int32(4), lim.tries.Load(), "after GET /gateway/bot, once HELLO came, then once a second")
	assert.Equal(t, gateway.StatusWaiting, e.shard.Status())
	cancel()
	err := <-opened
	require.ErrorIs(t, err, context.Canceled)
	require.ErrorIs(t, err, errStoreDown)
	assert.Contains(t, err.Error(), "waits for the identify limiter")
	assert.Equal(t, gateway.StatusWaiting, e.shard.Status(), "the shard keeps trying after Open returned")
	assert.Empty(t, e.srv.GatewaySessions(), "no IDENTIFY before the budget is recorded")

	lim.down.Store(false)
	e.clock.advanceWhenArmed(t, time.Second)
	e.sig.wait(t, guildkit.GatewayReady, 1)
	remaining, set := lim.Remaining(e.srv.Token())
	assert.True(t, set, "the budget was recorded")
	assert.Equal(t, 999, remaining, "and the IDENTIFY counted against it")
}
