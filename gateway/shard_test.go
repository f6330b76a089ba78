package gateway

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/ratelimit"
)

func TestShardIdentifyAndDispatch(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	var bans []*GuildBanAdd
	On(r.shard, func(_ context.Context, e *GuildBanAdd) { bans = append(bans, e) })
	errc := r.open()
	c := r.gw.next()
	assert.Equal(t, "10", c.url.Query().Get("v"))
	assert.Equal(t, "json", c.url.Query().Get("encoding"))
	assert.Equal(t, "zlib-stream", c.url.Query().Get("compress"), "zlib-stream is the default")
	c.hello(40 * time.Second)
	id := c.expect(OpIdentify)["d"].(map[string]any)
	assert.Equal(t, testToken, id["token"])
	assert.Equal(t, []any{0.0, 1.0}, id["shard"])
	assert.EqualValues(t, IntentGuildModeration, id["intents"], "intents derived from the handlers")
	c.ready("sess-1", r.gw.url())
	require.NoError(t, <-errc)
	assert.Equal(t, StatusReady, r.shard.Status())
	c.send(OpDispatch, map[string]any{"guild_id": "10", "user": map[string]any{"id": "5", "username": "x"}}, 2, "GUILD_BAN_ADD")
	c.send(OpDispatch, map[string]any{"x": 1}, 3, "SOMETHING_NEW")
	r.rec.waitFor(t, "two events after READY", func(ev []Event, _ []guildkit.GatewayEvent) bool { return len(ev) == 3 })
	assert.Equal(t, []string{"READY", "GUILD_BAN_ADD", "SOMETHING_NEW"}, r.rec.eventNames())
	require.Len(t, bans, 1)
	assert.Equal(t, guildkit.Snowflake(5), bans[0].User.ID)
	raw := r.rec.events[2].(*RawEvent)
	assert.JSONEq(t, `{"x":1}`, string(raw.Data))
	r.rec.waitSignal(t, guildkit.GatewayConnected, 1)
	r.rec.waitSignal(t, guildkit.GatewayReady, 1)
}

func TestShardNoCompression(t *testing.T) {
	t.Parallel()
	r := newRig(t, WithCompression(CompressionNone))
	errc := r.open()
	c := r.gw.next()
	assert.Empty(t, c.url.Query().Get("compress"))
	c.hello(40 * time.Second)
	c.expect(OpIdentify)
	c.ready("s", r.gw.url())
	require.NoError(t, <-errc)
}

func TestHeartbeatJitteredFirstBeat(t *testing.T) {
	t.Parallel()
	r := newRig(t, WithRandom(func() float64 { return 0.25 }))
	r.open()
	c := r.gw.next()
	c.hello(40 * time.Second)
	c.expect(OpIdentify)
	// The first beat waits interval × random: 10 s, not 40 s nor 0.
	r.clock.waitTimer(t, 10*time.Second)
	r.clock.Advance(10 * time.Second)
	beat := c.expect(OpHeartbeat)
	assert.Nil(t, beat["d"], "d is null before any dispatch")
	c.send(OpHeartbeatACK, nil, 0, "")
	c.ready("s", r.gw.url())
	c.send(OpDispatch, map[string]any{}, 2, "X_EVENT")
	r.rec.waitFor(t, "two events", func(ev []Event, _ []guildkit.GatewayEvent) bool { return len(ev) == 2 })
	// Then every interval, with the last sequence.
	r.clock.waitTimer(t, 40*time.Second)
	r.clock.Advance(40 * time.Second)
	assert.EqualValues(t, 2, c.expect(OpHeartbeat)["d"])
	// A beat the server asks for goes at once.
	c.send(OpHeartbeat, nil, 0, "")
	assert.EqualValues(t, 2, c.expect(OpHeartbeat)["d"])
}

