package state_test

import (
	"context"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/gateway"
	"github.com/seed012df1e9/guildkit/state"
)

// bigGuild returns a GUILD_CREATE of n members with nicknames, avatars,
// three roles of twenty each and a timeout.
func bigGuild(id guildkit.Snowflake, n int) *gateway.GuildCreate {
	g := &gateway.GuildCreate{Guild: guildkit.Guild{ID: id, Name: "big", OwnerID: 1}, MemberCount: n}
	for i := range 20 {
		g.Roles = append(g.Roles, guildkit.Role{ID: id + guildkit.Snowflake(i), Position: i, Permissions: 1 << i})
	}
	for i := range 30 {
		g.Channels = append(g.Channels, guildkit.Channel{ID: id + 1000 + guildkit.Snowflake(i), GuildID: id, Name: "c" + strconv.Itoa(i),
			PermissionOverwrites: []guildkit.PermissionOverwrite{{ID: id, Deny: 2048}, {ID: id + 3, Allow: 2048}}})
	}
	until := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		g.Members = append(g.Members, member(id, guildkit.Snowflake(1_000_000+i), i, until))
	}
	return g
}

func member(guild, user guildkit.Snowflake, i int, until time.Time) guildkit.Member {
	nick := "nick" + strconv.Itoa(i)
	av := strconv.FormatUint(uint64(user)*0x9e3779b97f4a7c15, 16) + "0123456789abcdef"
	joined := until.Add(-time.Duration(i) * time.Hour)
	return guildkit.Member{User: &guildkit.User{ID: user, Username: "user" + strconv.Itoa(i), Avatar: &av},
		Nick: &nick, Avatar: &av, Roles: []guildkit.Snowflake{guild + guildkit.Snowflake(1+i%7), guild + guildkit.Snowflake(8+i%5)},
		JoinedAt: &joined, CommunicationDisabledUntil: &until}
}

// BenchmarkApplyGuildCreate: a GUILD_CREATE of 1,000 members, replacing
// the guild each time (re-chunking in place).
func BenchmarkApplyGuildCreate(b *testing.B) {
	c := state.NewCache(&state.Options{Policies: allPolicies()})
	e := bigGuild(1<<40, 1000)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		ups, _ := state.Updates([2]int{0, 1}, e)
		_ = c.Apply(ctx, ups)
	}
	b.ReportMetric(float64(b.N)*1000/b.Elapsed().Seconds(), "members/s")
}

// BenchmarkApplyMemberUpdate: one GUILD_MEMBER_UPDATE, decoded, applied.
func BenchmarkApplyMemberUpdate(b *testing.B) {
	c := state.NewCache(&state.Options{Policies: allPolicies()})
	ctx := context.Background()
	ups, _ := state.Updates([2]int{0, 1}, bigGuild(1<<40, 1000))
	_ = c.Apply(ctx, ups)
	until := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	events := make([]*gateway.GuildMemberUpdate, 1000)
	for i := range events {
		events[i] = &gateway.GuildMemberUpdate{GuildID: 1 << 40, Member: member(1<<40, guildkit.Snowflake(1_000_000+i), i+1, until)}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		ups, _ := state.Updates([2]int{0, 1}, events[i%len(events)])
		_ = c.Apply(ctx, ups)
		i++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkReadsUnderWrites: Member and MemberPermissionsIn on every
// processor while one goroutine applies member updates without pause.
func BenchmarkReadsUnderWrites(b *testing.B) {
	c := state.NewCache(&state.Options{Policies: allPolicies()})
	ctx := context.Background()
	ups, _ := state.Updates([2]int{0, 1}, bigGuild(1<<40, 1000))
	_ = c.Apply(ctx, ups)
	until := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	var stop atomic.Bool
	var writes atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; !stop.Load(); i++ {
			e := &gateway.GuildMemberUpdate{GuildID: 1 << 40, Member: member(1<<40, guildkit.Snowflake(1_000_000+i%1000), i, until)}
			ups, _ := state.Updates([2]int{0, 1}, e)
			_ = c.Apply(ctx, ups)
			writes.Add(1)
		}
	}()
	now := time.Now()
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			uid := guildkit.Snowflake(1_000_000 + i%1000)
			if _, err := c.Member(1<<40, uid); err != nil {
				b.Error(err)
				return
			}
			_, _ = state.MemberPermissionsIn(c, 1<<40+1000+guildkit.Snowflake(i%30), uid, now)
			i++
		}
	})
	b.StopTimer()
	stop.Store(true)
	<-done
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "reads/s")
	b.ReportMetric(float64(writes.Load())/b.Elapsed().Seconds(), "writes/s")
}

