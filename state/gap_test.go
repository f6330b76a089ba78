package state_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/gateway"
	"github.com/seed012df1e9/guildkit/guildkittest"
	"github.com/seed012df1e9/guildkit/ratelimit"
	"github.com/seed012df1e9/guildkit/state"
)

// sessionID returns the shard's live session on the server.
func (h *harness) sessionID() string {
	h.t.Helper()
	for _, s := range h.srv.GatewaySessions() {
		if s.Connected && !s.Ended {
			return s.ID
		}
	}
	h.t.Fatal("no connected session")
	return ""
}

func (h *harness) fault(f guildkittest.GatewayFault) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	if _, err := h.srv.InjectGatewayFault(ctx, h.sessionID(), f); err != nil {
		h.t.Fatal(err)
	}
}

// TestCacheRebuildsAfterLostSession: events missed in a gap that ends the
// session (the bot kicked from a guild, roles and members changed) are
// made good by the new session: the guild left is dropped with everything
// under it, the other is rebuilt and re-chunked, and the application is
// told.
func TestCacheRebuildsAfterLostSession(t *testing.T) {
	for _, tc := range []struct {
		f       guildkittest.GatewayFault
		silence bool // the server sends nothing more before the fault (a silent server sends no op 9 either)
	}{
		{f: guildkittest.GatewayFault{Kind: guildkittest.FaultInvalidSession}},
		{f: guildkittest.GatewayFault{Kind: guildkittest.FaultClose, Code: 4009}, silence: true},
	} {
		f := tc.f
		t.Run(string(f.Kind), func(t *testing.T) {
			var left, kept guildkit.Guild
			var owner guildkit.User
			var gone guildkit.Member
			h := newHarness(t, allPolicies(), 0, func(srv *guildkittest.Server) {
				owner = srv.AddUser(guildkit.User{Username: "owner"})
				left = srv.AddGuild(guildkit.Guild{Name: "left", OwnerID: owner.ID})
				srv.AddMember(left.ID, guildkit.Member{User: &guildkit.User{ID: srv.BotID()}})
				kept = seedGuild(srv, 5)
				gone = srv.AddMember(kept.ID, guildkit.Member{User: &guildkit.User{Username: "leaver"}})
			})
			if _, err := h.cache.Guild(left.ID); err != nil {
				t.Fatalf("guild before the gap: %v", err)
			}
			if tc.silence {
				h.fault(guildkittest.GatewayFault{Kind: guildkittest.FaultSilence})
			}
			ctx := context.Background()
			if err := h.srv.ClientAs(owner.ID).Members.Remove(ctx, left.ID, h.srv.BotID()); err != nil {
				t.Fatal(err)
			}
			rc := h.srv.Client()
			if err := rc.Members.Remove(ctx, kept.ID, gone.User.ID); err != nil {
				t.Fatal(err)
			}
			if _, err := rc.Roles.Create(ctx, kept.ID, &guildkit.RoleCreateParams{Name: guildkit.Some("new")}); err != nil {
				t.Fatal(err)
			}
			h.srv.AdvanceClock(31 * time.Second) // the identify window and the member-list limit
			h.fault(f)
			r := h.waitRebuild()
			if !r.AfterGap || r.Guilds != 1 {
				t.Errorf("Rebuild = %+v, want after a gap, 1 guild", r)
			}
			h.waitLoaded()
			h.settle(kept.ID)
			if _, err := h.cache.Guild(left.ID); !errors.Is(err, state.ErrNotFound) {
				t.Errorf("the guild left is still held: %v", err)
			}
			if _, err := h.cache.Member(kept.ID, gone.User.ID); !errors.Is(err, state.ErrNotFound) {
				t.Errorf("the member who left during the gap is still held: %v", err)
			}
			matchServer(t, h.cache, h.srv, kept.ID, true)
		})
	}
}