func TestZombieClosedWith4000AndResumed(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	c := r.start()
	r.clock.waitTimer(t, 20*time.Second)
	r.clock.Advance(20 * time.Second)
	c.expect(OpHeartbeat) // never acknowledged
	r.clock.waitTimer(t, 40*time.Second)
	r.clock.Advance(40 * time.Second)
	assert.Equal(t, websocket.StatusCode(4000), c.expectClosed(), "a zombie is closed in the 4000 range, never 1000/1001")
	r.rec.waitSignal(t, guildkit.GatewayZombie, 1)
	c2 := r.reconnect(1)
	assert.Equal(t, "/resume", c2.url.Path, "resumes on resume_gateway_url")
	assert.Equal(t, "zlib-stream", c2.url.Query().Get("compress"), "with the same query")
	c2.hello(40 * time.Second)
	d := c2.expect(OpResume)["d"].(map[string]any)
	assert.Equal(t, "sess-1", d["session_id"])
	assert.EqualValues(t, 1, d["seq"])
	assert.Equal(t, testToken, d["token"])
}

func TestFloodIsNotAZombie(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	c := r.start()
	r.clock.waitTimer(t, 20*time.Second)
	r.clock.Advance(20 * time.Second)
	c.expect(OpHeartbeat) // the ACK is stuck behind a flood
	for i := range 50 {
		c.send(OpDispatch, map[string]any{"id": fmt.Sprint(100 + i)}, int64(2+i), "GUILD_CREATE")
	}
	r.rec.waitFor(t, "the flood", func(ev []Event, _ []guildkit.GatewayEvent) bool { return len(ev) == 51 })
	r.clock.waitTimer(t, 40*time.Second)
	r.clock.Advance(40 * time.Second)
	assert.EqualValues(t, 51, c.expect(OpHeartbeat)["d"], "still beating on the same connection")
	assert.Equal(t, 1, r.gw.count())
}

func TestSlowHandlerDoesNotStopTheHeartbeat(t *testing.T) {
	t.Parallel()
	r := newRig(t, WithQueueSize(2))
	release := make(chan struct{})
	var got []int64
	started := make(chan struct{}, 1)
	On(r.shard, func(_ context.Context, e *GuildCreate) {
		select {
		case started <- struct{}{}:
		default:
		}
		<-release
		got = append(got, int64(e.ID))
	})
	stalled := make(chan struct{}, 100)
	r.shard.stallHook = func() { stalled <- struct{}{} }
	c := r.start()
	for i := range 20 {
		c.send(OpDispatch, map[string]any{"id": fmt.Sprint(i + 1)}, int64(2+i), "GUILD_CREATE")
	}
	<-started
	<-stalled // the queue is full: the shard stopped reading
	// The handler holds the queue; the reader stops; beats still go, and
	// the unread ACKs are not taken for a zombie.
	for range 3 {
		r.clock.waitTimer(t, nextBeat(r))
		r.clock.Advance(nextBeat(r))
		c.expect(OpHeartbeat)
	}
	assert.Equal(t, 1, r.gw.count(), "no reconnect while the handler is slow")
	close(release)
	r.rec.waitFor(t, "all 20 events", func(ev []Event, _ []guildkit.GatewayEvent) bool { return len(ev) == 21 })
	want := make([]int64, 20)
	for i := range want {
		want[i] = int64(i + 1)
	}
	assert.Equal(t, want, got, "in order, none dropped")
}

// nextBeat is the wait of the shard's next beat: half the interval first
// (random 0.5), then the interval.
func nextBeat(r *rig) time.Duration {
	r.clock.mu.Lock()
	defer r.clock.mu.Unlock()
	for _, tm := range r.clock.timers {
		if !tm.done && (tm.d == 20*time.Second || tm.d == 40*time.Second) {
			return tm.d
		}
	}
	return 40 * time.Second
}

