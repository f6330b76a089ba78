package guildkittest_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// TestGatewayCloseCodes drives every close code the server sends.
func TestGatewayCloseCodes(t *testing.T) {
	t.Parallel()
	type step func(t *testing.T, srv *guildkittest.Server, c *rawClient)
	identified := func(intents uint64) step {
		return func(t *testing.T, srv *guildkittest.Server, c *rawClient) {
			c.identify(srv.Token(), intents, nil)
			c.until("READY")
		}
	}
	cases := []struct {
		name  string
		query string
		opts  []guildkittest.Option
		setup func(srv *guildkittest.Server)
		steps []step
		want  websocket.StatusCode
	}{
		{name: "4001 unknown opcode", steps: []step{identified(1), func(t *testing.T, _ *guildkittest.Server, c *rawClient) { c.send(99, nil) }}, want: 4001},
		{name: "4001 opcode 5", steps: []step{identified(1), func(t *testing.T, _ *guildkittest.Server, c *rawClient) { c.send(5, nil) }}, want: 4001},
		{name: "4001 bad heartbeat", steps: []step{func(t *testing.T, _ *guildkittest.Server, c *rawClient) { c.send(1, "x") }}, want: 4001},
		{name: "4001 identify without intents", steps: []step{func(t *testing.T, srv *guildkittest.Server, c *rawClient) {
			c.send(2, map[string]any{"token": srv.Token(), "properties": map[string]string{}})
		}}, want: 4001},
		{name: "4001 bad op 8", steps: []step{identified(1), func(t *testing.T, _ *guildkittest.Server, c *rawClient) {
			c.send(8, map[string]any{"query": ""})
		}}, want: 4001},
		{name: "4002 not JSON", steps: []step{func(t *testing.T, _ *guildkittest.Server, c *rawClient) { c.sendRaw([]byte("{op:")) }}, want: 4002},
		{name: "4002 over 4096 bytes", steps: []step{func(t *testing.T, _ *guildkittest.Server, c *rawClient) {
			c.sendRaw(mustMarshal(map[string]any{"op": 1, "d": nil, "pad": strings.Repeat("x", 4100)}))
		}}, want: 4002},
		{name: "4002 etf refused", query: "/?v=10&encoding=etf", want: 4002},
		{name: "4003 before identify", steps: []step{func(t *testing.T, _ *guildkittest.Server, c *rawClient) {
			c.send(3, map[string]any{"status": "online", "since": nil, "activities": []any{}, "afk": false})
		}}, want: 4003},
		{name: "4004 bad token", steps: []step{func(t *testing.T, _ *guildkittest.Server, c *rawClient) { c.identify("nope", 1, nil) }}, want: 4004},
		{name: "4005 second identify", steps: []step{identified(1), func(t *testing.T, srv *guildkittest.Server, c *rawClient) {
			c.identify(srv.Token(), 1, nil)
		}}, want: 4005},
		{name: "4008 rate limited", opts: []guildkittest.Option{guildkittest.WithGateway(guildkittest.GatewaySettings{SendLimit: 5})},
			steps: []step{func(t *testing.T, _ *guildkittest.Server, c *rawClient) {
				for range 6 {
					c.send(1, nil)
				}
			}}, want: 4008},
		{name: "4010 shard id too big", steps: []step{func(t *testing.T, srv *guildkittest.Server, c *rawClient) {
			c.identify(srv.Token(), 1, map[string]any{"shard": []int{2, 2}})
		}}, want: 4010},
		{name: "4010 shard not a pair", steps: []step{func(t *testing.T, srv *guildkittest.Server, c *rawClient) {
			c.identify(srv.Token(), 1, map[string]any{"shard": []int{0}})
		}}, want: 4010},
		{name: "4011 sharding required", opts: []guildkittest.Option{guildkittest.WithGateway(guildkittest.GatewaySettings{GuildsPerShard: 2})},
			setup: func(srv *guildkittest.Server) {
				for range 3 {
					srv.AddGuild(guildkit.Guild{})
				}
			},
			steps: []step{func(t *testing.T, srv *guildkittest.Server, c *rawClient) { c.identify(srv.Token(), 1, nil) }}, want: 4011},
		{name: "4012 bad version", query: "/?v=8&encoding=json", want: 4012},
		{name: "4012 no version", query: "/", want: 4012},
		{name: "4013 unknown intent bit", steps: []step{func(t *testing.T, srv *guildkittest.Server, c *rawClient) {
			c.identify(srv.Token(), 1<<30, nil)
		}}, want: 4013},
		{name: "4014 privileged intent not approved", setup: func(srv *guildkittest.Server) { srv.SetPrivilegedIntents(0) },
			steps: []step{func(t *testing.T, srv *guildkittest.Server, c *rawClient) { c.identify(srv.Token(), 1<<15|1, nil) }}, want: 4014},
		{name: "4000 heartbeat timeout", steps: []step{identified(1), func(t *testing.T, srv *guildkittest.Server, c *rawClient) {
			srv.AdvanceClock(62 * time.Second)
		}}, want: 4000},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := guildkittest.NewServer(t, tc.opts...)
			if tc.setup != nil {
				tc.setup(srv)
			}
			q := tc.query
			if q == "" {
				q = "/?v=10&encoding=json"
			}
			c := dial(t, srv.GatewayURL(), q)
			if !strings.Contains(q, "v=8") && !strings.Contains(q, "etf") && q != "/" {
				c.hello()
			}
			for _, s := range tc.steps {
				s(t, srv, c)
			}
			if code := c.closed(); code != tc.want {
				t.Errorf("closed with %d, want %d", code, tc.want)
			}
		})
	}
}

