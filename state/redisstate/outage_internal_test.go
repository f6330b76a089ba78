package redisstate

import (
	"context"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/seed012df1e9/guildkit/internal/redistest"
	"github.com/seed012df1e9/guildkit/state"
)

// TestApplyAfterLastRecovery: once the last lost guild is recovered (and
// OnRecover called), an event goes to Redis even while the retry loop has
// not yet stopped; it is not refused as lost, which would leave its guild
// stale with the event's values never written.
func TestApplyAfterLastRecovery(t *testing.T) {
	rs := redistest.Start(t)
	rdb := redis.NewClient(&redis.Options{Addr: rs.Addr()})
	defer rdb.Close()
	s := New(rdb, Options{})
	defer s.Close()
	// The retry loop's state between recovering the last guild and
	// stopping: nothing lost, the loop still marked running.
	s.mu.Lock()
	s.retry = true
	s.mu.Unlock()
	ctx := context.Background()
	ups := []state.Update{{Op: state.OpGuildCreate, GuildID: 6, Guild: &state.Guild{ID: 6, Name: "again", MemberCount: 1}}}
	if err := s.Apply(ctx, ups); err != nil {
		t.Fatalf("Apply with nothing lost: %v", err)
	}
	if g, err := s.Guild(6); err != nil || g.Name != "again" {
		t.Fatalf("Guild = %+v, %v", g, err)
	}
	if lost := s.Lost(); len(lost) != 0 {
		t.Fatalf("Lost = %v", lost)
	}
}