func TestResumeReplayExactlyOnce(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	c := r.start()
	c.send(OpDispatch, map[string]any{"id": "2"}, 2, "GUILD_CREATE")
	c.send(OpDispatch, map[string]any{"id": "3"}, 3, "GUILD_CREATE")
	r.rec.waitFor(t, "3 events", func(ev []Event, _ []guildkit.GatewayEvent) bool { return len(ev) == 3 })
	_ = c.ws.CloseNow() // a drop without a close frame resumes
	c2 := r.reconnect(1)
	c2.hello(40 * time.Second)
	assert.EqualValues(t, 3, c2.expect(OpResume)["d"].(map[string]any)["seq"])
	// The platform replays from seq; one it sent twice is handed once.
	c2.send(OpDispatch, map[string]any{"id": "3"}, 3, "GUILD_CREATE")
	c2.send(OpDispatch, map[string]any{"id": "4"}, 4, "GUILD_CREATE")
	c2.send(OpDispatch, map[string]any{"id": "5"}, 5, "GUILD_CREATE")
	c2.send(OpDispatch, map[string]any{}, 6, "RESUMED")
	sig := r.rec.waitSignal(t, guildkit.GatewayResumed, 1)
	assert.Equal(t, 2, sig.Replayed)
	r.rec.waitFor(t, "6 events", func(ev []Event, _ []guildkit.GatewayEvent) bool { return len(ev) == 6 })
	var ids []guildkit.Snowflake
	for _, e := range r.rec.events {
		if g, ok := e.(*GuildCreate); ok {
			ids = append(ids, g.ID)
		}
	}
	assert.Equal(t, []guildkit.Snowflake{2, 3, 4, 5}, ids)
	assert.Equal(t, StatusReady, r.shard.Status())
}

// TestDecisionTable drives every row of the table through a connection.
func TestDecisionTable(t *testing.T) {
	t.Parallel()
	type row struct {
		name string
		end  func(c *fakeConn)
		then action
		code int
	}
	closeWith := func(code int) func(c *fakeConn) {
		return func(c *fakeConn) { _ = c.ws.Close(websocket.StatusCode(code), "test") }
	}
	rows := []row{
		{name: "op 7", end: func(c *fakeConn) { c.send(OpReconnect, nil, 0, "") }, then: actResume},
		{name: "op 9 true", end: func(c *fakeConn) { c.send(OpInvalidSession, true, 0, "") }, then: actResume},
		{name: "op 9 false", end: func(c *fakeConn) { c.send(OpInvalidSession, false, 0, "") }, then: actIdentify},
		{name: "drop", end: func(c *fakeConn) { _ = c.ws.CloseNow() }, then: actResume},
		{name: "1011", end: closeWith(1011), then: actResume},
	}
	for code, d := range closeTable {
		rows = append(rows, row{name: fmt.Sprint(code), end: closeWith(code), then: d.then, code: code})
	}
	// The table matches the platform's close-code table.
	want := map[int]action{4000: actResume, 4001: actResume, 4002: actResume, 4003: actIdentify, 4004: actStop,
		4005: actResume, 4007: actIdentify, 4008: actResume, 4009: actIdentify, 4010: actStop, 4011: actStop,
		4012: actStop, 4013: actStop, 4014: actStop}
	require.Len(t, closeTable, len(want))
	for code, a := range want {
		assert.Equal(t, a, closeTable[code].then, "close code %d", code)
	}
	for _, tc := range rows {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newRig(t, WithIntents(IntentGuilds|IntentGuildMembers))
			c := r.start()
			tc.end(c)
			switch tc.then {
			case actStop:
				select {
				case <-r.shard.Done():
				case <-time.After(wait):
					t.Fatal("the shard did not stop")
				}
				var ce *CloseError
				require.ErrorAs(t, r.shard.Err(), &ce)
				assert.EqualValues(t, tc.code, ce.Code)
				assert.NotEmpty(t, ce.Advice)
				if tc.code == 4014 {
					assert.Contains(t, ce.Error(), "GUILD_MEMBERS", "4014 names the privileged intents asked for")
				}
				assert.Equal(t, StatusFailed, r.shard.Status())
				assert.Equal(t, 1, r.gw.count(), "never a retry after a fatal code")
				r.rec.waitSignal(t, guildkit.GatewayFatal, 1)
			case actResume:
				c2 := r.reconnect(1)
				c2.hello(40 * time.Second)
				c2.expect(OpResume)
				assert.Equal(t, "/resume", c2.url.Path)
			case actIdentify:
				c2 := r.reconnectIdentify(1)
				c2.expect(OpIdentify)
				assert.Equal(t, "/", c2.url.Path, "a new session starts on the gateway's URL")
				r.rec.waitFor(t, "a SessionLost event", func(ev []Event, _ []guildkit.GatewayEvent) bool {
					return len(ev) == 2 && ev[1].EventName() == "GUILDKIT_SESSION_LOST"
				})
				lost := r.rec.events[1].(*SessionLost)
				assert.Equal(t, "sess-1", lost.SessionID)
				assert.EqualValues(t, 1, lost.Sequence)
				r.rec.waitSignal(t, guildkit.GatewaySessionLost, 1)
			}
		})
	}
}

