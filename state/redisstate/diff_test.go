package redisstate_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/internal/redistest"
	"github.com/seed012df1e9/guildkit/state"
	"github.com/seed012df1e9/guildkit/state/redisstate"
)

// The conformance of the Redis store is its equality with the in-memory
// cache: the same random events applied to both, every read of both
// compared after each event. The events are made of the state package's
// Updates, as state.Updates makes them from the gateway's events.

const bot = state.Snowflake(1 << 40)

// gen makes random events over a few guilds, each with its own users (a
// user shared by guilds is one copy in memory but one per guild in Redis:
// see the package doc).
type gen struct {
	r      *rand.Rand
	guilds []state.Snowflake
}

func (g *gen) guild() state.Snowflake { return g.guilds[g.r.IntN(len(g.guilds))] }

// pick returns one of a small pool of ids of kind k in guild gid, so that
// events hit what earlier ones made.
func (g *gen) pick(gid state.Snowflake, k int) state.Snowflake {
	return gid*100 + state.Snowflake(k*10+g.r.IntN(6)+1)
}

func (g *gen) when() time.Time {
	if g.r.IntN(3) == 0 {
		return time.Time{}
	}
	return time.Unix(1_700_000_000+g.r.Int64N(1_000_000), 0).UTC()
}

func (g *gen) name(s string) string { return fmt.Sprintf("%s-%d", s, g.r.IntN(5)) }

func (g *gen) user(gid state.Snowflake) state.User {
	id := g.pick(gid, 5)
	if g.r.IntN(8) == 0 {
		// The bot is a member of every guild: its user never changes
		// here, one copy in memory being one per guild in Redis.
		return state.User{ID: bot, Username: "bot", Discriminator: "0", AccentColor: -1, Bot: true}
	}
	return state.User{ID: id, Username: g.name("user"), GlobalName: g.name("Glob"), Discriminator: "0",
		Avatar: g.name("av"), AccentColor: -1, PublicFlags: g.r.IntN(4)}
}

func (g *gen) member(gid state.Snowflake) *state.Member {
	return &state.Member{GuildID: gid, User: g.user(gid), Nick: g.name("nick"),
		Roles: state.NewIDs(g.pick(gid, 2), g.pick(gid, 2)), JoinedAt: g.when(), PremiumSince: g.when(),
		CommunicationDisabledUntil: g.when(), Deaf: g.r.IntN(2) == 0, Pending: g.r.IntN(2) == 0,
		AvatarDecoration: state.AvatarDecoration{Asset: g.name("deco"), SKUID: g.pick(gid, 7)}}
}

func (g *gen) channel(gid state.Snowflake) *state.Channel {
	c := &state.Channel{ID: g.pick(gid, 1), GuildID: gid, Type: guildkit.ChannelTypeGuildText, Name: g.name("chan"),
		Position: g.r.IntN(5), Topic: g.name("topic"), LastPinTimestamp: g.when(),
		Overwrites: state.ListOf(guildkit.PermissionOverwrite{ID: g.pick(gid, 2), Type: 0, Allow: 1024})}
	if g.r.IntN(3) == 0 {
		c.ID = g.pick(gid, 3)
		c.Type = guildkit.ChannelTypePublicThread
		c.ParentID = g.pick(gid, 1)
		c.AppliedTags = state.NewIDs(g.pick(gid, 8))
		c.Archived = g.r.IntN(2) == 0
	}
	return c
}

func (g *gen) role(gid state.Snowflake) *state.Role {
	id := g.pick(gid, 2)
	if g.r.IntN(6) == 0 {
		id = gid
	}
	return &state.Role{ID: id, GuildID: gid, Name: g.name("role"), Color: g.r.IntN(100), SecondaryColor: -1,
		TertiaryColor: -1, Position: g.r.IntN(5), Permissions: guildkit.Permissions(g.r.Uint64N(1 << 40))}
}

