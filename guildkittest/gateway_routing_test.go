package guildkittest_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// guildOnShard is a guild id that the platform's formula puts on shard k
// of n ((id >> 22) % n == k).
func guildOnShard(k, n int) guildkit.Snowflake {
	return guildkit.Snowflake(uint64(1000*n+k) << 22)
}

// collect reads dispatches until a marker dispatch named stop arrives (the
// marker is sent to every session) and returns the names seen before it,
// READY and GUILD_CREATE excluded.
func (c *rawClient) collect(stop string) []string {
	c.t.Helper()
	var names []string
	for {
		f := c.read()
		if f.Op != 0 {
			continue
		}
		if f.name() == stop {
			return names
		}
		if f.name() != "READY" && f.name() != "GUILD_CREATE" {
			var d struct {
				GuildID string `json:"guild_id"`
			}
			_ = json.Unmarshal(f.D, &d)
			names = append(names, f.name()+"@"+d.GuildID)
		}
	}
}

// mark sends a marker dispatch to every session (guild 0 goes to shard 0
// only, so it is sent once per shard through a guild of each).
func mark(srv *guildkittest.Server, guilds ...guildkit.Snowflake) {
	for _, g := range guilds {
		srv.DispatchGatewayEvent("MARK", g, 0, json.RawMessage(`{}`))
	}
}

// TestGatewayIntentFiltering: each session gets only the events its
// intents ask for; what it did not get is in its frame log, marked.
func TestGatewayIntentFiltering(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{})
	u := srv.AddUser(guildkit.User{Username: "bob"})
	srv.AddMember(g.ID, guildkit.Member{User: &u})
	v := srv.AddUser(guildkit.User{Username: "carol"})
	srv.AddMember(g.ID, guildkit.Member{User: &v})

	type sess struct {
		intents uint64
		want    []string
	}
	gid := g.ID.String()
	sessions := []sess{
		{1, []string{"GUILD_ROLE_CREATE@" + gid}},                                      // GUILDS
		{1 << 1, []string{"GUILD_MEMBER_UPDATE@" + gid, "GUILD_MEMBER_REMOVE@" + gid}}, // GUILD_MEMBERS
		{1 << 2, []string{"GUILD_BAN_ADD@" + gid}},                                     // GUILD_MODERATION
		{1 << 5, []string{"WEBHOOKS_UPDATE@" + gid}},                                   // GUILD_WEBHOOKS
		{0, nil}, // none
		{1 | 1<<1 | 1<<2 | 1<<5, []string{"GUILD_ROLE_CREATE@" + gid, "GUILD_MEMBER_UPDATE@" + gid, // all four
			"GUILD_MEMBER_REMOVE@" + gid, "GUILD_BAN_ADD@" + gid, "WEBHOOKS_UPDATE@" + gid}},
	}
	clients := make([]*rawClient, len(sessions))
	ids := make([]string, len(sessions))
	for i, s := range sessions {
		var r ready
		clients[i], r, _ = connect(t, srv, s.intents, nil)
		ids[i] = r.SessionID
		srv.AdvanceClock(5 * time.Second) // identify concurrency: one per 5 s
	}
	ctx := t.Context()
	cl := srv.Client()
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	if _, err := cl.Roles.Create(ctx, g.ID, &guildkit.RoleCreateParams{Name: guildkit.Some("r")}); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Members.Modify(ctx, g.ID, u.ID, &guildkit.MemberModifyParams{Nick: guildkit.Some("bobby")}); err != nil {
		t.Fatal(err)
	}
	if err := cl.Bans.Create(ctx, g.ID, u.ID, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Webhooks.Create(ctx, ch.ID, &guildkit.WebhookCreateParams{Name: "hook"}); err != nil {
		t.Fatal(err)
	}
	mark(srv, g.ID)
	for i, s := range sessions {
		got := clients[i].collect("MARK")
		if !slices.Equal(got, s.want) {
			t.Errorf("intents %d: got %v, want %v", s.intents, got, s.want)
		}
	}
	// The GUILDS-only session's log marks the ban as not sent.
	found := false
	for _, f := range srv.GatewayFrames(ids[0]) {
		if f.Direction == guildkittest.FrameNotSent && f.Name == "GUILD_BAN_ADD" && strings.HasPrefix(f.Note, "intents") {
			found = true
		}
	}
	if !found {
		t.Errorf("GUILD_BAN_ADD not marked as not sent in the GUILDS session's log")
	}
}