func TestBackoff(t *testing.T) {
	t.Parallel()
	one := func() float64 { return 0.999999 }
	var got []time.Duration
	for n := 1; n <= 10; n++ {
		got = append(got, backoff(n, time.Second, time.Minute, one).Round(time.Second))
	}
	assert.Equal(t, []time.Duration{1e9, 2e9, 4e9, 8e9, 16e9, 32e9, 60e9, 60e9, 60e9, 60e9}, got, "exponential, capped")
	assert.Zero(t, backoff(5, time.Second, time.Minute, func() float64 { return 0 }), "full jitter reaches 0")

	// Failed connections back off further each time; READY resets it.
	r := newRig(t)
	c := r.start()
	for range 3 {
		r.gw.refuse <- 503
	}
	_ = c.ws.CloseNow()
	for n := 1; n <= 4; n++ {
		sig := r.rec.waitSignal(t, guildkit.GatewayBackoff, n)
		assert.Equal(t, n, sig.Attempt)
		assert.Equal(t, backoff(n, DefaultBackoffMin, DefaultBackoffMax, func() float64 { return 0.5 }), sig.Wait)
		r.clock.waitTimer(t, sig.Wait)
		r.clock.Advance(sig.Wait)
	}
	c2 := r.gw.next() // the fourth attempt connects
	assert.Equal(t, "/", c2.url.Path, "the resume URL that failed to connect was forgotten")
	c2.hello(40 * time.Second)
	c2.expect(OpResume)
	c2.send(OpDispatch, map[string]any{}, 2, "RESUMED")
	r.rec.waitSignal(t, guildkit.GatewayResumed, 1)
	_ = c2.ws.CloseNow()
	sig := r.rec.waitSignal(t, guildkit.GatewayBackoff, 5)
	assert.Equal(t, 1, sig.Attempt, "RESUMED reset the backoff")
}

func TestPayloadOver4096Refused(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	c := r.start()
	err := r.shard.UpdatePresence(t.Context(), &PresenceUpdateParams{Status: "online",
		Activities: []Activity{{Name: strings.Repeat("x", 5000)}}})
	var tl *PayloadTooLargeError
	require.ErrorAs(t, err, &tl)
	assert.Equal(t, OpPresenceUpdate, tl.Op)
	assert.Greater(t, tl.Size, MaxPayload)
	// Nothing was sent: the next payload the server sees is this one.
	require.NoError(t, r.shard.UpdatePresence(t.Context(), &PresenceUpdateParams{Status: "idle"}))
	assert.Equal(t, "idle", c.expect(OpPresenceUpdate)["d"].(map[string]any)["status"])
}

