package state_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/gateway"
	"github.com/seed012df1e9/guildkit/state"
)

// filled returns a cache holding the worked example of permissions.md,
// applied as a GUILD_CREATE.
func filled(t testing.TB) *state.Cache {
	t.Helper()
	g, members, channels := workedExample()
	c := state.NewCache(&state.Options{Policies: allPolicies()})
	apply(t, c, &gateway.Ready{User: guildkit.User{ID: 1, Username: "bot"}, Guilds: []guildkit.UnavailableGuild{{ID: g.ID, Unavailable: true}}})
	apply(t, c, &gateway.GuildCreate{Guild: *g, Members: members, Channels: channels, MemberCount: len(members)})
	return c
}

func apply(t testing.TB, c *state.Cache, e gateway.Event) {
	t.Helper()
	ups, err := state.Updates([2]int{0, 1}, e)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Apply(context.Background(), ups); err != nil {
		t.Fatal(err)
	}
}

// TestReadsDoNotAllocate: the reads by id and the permission computations
// allocate nothing.
func TestReadsDoNotAllocate(t *testing.T) {
	c := filled(t)
	now := time.Now()
	reads := map[string]func(){
		"Guild":   func() { _, _ = c.Guild(100) },
		"Member":  func() { _, _ = c.Member(100, 11) },
		"Channel": func() { _, _ = c.Channel(300) },
		"Role":    func() { _, _ = c.Role(100, 201) },
		"User":    func() { _, _ = c.User(11) },
		"Miss":    func() { _, _ = c.Member(100, 999) },
		"MemberPermissions": func() {
			_, _ = state.MemberPermissions(c, 100, 11, now)
		},
		"MemberPermissionsIn": func() {
			_, _ = state.MemberPermissionsIn(c, 303, 11, now)
		},
		"CanManageMember": func() { _, _ = state.CanManageMember(c, 100, 14, 11) },
	}
	for name, read := range reads {
		if n := testing.AllocsPerRun(100, read); n != 0 {
			t.Errorf("%s allocates %v times per read", name, n)
		}
	}
	if p, err := c.MemberPermissionsIn(300, 12); err != nil || p != 74816 {
		t.Errorf("Bob in #general from the cache: %d, %v; want 74816", p, err)
	}
}

// TestReadsDuringWrites: readers on several goroutines while a writer
// applies member updates, role changes and whole GUILD_CREATEs; every
// value read is whole (a member's roles and nick come from one update).
// Run with -race.
func TestReadsDuringWrites(t *testing.T) {
	c := filled(t)
	g, members, channels := workedExample()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if m, err := c.Member(100, 11); err == nil {
					// The writer gives nick "n<k>" with k roles: they must agree.
					if m.Nick != "" && len(m.Nick) != 2 || m.Nick != "" && int(m.Nick[1]-'0') != m.Roles.Len() {
						t.Errorf("torn member: nick %q with %d roles", m.Nick, m.Roles.Len())
						return
					}
				}
				_, _ = state.MemberPermissionsIn(c, 300, 11, time.Now())
				for range c.Members(100) {
				}
				_, _ = c.Channel(301)
			}
		}()
	}
	roles := []guildkit.Snowflake{201, 202, 203}
	for i := range 300 {
		k := i % 4
		nick := "n" + string(rune('0'+k))
		m := guildkit.Member{User: &guildkit.User{ID: 11, Username: "alice"}, Nick: &nick, Roles: roles[:min(k, 3)]}
		if k == 3 {
			m.Roles = roles
		}
		apply(t, c, &gateway.GuildMemberUpdate{GuildID: 100, Member: m})
		if i%50 == 0 {
			apply(t, c, &gateway.GuildCreate{Guild: *g, Members: members, Channels: channels, MemberCount: len(members)})
		}
		apply(t, c, &gateway.GuildRoleUpdate{GuildID: 100, Role: guildkit.Role{ID: 202, Position: 1, Permissions: guildkit.Permissions(i)}})
	}
	close(stop)
	wg.Wait()
}
