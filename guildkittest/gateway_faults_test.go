package guildkittest_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

func inject(t *testing.T, srv *guildkittest.Server, id string, f guildkittest.GatewayFault) {
	t.Helper()
	n, err := srv.InjectGatewayFault(t.Context(), id, f)
	if err != nil || n != 1 {
		t.Fatalf("InjectGatewayFault(%s, %+v) = %d, %v", id, f, n, err)
	}
}

// resumeOn opens a connection to the resume URL and resumes.
func resumeOn(t *testing.T, srv *guildkittest.Server, r ready, seq int64) (*rawClient, wsFrame) {
	t.Helper()
	c := dial(t, r.ResumeGatewayURL, "/?v=10&encoding=json")
	c.hello()
	c.send(6, map[string]any{"token": srv.Token(), "session_id": r.SessionID, "seq": seq})
	return c, c.read()
}

func TestGatewayFaults(t *testing.T) {
	t.Parallel()
	t.Run("reconnect", func(t *testing.T) {
		t.Parallel()
		srv := guildkittest.NewServer(t)
		c, r, _ := connect(t, srv, 1, nil)
		inject(t, srv, r.SessionID, guildkittest.GatewayFault{Kind: guildkittest.FaultReconnect})
		if f := c.read(); f.Op != 7 || string(f.D) != "null" {
			t.Fatalf("op %d d %s, want RECONNECT", f.Op, f.D)
		}
		_ = c.ws.Close(4200, "resuming")
		if _, f := resumeOn(t, srv, r, 1); f.name() != "RESUMED" {
			t.Fatalf("resume after reconnect: op %d %s", f.Op, f.name())
		}
	})
	t.Run("invalid_session false", func(t *testing.T) {
		t.Parallel()
		srv := guildkittest.NewServer(t)
		c, r, _ := connect(t, srv, 1, nil)
		inject(t, srv, r.SessionID, guildkittest.GatewayFault{Kind: guildkittest.FaultInvalidSession})
		if f := c.read(); f.Op != 9 || string(f.D) != "false" {
			t.Fatalf("op %d d %s, want INVALID_SESSION false", f.Op, f.D)
		}
		if _, f := resumeOn(t, srv, r, 1); f.Op != 9 || string(f.D) != "false" {
			t.Fatalf("resume of an invalidated session: op %d d %s", f.Op, f.D)
		}
		srv.AdvanceClock(5 * time.Second)
		c.identify(srv.Token(), 1, nil) // the same socket may identify again
		if f := c.until("READY"); f.seq() != 1 {
			t.Fatalf("new session's READY s=%d", f.seq())
		}
	})
	t.Run("close keeps or ends", func(t *testing.T) {
		t.Parallel()
		for _, tc := range []struct {
			code int
			kept bool
		}{{4000, true}, {4008, true}, {4009, false}, {4003, false}, {1000, false}} {
			srv := guildkittest.NewServer(t)
			c, r, _ := connect(t, srv, 1, nil)
			inject(t, srv, r.SessionID, guildkittest.GatewayFault{Kind: guildkittest.FaultClose, Code: tc.code})
			if code := c.closed(); int(code) != tc.code {
				t.Fatalf("closed with %d, want %d", code, tc.code)
			}
			waitDisconnected(t, srv, r.SessionID)
			logged := false
			for _, f := range srv.GatewayFrames(r.SessionID) {
				logged = logged || (f.Direction == guildkittest.FrameOut && strings.HasPrefix(f.Note, fmt.Sprintf("close %d: ", tc.code)))
			}
			if !logged {
				t.Errorf("close %d: not in the session's frame log", tc.code)
			}
			_, f := resumeOn(t, srv, r, 1)
			if kept := f.name() == "RESUMED"; kept != tc.kept {
				t.Errorf("close %d: resume op %d %s, kept %v want %v", tc.code, f.Op, f.name(), kept, tc.kept)
			}
		}
	})
	t.Run("drop", func(t *testing.T) {
		t.Parallel()
		srv := guildkittest.NewServer(t)
		c, r, _ := connect(t, srv, 1, nil)
		inject(t, srv, r.SessionID, guildkittest.GatewayFault{Kind: guildkittest.FaultDrop})
		if code := c.closed(); code != -1 {
			t.Fatalf("drop gave close code %d, want none", code)
		}
		if _, f := resumeOn(t, srv, r, 1); f.name() != "RESUMED" {
			t.Fatalf("resume after a drop: op %d %s", f.Op, f.name())
		}
	})
	t.Run("withhold_acks", func(t *testing.T) {
		t.Parallel()
		srv := guildkittest.NewServer(t)
		g := srv.AddGuild(guildkit.Guild{})
		c, r, _ := connect(t, srv, 1, nil)
		c.until("GUILD_CREATE")
		inject(t, srv, r.SessionID, guildkittest.GatewayFault{Kind: guildkittest.FaultWithholdAcks})
		c.send(1, 2)
		if _, err := srv.Client().Roles.Create(t.Context(), g.ID, &guildkit.RoleCreateParams{Name: guildkit.Some("x")}); err != nil {
			t.Fatal(err)
		}
		if f := c.read(); f.Op != 0 || f.name() != "GUILD_ROLE_CREATE" {
			t.Fatalf("after a withheld ack: op %d %s, want the dispatch (no op 11)", f.Op, f.name())
		}
	})
	t.Run("silence", func(t *testing.T) {
		t.Parallel()
		srv := guildkittest.NewServer(t)
		g := srv.AddGuild(guildkit.Guild{})
		c, r, _ := connect(t, srv, 1, nil)
		c.until("GUILD_CREATE")
		inject(t, srv, r.SessionID, guildkittest.GatewayFault{Kind: guildkittest.FaultSilence})
		c.send(1, 2)
		if _, err := srv.Client().Roles.Create(t.Context(), g.ID, &guildkit.RoleCreateParams{Name: guildkit.Some("x")}); err != nil {
			t.Fatal(err)
		}
		inject(t, srv, r.SessionID, guildkittest.GatewayFault{Kind: guildkittest.FaultRequestHeartbeat})
		inject(t, srv, r.SessionID, guildkittest.GatewayFault{Kind: guildkittest.FaultClose})
		// Nothing came before the close: no ack, no dispatch, no op 1.
		_, err := c.next()
		if code := websocket.CloseStatus(err); code != 4000 {
			t.Fatalf("silenced connection: first read %v, want the close 4000", err)
		}
		if s := srv.GatewaySessions()[0]; s.Sequence != 3 || s.Written != 2 {
			t.Errorf("sequence %d written %d, want the dispatch queued (3) but not written (2)", s.Sequence, s.Written)
		}
		// The queued dispatch is replayed on resume.
		c2, f := resumeOn(t, srv, r, 2)
		if f.name() != "GUILD_ROLE_CREATE" || f.seq() != 3 {
			t.Fatalf("replay after silence: %s s=%d", f.name(), f.seq())
		}
		if f := c2.read(); f.name() != "RESUMED" {
			t.Fatalf("then %s", f.name())
		}
	})
	t.Run("request_heartbeat", func(t *testing.T) {
		t.Parallel()
		srv := guildkittest.NewServer(t)
		c, r, _ := connect(t, srv, 1, nil)
		inject(t, srv, r.SessionID, guildkittest.GatewayFault{Kind: guildkittest.FaultRequestHeartbeat})
		f := c.read()
		if f.Op != 1 || string(f.D) != "null" || string(f.raw["s"]) != "null" || string(f.raw["t"]) != "null" {
			t.Fatalf("op 1 = %s", mustMarshal(f.raw))
		}
		c.send(1, 1)
		if f := c.read(); f.Op != 11 {
			t.Fatalf("answer to the requested beat: op %d", f.Op)
		}
		if s := srv.GatewaySessions()[0]; s.Heartbeats != 1 || s.LastHeartbeat.IsZero() || s.HeartbeatInterval != 41250*time.Millisecond {
			t.Errorf("session heartbeat fields %+v", s)
		}
	})
	t.Run("every session", func(t *testing.T) {
		t.Parallel()
		srv := guildkittest.NewServer(t, guildkittest.WithGateway(guildkittest.GatewaySettings{MaxConcurrency: 3}))
		var clients []*rawClient
		for k := range 3 {
			c, _, _ := connect(t, srv, 1, map[string]any{"shard": []int{k, 3}})
			clients = append(clients, c)
		}
		n, err := srv.InjectGatewayFault(t.Context(), "", guildkittest.GatewayFault{Kind: guildkittest.FaultReconnect})
		if err != nil || n != 3 {
			t.Fatalf("every session: %d, %v", n, err)
		}
		for _, c := range clients {
			if f := c.read(); f.Op != 7 {
				t.Errorf("op %d, want 7", f.Op)
			}
		}
	})
	t.Run("errors", func(t *testing.T) {
		t.Parallel()
		srv := guildkittest.NewServer(t)
		if _, err := srv.InjectGatewayFault(t.Context(), "nope", guildkittest.GatewayFault{Kind: guildkittest.FaultDrop}); !errors.Is(err, guildkittest.ErrNoGatewaySession) {
			t.Errorf("unknown session: %v", err)
		}
		if _, err := srv.InjectGatewayFault(t.Context(), "", guildkittest.GatewayFault{Kind: "explode"}); err == nil || !strings.Contains(err.Error(), "explode") {
			t.Errorf("unknown kind: %v", err)
		}
		if _, err := srv.InjectGatewayFault(t.Context(), "", guildkittest.GatewayFault{Kind: guildkittest.FaultClose, Code: 1006}); err == nil {
			t.Errorf("close 1006 accepted")
		}
	})
}