func (g *gen) guildValue(gid state.Snowflake) *state.Guild {
	return &state.Guild{ID: gid, Name: g.name("guild"), OwnerID: g.pick(gid, 5), Description: g.name("d"),
		Features: state.ListOf(guildkit.GuildFeature(g.name("F"))), AFKTimeout: 300, JoinedAt: g.when(),
		Large: g.r.IntN(2) == 0, MemberCount: g.r.IntN(10)}
}

func (g *gen) presence(gid state.Snowflake, uid state.Snowflake) *state.Presence {
	st := []guildkit.PresenceStatus{"online", "idle", "offline", "dnd"}[g.r.IntN(4)]
	return &state.Presence{GuildID: gid, UserID: uid, Status: st, ClientStatus: guildkit.ClientStatus{Desktop: st},
		Activities: state.ListOf(state.Activity{Name: g.name("game"), Start: g.r.Int64N(1000)})}
}

func (g *gen) guildCreate(gid state.Snowflake) []state.Update {
	out := []state.Update{{Op: state.OpGuildCreate, GuildID: gid, Guild: g.guildValue(gid)}}
	for range g.r.IntN(4) {
		out = append(out, state.Update{Op: state.OpRolePut, GuildID: gid, Role: g.role(gid)})
	}
	for range g.r.IntN(4) {
		out = append(out, state.Update{Op: state.OpChannelPut, GuildID: gid, Channel: g.channel(gid)})
	}
	out = append(out, g.emojis(gid), g.stickers(gid))
	for range g.r.IntN(5) {
		out = append(out, state.Update{Op: state.OpMemberPut, GuildID: gid, Member: g.member(gid), Source: state.SourceList})
	}
	for range g.r.IntN(3) {
		out = append(out, state.Update{Op: state.OpPresencePut, GuildID: gid, Presence: g.presence(gid, g.pick(gid, 5))})
	}
	return out
}

func (g *gen) emojis(gid state.Snowflake) state.Update {
	var es []state.Emoji
	for range g.r.IntN(3) {
		es = append(es, state.Emoji{ID: g.pick(gid, 4), GuildID: gid, Name: g.name("emo"), Roles: state.NewIDs(g.pick(gid, 2)), Available: true})
	}
	es = slices.CompactFunc(es, func(a, b state.Emoji) bool { return a.ID == b.ID })
	return state.Update{Op: state.OpEmojis, GuildID: gid, Emojis: es}
}

func (g *gen) stickers(gid state.Snowflake) state.Update {
	var ss []state.Sticker
	for range g.r.IntN(3) {
		ss = append(ss, state.Sticker{ID: g.pick(gid, 6), GuildID: gid, Name: g.name("st"), Tags: "x", Available: true})
	}
	ss = slices.CompactFunc(ss, func(a, b state.Sticker) bool { return a.ID == b.ID })
	return state.Update{Op: state.OpStickers, GuildID: gid, Stickers: ss}
}

