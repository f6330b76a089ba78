package wire_test

import (
	"encoding/json"
	"errors"
	"net/url"
	"testing"
	"time"

	"github.com/google/go-querystring/query"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit/wire"
)

func TestSnowflakeJSON(t *testing.T) {
	t.Parallel()
	var s wire.Snowflake
	require.NoError(t, json.Unmarshal([]byte(`"175928847299117063"`), &s))
	assert.Equal(t, wire.Snowflake(175928847299117063), s)
	require.NoError(t, json.Unmarshal([]byte(`175928847299117063`), &s))
	assert.Equal(t, wire.Snowflake(175928847299117063), s)
	require.NoError(t, json.Unmarshal([]byte(`null`), &s))
	assert.Zero(t, s)
	assert.Error(t, json.Unmarshal([]byte(`"12a"`), &s))
	assert.Error(t, json.Unmarshal([]byte(`-1`), &s))
	assert.Error(t, json.Unmarshal([]byte(`"18446744073709551616"`), &s))

	b, err := json.Marshal(wire.Snowflake(175928847299117063))
	require.NoError(t, err)
	assert.Equal(t, `"175928847299117063"`, string(b))

	m := map[wire.Snowflake]int{1: 2}
	b, err = json.Marshal(m)
	require.NoError(t, err)
	assert.JSONEq(t, `{"1":2}`, string(b))
	var back map[wire.Snowflake]int
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, m, back)
}

func TestSnowflakeTime(t *testing.T) {
	t.Parallel()
	// The reference platform's documented example id.
	s, err := wire.ParseSnowflake("175928847299117063")
	require.NoError(t, err)
	assert.Equal(t, time.Date(2016, 4, 30, 11, 18, 25, 796000000, time.UTC), s.Time())
	assert.Equal(t, "175928847299117063", s.String())
	assert.Equal(t, s.Time(), wire.SnowflakeFromTime(s.Time()).Time())

	_, err = wire.ParseSnowflake("")
	assert.Error(t, err)
	_, err = wire.ParseSnowflake("x1")
	assert.Error(t, err)
}

type optParams struct {
	Nick  wire.Opt[string]           `json:"nick,omitzero" url:"nick,omitempty"`
	Roles wire.Opt[[]wire.Snowflake] `json:"roles,omitzero" url:"-"`
	Mute  wire.Opt[bool]             `json:"mute,omitzero" url:"mute,omitempty"`
	After wire.Opt[wire.Snowflake]   `json:"after,omitzero" url:"after,omitempty"`
}

func TestOptJSONRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   optParams
		want string
	}{
		{"omitted", optParams{}, `{}`},
		{"null", optParams{Nick: wire.Null[string](), Roles: wire.Null[[]wire.Snowflake]()}, `{"nick":null,"roles":null}`},
		{"value", optParams{Nick: wire.Some("bob"), Roles: wire.Some([]wire.Snowflake{1, 2}), Mute: wire.Some(false)}, `{"nick":"bob","roles":["1","2"],"mute":false}`},
		{"empty value is not omitted", optParams{Nick: wire.Some(""), Roles: wire.Some([]wire.Snowflake{})}, `{"nick":"","roles":[]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, err := json.Marshal(tt.in)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(b))
			var back optParams
			require.NoError(t, json.Unmarshal(b, &back))
			assert.Equal(t, tt.in.Nick.IsZero(), back.Nick.IsZero())
			assert.Equal(t, tt.in.Nick.IsNull(), back.Nick.IsNull())
			assert.Equal(t, tt.in.Nick.Or("?"), back.Nick.Or("?"))
			assert.Equal(t, tt.in.Roles.IsNull(), back.Roles.IsNull())
			assert.Equal(t, tt.in.Mute, back.Mute)
		})
	}
}

func TestOptAccessors(t *testing.T) {
	t.Parallel()
	var o wire.Opt[int]
	assert.True(t, o.IsZero())
	assert.False(t, o.IsNull())
	assert.False(t, o.IsSet())
	assert.Equal(t, "<omitted>", o.String())
	assert.Equal(t, 7, o.Or(7))

	o = wire.Null[int]()
	assert.False(t, o.IsZero())
	assert.True(t, o.IsNull())
	assert.Equal(t, "null", o.String())
	_, ok := o.Get()
	assert.False(t, ok)

	o = wire.Some(0)
	v, ok := o.Get()
	assert.True(t, ok)
	assert.Equal(t, 0, v)
	assert.Equal(t, "0", o.String())
	assert.True(t, o.IsSet())
}

func TestOptQuery(t *testing.T) {
	t.Parallel()
	v, err := query.Values(optParams{Nick: wire.Some("a b"), Mute: wire.Some(false), After: wire.Some(wire.Snowflake(42))})
	require.NoError(t, err)
	assert.Equal(t, url.Values{"nick": {"a b"}, "mute": {"false"}, "after": {"42"}}, v)

	v, err = query.Values(optParams{})
	require.NoError(t, err)
	assert.Empty(t, v)

	_, err = query.Values(optParams{Nick: wire.Null[string]()})
	assert.ErrorContains(t, err, "nick")
}

func TestValidationError(t *testing.T) {
	t.Parallel()
	var v wire.ValidationError
	assert.NoError(t, v.Err())
	v.Add("name", wire.CodeLength, "must be 2-100 characters, got %d", 1)
	var inner wire.ValidationError
	inner.Add("[0].url", wire.CodeRequired, "required")
	inner.Add("label", wire.CodeLength, "too long")
	v.Merge("components", &inner)
	err := v.Err()
	require.Error(t, err)
	assert.Equal(t, "guildkit: invalid request, 3 problems:\n\tname: must be 2-100 characters, got 1\n\tcomponents[0].url: required\n\tcomponents.label: too long", err.Error())
	var fe wire.FieldError
	require.True(t, errors.As(err, &fe))
	assert.Equal(t, "name", fe.Path)
	var ve *wire.ValidationError
	require.True(t, errors.As(err, &ve))
	assert.Len(t, ve.Problems, 3)
}

func TestChannelTypeString(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "GUILD_FORUM", wire.ChannelTypeGuildForum.String())
	assert.Equal(t, "ChannelType(99)", wire.ChannelType(99).String())
	assert.True(t, wire.ChannelTypePublicThread.IsThread())
	assert.False(t, wire.ChannelTypeGuildText.IsThread())
	assert.True(t, wire.ChannelTypeGuildMedia.Known())
	assert.False(t, wire.ChannelType(6).Known())
}