// TestGatewayFrameLogRedacted: the frame log holds what went in and out,
// with the token redacted; no listing shows the token.
func TestGatewayFrameLogRedacted(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	c, r, _ := connect(t, srv, 1, nil)
	c.send(1, 1)
	c.read()
	frames := srv.GatewayFrames(r.SessionID)
	secret := srv.Token()[strings.LastIndex(srv.Token(), ".")+1:]
	dump := fmt.Sprintf("%+v %+v", frames, srv.GatewaySessions())
	b, _ := json.Marshal(frames)
	if strings.Contains(dump, secret) || strings.Contains(string(b), secret) {
		t.Fatalf("the token's secret appears in the frame log or the sessions")
	}
	var sawIdentify, sawHello, sawReady bool
	for _, f := range frames {
		switch {
		case f.Direction == guildkittest.FrameIn && f.Op == 2:
			sawIdentify = strings.Contains(string(f.Data), `"token":"[redacted]"`)
		case f.Direction == guildkittest.FrameOut && f.Op == 10:
			sawHello = true
		case f.Direction == guildkittest.FrameOut && f.Name == "READY":
			sawReady = f.Seq == 1
		}
	}
	if !sawIdentify || !sawHello || !sawReady {
		t.Errorf("frame log: identify redacted %v, hello %v, ready %v: %s", sawIdentify, sawHello, sawReady, b)
	}
}