// TestGatewayBotOwnMemberUpdate: the bot's own GUILD_MEMBER_UPDATE arrives
// without GUILD_MEMBERS.
func TestGatewayBotOwnMemberUpdate(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{})
	c, _, _ := connect(t, srv, 1, nil)
	if _, err := srv.Client().Members.Modify(t.Context(), g.ID, srv.BotID(), &guildkit.MemberModifyParams{Nick: guildkit.Some("me")}); err != nil {
		t.Fatal(err)
	}
	f := c.until("GUILD_MEMBER_UPDATE")
	var d map[string]any
	_ = json.Unmarshal(f.D, &d)
	for _, k := range []string{"guild_id", "user", "roles", "flags", "pending", "nick", "deaf", "mute"} {
		if _, ok := d[k]; !ok {
			t.Errorf("GUILD_MEMBER_UPDATE lacks %q: %s", k, f.D)
		}
	}
}

// TestGatewayShardRouting: two shards; each gets its own guilds'
// GUILD_CREATE and events, never the other's; events without a guild go
// to shard 0.
func TestGatewayShardRouting(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t, guildkittest.WithGateway(guildkittest.GatewaySettings{MaxConcurrency: 2}))
	g0 := srv.AddGuild(guildkit.Guild{ID: guildOnShard(0, 2)})
	g1 := srv.AddGuild(guildkit.Guild{ID: guildOnShard(1, 2)})
	var clients [2]*rawClient
	for k := range 2 {
		c, r, _ := connect(t, srv, 1, map[string]any{"shard": []int{k, 2}})
		want := []guildkit.Snowflake{g0.ID, g1.ID}[k]
		if len(r.Guilds) != 1 || r.Guilds[0].ID != want.String() {
			t.Fatalf("shard %d READY guilds %v, want only %s", k, r.Guilds, want)
		}
		if !slices.Equal(r.Shard, []int{k, 2}) {
			t.Errorf("READY shard %v", r.Shard)
		}
		gc := c.read()
		var d struct{ ID string }
		_ = json.Unmarshal(gc.D, &d)
		if gc.name() != "GUILD_CREATE" || d.ID != want.String() {
			t.Fatalf("shard %d: %s of %s", k, gc.name(), d.ID)
		}
		clients[k] = c
	}
	for _, g := range []guildkit.Guild{g0, g1, g0} {
		if _, err := srv.Client().Roles.Create(t.Context(), g.ID, &guildkit.RoleCreateParams{Name: guildkit.Some("r")}); err != nil {
			t.Fatal(err)
		}
	}
	srv.DispatchGatewayEvent("NO_GUILD", 0, 0, json.RawMessage(`{}`))
	mark(srv, g0.ID, g1.ID)
	want := [][]string{
		{"GUILD_ROLE_CREATE@" + g0.ID.String(), "GUILD_ROLE_CREATE@" + g0.ID.String(), "NO_GUILD@"},
		{"GUILD_ROLE_CREATE@" + g1.ID.String()},
	}
	for k, c := range clients {
		if got := c.collect("MARK"); !slices.Equal(got, want[k]) {
			t.Errorf("shard %d got %v, want %v", k, got, want[k])
		}
	}
}

// TestGatewayOverlappingShardCounts: sessions with 1, 2 and 4 shards at
// once (resharding overlap): each gets exactly what its own shard owns.
func TestGatewayOverlappingShardCounts(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t, guildkittest.WithGateway(guildkittest.GatewaySettings{MaxConcurrency: 16}))
	var guilds []guildkit.Snowflake
	for k := range 4 {
		guilds = append(guilds, srv.AddGuild(guildkit.Guild{ID: guildOnShard(k, 4)}).ID)
	}
	type shard struct{ id, n int }
	shards := []shard{{0, 1}, {0, 2}, {1, 2}, {0, 4}, {1, 4}, {2, 4}, {3, 4}}
	clients := make([]*rawClient, len(shards))
	for i, sh := range shards {
		clients[i], _, _ = connect(t, srv, 1, map[string]any{"shard": []int{sh.id, sh.n}})
		srv.AdvanceClock(5 * time.Second)
	}
	for _, g := range guilds {
		if _, err := srv.Client().Roles.Create(t.Context(), g, &guildkit.RoleCreateParams{Name: guildkit.Some("r")}); err != nil {
			t.Fatal(err)
		}
	}
	mark(srv, guilds...)
	for i, sh := range shards {
		var want []string
		for _, g := range guilds {
			if int((uint64(g)>>22)%uint64(sh.n)) == sh.id {
				want = append(want, "GUILD_ROLE_CREATE@"+g.String())
			}
		}
		// The marks: one per guild on this shard; collect stops at the
		// first, so read the rest of this shard's marks separately.
		got := clients[i].collect("MARK")
		if !slices.Equal(got, want) {
			t.Errorf("shard [%d, %d]: got %v, want %v", sh.id, sh.n, got, want)
		}
	}
}

