package state

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"unique"
	"unsafe"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/gateway"
)

// TestRecordSizes pins the sizes the memory figures rest on.
func TestRecordSizes(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"memberRec", unsafe.Sizeof(memberRec{}), 64},
		{"userRec", unsafe.Sizeof(userRec{}), 32},
		{"presenceRec", unsafe.Sizeof(presenceRec{}), 16},
	} {
		if c.got != c.want {
			t.Errorf("%s is %d bytes, want %d", c.name, c.got, c.want)
		}
	}
}

// TestRechunkReplacesInPlace: a whole member list asked again refills the
// guild's member map in place (the same map, never a second one beside
// it), and drops the members it does not name once complete.
func TestRechunkReplacesInPlace(t *testing.T) {
	p := DefaultPolicies()
	p.Members = All()
	c := NewCache(&Options{Policies: &p})
	ctx := context.Background()
	mustApply := func(e gateway.Event) {
		t.Helper()
		ups, err := Updates([2]int{0, 1}, e)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Apply(ctx, ups); err != nil {
			t.Fatal(err)
		}
	}
	members := func(from, n int) []guildkit.Member {
		out := make([]guildkit.Member, n)
		for i := range out {
			out[i] = guildkit.Member{User: &guildkit.User{ID: guildkit.Snowflake(1000 + from + i), Username: "u"}}
		}
		return out
	}
	mustApply(&gateway.GuildCreate{Guild: guildkit.Guild{ID: 7}, Large: true, MemberCount: 2000, Members: members(0, 10)})
	mustApply(&gateway.GuildMembersChunk{GuildID: 7, Nonce: ChunkNoncePrefix + "a", ChunkIndex: 0, ChunkCount: 2, Members: members(0, 1000)})
	mustApply(&gateway.GuildMembersChunk{GuildID: 7, Nonce: ChunkNoncePrefix + "a", ChunkIndex: 1, ChunkCount: 2, Members: members(1000, 1000)})
	gs := c.guild(7)
	before := reflect.ValueOf(gs.members).UnsafePointer()
	if n := len(gs.members); n != 2000 {
		t.Fatalf("%d members after the first list, want 2000", n)
	}
	// The list again, 100 members fewer: they left meanwhile.
	mustApply(&gateway.GuildMembersChunk{GuildID: 7, Nonce: ChunkNoncePrefix + "b", ChunkIndex: 1, ChunkCount: 2, Members: members(1000, 900)})
	if n := len(gs.members); n != 2000 {
		t.Errorf("%d members half way through the second list, want 2000 (nothing dropped before it is complete)", n)
	}
	mustApply(&gateway.GuildMembersChunk{GuildID: 7, Nonce: ChunkNoncePrefix + "b", ChunkIndex: 0, ChunkCount: 2, Members: members(0, 1000)})
	if n := len(gs.members); n != 1900 {
		t.Errorf("%d members after the second list, want 1900", n)
	}
	if after := reflect.ValueOf(gs.members).UnsafePointer(); after != before {
		t.Error("the second list built another member map")
	}
	if st := c.Stats(); st.Users != 1900 {
		t.Errorf("%d users held, want 1900", st.Users)
	}
}

// TestPackedRecordsRoundTrip: a user's and a member's fields come back as
// stored from their packed strings, empty ones and flags included, and a
// field longer than 255 bytes is cut to 255.
func TestPackedRecordsRoundTrip(t *testing.T) {
	long := strings.Repeat("é", 200) // 400 bytes
	for _, u := range []User{
		{ID: 1},
		{ID: 2, Username: "u", GlobalName: "G", Discriminator: "0", Avatar: "a_x", Banner: "b", AccentColor: -1,
			PublicFlags: 1<<22 | 64, Bot: true, System: true, AvatarDecoration: AvatarDecoration{Asset: "d", SKUID: 9}},
		{ID: 3, Banner: "only the banner", PublicFlags: -5},
	} {
		if got := recOfUser(&u).value(u.ID); got != u {
			t.Errorf("user %+v came back as %+v", u, got)
		}
	}
	cut := recOfUser(&User{ID: 4, Username: long, Banner: long}).value(4)
	if cut.Username != long[:255] || cut.Banner != long[:255] {
		t.Errorf("long fields kept as %d and %d bytes, want 255", len(cut.Username), len(cut.Banner))
	}
	for _, c := range []struct {
		nick, avatar, banner string
		flags                uint16
		bits                 uint8
	}{
		{}, {"n", "", "b", 1 << 10, memberDeaf | memberPending}, {"", "a", "", 0xFFFF, memberMute},
	} {
		m := memberRec{strs: memberStrs(c.nick, c.avatar, c.banner, c.flags, c.bits), roles: unique.Make(""), deco: unique.Make(AvatarDecoration{})}
		v := m.value(7, User{ID: 8})
		if v.Nick != c.nick || v.Avatar != c.avatar || v.Banner != c.banner || uint16(v.Flags) != c.flags ||
			v.Deaf != (c.bits&memberDeaf != 0) || v.Mute != (c.bits&memberMute != 0) || v.Pending != (c.bits&memberPending != 0) {
			t.Errorf("member %+v came back as %+v", c, v)
		}
	}
}