// TestGatewaySlowSessionClosed: a session that never reads its socket is
// closed (resumable) once its queue passes QueueLimit, and the session
// that reads gets every event meanwhile.
func TestGatewaySlowSessionClosed(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t, guildkittest.WithGateway(guildkittest.GatewaySettings{QueueLimit: 100, MaxConcurrency: 2}))
	_, slow, _ := connect(t, srv, 1, map[string]any{"shard": []int{0, 1}})
	fast, _, _ := connect(t, srv, 1, map[string]any{"shard": []int{1, 2}})
	big := json.RawMessage(`{"pad":"` + strings.Repeat("x", 64<<10) + `"}`)
	connected := func() (bool, bool) {
		for _, s := range srv.GatewaySessions() {
			if s.ID == slow.SessionID {
				return s.Connected, s.Ended
			}
		}
		return false, false
	}
	kicked := func() bool {
		for _, f := range srv.GatewayFrames(slow.SessionID) {
			if strings.Contains(f.Note, "queue full") {
				return true
			}
		}
		return false
	}
	for batch := 0; ; batch++ {
		if kicked() {
			break
		}
		if batch == 1000 {
			t.Fatal("the session that does not read is still connected after 10,000 events of 64 KiB")
		}
		for range 10 {
			srv.DispatchGatewayEvent("BIG", 0, 0, big) // shard 0: the slow session only
			srv.DispatchGatewayEvent("BIG", guildOnShard(1, 2), 0, big)
		}
		// The session that reads gets its events while the other lags.
		for range 10 {
			if f := fast.read(); f.name() != "BIG" {
				t.Fatalf("batch %d: %s", batch, f.name())
			}
		}
	}
	waitDisconnected(t, srv, slow.SessionID)
	if _, ended := connected(); ended {
		t.Errorf("the slow session was ended; it should stay resumable")
	}
}