// TestGatewaySessionKeptOrEnded: the server keeps a session for every
// client close but 1000/1001, and after its own resumable closes.
func TestGatewaySessionKeptOrEnded(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		code websocket.StatusCode
		kept bool
	}{{1000, false}, {1001, false}, {4000, true}, {4200, true}, {4900, true}, {1012, true}, {-1, true}} {
		srv := guildkittest.NewServer(t)
		c, r, _ := connect(t, srv, 1, nil)
		if tc.code == -1 {
			c.ws.CloseNow()
		} else {
			_ = c.ws.Close(tc.code, "bye")
		}
		waitDisconnected(t, srv, r.SessionID)
		c2 := dial(t, r.ResumeGatewayURL, "/?v=10&encoding=json")
		c2.hello()
		c2.send(6, map[string]any{"token": srv.Token(), "session_id": r.SessionID, "seq": 1})
		f := c2.read()
		if got := f.Op == 0 && f.name() == "RESUMED"; got != tc.kept {
			t.Errorf("client close %d: resume got op %d %s, kept = %v, want %v", tc.code, f.Op, f.name(), got, tc.kept)
		}
		if tc.kept && f.seq() != 2 {
			t.Errorf("RESUMED s = %d, want 2", f.seq())
		}
	}
}

// TestGatewayResumeReplay: the dispatches a dropped session missed come
// again, exactly once, in order, with their original s, then RESUMED with
// the next s; the resume URL is recorded.
func TestGatewayResumeReplay(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{})
	c, r, _ := connect(t, srv, 1, nil)
	gc := c.until("GUILD_CREATE")
	last := gc.seq()
	c.ws.CloseNow()
	var names []string
	for i := range 5 {
		role, err := srv.Client().Roles.Create(t.Context(), g.ID, &guildkit.RoleCreateParams{Name: guildkit.Some("r" + string(rune('a'+i)))})
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, role.Name)
	}
	c2 := dial(t, r.ResumeGatewayURL, "?v=10&encoding=json")
	c2.hello()
	c2.send(6, map[string]any{"token": srv.Token(), "session_id": r.SessionID, "seq": last})
	for i, want := range names {
		f := c2.read()
		var d struct {
			Role struct{ Name string } `json:"role"`
		}
		_ = json.Unmarshal(f.D, &d)
		if f.name() != "GUILD_ROLE_CREATE" || f.seq() != last+1+int64(i) || d.Role.Name != want {
			t.Fatalf("replay %d: %s s=%d role %q, want GUILD_ROLE_CREATE s=%d %q", i, f.name(), f.seq(), d.Role.Name, last+1+int64(i), want)
		}
	}
	f := c2.read()
	if f.name() != "RESUMED" || f.seq() != last+6 {
		t.Fatalf("after replay: %s s=%d, want RESUMED s=%d", f.name(), f.seq(), last+6)
	}
	if _, err := srv.Client().Roles.Create(t.Context(), g.ID, &guildkit.RoleCreateParams{Name: guildkit.Some("after")}); err != nil {
		t.Fatal(err)
	}
	if f := c2.read(); f.name() != "GUILD_ROLE_CREATE" || f.seq() != last+7 {
		t.Fatalf("after RESUMED: %s s=%d, want the new event once, s=%d", f.name(), f.seq(), last+7)
	}
	s := srv.GatewaySessions()[0]
	if s.URL != "resume" || len(s.ResumedTo) != 1 || s.ResumedTo[0] != "resume" || s.Resumes != 1 {
		t.Errorf("session after resume: %+v", s)
	}
}