func heapInUse() float64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return float64(ms.HeapAlloc)
}

// churn applies rounds of joins, updates and leaves to guild 1<<40 of c:
// each round 100 new members join, 100 members change, 100 leave, so the
// guild keeps about its size while its users keep changing.
func churn(b testing.TB, c *state.Cache, next *int, rounds int) {
	ctx := context.Background()
	until := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	for range rounds {
		for k := range 100 {
			i := *next + k
			e := &gateway.GuildMemberAdd{GuildID: 1 << 40, Member: member(1<<40, guildkit.Snowflake(1_000_000+i), i, until)}
			ups, _ := state.Updates([2]int{0, 1}, e)
			_ = c.Apply(ctx, ups)
			upd := &gateway.GuildMemberUpdate{GuildID: 1 << 40, Member: member(1<<40, guildkit.Snowflake(1_000_000+i-500), i+7, until)}
			ups, _ = state.Updates([2]int{0, 1}, upd)
			_ = c.Apply(ctx, ups)
			rm := &gateway.GuildMemberRemove{GuildID: 1 << 40, User: guildkit.User{ID: guildkit.Snowflake(1_000_000 + i - 1000)}}
			ups, _ = state.Updates([2]int{0, 1}, rm)
			_ = c.Apply(ctx, ups)
		}
		*next += 100
	}
}

// BenchmarkSoak is a day of member churn compressed: the heap the cache
// holds after b.N rounds of 100 joins, updates and leaves, beside the heap
// after the first 100 rounds; with the policy bounding the members, the
// two stay level (B/member-end ≈ B/member-start).
func BenchmarkSoak(b *testing.B) {
	for _, pol := range []struct {
		name string
		p    state.Policy
	}{{"all", state.All()}, {"bounded500", state.Bounded(500)}} {
		b.Run(pol.name, func(b *testing.B) {
			p := state.DefaultPolicies()
			p.Members = pol.p
			base := heapInUse()
			e := bigGuild(1<<40, 1000)
			c := state.NewCache(&state.Options{Policies: &p})
			ups, _ := state.Updates([2]int{0, 1}, e)
			_ = c.Apply(context.Background(), ups)
			ups, e = nil, nil
			next := 1000
			churn(b, c, &next, 100)
			start := heapInUse() - base
			b.ResetTimer()
			churn(b, c, &next, b.N)
			b.StopTimer()
			end := heapInUse() - base
			st := c.Stats()
			b.ReportMetric(start/float64(st.Members), "B/member-start")
			b.ReportMetric(end/float64(st.Members), "B/member-end")
			b.ReportMetric(float64(st.Members), "members")
			runtime.KeepAlive(c)
		})
	}
}

// TestChurnHoldsNothingBack: after member churn, the cache holds the
// members and users of the guild as it is, and no more (no user entry
// outlives its members).
func TestChurnHoldsNothingBack(t *testing.T) {
	for _, pol := range []state.Policy{state.All(), state.Bounded(300)} {
		p := state.DefaultPolicies()
		p.Members = pol
		c := state.NewCache(&state.Options{Policies: &p})
		ups, _ := state.Updates([2]int{0, 1}, bigGuild(1<<40, 1000))
		_ = c.Apply(context.Background(), ups)
		next := 1000
		churn(t, c, &next, 30)
		st := c.Stats()
		limit := 1000
		if n := pol.Limit(); n > 0 {
			limit = n
		}
		if st.Members > limit || st.Users != st.Members {
			t.Errorf("policy %+v: %d members, %d users; want at most %d, as many users", pol.Limit(), st.Members, st.Users, limit)
		}
	}
}
