package state_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
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