func TestSendLimiterUnderFlood(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	c := r.start()
	const n = 130
	errs := make(chan error, n)
	for range n {
		go func() {
			errs <- r.shard.UpdatePresence(context.Background(), &PresenceUpdateParams{Status: "online"})
		}()
	}
	for range sendBudget - 1 { // IDENTIFY took one slot of the window
		c.expect(OpPresenceUpdate)
	}
	// Every bound is a failure bound: a lost payload fails the test in
	// seconds, not at the package's timeout.
	result := func() error {
		t.Helper()
		select {
		case err := <-errs:
			return err
		case <-time.After(wait):
			t.Fatal("an UpdatePresence never returned")
			return nil
		}
	}
	for range sendBudget - 1 {
		require.NoError(t, result())
	}
	// The rest wait for the window; the heartbeat does not.
	r.clock.waitTimer(t, 20*time.Second)
	r.clock.Advance(20 * time.Second)
	c.expect(OpHeartbeat)
	c.send(OpHeartbeatACK, nil, 0, "")
	// An event after the ACK: once it is handled, the ACK was read.
	c.send(OpDispatch, map[string]any{}, 2, "X_EVENT")
	r.rec.waitFor(t, "the event after the ACK", func(ev []Event, _ []guildkit.GatewayEvent) bool { return len(ev) == 2 })
	r.clock.waitTimer(t, 40*time.Second)
	r.clock.Advance(40*time.Second + sendMargin) // the window and its margin have slid past IDENTIFY and the first sends
	for range n - (sendBudget - 1) {
		m := c.next()
		if m["op"] == float64(OpHeartbeat) {
			m = c.next()
		}
		assert.EqualValues(t, OpPresenceUpdate, m["op"])
	}
	for range n - (sendBudget - 1) {
		require.NoError(t, result())
	}
}

func TestIdentifyBucketsInOrder(t *testing.T) {
	t.Parallel()
	gw := newFakeGateway(t)
	clock := newManualClock()
	lim := ratelimit.NewMemoryIdentifyLimiter(ratelimit.IdentifyOptions{Clock: clock})
	var shards []*Shard
	for id := range 4 {
		s, err := NewShard(testToken, WithURL(gw.url()), WithClock(clock), WithShard(id, 4), WithIdentifyLimiter(lim),
			WithMaxConcurrency(2), WithRandom(func() float64 { return 0.5 }))
		require.NoError(t, err)
		shards = append(shards, s)
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), wait)
			defer cancel()
			_ = s.End(ctx)
		})
	}
	identified := func(c *fakeConn) int {
		c.hello(40 * time.Second)
		d := c.expect(OpIdentify)["d"].(map[string]any)
		return int(d["shard"].([]any)[0].(float64))
	}
	for _, s := range shards[:2] {
		go func() { _ = s.Open(context.Background()) }()
	}
	first := []int{identified(gw.next()), identified(gw.next())}
	assert.ElementsMatch(t, []int{0, 1}, first, "keys 0 and 1 identify at once")
	for _, s := range shards[2:] {
		go func() { _ = s.Open(context.Background()) }()
	}
	// Shards 2 and 3 share keys 0 and 1: connected and heartbeating, they
	// wait the 5 s window before identifying.
	later := []*fakeConn{gw.next(), gw.next()}
	for _, c := range later {
		c.hello(40 * time.Second)
	}
	clock.waitTimers(t, ratelimit.IdentifyWindow, 2)
	for _, c := range later {
		select {
		case m := <-c.frames:
			t.Fatalf("a shard of a taken key sent %v before the window passed", m)
		default:
		}
	}
	clock.Advance(ratelimit.IdentifyWindow)
	var second []int
	for _, c := range later {
		d := c.expect(OpIdentify)["d"].(map[string]any)
		second = append(second, int(d["shard"].([]any)[0].(float64)))
	}
	assert.ElementsMatch(t, []int{2, 3}, second)
}

func TestIdentifyBudgetStopsReidentifying(t *testing.T) {
	t.Parallel()
	clock := newManualClock()
	lim := ratelimit.NewMemoryIdentifyLimiter(ratelimit.IdentifyOptions{Clock: clock})
	require.NoError(t, lim.SetLimit(t.Context(), testToken, ratelimit.SessionStartLimit{Total: 1000, Remaining: 11, ResetAfter: time.Hour, MaxConcurrency: 1}))
	r := newRig(t, WithIdentifyLimiter(lim))
	c := r.start() // spends the 11th: 10 left, the reserve
	c.send(OpInvalidSession, false, 0, "")
	c2 := r.reconnect(1)
	c2.hello(40 * time.Second) // the limiter refuses once HELLO came
	select {
	case <-r.shard.Done():
	case <-time.After(wait):
		t.Fatal("the shard kept going")
	}
	require.ErrorIs(t, r.shard.Err(), ratelimit.ErrIdentifyBudget)
	assert.Contains(t, r.shard.Err().Error(), "not identifying again")
	assert.Equal(t, 2, r.gw.count())
	assert.Equal(t, websocket.StatusCode(4000), c2.expectClosed(), "closed resumably")
}