// TestGatewayResumeWindow: a dropped session is resumable until the
// resume window passes on the server's clock, then INVALID_SESSION false.
func TestGatewayResumeWindow(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t, guildkittest.WithGateway(guildkittest.GatewaySettings{ResumeWindow: time.Minute}))
	resume := func(r ready, seq int64) wsFrame {
		c := dial(t, r.ResumeGatewayURL, "/?v=10")
		c.hello()
		c.send(6, map[string]any{"token": srv.Token(), "session_id": r.SessionID, "seq": seq})
		return c.read()
	}
	c, r, _ := connect(t, srv, 1, nil)
	c.ws.CloseNow()
	waitDisconnected(t, srv, r.SessionID)
	srv.AdvanceClock(59 * time.Second)
	c2 := dial(t, r.ResumeGatewayURL, "/?v=10")
	c2.hello()
	c2.send(6, map[string]any{"token": srv.Token(), "session_id": r.SessionID, "seq": 1})
	if f := c2.read(); f.name() != "RESUMED" {
		t.Fatalf("resume within the window: op %d %s", f.Op, f.name())
	}
	c2.ws.CloseNow()
	waitDisconnected(t, srv, r.SessionID)
	srv.AdvanceClock(61 * time.Second)
	if f := resume(r, 2); f.Op != 9 || string(f.D) != "false" {
		t.Fatalf("resume after the window: op %d d %s, want INVALID_SESSION false", f.Op, f.D)
	}
	// Unknown session, wrong token: INVALID_SESSION false too.
	if f := resume(ready{SessionID: "nope", ResumeGatewayURL: r.ResumeGatewayURL}, 1); f.Op != 9 || string(f.D) != "false" {
		t.Fatalf("unknown session: op %d d %s", f.Op, f.D)
	}
}

// waitDisconnected waits until the server has seen the session's
// connection end (the server's reader notices a drop asynchronously).
func waitDisconnected(t *testing.T, srv *guildkittest.Server, id string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		for _, s := range srv.GatewaySessions() {
			if s.ID == id && !s.Connected {
				return
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("session %s still connected", id)
}

// TestGatewayResumeTakesOver: a RESUME while the old connection is still
// open closes the old one with 4000 first.
func TestGatewayResumeTakesOver(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	c, r, _ := connect(t, srv, 1, nil)
	c2 := dial(t, r.ResumeGatewayURL, "/?v=10")
	c2.hello()
	c2.send(6, map[string]any{"token": srv.Token(), "session_id": r.SessionID, "seq": 1})
	if f := c2.read(); f.name() != "RESUMED" {
		t.Fatalf("takeover resume: op %d %s", f.Op, f.name())
	}
	if code := c.closed(); code != 4000 {
		t.Fatalf("old connection closed with %d, want 4000", code)
	}
}

// TestGatewayCrossResume: two connections, each resuming the other's
// session at the same moment, do not wait on each other forever: one
// takes the other's session over (RESUMED), the other is closed with 4000.
func TestGatewayCrossResume(t *testing.T) {
	t.Parallel()
	for range 20 {
		srv := guildkittest.NewServer(t)
		a, ra, _ := connect(t, srv, 1, nil)
		srv.AdvanceClock(5 * time.Second) // the identify concurrency window
		b, rb, _ := connect(t, srv, 1, nil)
		// Both RESUMEs are written at once, each on its own goroutine.
		var wg sync.WaitGroup
		for _, x := range []struct {
			c  *rawClient
			id string
		}{{a, rb.SessionID}, {b, ra.SessionID}} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p := mustMarshal(map[string]any{"op": 6, "d": map[string]any{"token": srv.Token(), "session_id": x.id, "seq": 1}})
				if err := x.c.ws.Write(x.c.ctx, websocket.MessageText, p); err != nil {
					t.Errorf("write: %v", err)
				}
			}()
		}
		wg.Wait()
		resumed, closed := 0, 0
		for _, c := range []*rawClient{a, b} {
			f, err := c.next()
			switch {
			case err == nil && f.Op == 0 && f.name() == "RESUMED":
				resumed++
			case websocket.CloseStatus(err) == 4000:
				closed++
			default:
				t.Fatalf("after the cross resume: op %d %s, %v", f.Op, f.name(), err)
			}
		}
		if resumed != 1 || closed != 1 {
			t.Fatalf("%d resumed and %d closed with 4000, want one of each", resumed, closed)
		}
	}
}