// event returns the updates of one random event.
func (g *gen) event() []state.Update {
	gid := g.guild()
	me := state.User{ID: bot, Username: "bot", Discriminator: "0", AccentColor: -1, Bot: true}
	sources := []state.Source{state.SourceList, state.SourceChunk, state.SourceEvent, state.SourceJoin,
		state.SourceActivity, state.SourceInteraction, state.SourceREST, state.SourceResolved}
	switch k := g.r.IntN(26); {
	case k == 0:
		var ids []state.Snowflake
		for _, id := range g.guilds {
			if g.r.IntN(4) != 0 {
				ids = append(ids, id)
			}
		}
		return []state.Update{{Op: state.OpSession, Shard: [2]int{0, 1}, IDs: ids, User: &me}}
	case k == 1:
		return []state.Update{{Op: state.OpSessionLost, Shard: [2]int{0, 1}}}
	case k <= 4:
		return g.guildCreate(gid)
	case k == 5:
		out := []state.Update{{Op: state.OpGuildUpdate, GuildID: gid, Guild: g.guildValue(gid)}}
		if g.r.IntN(2) == 0 {
			out = append(out, state.Update{Op: state.OpRolesReset, GuildID: gid},
				state.Update{Op: state.OpRolePut, GuildID: gid, Role: g.role(gid)})
		}
		return out
	case k == 6:
		return []state.Update{{Op: state.OpGuildUnavailable, GuildID: gid}}
	case k == 7:
		if g.r.IntN(3) == 0 {
			return []state.Update{{Op: state.OpGuildRemove, GuildID: gid}}
		}
		return []state.Update{{Op: state.OpGuildUpdate, GuildID: gid, Guild: g.guildValue(gid)}}
	case k <= 9:
		return []state.Update{{Op: state.OpChannelPut, GuildID: gid, Channel: g.channel(gid)}}
	case k == 10:
		id := g.pick(gid, 1)
		if g.r.IntN(2) == 0 {
			id = g.pick(gid, 3)
		}
		return []state.Update{{Op: state.OpChannelRemove, GuildID: gid, ID: id}}
	case k == 11:
		u := state.Update{Op: state.OpThreadsReset, GuildID: gid}
		if g.r.IntN(2) == 0 {
			u.IDs = []state.Snowflake{g.pick(gid, 1)}
		}
		return []state.Update{u, {Op: state.OpChannelPut, GuildID: gid, Channel: g.channel(gid)}}
	case k == 12:
		return []state.Update{{Op: state.OpChannelPins, GuildID: gid, ID: g.pick(gid, 1), Time: g.when()}}
	case k == 13:
		return []state.Update{{Op: state.OpChannelStatus, GuildID: gid, ID: g.pick(gid, 1), Text: g.name("status")}}
	case k <= 15:
		return []state.Update{{Op: state.OpRolePut, GuildID: gid, Role: g.role(gid)}}
	case k == 16:
		return []state.Update{{Op: state.OpRoleRemove, GuildID: gid, ID: g.pick(gid, 2)}}
	case k <= 19:
		return []state.Update{{Op: state.OpMemberPut, GuildID: gid, Member: g.member(gid), Source: sources[g.r.IntN(len(sources))]}}
	case k == 20:
		return []state.Update{{Op: state.OpMemberRemove, GuildID: gid, ID: g.pick(gid, 5)}}
	case k == 21:
		uid := g.pick(gid, 5)
		return []state.Update{{Op: state.OpUserPatch, User: &state.User{ID: uid, Username: g.name("renamed")}},
			{Op: state.OpPresencePut, GuildID: gid, Presence: g.presence(gid, uid)}}
	case k == 22:
		if g.r.IntN(2) == 0 {
			return []state.Update{g.emojis(gid)}
		}
		return []state.Update{g.stickers(gid)}
	case k == 23:
		v := &state.VoiceState{GuildID: gid, UserID: g.pick(gid, 5), SessionID: "s", SelfMute: true}
		if g.r.IntN(3) != 0 {
			v.ChannelID = g.pick(gid, 1)
		}
		return []state.Update{{Op: state.OpVoicePut, GuildID: gid, Voice: v}}
	default:
		// One chunk of a whole member list: a few of two answers, so
		// that some complete and drop who they did not list.
		count := 1 + g.r.IntN(2)
		out := []state.Update{{Op: state.OpChunk, GuildID: gid, Chunk: &state.Chunk{
			Nonce: fmt.Sprintf("%s%d", state.ChunkNoncePrefix, g.r.IntN(2)), Index: g.r.IntN(count), Count: count, Whole: true}}}
		for range g.r.IntN(3) {
			out = append(out, state.Update{Op: state.OpMemberPut, GuildID: gid, Member: g.member(gid), Source: state.SourceChunk})
		}
		return out
	}
}

// snapshot is everything a Reader answers about the guilds the generator
// uses, in a comparable form.
type snapshot struct {
	Self     state.User
	SelfErr  string
	Guilds   []string
	PerGuild map[state.Snowflake]*guildSnap
}

type guildSnap struct {
	Guild                    state.Guild
	Err                      string
	Channels, Roles, Members []string
	Emojis, Stickers, Voice  []string
	Presences, Users         []string
	One                      []string // single reads by id
}

func errText(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, state.ErrStale):
		return "stale"
	case errors.Is(err, state.ErrNotFound):
		return "not found"
	}
	return err.Error()
}