func TestCloseReturnsSessionAndNewShardResumes(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	c := r.start()
	c.send(OpDispatch, map[string]any{"id": "7"}, 2, "GUILD_CREATE")
	r.rec.waitFor(t, "2 events", func(ev []Event, _ []guildkit.GatewayEvent) bool { return len(ev) == 2 })
	sess, err := r.shard.Close(t.Context())
	require.NoError(t, err)
	assert.Equal(t, websocket.StatusCode(4000), c.expectClosed(), "Close keeps the session resumable")
	assert.Equal(t, &Session{ID: "sess-1", Sequence: 2, ResumeURL: r.gw.url() + "/resume", Shard: [2]int{0, 1}}, sess)
	assert.Equal(t, StatusClosed, r.shard.Status())

	r2 := newRig(t, WithSession(sess))
	errc := r2.open()
	c2 := r.gw.next()
	_ = r2
	c2.hello(40 * time.Second)
	d := c2.expect(OpResume)["d"].(map[string]any)
	assert.Equal(t, "sess-1", d["session_id"])
	assert.EqualValues(t, 2, d["seq"])
	c2.send(OpDispatch, map[string]any{}, 3, "RESUMED")
	require.NoError(t, <-errc)
}

func TestEndCloses1000(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	c := r.start()
	require.NoError(t, r.shard.End(t.Context()))
	assert.Equal(t, websocket.StatusNormalClosure, c.expectClosed())
	_, err := r.shard.RequestGuildMembers(t.Context(), &MemberRequestParams{GuildID: 1, UserIDs: []guildkit.Snowflake{2}})
	require.ErrorIs(t, err, ErrClosed)
}

func TestBadEventSkippedAndHandlerPanicRecovered(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	On(r.shard, func(_ context.Context, e *GuildCreate) {
		if e.ID == 1 {
			panic("boom")
		}
	})
	c := r.start()
	c.send(OpDispatch, "not an object", 2, "GUILD_BAN_ADD")
	c.sendRaw([]byte(`{"op":0,`))
	c.send(OpDispatch, map[string]any{"id": "1"}, 3, "GUILD_CREATE")
	c.send(OpDispatch, map[string]any{"id": "2"}, 4, "GUILD_CREATE")
	r.rec.waitFor(t, "both GUILD_CREATEs", func(ev []Event, _ []guildkit.GatewayEvent) bool { return len(ev) == 3 })
	assert.Equal(t, []string{"READY", "GUILD_CREATE", "GUILD_CREATE"}, r.rec.eventNames())
	assert.Contains(t, r.logs.String(), "an event that does not decode was skipped")
	assert.Contains(t, r.logs.String(), "panicked")
	assert.Equal(t, 1, r.gw.count(), "no disconnect")
}

