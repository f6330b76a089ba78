package state_test

import (
	"iter"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
	"github.com/seed012df1e9/guildkit/state"
)

// fixed is a Reader over fixed maps, for the pure computations.
type fixed struct {
	guild    state.Guild
	roles    map[state.Snowflake]state.Role
	members  map[state.Snowflake]state.Member
	channels map[state.Snowflake]state.Channel
}

func (f *fixed) CurrentUser() (state.User, error) { return state.User{}, state.ErrNotFound }
func (f *fixed) Guild(id state.Snowflake) (state.Guild, error) {
	if id != f.guild.ID {
		return state.Guild{}, state.ErrNotFound
	}
	if f.guild.Stale {
		return f.guild, state.ErrStale
	}
	return f.guild, nil
}
func (f *fixed) Guilds() iter.Seq2[state.Guild, error] { return nil }
func (f *fixed) Channel(id state.Snowflake) (state.Channel, error) {
	c, ok := f.channels[id]
	if !ok {
		return c, state.ErrNotFound
	}
	return c, nil
}
func (f *fixed) Channels(state.Snowflake) iter.Seq2[state.Channel, error] { return nil }
func (f *fixed) Role(_, id state.Snowflake) (state.Role, error) {
	r, ok := f.roles[id]
	if !ok {
		return r, state.ErrNotFound
	}
	return r, nil
}
func (f *fixed) Roles(state.Snowflake) iter.Seq2[state.Role, error] { return nil }
func (f *fixed) Member(_, id state.Snowflake) (state.Member, error) {
	m, ok := f.members[id]
	if !ok {
		return m, state.ErrNotFound
	}
	return m, nil
}
func (f *fixed) Members(state.Snowflake) iter.Seq2[state.Member, error] { return nil }
func (f *fixed) User(state.Snowflake) (state.User, error)               { return state.User{}, state.ErrNotFound }
func (f *fixed) Emoji(_, _ state.Snowflake) (state.Emoji, error) {
	return state.Emoji{}, state.ErrNotFound
}
func (f *fixed) Emojis(state.Snowflake) iter.Seq2[state.Emoji, error] { return nil }
func (f *fixed) Sticker(_, _ state.Snowflake) (state.Sticker, error) {
	return state.Sticker{}, state.ErrNotFound
}
func (f *fixed) Stickers(state.Snowflake) iter.Seq2[state.Sticker, error] { return nil }
func (f *fixed) Presence(_, _ state.Snowflake) (state.Presence, error) {
	return state.Presence{}, state.ErrNotFound
}
func (f *fixed) VoiceState(_, _ state.Snowflake) (state.VoiceState, error) {
	return state.VoiceState{}, state.ErrNotFound
}
func (f *fixed) VoiceStates(state.Snowflake) iter.Seq2[state.VoiceState, error] { return nil }

// workedExample is the guild of permissions.md §9, as raw objects.
func workedExample() (*guildkit.Guild, []guildkit.Member, []guildkit.Channel) {
	role := func(id guildkit.Snowflake, pos int, p guildkit.Permissions) guildkit.Role {
		return guildkit.Role{ID: id, Position: pos, Permissions: p, Name: "r" + id.String()}
	}
	g := &guildkit.Guild{ID: 100, OwnerID: 9, Name: "worked", Roles: []guildkit.Role{
		role(100, 0, 68672), role(201, 2, 24576), role(202, 1, 32768), role(203, 3, 180224), role(204, 4, 8),
	}}
	user := func(id guildkit.Snowflake) *guildkit.User { return &guildkit.User{ID: id, Username: "u" + id.String()} }
	members := []guildkit.Member{
		{User: user(9)},
		{User: user(11), Roles: []guildkit.Snowflake{201, 202}},
		{User: user(12), Roles: []guildkit.Snowflake{201}},
		{User: user(13), Roles: []guildkit.Snowflake{203}},
		{User: user(14), Roles: []guildkit.Snowflake{204}},
	}
	ow := func(id guildkit.Snowflake, t guildkit.OverwriteType, allow, deny guildkit.Permissions) guildkit.PermissionOverwrite {
		return guildkit.PermissionOverwrite{ID: id, Type: t, Allow: allow, Deny: deny}
	}
	const role0, member1 = guildkit.OverwriteTypeRole, guildkit.OverwriteTypeMember
	channels := []guildkit.Channel{
		{ID: 300, GuildID: 100, Name: "general", PermissionOverwrites: []guildkit.PermissionOverwrite{
			ow(100, role0, 0, 2048), ow(201, role0, 0, 32768), ow(202, role0, 34816, 0)}},
		{ID: 301, GuildID: 100, Name: "staff", PermissionOverwrites: []guildkit.PermissionOverwrite{
			ow(100, role0, 0, 1024), ow(201, role0, 1024, 0), ow(12, member1, 0, 1024)}},
		{ID: 302, GuildID: 100, Name: "news", PermissionOverwrites: []guildkit.PermissionOverwrite{
			ow(203, role0, 0, 2048)}},
		{ID: 303, GuildID: 100, Name: "thread", Type: guildkit.ChannelTypePublicThread, ParentID: guildkit.Some[guildkit.Snowflake](300)},
	}
	return g, members, channels
}

