package gateway

import (
	"encoding/json"
	"testing"

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

// TestNoteBounded: the counts noted per guild during an overlap stay
// bounded; take consumes one copy at a time.
func TestNoteBounded(t *testing.T) {
	t.Parallel()
	sent := map[guildkit.Snowflake]map[string]int{}
	for i := range maxNoted + 100 {
		note(sent, 1, string(rune(i)))
	}
	assert.LessOrEqual(t, len(sent[1]), maxNoted)
	note(sent, 2, "k")
	note(sent, 2, "k")
	assert.True(t, take(sent, 2, "k"))
	assert.True(t, take(sent, 2, "k"))
	assert.False(t, take(sent, 2, "k"))
	assert.False(t, take(sent, 3, "k"))
}