func collect[T any](t testing.TB, seq func(yield func(T, error) bool), key func(T) state.Snowflake) []string {
	var out []string
	for v, err := range seq {
		if err != nil {
			if !errors.Is(err, state.ErrStale) {
				t.Fatalf("iterator: %v", err)
			}
			out = append(out, "<stale>")
			continue
		}
		out = append(out, fmt.Sprintf("%d %+v", key(v), v))
	}
	slices.Sort(out)
	return out
}

func take(r state.Reader, g *gen) snapshot {
	var s snapshot
	s.Self, _ = r.CurrentUser()
	_, err := r.CurrentUser()
	s.SelfErr = errText(err)
	s.PerGuild = make(map[state.Snowflake]*guildSnap)
	for v, err := range r.Guilds() {
		s.Guilds = append(s.Guilds, fmt.Sprintf("%+v %s", v, errText(err)))
	}
	slices.Sort(s.Guilds)
	return s
}

func takeGuilds(t testing.TB, r state.Reader, g *gen, s *snapshot, byID bool) {
	for _, gid := range g.guilds {
		gs := &guildSnap{}
		var err error
		gs.Guild, err = r.Guild(gid)
		gs.Err = errText(err)
		gs.Channels = collect(t, r.Channels(gid), func(c state.Channel) state.Snowflake { return c.ID })
		gs.Roles = collect(t, r.Roles(gid), func(c state.Role) state.Snowflake { return c.ID })
		gs.Members = collect(t, r.Members(gid), func(c state.Member) state.Snowflake { return c.User.ID })
		gs.Emojis = collect(t, r.Emojis(gid), func(c state.Emoji) state.Snowflake { return c.ID })
		gs.Stickers = collect(t, r.Stickers(gid), func(c state.Sticker) state.Snowflake { return c.ID })
		gs.Voice = collect(t, r.VoiceStates(gid), func(c state.VoiceState) state.Snowflake { return c.UserID })
		for k := range 9 {
			for i := range 6 {
				if !byID {
					break
				}
				id := gid*100 + state.Snowflake(k*10+i+1)
				switch k {
				case 1, 3:
					v, err := r.Channel(id)
					gs.One = append(gs.One, fmt.Sprintf("channel %d %+v %s", id, v, errText(err)))
				case 2:
					v, err := r.Role(gid, id)
					gs.One = append(gs.One, fmt.Sprintf("role %d %+v %s", id, v, errText(err)))
				case 4:
					v, err := r.Emoji(gid, id)
					gs.One = append(gs.One, fmt.Sprintf("emoji %d %+v %s", id, v, errText(err)))
				case 5:
					m, merr := r.Member(gid, id)
					gs.One = append(gs.One, fmt.Sprintf("member %d %+v %s", id, m, errText(merr)))
					p, err := r.Presence(gid, id)
					gs.Presences = append(gs.Presences, fmt.Sprintf("%d %+v %s", id, p, errText(err)))
					v, err := r.VoiceState(gid, id)
					gs.One = append(gs.One, fmt.Sprintf("voice %d %+v %s", id, v, errText(err)))
					if merr == nil || errors.Is(merr, state.ErrStale) {
						// Users are compared while a member holds them: in
						// Redis they outlive it by Options.UserTTL.
						u, err := r.User(id)
						gs.Users = append(gs.Users, fmt.Sprintf("%d %+v %s", id, u, errText(err)))
					}
				case 6:
					v, err := r.Sticker(gid, id)
					gs.One = append(gs.One, fmt.Sprintf("sticker %d %+v %s", id, v, errText(err)))
				}
			}
		}
		s.PerGuild[gid] = gs
	}
}

