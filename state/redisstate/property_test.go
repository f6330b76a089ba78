package redisstate_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/gateway"
	"github.com/seed012df1e9/guildkit/guildkittest"
	"github.com/seed012df1e9/guildkit/internal/redistest"
	"github.com/seed012df1e9/guildkit/ratelimit"
	"github.com/seed012df1e9/guildkit/state"
	"github.com/seed012df1e9/guildkit/state/redisstate"
)

// The property on Redis: one shard on the in-memory server's gateway feeds
// the in-memory cache and the Redis store at once; random REST operations
// that change guild state, interleaved with gateway faults (a drop, op 7,
// op 9 resumable or not, close 4009), and at the end the Redis store
// equals the in-memory cache, read by read, and the server's view of every
// guild, with the server's permissions.

const patience = 20 * time.Second // a failure bound, never a sleep

type propHarness struct {
	t       *testing.T
	srv     *guildkittest.Server
	mem     *state.Cache
	st      *redisstate.Store
	shard   *gateway.Shard
	mu      sync.Mutex
	marks   map[string]chan struct{}
	n       int
	rebuilt chan state.Rebuild
	loaded  chan state.Snowflake
	resumed chan struct{}
	faults  int
}

func newPropHarness(t *testing.T, rdb redis.UniversalClient, prefix string, seed func(*guildkittest.Server)) *propHarness {
	srv := guildkittest.NewServer(t)
	gs := srv.GatewaySettings()
	gs.HeartbeatInterval = 24 * time.Hour
	gs.ResumeWindow = 240 * time.Hour
	srv.SetGatewaySettings(gs)
	seed(srv)
	pol := state.DefaultPolicies()
	pol.Members = state.All()
	h := &propHarness{t: t, srv: srv, marks: make(map[string]chan struct{}),
		rebuilt: make(chan state.Rebuild, 100), loaded: make(chan state.Snowflake, 1000), resumed: make(chan struct{}, 100)}
	h.mem = state.NewCache(&state.Options{Policies: &pol, Now: srv.Now})
	h.st = newStore(t, rdb, &pol, redisstate.Options{Prefix: prefix})
	shard, err := gateway.NewShard(srv.Token(), gateway.WithClient(srv.Client()),
		gateway.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))),
		gateway.WithBackoff(time.Millisecond, 2*time.Millisecond),
		gateway.WithIdentifyLimiter(ratelimit.NewMemoryIdentifyLimiter(ratelimit.IdentifyOptions{Clock: srv})),
		gateway.WithIntents(pol.Intents()))
	require(t, err)
	h.shard = shard
	// Both ask for member lists; one answer (the other is refused by the
	// platform's limit) fills both.
	loaded := func(id state.Snowflake) { h.loaded <- id }
	h.mem.Attach(shard, &state.AttachOptions{OnRebuild: func(r state.Rebuild) { h.rebuilt <- r }, OnMembers: loaded})
	state.Attach(shard, h.st, &state.AttachOptions{OnMembers: loaded, OnError: func(ev string, err error) {
		if ev != "GUILD_MEMBERS_CHUNK" { // the refused second member-list request
			t.Errorf("the Redis store: %s: %v", ev, err)
		}
	}})
	gateway.On(shard, func(_ context.Context, e *gateway.GuildUpdate) {
		h.mu.Lock()
		ch := h.marks[e.Name]
		delete(h.marks, e.Name)
		h.mu.Unlock()
		if ch != nil {
			close(ch)
		}
	})
	gateway.On(shard, func(context.Context, *gateway.Resumed) { h.resumed <- struct{}{} })
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	require(t, shard.Open(ctx))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), patience)
		defer cancel()
		_ = shard.End(ctx)
	})
	h.waitRebuild()
	h.waitLoaded()
	return h
}

func (h *propHarness) waitRebuild() {
	select {
	case <-h.rebuilt:
	case <-time.After(patience):
		h.t.Fatal("no rebuild")
	}
}

// waitLoaded waits for the member list of every available guild.
func (h *propHarness) waitLoaded() {
	want := map[state.Snowflake]bool{}
	for g := range h.mem.Guilds() {
		if !g.Unavailable {
			want[g.ID] = true
		}
	}
	for len(want) > 0 {
		select {
		case id := <-h.loaded:
			delete(want, id)
		case <-time.After(patience):
			h.t.Fatalf("member lists never came for %v", want)
		}
	}
}

// settle waits until both caches applied every event the server sent
// before now: it renames the guild and waits for that GUILD_UPDATE's
// handlers, which run after both caches.
func (h *propHarness) settle(g state.Snowflake) {
	h.mu.Lock()
	h.n++
	name := fmt.Sprintf("mark %d", h.n)
	ch := make(chan struct{})
	h.marks[name] = ch
	h.mu.Unlock()
	_, err := h.srv.Client().Guilds.Modify(context.Background(), g, &guildkit.GuildModifyParams{Name: guildkit.Some(name)})
	require(h.t, err)
	select {
	case <-ch:
	case <-time.After(patience):
		h.t.Fatalf("the caches never saw %q", name)
	}
}

