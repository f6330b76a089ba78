package guildkittest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// The gateway's load run.
const (
	loadShards   = 4
	loadSessions = 100 // 25 per shard
	// loadIntents is GUILDS | GUILD_MODERATION: role and ban events.
	loadIntents = 1 | 1<<2
)

// TestGatewayLoad is the gateway's load run: 100 sessions on 4 shards (25
// each, identifying as max_concurrency allows on the server's clock) read
// their events while TestLoad's REST load runs for GUILDKIT_LOAD and a
// generator creates and deletes roles in one guild per shard. Every
// session checks each dispatch as it arrives: its sequence number is the
// last one plus one (nothing lost, doubled or out of order, across the
// resumes a session that falls behind makes), and its guild is on the
// session's shard ((guild_id >> 22) % 4). At the end every session of a
// shard has seen, in order, exactly the roles the generator created in
// that shard's guild. Beside them a session that never reads its socket
// (and asks for every event of every guild) must be closed by the server,
// not fed forever. TestLoad's conditions hold too:
// no 5xx, a flat heap, and goleak (TestMain) finds no goroutine left. It
// is skipped unless GUILDKIT_LOAD is set:
//
//	GUILDKIT_LOAD=15s go test -race -run '^TestGatewayLoad$' -v ./guildkittest
func TestGatewayLoad(t *testing.T) {
	d := loadDuration(t)
	settings := guildkittest.GatewaySettings{
		// The identify windows are crossed by moving the server's clock,
		// well within one interval.
		HeartbeatInterval: 10 * time.Minute,
		MaxConcurrency:    loadShards,
		QueueLimit:        2000,
	}
	runLoad(t, d, []guildkittest.Option{guildkittest.WithGateway(settings)}, func(srv *guildkittest.Server) func() {
		return startGatewayLoad(t, srv)
	})
}

// loadReader is one session of the load run, reading on its own
// goroutine.
type loadReader struct {
	shard     int
	sessionID string
	resumeURL string
	seq       int64
	guild     guildkit.Snowflake // the generator's guild of its shard
	roles     []string           // names of the generator's roles, in the order created
	events    int
	resumes   int
	problem   string
	mu        sync.Mutex // guards roles, events, resumes, problem for the test's reads
}

func (r *loadReader) fail(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.problem == "" {
		r.problem = fmt.Sprintf("session %s (shard %d): ", r.sessionID, r.shard) + fmt.Sprintf(format, args...)
	}
}

// startGatewayLoad connects the sessions and starts the generators; the
// function it returns stops them and checks what every session saw.
func startGatewayLoad(t *testing.T, srv *guildkittest.Server) func() {
	ctx, cancel := context.WithCancel(context.Background())
	// One guild per shard, the bot its owner.
	guilds := make([]guildkit.Guild, loadShards)
	for i := range guilds {
		guilds[i] = srv.AddGuild(guildkit.Guild{ID: guildkit.Snowflake(uint64(loadShards*1000+i) << 22), Name: fmt.Sprintf("shard %d", i)})
	}

	// The sessions, one per shard per identify window of the server's
	// clock.
	readers := make([]*loadReader, loadSessions)
	var wg sync.WaitGroup
	for i := range readers {
		if i > 0 && i%loadShards == 0 {
			srv.AdvanceClock(5 * time.Second)
		}
		r := &loadReader{shard: i % loadShards, guild: guilds[i%loadShards].ID}
		readers[i] = r
		ws := r.identify(t, ctx, srv)
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.read(ctx, srv, ws)
		}()
	}
	srv.AdvanceClock(5 * time.Second)

	// The session that never reads: a small receive buffer, IDENTIFY
	// written, then nothing read.
	deaf := deafSession(t, ctx, srv)

	// The generators: roles in every shard's guild.
	created := make([][]string, loadShards)
	var made atomic.Int64
	var gen sync.WaitGroup
	genCtx, stopGen := context.WithCancel(ctx)
	for i, g := range guilds {
		gen.Add(1)
		go func() {
			defer gen.Done()
			c := srv.Client()
			for n := 0; genCtx.Err() == nil; n++ {
				// Not cut short: every role asked for is made, and seen.
				name := fmt.Sprintf("gw-%d-%d", i, n)
				role, err := c.Roles.Create(context.WithoutCancel(genCtx), g.ID, &guildkit.RoleCreateParams{Name: guildkit.Some(name)})
				if err != nil {
					t.Errorf("the generator: %v", err)
					return
				}
				created[i] = append(created[i], name)
				made.Add(1)
				_ = c.Roles.Delete(context.WithoutCancel(genCtx), g.ID, role.ID)
				time.Sleep(20 * time.Millisecond)
			}
		}()
	}
	// Should the REST run stop the test early, everything stops before the
	// server closes.
	t.Cleanup(func() {
		stopGen()
		gen.Wait()
		cancel()
		wg.Wait()
	})
	return func() {
		stopGen()
		gen.Wait()
		// Every session catches up with the roles of its shard.
		deadline := time.Now().Add(30 * time.Second)
		for _, r := range readers {
			for {
				r.mu.Lock()
				n, problem := len(r.roles), r.problem
				r.mu.Unlock()
				if n >= len(created[r.shard]) || problem != "" || time.Now().After(deadline) {
					break
				}
				time.Sleep(10 * time.Millisecond)
			}
		}
		deafClosed := deaf()
		cancel()
		wg.Wait()

		events, resumes := 0, 0
		for _, r := range readers {
			r.mu.Lock()
			assert.Empty(t, r.problem)
			assert.Equal(t, created[r.shard], r.roles, "session %s of shard %d: the generator's roles, in order", r.sessionID, r.shard)
			assert.Positive(t, r.events)
			events += r.events
			resumes += r.resumes
			r.mu.Unlock()
		}
		t.Logf("gateway: %d sessions on %d shards, %d roles generated, %d dispatches read, %d resumes after a session fell behind",
			loadSessions, loadShards, made.Load(), events, resumes)
		assert.True(t, deafClosed, "the session that never reads is closed")
	}
}

