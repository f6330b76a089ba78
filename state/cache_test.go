package state_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/gateway"
	"github.com/seed012df1e9/guildkit/guildkittest"
	"github.com/seed012df1e9/guildkit/state"
)

func allPolicies() *state.Policies {
	p := state.DefaultPolicies()
	p.Members = state.All()
	return &p
}

// seedGuild adds a guild with roles, channels with overwrites, and n
// members holding some of the roles.
func seedGuild(srv *guildkittest.Server, n int) guildkit.Guild {
	g := srv.AddGuild(guildkit.Guild{Name: "seeded"})
	mod := srv.AddRole(g.ID, guildkit.Role{Name: "mod", Position: 2, Permissions: guildkit.PermissionManageMessages | guildkit.PermissionKickMembers})
	up := srv.AddRole(g.ID, guildkit.Role{Name: "uploader", Position: 1, Permissions: guildkit.PermissionAttachFiles})
	srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText, PermissionOverwrites: []guildkit.PermissionOverwrite{
		{ID: g.ID, Type: guildkit.OverwriteTypeRole, Deny: guildkit.PermissionSendMessages},
		{ID: up.ID, Type: guildkit.OverwriteTypeRole, Allow: guildkit.PermissionSendMessages},
	}})
	srv.AddChannel(g.ID, guildkit.Channel{Name: "voice", Type: guildkit.ChannelTypeGuildVoice})
	for i := range n {
		var roles []guildkit.Snowflake
		if i%2 == 0 {
			roles = append(roles, mod.ID)
		}
		if i%3 == 0 {
			roles = append(roles, up.ID)
		}
		nick := "nick"
		srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "member"}, Roles: roles, Nick: &nick})
	}
	return g
}

func TestCacheMatchesServerAfterConnect(t *testing.T) {
	var g guildkit.Guild
	h := newHarness(t, allPolicies(), 0, func(srv *guildkittest.Server) { g = seedGuild(srv, 30) })
	h.settle(g.ID)
	matchServer(t, h.cache, h.srv, g.ID, true)
	st := h.cache.Stats()
	if st.Guilds != 1 || st.Members < 31 {
		t.Errorf("Stats = %+v", st)
	}
}

// TestCacheHandlersSeeBeforeAndAfter: a member update's handler reads the
// new member from the cache and the old one from OldMember; a removal's
// handler reads who left.
func TestCacheHandlersSeeBeforeAndAfter(t *testing.T) {
	var g guildkit.Guild
	var target guildkit.Member
	h := newHarness(t, allPolicies(), 0, func(srv *guildkittest.Server) {
		g = seedGuild(srv, 0)
		target = srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "alice"}})
	})
	type seen struct {
		old, now state.Member
		hadOld   bool
	}
	updates := make(chan seen, 4)
	removes := make(chan seen, 1)
	gateway.On(h.shard, func(ctx context.Context, e *gateway.GuildMemberUpdate) {
		old, ok := h.cache.OldMember(ctx)
		now, _ := h.cache.Member(e.GuildID, e.User.ID)
		updates <- seen{old, now, ok}
	})
	gateway.On(h.shard, func(ctx context.Context, e *gateway.GuildMemberRemove) {
		old, ok := h.cache.OldMember(ctx)
		_, err := h.cache.Member(e.GuildID, e.User.ID)
		if !errors.Is(err, state.ErrNotFound) {
			t.Errorf("removed member still read: %v", err)
		}
		removes <- seen{old: old, hadOld: ok}
	})
	ctx := context.Background()
	rc := h.srv.Client()
	if _, err := rc.Members.Modify(ctx, g.ID, target.User.ID, &guildkit.MemberModifyParams{Nick: guildkit.Some("ally")}); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-updates:
		if !s.hadOld || s.old.Nick != "" || s.now.Nick != "ally" {
			t.Errorf("update: old %q (held %v), now %q; want old \"\", now \"ally\"", s.old.Nick, s.hadOld, s.now.Nick)
		}
	case <-time.After(patience):
		t.Fatal("no GUILD_MEMBER_UPDATE")
	}
	if err := rc.Members.Remove(ctx, g.ID, target.User.ID); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-removes:
		if !s.hadOld || s.old.Nick != "ally" || s.old.User.Username != "alice" {
			t.Errorf("remove: old %+v (held %v)", s.old, s.hadOld)
		}
	case <-time.After(patience):
		t.Fatal("no GUILD_MEMBER_REMOVE")
	}
}

// TestCacheDefaultPolicyKeepsOnlyTheBotAndActiveMembers: by default a
// member list is not kept, but the bot's own member is, and so is a member
// that acts (an interaction).
func TestCacheDefaultPolicy(t *testing.T) {
	var g guildkit.Guild
	h := newHarness(t, nil, 0, func(srv *guildkittest.Server) { g = seedGuild(srv, 10) })
	h.settle(g.ID)
	me, err := h.cache.CurrentUser()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.cache.Member(g.ID, me.ID); err != nil {
		t.Errorf("the bot's own member: %v", err)
	}
	if st := h.cache.Stats(); st.Members != 1 || st.Roles != 3 || st.Channels != 2 {
		t.Errorf("Stats = %+v, want the bot's member, 3 roles, 2 channels", st)
	}
	if p := h.cache.Policies().Intents(); p&(gateway.IntentGuildMembers|gateway.IntentGuildPresences) != 0 {
		t.Errorf("default policies need privileged intents: %v", p)
	}
}
