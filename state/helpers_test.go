package state_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/gateway"
	"github.com/seed012df1e9/guildkit/guildkittest"
	"github.com/seed012df1e9/guildkit/ratelimit"
	"github.com/seed012df1e9/guildkit/state"
)

const patience = 20 * time.Second // a failure bound, never a sleep

// harness is a cache following a shard on the in-memory server.
type harness struct {
	t        testing.TB
	srv      *guildkittest.Server
	cache    *state.Cache
	shard    *gateway.Shard
	mu       sync.Mutex
	marks    map[string]chan struct{}
	n        int
	rebuilds chan state.Rebuild
	loaded   chan guildkit.Snowflake
	resumed  chan struct{}
	errs     chan error
}

// newHarness starts a server (seeded by seed), a cache with pol (nil:
// default) and a shard with the given intents beside the cache's, and
// waits until the cache holds every guild.
func newHarness(t testing.TB, pol *state.Policies, intents gateway.Intents, seed func(srv *guildkittest.Server)) *harness {
	t.Helper()
	srv := guildkittest.NewServer(t)
	gs := srv.GatewaySettings()
	gs.HeartbeatInterval = 24 * time.Hour // heartbeats play no part here
	gs.ResumeWindow = 240 * time.Hour
	srv.SetGatewaySettings(gs)
	if seed != nil {
		seed(srv)
	}
	h := &harness{t: t, srv: srv, marks: make(map[string]chan struct{}),
		rebuilds: make(chan state.Rebuild, 100), loaded: make(chan guildkit.Snowflake, 1000), resumed: make(chan struct{}, 100), errs: make(chan error, 100)}
	h.cache = state.NewCache(&state.Options{Policies: pol, Now: srv.Now})
	if pol == nil {
		pol = new(state.Policies)
		*pol = state.DefaultPolicies()
	}
	shard, err := gateway.NewShard(srv.Token(), gateway.WithClient(srv.Client()),
		gateway.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))),
		gateway.WithBackoff(time.Millisecond, 2*time.Millisecond),
		gateway.WithIdentifyLimiter(ratelimit.NewMemoryIdentifyLimiter(ratelimit.IdentifyOptions{Clock: srv})),
		gateway.WithIntents(pol.Intents()|intents|gateway.IntentGuilds))
	if err != nil {
		t.Fatal(err)
	}
	h.shard = shard
	h.cache.Attach(shard, &state.AttachOptions{
		OnRebuild: func(r state.Rebuild) { h.rebuilds <- r },
		OnMembers: func(id guildkit.Snowflake) { h.loaded <- id },
		OnError:   func(ev string, err error) { h.errs <- fmt.Errorf("%s: %w", ev, err) },
	})
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
	if err := shard.Open(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), patience)
		defer cancel()
		_ = shard.End(ctx)
	})
	h.waitRebuild()
	if pol.Members.Wholesale(0) {
		h.waitLoaded()
	}
	return h
}