// TestGatewayInvalidSessionTrueThenResumeOnSameSocket: discord.js answers
// INVALID_SESSION true with RESUME on the same socket.
func TestGatewayInvalidSessionTrueThenResumeOnSameSocket(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	c, r, _ := connect(t, srv, 1, nil)
	if _, err := srv.InjectGatewayFault(t.Context(), r.SessionID, guildkittest.GatewayFault{Kind: guildkittest.FaultInvalidSession, Resumable: true}); err != nil {
		t.Fatal(err)
	}
	if f := c.read(); f.Op != 9 || string(f.D) != "true" {
		t.Fatalf("op %d d %s, want INVALID_SESSION true", f.Op, f.D)
	}
	c.send(6, map[string]any{"token": srv.Token(), "session_id": r.SessionID, "seq": 1})
	if f := c.read(); f.name() != "RESUMED" || f.seq() != 2 {
		t.Fatalf("resume on the same socket: op %d %s s=%d", f.Op, f.name(), f.seq())
	}
}

func TestGatewayIdentifyConcurrency(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t, guildkittest.WithGateway(guildkittest.GatewaySettings{MaxConcurrency: 2}))
	// Shards 0 and 1 have different keys: both start. Shard 2 shares
	// shard 0's key within 5 s: INVALID_SESSION false.
	for _, id := range []int{0, 1} {
		connect(t, srv, 1, map[string]any{"shard": []int{id, 4}})
	}
	c := dial(t, srv.GatewayURL(), "/?v=10")
	c.hello()
	c.identify(srv.Token(), 1, map[string]any{"shard": []int{2, 4}})
	if f := c.read(); f.Op != 9 || string(f.D) != "false" {
		t.Fatalf("third identify in the window: op %d d %s", f.Op, f.D)
	}
	srv.AdvanceClock(5 * time.Second)
	c.identify(srv.Token(), 1, map[string]any{"shard": []int{2, 4}})
	if f := c.until("READY"); f.seq() != 1 {
		t.Fatalf("READY s=%d", f.seq())
	}
	st := srv.IdentifyStats()
	if st.Total != 3 || st.Refused != 1 || st.MaxPerWindow != 2 || st.Remaining != 997 || st.InvalidSessions != 1 {
		t.Errorf("IdentifyStats = %+v", st)
	}
}