// identify connects a session of the reader's shard and reads it up to
// READY.
func (r *loadReader) identify(t *testing.T, ctx context.Context, srv *guildkittest.Server) *websocket.Conn {
	t.Helper()
	ws, _, err := websocket.Dial(ctx, srv.GatewayURL()+"/?v=10&encoding=json", nil)
	require.NoError(t, err)
	ws.SetReadLimit(1 << 20)
	hello := r.next(ctx, ws)
	require.Equal(t, 10, hello.Op)
	require.NoError(t, ws.Write(ctx, websocket.MessageText, mustMarshal(map[string]any{"op": 2, "d": map[string]any{
		"token": srv.Token(), "intents": loadIntents, "shard": []int{r.shard, loadShards},
		"properties": map[string]string{"os": "linux", "browser": "loadreader", "device": "loadreader"}}})))
	for {
		f := r.next(ctx, ws)
		require.NotEqual(t, 9, f.Op, "INVALID_SESSION: identified beyond max_concurrency")
		if f.Op == 0 && f.name() == "READY" {
			var rd ready
			require.NoError(t, json.Unmarshal(f.D, &rd))
			r.sessionID, r.resumeURL, r.seq = rd.SessionID, rd.ResumeGatewayURL, f.seq()
			r.events++
			return ws
		}
	}
}

// next reads one frame (text, uncompressed); Op -1 when the connection
// ended.
func (r *loadReader) next(ctx context.Context, ws *websocket.Conn) wsFrame {
	_, b, err := ws.Read(ctx)
	if err != nil {
		return wsFrame{Op: -1, D: json.RawMessage(mustMarshal(err.Error()))}
	}
	var f wsFrame
	if err := json.Unmarshal(b, &f); err != nil {
		r.fail("undecodable frame: %v", err)
		return wsFrame{Op: -1}
	}
	return f
}

// read checks every dispatch until ctx ends; a connection the server
// closes is resumed on the resume URL.
func (r *loadReader) read(ctx context.Context, srv *guildkittest.Server, ws *websocket.Conn) {
	defer func() { _ = ws.CloseNow() }()
	beat := time.Now()
	for ctx.Err() == nil {
		f := r.next(ctx, ws)
		// A heartbeat every 2 s of the dispatches read, with the last
		// sequence number, as bots do: it lets the server drop what the
		// session no longer needs for a resume.
		if time.Since(beat) > 2*time.Second && f.Op != -1 {
			beat = time.Now()
			_ = ws.Write(ctx, websocket.MessageText, mustMarshal(map[string]any{"op": 1, "d": r.seq}))
		}
		switch f.Op {
		case -1:
			if ctx.Err() != nil {
				return
			}
			_ = ws.CloseNow()
			ws = r.resume(ctx, srv)
			if ws == nil {
				return
			}
		case 0:
			r.dispatch(f)
		case 7, 9:
			r.fail("op %d during the run", f.Op)
		case 1, 10, 11: // a request for a beat, HELLO after a resume, an ack
		}
	}
}

