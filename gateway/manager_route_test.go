package gateway

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/seed012df1e9/guildkit"
)

// TestGuildOf: the guild a reshard routes an event by, for the guild
// events (the guild's own id), events with a GuildID field (a value or a
// pointer), raw events (guild_id in their data), and events of no guild.
func TestGuildOf(t *testing.T) {
	t.Parallel()
	g := guildkit.Snowflake(42 << 22)
	for _, tc := range []struct {
		ev   Event
		want guildkit.Snowflake
		ok   bool
	}{
		{&GuildCreate{Guild: guildkit.Guild{ID: g}}, g, true},
		{&GuildDelete{ID: g}, g, true},
		{&GuildBanAdd{GuildID: g}, g, true},
		{&MessageCreate{GuildID: &g}, g, true},
		{&MessageCreate{}, noGuild, false}, // a DM
		{&RawEvent{Name: "X", Data: json.RawMessage(`{"guild_id":"` + g.String() + `"}`)}, g, true},
		{&RawEvent{Name: "X", Data: json.RawMessage(`{"id":"1"}`)}, noGuild, false},
		{&RawEvent{Name: "X", Data: json.RawMessage(`not json`)}, noGuild, false},
		{(*GuildBanAdd)(nil), noGuild, false},
		{&Ready{}, noGuild, false},
	} {
		got, ok := guildOf(tc.ev)
		assert.Equal(t, tc.want, got, "%T", tc.ev)
		assert.Equal(t, tc.ok, ok, "%T", tc.ev)
	}
}

// TestEventKey: copies of one event (same name, same content) have one
// key; events that differ in name or content have different keys.
func TestEventKey(t *testing.T) {
	t.Parallel()
	a := &GuildBanAdd{GuildID: 1 << 22, User: guildkit.User{ID: 7, Username: "x"}}
	b := &GuildBanAdd{GuildID: 1 << 22, User: guildkit.User{ID: 7, Username: "x"}}
	c := &GuildBanAdd{GuildID: 1 << 22, User: guildkit.User{ID: 8, Username: "x"}}
	d := &GuildBanRemove{GuildID: 1 << 22, User: guildkit.User{ID: 7, Username: "x"}}
	assert.Equal(t, eventKey(a), eventKey(b))
	assert.NotEqual(t, eventKey(a), eventKey(c))
	assert.NotEqual(t, eventKey(a), eventKey(d))
	r1 := &RawEvent{Name: "X", Data: json.RawMessage(`{"a":1}`)}
	r2 := &RawEvent{Name: "Y", Data: json.RawMessage(`{"a":1}`)}
	assert.NotEqual(t, eventKey(r1), eventKey(r2))
}

// TestNoted: the notes per guild stay bounded; take consumes the oldest
// copy; prune forgets the notes from before an instant.
func TestNoted(t *testing.T) {
	t.Parallel()
	n := noted{}
	for i := range maxNoted + 100 {
		n.note(1, string(rune(i)))
	}
	assert.LessOrEqual(t, len(n[1]), maxNoted)
	n.note(2, "k")
	n.note(2, "k")
	assert.True(t, n.take(2, "k"))
	assert.True(t, n.take(2, "k"))
	assert.False(t, n.take(2, "k"))
	assert.False(t, n.take(3, "k"))

	n.note(4, "old")
	n.note(4, "both")
	cut := time.Now()
	time.Sleep(time.Millisecond)
	n.note(4, "both")
	n.note(4, "new")
	n.prune(4, cut)
	assert.False(t, n.take(4, "old"))
	assert.True(t, n.take(4, "both"))
	assert.False(t, n.take(4, "both"))
	assert.True(t, n.take(4, "new"))
}
