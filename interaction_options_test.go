package guildkit_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
)

func TestOptionConstructors(t *testing.T) {
	t.Parallel()
	id := guildkit.Snowflake(80351110224678912)
	for _, tc := range []struct {
		opt  guildkit.CommandOption
		want string
	}{
		{guildkit.StringOption("reason", `say "hi"`), `{"name":"reason","type":3,"value":"say \"hi\""}`},
		{guildkit.IntegerOption("days", -7), `{"name":"days","type":4,"value":-7}`},
		{guildkit.NumberOption("ratio", 0.5), `{"name":"ratio","type":10,"value":0.5}`},
		{guildkit.NumberOption("ratio", math.NaN()), `{"name":"ratio","type":10,"value":0}`},
		{guildkit.BooleanOption("silent", true), `{"name":"silent","type":5,"value":true}`},
		{guildkit.UserOption("user", id), `{"name":"user","type":6,"value":"80351110224678912"}`},
		{guildkit.ChannelOption("where", id), `{"name":"where","type":7,"value":"80351110224678912"}`},
		{guildkit.RoleOption("role", id), `{"name":"role","type":8,"value":"80351110224678912"}`},
		{guildkit.MentionableOption("who", id), `{"name":"who","type":9,"value":"80351110224678912"}`},
		{guildkit.SubCommandGroupOption("config", guildkit.SubCommandOption("set", guildkit.BooleanOption("on", false))),
			`{"name":"config","type":2,"options":[{"name":"set","type":1,"options":[{"name":"on","type":5,"value":false}]}]}`},
	} {
		b, err := json.Marshal(tc.opt)
		require.NoError(t, err)
		assert.JSONEq(t, tc.want, string(b))
	}
	u := guildkit.UserOption("user", id)
	got, err := u.Snowflake()
	require.NoError(t, err)
	assert.Equal(t, id, got, "read back as the interaction's reader reads it")
	s := guildkit.StringOption("reason", "spam")
	assert.Equal(t, "spam", s.StringValue())
	n := guildkit.IntegerOption("days", 3)
	v, err := n.Int()
	require.NoError(t, err)
	assert.EqualValues(t, 3, v)
}