// resume reconnects on the resume URL and sends RESUME; nil when it
// cannot.
func (r *loadReader) resume(ctx context.Context, srv *guildkittest.Server) *websocket.Conn {
	ws, _, err := websocket.Dial(ctx, r.resumeURL+"/?v=10&encoding=json", nil)
	if err != nil {
		if ctx.Err() == nil {
			r.fail("resume: %v", err)
		}
		return nil
	}
	ws.SetReadLimit(1 << 20)
	if f := r.next(ctx, ws); f.Op != 10 {
		r.fail("resume: first frame op %d", f.Op)
		_ = ws.CloseNow()
		return nil
	}
	err = ws.Write(ctx, websocket.MessageText, mustMarshal(map[string]any{"op": 6, "d": map[string]any{
		"token": srv.Token(), "session_id": r.sessionID, "seq": r.seq}}))
	if err != nil {
		_ = ws.CloseNow()
		return nil
	}
	r.mu.Lock()
	r.resumes++
	r.mu.Unlock()
	return ws
}

// dispatch checks one dispatch: the next sequence number, on the
// session's shard.
func (r *loadReader) dispatch(f wsFrame) {
	if f.name() == "RESUMED" {
		r.seq = f.seq()
		return
	}
	if f.seq() != r.seq+1 {
		r.fail("%s has s=%d after s=%d", f.name(), f.seq(), r.seq)
	}
	r.seq = f.seq()
	var d struct {
		GuildID guildkit.Snowflake `json:"guild_id"`
		ID      guildkit.Snowflake `json:"id"`
		Role    struct {
			Name string `json:"name"`
		} `json:"role"`
	}
	_ = json.Unmarshal(f.D, &d)
	gid := d.GuildID
	if f.name() == "GUILD_CREATE" || f.name() == "GUILD_DELETE" {
		gid = d.ID
	}
	if gid != 0 && int((uint64(gid)>>22)%loadShards) != r.shard {
		r.fail("%s of guild %s, which is on shard %d", f.name(), gid, (uint64(gid)>>22)%loadShards)
	}
	r.mu.Lock()
	r.events++
	if f.name() == "GUILD_ROLE_CREATE" && gid == r.guild {
		r.roles = append(r.roles, d.Role.Name)
	}
	r.mu.Unlock()
}

// deafSession identifies a session that carries every guild (one shard),
// asks for every event of the REST load (members, bans, webhooks,
// invites, messages with their content) and many member chunks, and never
// reads; the function it
// returns reports whether the server closed it (waiting up to 30 s) and
// closes the client's side.
func deafSession(t *testing.T, ctx context.Context, srv *guildkittest.Server) func() bool {
	t.Helper()
	dialer := &net.Dialer{}
	client := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dialer.DialContext(ctx, network, addr)
		if tc, ok := c.(*net.TCPConn); ok {
			_ = tc.SetReadBuffer(4096)
		}
		return c, err
	}}}
	ws, _, err := websocket.Dial(ctx, srv.GatewayURL()+"/?v=10&encoding=json", &websocket.DialOptions{HTTPClient: client})
	require.NoError(t, err)
	require.NoError(t, ws.Write(ctx, websocket.MessageText, mustMarshal(map[string]any{"op": 2, "d": map[string]any{
		"token": srv.Token(), "intents": 1 | 1<<1 | 1<<2 | 1<<5 | 1<<6 | 1<<9 | 1<<15, "shard": []int{0, 1},
		"properties": map[string]string{"os": "linux", "browser": "deaf", "device": "deaf"}}})))
	// It asks for members, 100 at a time, 80 times (within the 120 sends a
	// minute allows): chunks of tens of KiB that fill its socket's buffers
	// at once.
	var rest guildkit.Snowflake
	for _, g := range srv.Guilds() {
		if g.Name == "load" {
			rest = g.ID
		}
	}
	require.NotZero(t, rest, "the REST load's guild")
	for range 80 {
		require.NoError(t, ws.Write(ctx, websocket.MessageText, mustMarshal(map[string]any{"op": 8, "d": map[string]any{
			"guild_id": rest, "query": "", "limit": 100}})))
	}
	var id string
	require.Eventually(t, func() bool {
		for _, s := range srv.GatewaySessions() {
			if s.Properties["browser"] == "deaf" {
				id = s.ID
				return true
			}
		}
		return false
	}, 10*time.Second, 10*time.Millisecond, "the deaf session identified")
	return func() bool {
		defer func() { _ = ws.CloseNow() }()
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) {
			for _, s := range srv.GatewaySessions() {
				if s.ID == id && !s.Connected {
					t.Logf("the deaf session: closed with %d dispatches given, %d written, %d kept for a resume", s.Sequence, s.Written, s.Queued)
					return true
				}
			}
			time.Sleep(50 * time.Millisecond)
		}
		for _, s := range srv.GatewaySessions() {
			if s.ID == id {
				t.Logf("the deaf session: still connected with %d dispatches given, %d written, %d kept", s.Sequence, s.Written, s.Queued)
			}
		}
		return false
	}
}