func fixedOf(g *guildkit.Guild, members []guildkit.Member, channels []guildkit.Channel) *fixed {
	f := &fixed{guild: state.GuildOf(g), roles: map[state.Snowflake]state.Role{},
		members: map[state.Snowflake]state.Member{}, channels: map[state.Snowflake]state.Channel{}}
	for i := range g.Roles {
		f.roles[g.Roles[i].ID] = state.RoleOf(g.ID, &g.Roles[i])
	}
	for i := range members {
		f.members[members[i].User.ID] = state.MemberOf(g.ID, &members[i], nil)
	}
	for i := range channels {
		f.channels[channels[i].ID] = state.ChannelOf(&channels[i])
	}
	return f
}

// permissionCase is one worked example: a member in a channel (0: the
// guild level), at a time, with the expected raw and effective values.
type permissionCase struct {
	name              string
	user, channel     state.Snowflake
	timedOut, pastTO  bool
	raw, effective    guildkit.Permissions
	everyoneInThreads bool
}

var permissionCases = []permissionCase{
	{name: "1 Alice in #general: role allow beats @everyone and role deny", user: 11, channel: 300, raw: 126016, effective: 126016},
	{name: "2 Bob in #general: no SEND_MESSAGES drops EMBED_LINKS", user: 12, channel: 300, raw: 91200, effective: 74816},
	{name: "3 Bob in #staff: member deny last, no VIEW_CHANNEL", user: 12, channel: 301, raw: 92224, effective: 0},
	{name: "3 Alice in #staff", user: 11, channel: 301, raw: 126016, effective: 126016},
	{name: "4 Carol in #news: implicit denial of her role's bits", user: 13, channel: 302, raw: 246848, effective: 66624},
	{name: "5 Dave in #staff: administrator", user: 14, channel: 301, raw: guildkit.AllPermissions, effective: guildkit.AllPermissions},
	{name: "5 owner in #staff", user: 9, channel: 301, raw: guildkit.AllPermissions, effective: guildkit.AllPermissions},
	{name: "5 Dave guild-level", user: 14, raw: guildkit.AllPermissions, effective: guildkit.AllPermissions},
	{name: "6 Alice timed out in #general", user: 11, channel: 300, timedOut: true, raw: 126016, effective: 66560},
	{name: "6 Dave timed out: exempt", user: 14, channel: 300, timedOut: true, raw: guildkit.AllPermissions, effective: guildkit.AllPermissions},
	{name: "6 Alice timeout in the past", user: 11, channel: 300, pastTO: true, raw: 126016, effective: 126016},
	{name: "7 Alice in a thread of #general: no SEND_MESSAGES_IN_THREADS", user: 11, channel: 303, raw: 126016, effective: 126016},
	{name: "7 with SEND_MESSAGES_IN_THREADS on @everyone", user: 11, channel: 303, everyoneInThreads: true,
		raw: 126016 | guildkit.PermissionSendMessagesInThreads, effective: 126016 | guildkit.PermissionSendMessagesInThreads},
	{name: "guild level Alice", user: 11, raw: 126016, effective: 126016},
	{name: "guild level Alice timed out", user: 11, timedOut: true, raw: 126016, effective: 66560},
}

func TestPermissionsWorkedExamples(t *testing.T) {
	now := time.Date(2026, 8, 6, 12, 0, 0, 0, time.UTC)
	for _, tc := range permissionCases {
		t.Run(tc.name, func(t *testing.T) {
			g, members, channels := workedExample()
			if tc.everyoneInThreads {
				g.Roles[0].Permissions |= guildkit.PermissionSendMessagesInThreads
			}
			for i := range members {
				if members[i].User.ID != tc.user {
					continue
				}
				switch {
				case tc.timedOut:
					until := now.Add(time.Hour)
					members[i].CommunicationDisabledUntil = &until
				case tc.pastTO:
					until := now.Add(-time.Hour)
					members[i].CommunicationDisabledUntil = &until
				}
			}
			f := fixedOf(g, members, channels)
			if tc.channel == 0 {
				got, err := state.MemberPermissions(f, 100, tc.user, now)
				if err != nil || got != tc.effective {
					t.Fatalf("MemberPermissions = %d, %v; want %d", got, err, tc.effective)
				}
				return
			}
			raw, err := state.RawPermissionsIn(f, tc.channel, tc.user)
			if err != nil || raw != tc.raw {
				t.Errorf("RawPermissionsIn = %d, %v; want %d", raw, err, tc.raw)
			}
			got, err := state.MemberPermissionsIn(f, tc.channel, tc.user, now)
			if err != nil || got != tc.effective {
				t.Errorf("MemberPermissionsIn = %d, %v; want %d", got, err, tc.effective)
			}
		})
	}
}