func TestRequestGuildMembers(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	c := r.start()
	type result struct {
		chunks []*GuildMembersChunk
		err    error
	}
	res := make(chan result, 1)
	go func() {
		ch, err := r.shard.RequestGuildMembers(context.Background(), &MemberRequestParams{GuildID: 10, Query: guildkit.Some(""), Limit: 0})
		res <- result{ch, err}
	}()
	d := c.expect(OpRequestGuildMembers)["d"].(map[string]any)
	assert.Equal(t, "10", d["guild_id"])
	assert.Equal(t, "", d["query"])
	nonce := d["nonce"].(string)
	require.NotEmpty(t, nonce)
	c.send(OpDispatch, map[string]any{"guild_id": "10", "members": []any{}, "chunk_index": 0, "chunk_count": 2, "nonce": "other"}, 2, "GUILD_MEMBERS_CHUNK")
	c.send(OpDispatch, map[string]any{"guild_id": "10", "members": []any{}, "chunk_index": 0, "chunk_count": 2, "nonce": nonce}, 3, "GUILD_MEMBERS_CHUNK")
	c.send(OpDispatch, map[string]any{"guild_id": "10", "members": []any{}, "chunk_index": 1, "chunk_count": 2, "nonce": nonce}, 4, "GUILD_MEMBERS_CHUNK")
	got := <-res
	require.NoError(t, got.err)
	require.Len(t, got.chunks, 2)
	assert.Equal(t, 1, got.chunks[1].ChunkIndex)

	_, err := r.shard.RequestGuildMembers(t.Context(), &MemberRequestParams{})
	var ve *guildkit.ValidationError
	require.ErrorAs(t, err, &ve)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err = r.shard.RequestGuildMembers(ctx, &MemberRequestParams{GuildID: 1, UserIDs: []guildkit.Snowflake{1}})
	require.ErrorIs(t, err, context.Canceled)
}

func TestHandlerWithoutItsIntentWarns(t *testing.T) {
	t.Parallel()
	r := newRig(t, WithIntents(IntentGuilds))
	On(r.shard, func(context.Context, *GuildMemberAdd) {})
	r.start()
	assert.Contains(t, r.logs.String(), "GUILD_MEMBER_ADD")
	assert.Contains(t, r.logs.String(), "its intent is not asked for")
}

func TestSecretsNeverShown(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.start()
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%d", "%o", "%x", "%t", "%e", "%U"} {
		assert.NotContains(t, fmt.Sprintf(verb, r.shard), "secret", verb)
	}
	assert.Equal(t, r.shard.String(), fmt.Sprintf("%d", r.shard))
	_, err := NewShard("")
	require.Error(t, err)
	assert.False(t, errors.Is(err, ErrClosed))
}

// TestGatewayURLAskedAgainWhenItFails: GET /gateway/bot's URL does not
// connect; the shard asks GET /gateway again and connects there.
func TestGatewayURLAskedAgainWhenItFails(t *testing.T) {
	t.Parallel()
	gw := newFakeGateway(t)
	dead := httptest.NewServer(http.NotFoundHandler())
	dead.Close()
	var gets atomic.Int32
	rest := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/gateway/bot":
			fmt.Fprintf(w, `{"url":%q,"shards":1,"session_start_limit":{"total":1000,"remaining":1000,"reset_after":0,"max_concurrency":1}}`, "ws"+strings.TrimPrefix(dead.URL, "http"))
		case "/api/gateway":
			gets.Add(1)
			fmt.Fprintf(w, `{"url":%q}`, gw.url())
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(rest.Close)
	rc, err := guildkit.New(guildkit.BotToken(testToken), guildkit.WithBaseURL(rest.URL+"/api"))
	require.NoError(t, err)
	clock := newManualClock()
	s, err := NewShard(testToken, WithClient(rc), WithClock(clock), WithRandom(func() float64 { return 0.5 }))
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.End(context.Background()) })
	go func() { _ = s.Open(context.Background()) }()
	wait := backoff(1, DefaultBackoffMin, DefaultBackoffMax, func() float64 { return 0.5 })
	clock.waitTimer(t, wait)
	clock.Advance(wait)
	c := gw.next() // the failed attempt took no identify key: it never had a HELLO
	c.hello(40 * time.Second)
	c.expect(OpIdentify)
	assert.EqualValues(t, 1, gets.Load())
}