// TestCacheResumeReplays: a resume replays the gap; nothing is rebuilt.
func TestCacheResumeReplays(t *testing.T) {
	var g guildkit.Guild
	h := newHarness(t, allPolicies(), 0, func(srv *guildkittest.Server) { g = seedGuild(srv, 5) })
	h.fault(guildkittest.GatewayFault{Kind: guildkittest.FaultSilence})
	ctx := context.Background()
	if _, err := h.srv.Client().Roles.Create(ctx, g.ID, &guildkit.RoleCreateParams{Name: guildkit.Some("while away")}); err != nil {
		t.Fatal(err)
	}
	h.fault(guildkittest.GatewayFault{Kind: guildkittest.FaultDrop})
	h.settle(g.ID)
	matchServer(t, h.cache, h.srv, g.ID, true)
	select {
	case r := <-h.rebuilds:
		t.Errorf("a resume rebuilt: %+v", r)
	default:
	}
}

// TestCacheOnManager: one cache follows the shards of a Manager; each
// shard's guilds are filled and re-chunked through that shard, and a lost
// session rebuilds only its own shard's guilds.
func TestCacheOnManager(t *testing.T) {
	srv := guildkittest.NewServer(t, guildkittest.WithGateway(guildkittest.GatewaySettings{MaxConcurrency: 2,
		HeartbeatInterval: 24 * time.Hour, ResumeWindow: 240 * time.Hour}))
	var guilds []guildkit.Guild
	for range 6 {
		guilds = append(guilds, seedGuild(srv, 3))
	}
	cache := state.NewCache(&state.Options{Policies: allPolicies(), Now: srv.Now})
	rebuilds := make(chan state.Rebuild, 10)
	loaded := make(chan guildkit.Snowflake, 100)
	m, err := gateway.NewManager(srv.Token(), gateway.WithShardCount(2),
		gateway.WithShardOptions(gateway.WithURL(srv.GatewayURL()), gateway.WithMaxConcurrency(2), gateway.WithClient(srv.Client()),
			gateway.WithBackoff(time.Millisecond, 2*time.Millisecond),
			gateway.WithIdentifyLimiter(ratelimit.NewMemoryIdentifyLimiter(ratelimit.IdentifyOptions{Clock: srv})),
			gateway.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))))
	if err != nil {
		t.Fatal(err)
	}
	cache.Attach(m, &state.AttachOptions{
		OnRebuild: func(r state.Rebuild) { rebuilds <- r },
		OnMembers: func(id guildkit.Snowflake) { loaded <- id },
	})
	ctx := context.Background()
	if err := m.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer func() { _, _ = m.Close(ctx) }()
	waitN := func(n int) {
		t.Helper()
		for range n {
			select {
			case <-rebuilds:
			case <-time.After(patience):
				t.Fatal("no rebuild")
			}
		}
		for range len(guilds) {
			select {
			case <-loaded:
			case <-time.After(patience):
				t.Fatal("a member list never came")
			}
		}
	}
	waitN(2)
	for _, g := range guilds {
		if st := cache.Stats(); st.Guilds != 6 {
			t.Fatalf("Stats = %+v", st)
		}
		ms := 0
		for range cache.Members(g.ID) {
			ms++
		}
		if ms != 4 { // three members and the owner (the bot)
			t.Errorf("guild %d: %d members, want 4", g.ID, ms)
		}
	}
	// Lose shard 1's session: only its guilds are rebuilt.
	var sess string
	for _, s := range srv.GatewaySessions() {
		if s.Connected && s.Shard[0] == 1 {
			sess = s.ID
		}
	}
	srv.AdvanceClock(31 * time.Second)
	if _, err := srv.InjectGatewayFault(ctx, sess, guildkittest.GatewayFault{Kind: guildkittest.FaultInvalidSession}); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-rebuilds:
		want := 0
		for _, g := range guilds {
			if gateway.ShardFor(g.ID, 2) == 1 {
				want++
			}
		}
		if r.Shard != [2]int{1, 2} || !r.AfterGap || r.Guilds != want {
			t.Errorf("Rebuild = %+v, want shard 1 of 2 after a gap with %d guilds", r, want)
		}
	case <-time.After(patience):
		t.Fatal("no rebuild after the lost session")
	}
	if st := cache.Stats(); st.Guilds != 6 {
		t.Errorf("after the rebuild: %+v", st)
	}
}