// TestGatewayRequestGuildMembers: op 8 chunks of up to 1000, nonce,
// user_ids with not_found, query and limit, RATE_LIMITED for a second
// whole-list request within 30 s.
func TestGatewayRequestGuildMembers(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{})
	var first guildkit.Snowflake
	for i := range 1500 {
		m := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: fmt.Sprintf("user%04d", i)}})
		if i == 0 {
			first = m.User.ID
		}
	}
	c, _, _ := connect(t, srv, 1|1<<1, nil)
	c.until("GUILD_CREATE")
	type chunk struct {
		GuildID    string            `json:"guild_id"`
		Members    []json.RawMessage `json:"members"`
		ChunkIndex int               `json:"chunk_index"`
		ChunkCount int               `json:"chunk_count"`
		NotFound   []string          `json:"not_found"`
		Nonce      string            `json:"nonce"`
	}
	readChunk := func() chunk {
		f := c.until("GUILD_MEMBERS_CHUNK")
		var ch chunk
		_ = json.Unmarshal(f.D, &ch)
		return ch
	}
	c.send(8, map[string]any{"guild_id": g.ID, "query": "", "limit": 0, "nonce": "all"})
	a, b := readChunk(), readChunk()
	if len(a.Members) != 1000 || len(b.Members) != 501 || a.ChunkIndex != 0 || b.ChunkIndex != 1 || a.ChunkCount != 2 || b.Nonce != "all" {
		t.Fatalf("chunks: %d (%d/%d), %d (%d/%d), nonce %q", len(a.Members), a.ChunkIndex, a.ChunkCount, len(b.Members), b.ChunkIndex, b.ChunkCount, b.Nonce)
	}
	var m map[string]any
	_ = json.Unmarshal(a.Members[0], &m)
	if _, ok := m["user"]; !ok {
		t.Errorf("chunk member without user: %s", a.Members[0])
	}
	c.send(8, map[string]any{"guild_id": g.ID, "query": "", "limit": 0, "nonce": "again"})
	f := c.until("RATE_LIMITED")
	var rl struct {
		Opcode     int     `json:"opcode"`
		RetryAfter float64 `json:"retry_after"`
		Meta       struct {
			GuildID string `json:"guild_id"`
			Nonce   string `json:"nonce"`
		} `json:"meta"`
	}
	_ = json.Unmarshal(f.D, &rl)
	if rl.Opcode != 8 || rl.RetryAfter <= 0 || rl.Meta.GuildID != g.ID.String() || rl.Meta.Nonce != "again" {
		t.Errorf("RATE_LIMITED = %s", f.D)
	}
	srv.AdvanceClock(30 * time.Second)
	c.send(1, nil)
	c.send(8, map[string]any{"guild_id": g.ID, "query": "", "limit": 0})
	if ch := readChunk(); ch.ChunkCount != 2 {
		t.Errorf("after 30 s: chunk_count %d", ch.ChunkCount)
	}
	readChunk()
	c.send(8, map[string]any{"guild_id": g.ID, "user_ids": []string{first.String(), "1"}, "nonce": "ids"})
	if ch := readChunk(); len(ch.Members) != 1 || len(ch.NotFound) != 1 || ch.NotFound[0] != "1" || ch.Nonce != "ids" {
		t.Errorf("user_ids chunk: %d members, not_found %v, nonce %q", len(ch.Members), ch.NotFound, ch.Nonce)
	}
	c.send(8, map[string]any{"guild_id": g.ID, "query": "user00", "limit": 7})
	if ch := readChunk(); len(ch.Members) != 7 {
		t.Errorf("query with limit 7: %d members", len(ch.Members))
	}
	c.send(8, map[string]any{"guild_id": g.ID, "query": "user149", "limit": 50})
	if ch := readChunk(); len(ch.Members) != 10 {
		t.Errorf("query user149: %d members, want 10", len(ch.Members))
	}
}

// TestGatewayConcurrentSessions drives several sessions and REST calls at
// once, for the race detector.
func TestGatewayConcurrentSessions(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t, guildkittest.WithGateway(guildkittest.GatewaySettings{MaxConcurrency: 8}))
	g := srv.AddGuild(guildkit.Guild{})
	var clients []*rawClient
	for k := range 8 {
		c, _, _ := connect(t, srv, 1, map[string]any{"shard": []int{k, 8}})
		clients = append(clients, c)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 10 {
				_, _ = srv.Client().Roles.Create(t.Context(), g.ID, &guildkit.RoleCreateParams{Name: guildkit.Some("r")})
			}
		}()
	}
	wg.Wait()
	shard := int((uint64(g.ID) >> 22) % 8)
	c := clients[shard]
	last := int64(0)
	for range 40 {
		f := c.until("GUILD_ROLE_CREATE")
		if f.seq() <= last {
			t.Fatalf("s %d after %d", f.seq(), last)
		}
		last = f.seq()
	}
	_ = srv.GatewaySessions()
}