// TestEventsOwnTheirBytes: the reader reuses its buffers; every event a
// handler holds keeps its own data after later messages.
func TestEventsOwnTheirBytes(t *testing.T) {
	t.Parallel()
	for _, comp := range []Compression{CompressionZlibStream, CompressionNone} {
		r := newRig(t, WithCompression(comp))
		c := r.start()
		for i := range 30 {
			c.send(OpDispatch, map[string]any{"n": i, "pad": strings.Repeat(fmt.Sprint(i%10), 100+i)}, int64(2+2*i), "SOMETHING_NEW")
			c.send(OpDispatch, map[string]any{"guild_id": "10", "user": map[string]any{"id": fmt.Sprint(100 + i), "username": fmt.Sprint("user", i)}}, int64(3+2*i), "GUILD_BAN_ADD")
		}
		r.rec.waitFor(t, "60 events", func(ev []Event, _ []guildkit.GatewayEvent) bool { return len(ev) == 61 })
		r.rec.mu.Lock()
		for i := range 30 {
			raw := r.rec.events[1+2*i].(*RawEvent)
			assert.Equal(t, "SOMETHING_NEW", raw.Name)
			assert.JSONEq(t, fmt.Sprintf(`{"n":%d,"pad":%q}`, i, strings.Repeat(fmt.Sprint(i%10), 100+i)), string(raw.Data))
			ban := r.rec.events[2+2*i].(*GuildBanAdd)
			assert.Equal(t, fmt.Sprint("user", i), ban.User.Username)
		}
		r.rec.mu.Unlock()
	}
}

// TestReconnectInPlaceOfHello: op 7 may come before HELLO; the shard
// reconnects (no session yet: it identifies) and never beats on the old
// connection.
func TestReconnectInPlaceOfHello(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.open()
	c := r.gw.next()
	c.send(OpReconnect, nil, 0, "")
	assert.Equal(t, websocket.StatusCode(4000), c.expectClosed())
	c2 := r.reconnect(1) // no HELLO came: no identify key was taken
	c2.hello(40 * time.Second)
	c2.expect(OpIdentify)
}

// TestHelloTimeout: a connection that never says HELLO is dropped after
// DefaultHelloTimeout on the shard's clock, and the shard tries again.
func TestHelloTimeout(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	r.open()
	c := r.gw.next()
	r.clock.waitTimer(t, DefaultHelloTimeout)
	r.clock.Advance(DefaultHelloTimeout)
	assert.Equal(t, websocket.StatusCode(4000), c.expectClosed())
	c2 := r.reconnect(1) // no HELLO came: no identify key was taken
	c2.hello(40 * time.Second)
	c2.expect(OpIdentify)
}

// TestIdentifyWaitSpendsNothingWhenTheConnectionDrops: the identify
// limiter is waited on after HELLO, on the connection; a connection lost
// during the wait spends no session start.
func TestIdentifyWaitSpendsNothingWhenTheConnectionDrops(t *testing.T) {
	t.Parallel()
	clock := newManualClock()
	lim := ratelimit.NewMemoryIdentifyLimiter(ratelimit.IdentifyOptions{Clock: clock})
	require.NoError(t, lim.SetLimit(t.Context(), testToken, ratelimit.SessionStartLimit{Total: 1000, Remaining: 1000, ResetAfter: time.Hour, MaxConcurrency: 1}))
	r := newRig(t, WithIdentifyLimiter(lim), WithClock(clock))
	r.clock = clock
	c := r.start()
	left, _ := lim.Remaining(testToken)
	assert.Equal(t, 999, left)
	c.send(OpInvalidSession, false, 0, "")
	c2 := r.reconnect(1)
	c2.hello(40 * time.Second)
	clock.waitTimer(t, ratelimit.IdentifyWindow-500*time.Millisecond) // waiting for the key
	assert.Equal(t, StatusWaiting, r.shard.Status())
	_ = c2.ws.CloseNow()
	r.rec.waitSignal(t, guildkit.GatewayBackoff, 2)
	left, _ = lim.Remaining(testToken)
	assert.Equal(t, 999, left, "no session start spent on the lost connection")
}

// TestCloseBeforeReady: Close while Open waits ends both; Open says so.
func TestCloseBeforeReady(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	errc := r.open()
	c := r.gw.next()
	c.hello(40 * time.Second)
	c.expect(OpIdentify)
	sess, err := r.shard.Close(t.Context())
	require.NoError(t, err)
	assert.Nil(t, sess, "no session to resume yet")
	require.ErrorIs(t, <-errc, ErrClosed)
	assert.Equal(t, websocket.StatusCode(4000), c.expectClosed())
}