func (h *propHarness) fault(which int) {
	var id string
	for _, s := range h.srv.GatewaySessions() {
		if s.Connected && !s.Ended {
			id = s.ID
		}
	}
	if id == "" {
		h.t.Fatal("no connected session")
	}
	inject := func(f guildkittest.GatewayFault) {
		ctx, cancel := context.WithTimeout(context.Background(), patience)
		defer cancel()
		_, err := h.srv.InjectGatewayFault(ctx, id, f)
		require(h.t, err)
	}
	switch which {
	case 0, 1, 2:
		inject([]guildkittest.GatewayFault{{Kind: guildkittest.FaultDrop}, {Kind: guildkittest.FaultReconnect},
			{Kind: guildkittest.FaultInvalidSession, Resumable: true}}[which])
		select {
		case <-h.resumed:
		case <-time.After(patience):
			h.t.Fatal("no RESUMED")
		}
	default:
		f := guildkittest.GatewayFault{Kind: guildkittest.FaultInvalidSession}
		if which == 4 {
			f = guildkittest.GatewayFault{Kind: guildkittest.FaultClose, Code: 4009}
		}
		h.srv.AdvanceClock(31 * time.Second) // the identify window and the member-list limit
		inject(f)
		h.waitRebuild()
		h.waitLoaded()
	}
}

// op runs one random REST operation on guild g; the server may refuse it
// (a hierarchy, a limit), which is part of the game.
func (h *propHarness) op(r *rand.Rand, g state.Snowflake, pool []guildkit.User) {
	ctx := context.Background()
	rc := h.srv.Client()
	roles, _ := rc.Roles.List(ctx, g)
	role := func() (state.Snowflake, bool) {
		var ids []state.Snowflake
		for _, ro := range roles {
			if ro.ID != g {
				ids = append(ids, ro.ID)
			}
		}
		if len(ids) == 0 {
			return 0, false
		}
		slices.Sort(ids)
		return ids[r.IntN(len(ids))], true
	}
	members, _ := rc.Members.List(ctx, g, &guildkit.MemberListParams{Limit: guildkit.Some(1000)})
	member := func() (state.Snowflake, bool) {
		var ids []state.Snowflake
		for _, m := range members {
			if m.User.ID != h.srv.BotID() {
				ids = append(ids, m.User.ID)
			}
		}
		if len(ids) == 0 {
			return 0, false
		}
		slices.Sort(ids)
		return ids[r.IntN(len(ids))], true
	}
	perms := guildkit.Permissions(r.Uint64N(1<<16)) &^ guildkit.PermissionAdministrator
	switch r.IntN(14) {
	case 0, 12:
		_, _ = rc.Roles.Create(ctx, g, &guildkit.RoleCreateParams{Name: guildkit.Some("r" + strconv.Itoa(r.IntN(100))),
			Permissions: guildkit.Some(perms)})
	case 1:
		if id, ok := role(); ok {
			_, _ = rc.Roles.Modify(ctx, g, id, &guildkit.RoleModifyParams{Permissions: guildkit.Some(perms)})
		}
	case 2:
		if id, ok := role(); ok {
			_ = rc.Roles.Delete(ctx, g, id)
		}
	case 3:
		if id, ok := role(); ok {
			_, _ = rc.Roles.ModifyPositions(ctx, g, []guildkit.RolePositionParams{{ID: id, Position: guildkit.Some(1 + r.IntN(len(roles)))}})
		}
	case 4:
		var ows []guildkit.PermissionOverwriteParams
		if id, ok := role(); ok {
			ows = append(ows, guildkit.PermissionOverwriteParams{ID: id, Type: guildkit.OverwriteTypeRole, Allow: guildkit.Some(perms)})
		}
		_, _ = rc.Channels.Create(ctx, g, &guildkit.ChannelCreateParams{Name: "c" + strconv.Itoa(r.IntN(100)),
			PermissionOverwrites: guildkit.Some(ows)})
	case 5, 13:
		u := pool[r.IntN(len(pool))]
		_, _ = rc.Members.Add(ctx, g, u.ID, &guildkit.MemberAddParams{AccessToken: h.srv.NewAccessToken(u.ID),
			Nick: guildkit.Some("n" + strconv.Itoa(r.IntN(50)))})
	case 6, 7:
		uid, ok1 := member()
		rid, ok2 := role()
		if ok1 && ok2 {
			_ = rc.Members.AddRole(ctx, g, uid, rid)
		}
	case 8:
		if uid, ok := member(); ok {
			_, _ = rc.Members.Modify(ctx, g, uid, &guildkit.MemberModifyParams{Nick: guildkit.Some("nick" + strconv.Itoa(r.IntN(20)))})
		}
	case 9:
		if uid, ok := member(); ok {
			_ = rc.Members.Remove(ctx, g, uid)
		}
	case 10:
		if uid, ok := member(); ok {
			_, _ = rc.Members.Modify(ctx, g, uid, &guildkit.MemberModifyParams{
				CommunicationDisabledUntil: guildkit.Some(h.srv.Now().Add(time.Duration(1+r.IntN(100)) * time.Minute))})
		}
	case 11:
		h.fault(r.IntN(5))
		h.faults++
	}
}