// TestGatewayTransportCompression: zlib-stream (one stream, sync-flushed),
// zstd-stream (one context, flushed) and payload compression, decoded by
// the test.
func TestGatewayTransportCompression(t *testing.T) {
	t.Parallel()
	for _, q := range []string{"?v=10&encoding=json&compress=zlib-stream", "/?v=10&encoding=json&compress=zstd-stream"} {
		srv := guildkittest.NewServer(t)
		g := srv.AddGuild(guildkit.Guild{})
		c := dial(t, srv.GatewayURL(), q)
		c.hello()
		c.identify(srv.Token(), 1, map[string]any{"compress": true}) // ignored with a stream, as discord.py sends it
		c.until("READY")
		c.until("GUILD_CREATE")
		c.send(1, 2)
		if f := c.read(); f.Op != 11 {
			t.Fatalf("%s: op %d, want 11", q, f.Op)
		}
		if _, err := srv.Client().Roles.Create(t.Context(), g.ID, &guildkit.RoleCreateParams{Name: guildkit.Some("z")}); err != nil {
			t.Fatal(err)
		}
		c.until("GUILD_ROLE_CREATE")
		if s := srv.GatewaySessions()[0]; !strings.Contains(q, s.Compression) {
			t.Errorf("compression %q for %s", s.Compression, q)
		}
	}
	// zlib-stream: every message ends with the sync flush's 00 00 ff ff.
	srv := guildkittest.NewServer(t)
	c := dial(t, srv.GatewayURL(), "?v=10&compress=zlib-stream")
	typ, b, err := c.ws.Read(t.Context())
	if err != nil || typ != websocket.MessageBinary || !bytes.HasSuffix(b, []byte{0, 0, 0xff, 0xff}) || b[0] != 0x78 {
		t.Fatalf("HELLO in zlib-stream: type %v, % x, %v", typ, b, err)
	}
}

func TestGatewayPayloadCompression(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	srv.AddGuild(guildkit.Guild{})
	c := dial(t, srv.GatewayURL(), "/?v=9&encoding=json")
	c.hello()
	c.identify(srv.Token(), 1, map[string]any{"compress": true})
	binary := 0
	for range 2 { // READY and GUILD_CREATE, each its own zlib stream
		typ, b, err := c.ws.Read(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if typ == websocket.MessageBinary {
			binary++
			if b[0] != 0x78 {
				t.Errorf("binary frame is not a zlib stream: % x", b[:2])
			}
		}
	}
	if binary != 2 {
		t.Fatalf("%d of READY and GUILD_CREATE compressed, want 2", binary)
	}
	c.send(1, nil)
	if f := c.read(); f.Op != 11 {
		t.Fatalf("op %d", f.Op)
	}
}

// TestGatewayInvalidSeq: RESUME with a seq the session never reached
// closes 4007 and ends the session.
func TestGatewayInvalidSeq(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	c, r, _ := connect(t, srv, 1, nil)
	c2 := dial(t, srv.GatewayURL(), "?v=10")
	c2.hello()
	c2.send(6, map[string]any{"token": srv.Token(), "session_id": r.SessionID, "seq": 99})
	if code := c2.closed(); code != 4007 {
		t.Errorf("resume beyond seq closed with %d, want 4007", code)
	}
	c.ws.CloseNow()
	c3 := dial(t, srv.GatewayURL(), "?v=10")
	c3.hello()
	c3.send(6, map[string]any{"token": srv.Token(), "session_id": r.SessionID, "seq": 1})
	if f := c3.read(); f.Op != 9 || string(f.D) != "false" {
		t.Errorf("resume after 4007: op %d d %s, want INVALID_SESSION false", f.Op, f.D)
	}
}

// TestGatewayOversizedFrame: over 4096 bytes the server closes 4002
// itself; over its 16 KiB read limit the WebSocket library closes 1009
// before the server sees the payload. Either way the session stays
// resumable.
func TestGatewayOversizedFrame(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	for _, size := range []int{5000, 20000} {
		c, r, _ := connect(t, srv, 1, nil)
		c.sendRaw(mustMarshal(map[string]any{"op": 1, "d": nil, "pad": strings.Repeat("x", size)}))
		want := websocket.StatusCode(4002)
		if size > 16<<10 {
			want = websocket.StatusMessageTooBig
		}
		if code := c.closed(); code != want {
			t.Errorf("%d bytes: closed with %d, want %d", size, code, want)
		}
		waitDisconnected(t, srv, r.SessionID)
		if _, f := resumeOn(t, srv, r, 1); f.name() != "RESUMED" {
			t.Errorf("%d bytes: resume got op %d %s", size, f.Op, f.name())
		}
		srv.AdvanceClock(5 * time.Second)
	}
}
