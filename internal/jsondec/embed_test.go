package jsondec_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit/internal/jsondec"
	"github.com/seed012df1e9/guildkit/wire"
)

// Embedded structs are decoded as encoding/json decodes them: their
// members promoted, shallower names hiding deeper ones, tags breaking ties.

type Inner struct {
	ID    wire.Snowflake `json:"id"`
	Name  string         `json:"name"`
	Roles []wire.Snowflake
	Nick  *string       `json:"nick"`
	Opt   wire.Opt[int] `json:"opt,omitzero"`
	Same  int
	Tie   int
}

type Other struct {
	Same int
	Tie  int
	Tag  int `json:"Tie"`
}

type Outer struct {
	Inner
	Other
	GuildID wire.Snowflake `json:"guild_id"`
	Name    string         `json:"name"` // hides Inner.Name
}

type Deep struct {
	Outer
	Extra bool `json:"extra"`
}

type withPointer struct {
	*Inner
	X int `json:"x"`
}

type withNamed struct {
	Inner `json:"inner"`
	X     int `json:"x"`
}

func TestEmbeddedStructsDecodeAsEncodingJSON(t *testing.T) {
	t.Parallel()
	inputs := []string{
		`{"id":"12","name":"outer","guild_id":"9","roles":["1","2"],"nick":"n","opt":null,"Same":3,"tie":4,"Tie":5,"extra":true}`,
		`{"ID":"12","NAME":"x","GUILD_ID":7,"Roles":[],"nick":null,"opt":5}`,
		`{"inner":{"id":"1","name":"in"},"x":1,"id":"2"}`,
		`{"id":"1","id":"2","name":null}`,
		`{"same":1,"SAME":2}`,
		`null`,
		`{"id":"not a number"}`,
		`{"roles":{}}`,
	}
	types := []any{Outer{}, Deep{}, withPointer{}, withNamed{}, []Outer{}}
	for _, in := range inputs {
		for _, v := range types {
			checkAsEncodingJSON(t, in, reflect.TypeOf(v))
		}
	}
}

// checkAsEncodingJSON decodes in into a new value of typ with Decode and
// with encoding/json: where Decode takes it, encoding/json does and gives
// the same value; where it declines, the value is left zero. It reports
// whether Decode took it.
func checkAsEncodingJSON(t *testing.T, in string, typ reflect.Type) bool {
	t.Helper()
	fast, ref := reflect.New(typ), reflect.New(typ)
	ok := jsondec.Decode([]byte(in), fast.Interface())
	errRef := json.Unmarshal([]byte(in), ref.Interface())
	if ok {
		require.NoError(t, errRef, "%s %.80s: jsondec accepted what encoding/json refuses", typ, in)
		assert.Equal(t, ref.Interface(), fast.Interface(), "%s %.80s", typ, in)
	} else {
		assert.True(t, fast.Elem().IsZero(), "%s %.80s: declined but not zero", typ, in)
	}
	return ok
}

func TestEmbeddedStructsTakeTheFastPath(t *testing.T) {
	t.Parallel()
	var o Deep
	require.True(t, jsondec.Decode([]byte(`{"id":"12","name":"outer","Tie":4,"Same":1,"extra":true}`), &o))
	assert.Equal(t, wire.Snowflake(12), o.ID)
	assert.Equal(t, "outer", o.Name)
	assert.Empty(t, o.Inner.Name, "the outer name hides the embedded one")
	assert.Equal(t, 4, o.Other.Tag, "the tagged field wins the tie")
	assert.Zero(t, o.Inner.Same, "two untagged at the same depth: neither")
	assert.Zero(t, o.Other.Same)
	assert.True(t, o.Extra)
}