// runDiff applies n random events of seed to an in-memory cache and to
// store, and compares what they answer after each.
func runDiff(t *testing.T, store *redisstate.Store, pol state.Policies, seed uint64, n int) {
	ctx := context.Background()
	g := &gen{r: rand.New(rand.NewPCG(seed, 1)), guilds: []state.Snowflake{11, 12, 13, 1 << 30}}
	mem := state.NewCache(&state.Options{Policies: &pol})
	me := state.User{ID: bot, Username: "bot", Discriminator: "0", AccentColor: -1, Bot: true}
	first := []state.Update{{Op: state.OpSession, Shard: [2]int{0, 1}, IDs: g.guilds, User: &me}}
	for i := range n {
		ev := first
		if i > 0 {
			ev = g.event()
		}
		if err := mem.Apply(ctx, ev); err != nil {
			t.Fatal(err)
		}
		if err := store.Apply(ctx, ev); err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
		// Every read by id after every tenth event and the last, the
		// iterators after every other one.
		byID := i%10 == 0 || i == n-1
		if i%2 == 1 && i != n-1 {
			continue
		}
		want, got := take(mem, g), take(store, g)
		takeGuilds(t, mem, g, &want, byID)
		takeGuilds(t, store, g, &got, byID)
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("seed %d, after event %d (%s):\n%s", seed, i, describe(ev), diff(want, got))
		}
	}
}

func describe(ev []state.Update) string {
	ops := make([]string, len(ev))
	for i, u := range ev {
		ops[i] = fmt.Sprintf("op%d/g%d", u.Op, u.GuildID)
	}
	return fmt.Sprint(ops)
}

func diff(want, got snapshot) string {
	var out string
	line := func(what string, w, g any) {
		if !reflect.DeepEqual(w, g) {
			out += fmt.Sprintf("%s:\n  memory: %+v\n  redis:  %+v\n", what, w, g)
		}
	}
	line("self", want.Self, got.Self)
	line("guilds", want.Guilds, got.Guilds)
	ids := make([]state.Snowflake, 0, len(want.PerGuild))
	for id := range want.PerGuild {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, cmp.Compare)
	for _, id := range ids {
		w, g := want.PerGuild[id], got.PerGuild[id]
		rw, rg := reflect.ValueOf(*w), reflect.ValueOf(*g)
		for i := range rw.NumField() {
			line(fmt.Sprintf("guild %d %s", id, rw.Type().Field(i).Name), rw.Field(i).Interface(), rg.Field(i).Interface())
		}
	}
	return out
}

func diffPolicies() map[string]state.Policies {
	all := state.Policies{Members: state.All(), Emojis: state.All(), Stickers: state.All(),
		Presences: state.All(), VoiceStates: state.All()}
	bounded := state.Policies{Members: state.Bounded(4), Emojis: state.Bounded(1), Stickers: state.All(),
		Presences: state.Bounded(2), VoiceStates: state.All()}
	return map[string]state.Policies{"default": state.DefaultPolicies(), "all": all, "bounded": bounded}
}

// TestMatchesMemoryCache is the conformance of the Redis store: random
// events, the same answers as the in-memory cache, on one node.
func TestMatchesMemoryCache(t *testing.T) {
	rs := redistest.Start(t)
	rdb := client(t, rs)
	for name, pol := range diffPolicies() {
		t.Run(name, func(t *testing.T) {
			require(t, rdb.FlushAll(t.Context()).Err())
			runDiff(t, newStore(t, rdb, &pol, redisstate.Options{}), pol, 1, 150)
		})
	}
}

// TestClusterMatchesMemoryCache runs the same on a three-master Cluster:
// every script's keys are one guild's, on one slot.
func TestClusterMatchesMemoryCache(t *testing.T) {
	rc := redistest.StartCluster(t)
	rdb := clusterClient(t, rc)
	pols := diffPolicies()
	for _, name := range []string{"all"} {
		pol := pols[name]
		t.Run(name, func(t *testing.T) {
			require(t, rdb.ForEachMaster(t.Context(), func(ctx context.Context, c *redis.Client) error {
				return c.FlushAll(ctx).Err()
			}))
			runDiff(t, newStore(t, rdb, &pol, redisstate.Options{Prefix: "c" + name}), pol, 7, 150)
		})
	}
	used := 0
	for _, addr := range rc.Addrs() {
		n, err := redistest.Do(addr, "DBSIZE")
		require(t, err)
		if n != "0" {
			used++
		}
	}
	if used < 2 {
		t.Fatalf("the guilds' keys lie on %d masters; want more than one", used)
	}
}

func require(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