func TestPermissionsErrors(t *testing.T) {
	now := time.Now()
	f := fixedOf(workedExample())
	if _, err := state.MemberPermissions(f, 100, 77, now); err != state.ErrNotFound {
		t.Errorf("unknown member: %v, want ErrNotFound", err)
	}
	if _, err := state.MemberPermissionsIn(f, 999, 11, now); err != state.ErrNotFound {
		t.Errorf("unknown channel: %v, want ErrNotFound", err)
	}
	f.guild.Stale = true
	p, err := state.MemberPermissions(f, 100, 11, now)
	if err != state.ErrStale || p != 126016 {
		t.Errorf("stale guild: %d, %v; want 126016, ErrStale", p, err)
	}
}

// TestHierarchyWorkedExample is permissions.md §9 example 8.
func TestHierarchyWorkedExample(t *testing.T) {
	f := fixedOf(workedExample())
	top := func(u state.Snowflake) state.Snowflake {
		r, err := state.HighestRole(f, 100, u)
		if err != nil {
			t.Fatal(err)
		}
		return r.ID
	}
	for u, want := range map[state.Snowflake]state.Snowflake{11: 201, 12: 201, 13: 203, 14: 204, 9: 100} {
		if got := top(u); got != want {
			t.Errorf("HighestRole(%d) = %d, want %d", u, got, want)
		}
	}
	roleCases := []struct {
		actor, role state.Snowflake
		want        bool
	}{{11, 202, true}, {11, 201, false}, {11, 203, false}, {14, 203, true}, {14, 204, false}, {9, 204, true}}
	for _, c := range roleCases {
		if got, err := state.CanManageRole(f, 100, c.actor, c.role); err != nil || got != c.want {
			t.Errorf("CanManageRole(%d, %d) = %v, %v; want %v", c.actor, c.role, got, err, c.want)
		}
	}
	memberCases := []struct {
		actor, target state.Snowflake
		want          bool
	}{{11, 12, false}, {11, 13, false}, {14, 11, true}, {14, 12, true}, {14, 13, true},
		{11, 14, false}, {12, 14, false}, {13, 14, false}, {9, 14, true}, {14, 9, false}, {13, 11, true}}
	for _, c := range memberCases {
		if got, err := state.CanManageMember(f, 100, c.actor, c.target); err != nil || got != c.want {
			t.Errorf("CanManageMember(%d, %d) = %v, %v; want %v", c.actor, c.target, got, err, c.want)
		}
	}
}

// TestPermissionsAgainstServerOnRandomGuilds: on random guilds (roles of
// random permissions and positions, channels with random role and member
// overwrites, members with random roles), what the cache computes equals
// the in-memory server's own checks, for every member in every channel.
func TestPermissionsAgainstServerOnRandomGuilds(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 35))
	var guilds []guildkit.Guild
	h := newHarness(t, allPolicies(), 0, func(srv *guildkittest.Server) {
		for range 12 {
			owner := srv.AddUser(guildkit.User{Username: "owner"})
			g := srv.AddGuild(guildkit.Guild{Name: "random", OwnerID: owner.ID})
			guilds = append(guilds, g)
			var roles []guildkit.Snowflake
			for i := range 1 + rng.IntN(6) {
				r := srv.AddRole(g.ID, guildkit.Role{Name: "r", Position: 1 + rng.IntN(5) + i, Permissions: guildkit.Permissions(randPerms(rng))})
				roles = append(roles, r.ID)
			}
			var users []guildkit.Snowflake
			for range 2 + rng.IntN(5) {
				var mine []guildkit.Snowflake
				for _, r := range roles {
					if rng.IntN(3) == 0 {
						mine = append(mine, r)
					}
				}
				m := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "m"}, Roles: mine})
				users = append(users, m.User.ID)
			}
			admin := srv.AddRole(g.ID, guildkit.Role{Name: "bot", Position: 20, Permissions: guildkit.PermissionAdministrator})
			srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{ID: srv.BotID()}, Roles: []guildkit.Snowflake{admin.ID}})
			for range 1 + rng.IntN(4) {
				ows := []guildkit.PermissionOverwrite{{ID: g.ID, Type: guildkit.OverwriteTypeRole,
					Allow: guildkit.Permissions(randPerms(rng)) &^ guildkit.PermissionAdministrator, Deny: guildkit.Permissions(randPerms(rng))}}
				for _, r := range roles {
					if rng.IntN(2) == 0 {
						ows = append(ows, guildkit.PermissionOverwrite{ID: r, Type: guildkit.OverwriteTypeRole,
							Allow: guildkit.Permissions(randPerms(rng)) &^ guildkit.PermissionAdministrator, Deny: guildkit.Permissions(randPerms(rng))})
					}
				}
				u := users[rng.IntN(len(users))]
				ows = append(ows, guildkit.PermissionOverwrite{ID: u, Type: guildkit.OverwriteTypeMember,
					Allow: guildkit.Permissions(randPerms(rng)) &^ guildkit.PermissionAdministrator, Deny: guildkit.Permissions(randPerms(rng))})
				typ := guildkit.ChannelTypeGuildText
				if rng.IntN(3) == 0 {
					typ = guildkit.ChannelTypeGuildVoice
				}
				srv.AddChannel(g.ID, guildkit.Channel{Name: "c", Type: typ, PermissionOverwrites: ows})
			}
		}
	})
	for _, g := range guilds {
		h.settle(g.ID)
	}
	for _, g := range guilds {
		matchServer(t, h.cache, h.srv, g.ID, true)
	}
}

