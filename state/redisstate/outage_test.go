package redisstate_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/seed012df1e9/guildkit/internal/redistest"
	"github.com/seed012df1e9/guildkit/state"
	"github.com/seed012df1e9/guildkit/state/redisstate"
)

func guildCreate(gid state.Snowflake, name string) []state.Update {
	return []state.Update{
		{Op: state.OpGuildCreate, GuildID: gid, Guild: &state.Guild{ID: gid, Name: name, MemberCount: 1}},
		{Op: state.OpRolePut, GuildID: gid, Role: &state.Role{ID: gid, Name: "@everyone", Permissions: 1024}},
	}
}

// TestOutageMarksStaleAndResyncs: a write Redis did not take is not lost
// silently. Apply says so; when Redis answers again the guild is marked
// stale (readers are told), then rebuilt through Resync.
func TestOutageMarksStaleAndResyncs(t *testing.T) {
	rs := redistest.Start(t)
	rdb := client(t, rs)
	ctx := context.Background()
	var resynced []state.Snowflake
	recovered := make(chan error, 10)
	st := newStore(t, rdb, nil, redisstate.Options{
		Resync: func(ctx context.Context, id state.Snowflake) ([]state.Update, error) {
			resynced = append(resynced, id)
			return guildCreate(id, "rebuilt"), nil
		},
		OnRecover: func(_ state.Snowflake, err error) { recovered <- err },
	})
	me := state.User{ID: bot, Username: "bot"}
	require(t, st.Apply(ctx, []state.Update{{Op: state.OpSession, Shard: [2]int{0, 1}, IDs: []state.Snowflake{5}, User: &me}}))
	require(t, st.Apply(ctx, guildCreate(5, "before")))

	rs.Stop(t)
	rename := []state.Update{{Op: state.OpGuildUpdate, GuildID: 5, Guild: &state.Guild{ID: 5, Name: "lost"}}}
	if err := st.Apply(ctx, rename); err == nil {
		t.Fatal("Apply with Redis down: no error")
	}
	if _, err := st.Guild(5); err == nil || errors.Is(err, state.ErrStale) || errors.Is(err, state.ErrNotFound) {
		t.Fatalf("read with Redis down: %v; want the client's error", err)
	}
	// Later events do not wait on Redis; their guilds are remembered too.
	more := []state.Update{{Op: state.OpGuildUpdate, GuildID: 8, Guild: &state.Guild{ID: 8, Name: "lost too"}}}
	if err := st.Apply(ctx, more); !errors.Is(err, redisstate.ErrUnavailable) {
		t.Fatalf("Apply while Redis is down: %v, want ErrUnavailable", err)
	}
	got := st.Lost()
	slices.Sort(got)
	if !slices.Equal(got, []state.Snowflake{5, 8}) {
		t.Fatalf("Lost = %v, want [5 8]", got)
	}

	// Redis comes back (empty: its persistence is off); the retry marks
	// the guild stale and rebuilds it.
	rs.Start(t)
	require(t, rdb.Ping(ctx).Err())
	for range 2 {
		if err := <-recovered; err != nil {
			t.Fatal(err)
		}
	}
	slices.Sort(resynced)
	if !slices.Equal(resynced, []state.Snowflake{5, 8}) {
		t.Fatalf("resynced %v, want [5 8]", resynced)
	}
	g, err := st.Guild(5)
	if err != nil || g.Name != "rebuilt" {
		t.Fatalf("after the resync: %+v, %v", g, err)
	}
	if got := st.Lost(); len(got) != 0 {
		t.Fatalf("Lost after recovery = %v", got)
	}
}

// TestOutageWithoutResyncStaysStale: without Resync a guild whose writes
// were lost reads stale until its next GUILD_CREATE.
func TestOutageWithoutResyncStaysStale(t *testing.T) {
	rs := redistest.Start(t)
	rdb := client(t, rs)
	ctx := context.Background()
	recovered := make(chan error, 10)
	st := newStore(t, rdb, nil, redisstate.Options{OnRecover: func(_ state.Snowflake, err error) { recovered <- err }})
	require(t, st.Apply(ctx, guildCreate(6, "before")))

	// Redis stops answering writes for a while without losing its data.
	require(t, rdb.Do(ctx, "CLIENT", "PAUSE", "1500", "WRITE").Err())
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	err := st.Apply(short, []state.Update{{Op: state.OpGuildUpdate, GuildID: 6, Guild: &state.Guild{ID: 6, Name: "lost"}}})
	cancel()
	if err == nil {
		t.Fatal("Apply while Redis does not answer: no error")
	}
	if err := <-recovered; err != nil {
		t.Fatal(err)
	}
	// A write that timed out may still have been applied when Redis
	// answered again: either value, but marked stale.
	g, err := st.Guild(6)
	if !errors.Is(err, state.ErrStale) || g.Name != "before" && g.Name != "lost" {
		t.Fatalf("after the outage: %+v, %v; want the last values and ErrStale", g, err)
	}
	require(t, st.Apply(ctx, guildCreate(6, "again")))
	if g, err := st.Guild(6); err != nil || g.Name != "again" {
		t.Fatalf("after GUILD_CREATE: %+v, %v", g, err)
	}
}

// TestVanishedGuildIsRebuilt: a Redis that lost its data (restarted empty,
// or a failover to a replica behind) is noticed at the next event of a
// guild the writer had written, and the guild is rebuilt.
func TestVanishedGuildIsRebuilt(t *testing.T) {
	rs := redistest.Start(t)
	rdb := client(t, rs)
	ctx := context.Background()
	recovered := make(chan error, 10)
	st := newStore(t, rdb, nil, redisstate.Options{
		Resync: func(_ context.Context, id state.Snowflake) ([]state.Update, error) {
			return guildCreate(id, "rebuilt"), nil
		},
		OnRecover: func(_ state.Snowflake, err error) { recovered <- err },
	})
	require(t, st.Apply(ctx, guildCreate(9, "before")))
	require(t, rdb.FlushAll(ctx).Err())
	rename := []state.Update{{Op: state.OpGuildUpdate, GuildID: 9, Guild: &state.Guild{ID: 9, Name: "after"}}}
	if err := st.Apply(ctx, rename); err == nil {
		t.Fatal("Apply to a guild gone from Redis: no error")
	}
	if err := <-recovered; err != nil {
		t.Fatal(err)
	}
	if g, err := st.Guild(9); err != nil || g.Name != "rebuilt" {
		t.Fatalf("after the rebuild: %+v, %v", g, err)
	}
	// A guild removed on purpose is not rebuilt.
	require(t, st.Apply(ctx, []state.Update{{Op: state.OpGuildRemove, GuildID: 9}}))
	require(t, st.Apply(ctx, rename))
	if got := st.Lost(); len(got) != 0 {
		t.Fatalf("Lost = %v after a removal", got)
	}
}
