package statebench

import (
	"context"
	"encoding/json"
	"os"
	"runtime"
	"strconv"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/disgoorg/disgo/cache"
	"github.com/disgoorg/disgo/discord"
	dgateway "github.com/disgoorg/disgo/gateway"

	"github.com/seed012df1e9/guildkit/gateway"
	"github.com/seed012df1e9/guildkit/state"
)

// feeder applies one GUILD_CREATE's d to a cache, as its library's own
// gateway handler does, and keeps the cache reachable.
type feeder interface {
	feed(d []byte)
}

type guildkitFeeder struct{ c *state.Cache }

func (f *guildkitFeeder) feed(d []byte) {
	var e gateway.GuildCreate
	if err := json.Unmarshal(d, &e); err != nil {
		panic(err)
	}
	ups, err := state.Updates([2]int{0, 1}, &e)
	if err != nil {
		panic(err)
	}
	if err := f.c.Apply(context.Background(), ups); err != nil {
		panic(err)
	}
}

// discordgoFeeder is discordgo's State with every tracker on, fed as its
// Session's handler feeds it (State.OnInterface with StateEnabled).
type discordgoFeeder struct {
	s  *discordgo.State
	se *discordgo.Session
}

func (f *discordgoFeeder) feed(d []byte) {
	var g discordgo.Guild
	if err := json.Unmarshal(d, &g); err != nil {
		panic(err)
	}
	if err := f.s.OnInterface(f.se, &discordgo.GuildCreate{Guild: &g}); err != nil {
		panic(err)
	}
}

// disgoFeeder is disgo's cache with every cache flag, fed as its
// GUILD_CREATE handler feeds it.
type disgoFeeder struct{ c cache.Caches }

func (f *disgoFeeder) feed(d []byte) {
	var e dgateway.EventGuildCreate
	if err := json.Unmarshal(d, &e); err != nil {
		panic(err)
	}
	c := f.c
	c.AddGuild(e.Guild)
	for _, ch := range e.Channels {
		c.AddChannel(discord.ApplyGuildIDToChannel(ch, e.ID))
	}
	for _, r := range e.Roles {
		r.GuildID = e.ID
		c.AddRole(r)
	}
	for _, m := range e.Members {
		m.GuildID = e.ID
		c.AddMember(m)
	}
	for _, em := range e.Emojis {
		em.GuildID = e.ID
		c.AddEmoji(em)
	}
	for _, p := range e.Presences {
		p.GuildID = e.ID
		c.AddPresence(p)
	}
}

func newFeeder(name string) feeder {
	switch name {
	case "guildkit-members":
		p := state.DefaultPolicies()
		p.Members = state.All()
		return &guildkitFeeder{c: state.NewCache(&state.Options{Policies: &p})}
	case "guildkit-bounded100":
		p := state.DefaultPolicies()
		p.Members = state.Bounded(100)
		return &guildkitFeeder{c: state.NewCache(&state.Options{Policies: &p})}
	case "guildkit-default":
		return &guildkitFeeder{c: state.NewCache(nil)}
	case "guildkit":
		p := state.DefaultPolicies()
		p.Members, p.Presences = state.All(), state.All()
		return &guildkitFeeder{c: state.NewCache(&state.Options{Policies: &p})}
	case "discordgo":
		return &discordgoFeeder{s: discordgo.NewState(), se: &discordgo.Session{StateEnabled: true}}
	case "disgo":
		return &disgoFeeder{c: cache.New(cache.WithCaches(cache.FlagsAll))}
	}
	panic(name)
}

func heap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// measure feeds guilds GUILD_CREATEs of members members each to a new
// cache of lib and returns the heap bytes it holds afterwards.
func measure(lib string, guilds, members int, shared bool) uint64 {
	payloads := make([][]byte, guilds)
	for g := range payloads {
		payloads[g] = guildCreate(g, members, shared)
	}
	before := heap()
	f := newFeeder(lib)
	for _, d := range payloads {
		f.feed(d)
	}
	after := heap()
	runtime.KeepAlive(f)
	runtime.KeepAlive(payloads)
	return after - before
}

var libs = []string{"guildkit", "discordgo", "disgo"}

// BenchmarkMemory reports the heap each cache holds for the stream: bytes
// per member and per guild of 1,000 members (100 guilds by default;
// STATEBENCH_GUILDS sets another count). Run with -benchtime=1x.
func BenchmarkMemory(b *testing.B) {
	guilds := 100
	if v, err := strconv.Atoi(os.Getenv("STATEBENCH_GUILDS")); err == nil && v > 0 {
		guilds = v
	}
	const members = 1000
	for _, shared := range []bool{true, false} {
		users := "shared"
		if !shared {
			users = "distinct"
		}
		for _, lib := range libs {
			b.Run(users+"/"+lib, func(b *testing.B) {
				var bytes uint64
				for range b.N {
					bytes = measure(lib, guilds, members, shared)
				}
				b.ReportMetric(float64(bytes)/float64(guilds*members), "B/member")
				b.ReportMetric(float64(bytes)/float64(guilds), "B/guild")
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}

// BenchmarkPolicies reports what the cache holds of the shared stream
// under other policies: members without presences, at most 100 members
// per guild, and the default (the bot's member and those seen acting: none
// in a stream of GUILD_CREATEs).
func BenchmarkPolicies(b *testing.B) {
	guilds := 100
	if v, err := strconv.Atoi(os.Getenv("STATEBENCH_GUILDS")); err == nil && v > 0 {
		guilds = v
	}
	for _, lib := range []string{"guildkit-members", "guildkit-bounded100", "guildkit-default"} {
		b.Run(lib, func(b *testing.B) {
			var bytes uint64
			for range b.N {
				bytes = measure(lib, guilds, 1000, true)
			}
			b.ReportMetric(float64(bytes)/float64(guilds), "B/guild")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// TestSameStream checks that every library decoded the stream: each cache
// holds every member and presence.
func TestSameStream(t *testing.T) {
	for _, lib := range libs {
		f := newFeeder(lib)
		for g := range 2 {
			f.feed(guildCreate(g, 50, true))
		}
		var members, presences int
		switch f := f.(type) {
		case *guildkitFeeder:
			st := f.c.Stats()
			members, presences = st.Members, st.Presences
		case *discordgoFeeder:
			for _, g := range f.s.Guilds {
				members += len(g.Members)
				presences += len(g.Presences)
			}
		case *disgoFeeder:
			members = f.c.MemberCache().Len()
			presences = f.c.PresenceCache().Len()
		}
		if members != 100 || presences != 100 {
			t.Errorf("%s: %d members, %d presences; want 100 each", lib, members, presences)
		}
	}
}