// TestGatewayBotJoinsAndLeaves: GUILD_CREATE when the bot joins a guild,
// GUILD_DELETE (without unavailable) when it is removed.
func TestGatewayBotJoinsAndLeaves(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	owner := srv.AddUser(guildkit.User{Username: "owner"})
	c, _, _ := connect(t, srv, 1|1<<1, nil)
	g := srv.AddGuild(guildkit.Guild{OwnerID: owner.ID})
	srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{ID: srv.BotID()}})
	f := c.until("GUILD_CREATE")
	var d struct{ ID string }
	_ = json.Unmarshal(f.D, &d)
	if d.ID != g.ID.String() {
		t.Fatalf("GUILD_CREATE of %s, want %s", d.ID, g.ID)
	}
	if err := srv.ClientAs(owner.ID).Members.Remove(t.Context(), g.ID, srv.BotID()); err != nil {
		t.Fatal(err)
	}
	c.until("GUILD_MEMBER_REMOVE")
	f = c.until("GUILD_DELETE")
	if string(f.D) != fmt.Sprintf(`{"id":"%s"}`, g.ID) {
		t.Errorf("GUILD_DELETE d = %s", f.D)
	}
}

// TestGatewayShardingRequiredLive: lowering GuildsPerShard below what a
// live session carries closes it with 4011, and a bot joining one guild
// too many does the same.
func TestGatewayShardingRequiredLive(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t, guildkittest.WithGateway(guildkittest.GatewaySettings{MaxConcurrency: 4}))
	for range 3 {
		srv.AddGuild(guildkit.Guild{})
	}
	c, _, _ := connect(t, srv, 1, nil)
	srv.SetGatewaySettings(guildkittest.GatewaySettings{MaxConcurrency: 4, GuildsPerShard: 2})
	if code := c.closed(); code != 4011 {
		t.Fatalf("closed with %d, want 4011", code)
	}
	srv.SetGatewaySettings(guildkittest.GatewaySettings{MaxConcurrency: 4, GuildsPerShard: 3})
	srv.AdvanceClock(5 * time.Second)
	c2, _, _ := connect(t, srv, 1, nil)
	srv.AddGuild(guildkit.Guild{})
	if code := c2.closed(); code != 4011 {
		t.Fatalf("after joining a fourth guild: closed with %d, want 4011", code)
	}
}

// TestGatewayPermissionFiltering: GUILD_BAN_ADD reaches only a bot with
// BAN_MEMBERS or VIEW_AUDIT_LOG (spec §5), whatever its intents.
func TestGatewayPermissionFiltering(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	owner := srv.AddUser(guildkit.User{Username: "owner"})
	g := srv.AddGuild(guildkit.Guild{OwnerID: owner.ID})
	srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{ID: srv.BotID()}})
	target := srv.AddUser(guildkit.User{Username: "t"})
	c, r, _ := connect(t, srv, 1|1<<2, nil)
	if err := srv.ClientAs(owner.ID).Bans.Create(t.Context(), g.ID, target.ID, nil); err != nil {
		t.Fatal(err)
	}
	mark(srv, g.ID)
	if got := c.collect("MARK"); len(got) != 0 {
		t.Errorf("a bot without BAN_MEMBERS got %v", got)
	}
	var note string
	for _, f := range srv.GatewayFrames(r.SessionID) {
		if f.Name == "GUILD_BAN_ADD" {
			note = f.Note
		}
	}
	if !strings.HasPrefix(note, "permissions") {
		t.Errorf("GUILD_BAN_ADD's note %q, want the permission it lacks", note)
	}
}