// sameReads compares every read of the two readers about guild g.
func sameReads(t *testing.T, want, got state.Reader, g state.Snowflake) {
	t.Helper()
	line := func(what string, w, h any) {
		t.Helper()
		if !reflect.DeepEqual(w, h) {
			t.Errorf("guild %d, %s:\n  memory: %+v\n  redis:  %+v", g, what, w, h)
		}
	}
	read := func(r state.Reader) map[string][]string {
		out := map[string][]string{}
		add := func(k string, v any, err error) { out[k] = append(out[k], fmt.Sprintf("%+v %s", v, errText(err))) }
		gv, err := r.Guild(g)
		add("guild", gv, err)
		for c, err := range r.Channels(g) {
			add("channels", c, err)
			v, err := r.Channel(c.ID)
			add("channel", v, err)
		}
		for ro, err := range r.Roles(g) {
			add("roles", ro, err)
			v, err := r.Role(g, ro.ID)
			add("role", v, err)
		}
		for m, err := range r.Members(g) {
			add("members", m, err)
			v, err := r.Member(g, m.User.ID)
			add("member", v, err)
			u, err := r.User(m.User.ID)
			add("user", u, err)
			p, err := state.MemberPermissions(r, g, m.User.ID, time.Unix(0, 0))
			add("permissions", p, err)
		}
		for e, err := range r.Emojis(g) {
			add("emojis", e, err)
		}
		for s, err := range r.Stickers(g) {
			add("stickers", s, err)
		}
		for k := range out {
			slices.Sort(out[k])
		}
		return out
	}
	w, h := read(want), read(got)
	for _, k := range []string{"guild", "channels", "channel", "roles", "role", "members", "member", "user", "permissions", "emojis", "stickers"} {
		line(k, w[k], h[k])
	}
}

func runProperty(t *testing.T, rdb redis.UniversalClient, prefix string, seed uint64, n int) {
	var guilds []state.Snowflake
	var pool []guildkit.User
	h := newPropHarness(t, rdb, prefix, func(srv *guildkittest.Server) {
		for k := range 2 {
			g := srv.AddGuild(guildkit.Guild{ID: guildkit.Snowflake(uint64(200+k) << 22), Name: "seeded"})
			mod := srv.AddRole(g.ID, guildkit.Role{Name: "mod", Position: 1, Permissions: guildkit.PermissionKickMembers})
			srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText, PermissionOverwrites: []guildkit.PermissionOverwrite{
				{ID: g.ID, Type: guildkit.OverwriteTypeRole, Deny: guildkit.PermissionSendMessages},
				{ID: mod.ID, Type: guildkit.OverwriteTypeRole, Allow: guildkit.PermissionSendMessages}}})
			for i := range 4 {
				nick := "nick"
				var roles []guildkit.Snowflake
				if i%2 == 0 {
					roles = append(roles, mod.ID)
				}
				srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "member"}, Roles: roles, Nick: &nick})
			}
			guilds = append(guilds, g.ID)
		}
		for i := range 4 {
			pool = append(pool, srv.AddUser(guildkit.User{Username: "pool" + strconv.Itoa(i)}))
		}
	})
	r := rand.New(rand.NewPCG(seed, 3))
	for range n {
		h.op(r, guilds[r.IntN(len(guilds))], pool)
	}
	for _, g := range guilds {
		h.settle(g)
	}
	for _, g := range guilds {
		sameReads(t, h.mem, h.st, g)
		matchServer(t, h.st, h.srv, g)
	}
	t.Logf("%d operations, %d of them faults", n, h.faults)
}

// TestPropertyRedisEqualsServer runs the property on one redis-server.
func TestPropertyRedisEqualsServer(t *testing.T) {
	rs := redistest.Start(t)
	rdb := client(t, rs)
	for seed := range uint64(2) {
		t.Run("seed"+strconv.FormatUint(seed, 10), func(t *testing.T) {
			runProperty(t, rdb, "p"+strconv.FormatUint(seed, 10), seed, 300)
		})
	}
	// What the keys are: a guild's under its hash tag, the three indexes
	// and one per user; ids and names only, never a token.
	keys, err := rdb.Keys(context.Background(), "*").Result()
	require(t, err)
	shape := regexp.MustCompile(`^p[01]:(\{[0-9]+\}:(g|ch|chp|chs|chpin|ro|m|mr|mg|ml|em|st|pr|pl|vo|ck|ckg)|guilds|channels|self|user:[0-9]+)$`)
	for _, k := range keys {
		if !shape.MatchString(k) {
			t.Errorf("key %q", k)
		}
	}
	if len(keys) < 10 {
		t.Errorf("only %d keys: %v", len(keys), keys)
	}
}

// TestPropertyClusterEqualsServer runs it on a three-master Cluster.
func TestPropertyClusterEqualsServer(t *testing.T) {
	rc := redistest.StartCluster(t)
	runProperty(t, clusterClient(t, rc), "p", 7, 300)
}