// TestOwnerPermissionsMatchServer: the owner holds ALL (permissions.md §2,
// §3: every documented bit, SET_VOICE_CHANNEL_STATUS included, bit 47 not)
// in the cache and on the server, at the guild level and in a channel whose
// overwrites deny everything to @everyone, the owner's role and the owner.
func TestOwnerPermissionsMatchServer(t *testing.T) {
	var g guildkit.Guild
	var owner guildkit.Snowflake
	var chans []guildkit.Channel
	h := newHarness(t, allPolicies(), 0, func(srv *guildkittest.Server) {
		u := srv.AddUser(guildkit.User{Username: "owner"})
		owner = u.ID
		g = srv.AddGuild(guildkit.Guild{Name: "owned", OwnerID: owner})
		r := srv.AddRole(g.ID, guildkit.Role{Name: "plain", Position: 1, Permissions: guildkit.PermissionViewChannel})
		srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{ID: owner}, Roles: []guildkit.Snowflake{r.ID}})
		admin := srv.AddRole(g.ID, guildkit.Role{Name: "bot", Position: 2, Permissions: guildkit.PermissionAdministrator})
		srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{ID: srv.BotID()}, Roles: []guildkit.Snowflake{admin.ID}})
		deny := guildkit.Permissions(1<<64 - 1)
		for _, typ := range []guildkit.ChannelType{guildkit.ChannelTypeGuildText, guildkit.ChannelTypeGuildVoice} {
			chans = append(chans, srv.AddChannel(g.ID, guildkit.Channel{Name: "locked", Type: typ, PermissionOverwrites: []guildkit.PermissionOverwrite{
				{ID: g.ID, Type: guildkit.OverwriteTypeRole, Deny: deny},
				{ID: r.ID, Type: guildkit.OverwriteTypeRole, Deny: deny},
				{ID: owner, Type: guildkit.OverwriteTypeMember, Deny: deny},
			}}))
		}
	})
	h.settle(g.ID)
	if got := h.srv.Permissions(g.ID, owner); got != guildkit.AllPermissions {
		t.Errorf("server: the owner has %d, want ALL %d", got, guildkit.AllPermissions)
	}
	if got := mustPerm(t)(h.cache.MemberPermissions(g.ID, owner)); got != guildkit.AllPermissions {
		t.Errorf("cache: MemberPermissions(owner) = %d, want ALL %d", got, guildkit.AllPermissions)
	}
	if !guildkit.AllPermissions.Has(guildkit.PermissionSetVoiceChannelStatus) || guildkit.AllPermissions&(1<<47) != 0 {
		t.Errorf("ALL = %d: want bit 48 and not bit 47", guildkit.AllPermissions)
	}
	for _, ch := range chans {
		raw, err := state.RawPermissionsIn(h.cache, ch.ID, owner)
		if err != nil {
			t.Fatalf("RawPermissionsIn: %v", err)
		}
		if want := h.srv.ChannelPermissions(ch.ID, owner); raw != want || raw != guildkit.AllPermissions {
			t.Errorf("RawPermissionsIn(%d, owner) = %d, server %d, want ALL %d", ch.ID, raw, want, guildkit.AllPermissions)
		}
	}
}