// waitLoaded waits until the member list of every guild the cache holds
// has been applied.
func (h *harness) waitLoaded() {
	h.t.Helper()
	want := map[guildkit.Snowflake]bool{}
	for g := range h.cache.Guilds() {
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

// waitRebuild waits for the cache to report a finished rebuild.
func (h *harness) waitRebuild() state.Rebuild {
	h.t.Helper()
	select {
	case r := <-h.rebuilds:
		return r
	case <-time.After(patience):
		h.t.Fatal("the cache never finished its rebuild")
	}
	return state.Rebuild{}
}

// settle waits until the cache has applied every event the server sent
// before now: it renames guildID and waits for that GUILD_UPDATE.
func (h *harness) settle(guildID guildkit.Snowflake) {
	h.t.Helper()
	h.mu.Lock()
	h.n++
	name := fmt.Sprintf("mark %d", h.n)
	ch := make(chan struct{})
	h.marks[name] = ch
	h.mu.Unlock()
	ctx := context.Background()
	if _, err := h.srv.Client().Guilds.Modify(ctx, guildID, &guildkit.GuildModifyParams{Name: guildkit.Some(name)}); err != nil {
		h.t.Fatal(err)
	}
	select {
	case <-ch:
	case <-time.After(patience):
		h.t.Fatalf("the cache never saw %q", name)
	}
}

// norm puts every time.Time field of *v in UTC, so that values from REST
// and from the cache compare with reflect.DeepEqual.
func norm[T any](v T) T {
	rv := reflect.ValueOf(&v).Elem()
	for i := range rv.NumField() {
		if f := rv.Field(i); f.Type() == reflect.TypeFor[time.Time]() && f.CanSet() {
			f.Set(reflect.ValueOf(f.Interface().(time.Time).UTC()))
		}
	}
	return v
}

func collect[T any](t testing.TB, seq func(func(T, error) bool)) []T {
	t.Helper()
	var out []T
	for v, err := range seq {
		if err != nil {
			t.Fatalf("iterating: %v", err)
		}
		out = append(out, norm(v))
	}
	return out
}

// matchServer checks, field by field, that the cache holds what the server
// says of guildID through REST: the guild, its roles, its channels, its
// members (when the policy keeps them all); and that the permissions the
// cache computes equal the server's for every member in every channel.
func matchServer(t testing.TB, c *state.Cache, srv *guildkittest.Server, guildID guildkit.Snowflake, members bool) {
	t.Helper()
	ctx := context.Background()
	rc := srv.Client()
	g, err := rc.Guilds.Get(ctx, guildID, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Guild(guildID)
	if err != nil {
		t.Fatalf("Guild: %v", err)
	}
	want := state.GuildOf(g)
	want.JoinedAt, want.Large, want.MemberCount = got.JoinedAt, got.Large, got.MemberCount
	if !reflect.DeepEqual(norm(got), norm(want)) {
		t.Errorf("guild:\n got %+v\nwant %+v", got, want)
	}
	roles, err := rc.Roles.List(ctx, guildID)
	if err != nil {
		t.Fatal(err)
	}
	var wantRoles []state.Role
	for i := range roles {
		wantRoles = append(wantRoles, state.RoleOf(guildID, &roles[i]))
	}
	sameSet(t, "roles", collect(t, c.Roles(guildID)), wantRoles, func(r state.Role) guildkit.Snowflake { return r.ID })
	chans, err := rc.Channels.List(ctx, guildID)
	if err != nil {
		t.Fatal(err)
	}
	var wantChans []state.Channel
	for i := range chans {
		ch := state.ChannelOf(&chans[i])
		ch.GuildID = guildID
		wantChans = append(wantChans, norm(ch))
	}
	gotChans := collect(t, c.Channels(guildID))
	gotChans = slices.DeleteFunc(gotChans, func(ch state.Channel) bool { return ch.IsThread() })
	sameSet(t, "channels", gotChans, wantChans, func(c state.Channel) guildkit.Snowflake { return c.ID })
	var ids []guildkit.Snowflake
	var wantMembers []state.Member
	for m, err := range rc.Members.All(ctx, guildID, nil) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, m.User.ID)
		wantMembers = append(wantMembers, norm(state.MemberOf(guildID, &m, nil)))
	}
	if members {
		sameSet(t, "members", collect(t, c.Members(guildID)), wantMembers, func(m state.Member) guildkit.Snowflake { return m.User.ID })
	}
	for _, uid := range ids {
		m, err := c.Member(guildID, uid)
		if err != nil {
			continue // not kept by the policy
		}
		want := srv.Permissions(guildID, uid)
		if m.TimedOut(srv.Now()) && !want.Has(guildkit.PermissionAdministrator) {
			want &= guildkit.PermissionViewChannel | guildkit.PermissionReadMessageHistory // the server's checks leave timeouts to each route
		}
		if got := mustPerm(t)(c.MemberPermissions(guildID, uid)); got != want {
			t.Errorf("MemberPermissions(%d) = %d, server %d", uid, got, want)
		}
		for _, ch := range chans {
			raw, err := state.RawPermissionsIn(c, ch.ID, uid)
			if err != nil {
				t.Fatalf("RawPermissionsIn: %v", err)
			}
			if want := srv.ChannelPermissions(ch.ID, uid); raw != want {
				t.Errorf("RawPermissionsIn(%s, %d) = %d, server %d", ch.Name, uid, raw, want)
			}
		}
	}
}

func mustPerm(t testing.TB) func(guildkit.Permissions, error) guildkit.Permissions {
	return func(p guildkit.Permissions, err error) guildkit.Permissions {
		t.Helper()
		if err != nil {
			t.Fatalf("permissions: %v", err)
		}
		return p
	}
}

// sameSet checks that got and want hold equal values by key.
func sameSet[T any](t testing.TB, what string, got, want []T, key func(T) guildkit.Snowflake) {
	t.Helper()
	byKey := make(map[guildkit.Snowflake]T, len(got))
	for _, v := range got {
		byKey[key(v)] = v
	}
	for _, w := range want {
		g, ok := byKey[key(w)]
		if !ok {
			t.Errorf("%s: %d missing from the cache (want %+v)", what, key(w), w)
			continue
		}
		delete(byKey, key(w))
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s %d:\n got %+v\nwant %+v", what, key(w), g, w)
		}
	}
	for k, v := range byKey {
		t.Errorf("%s: %d in the cache but not on the server: %+v", what, k, v)
	}
}
