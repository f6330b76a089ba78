package jsondec_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit/internal/jsondec"
	"github.com/seed012df1e9/guildkit/wire"
)

// Arrays are read in one pass, into room that grows, and decode as
// encoding/json decodes them: a member that comes twice merges into the
// elements it set, an array of a type within an array of that type, arrays
// past the room kept between calls, and a call that fails leaves nothing
// behind for the next.

type node struct {
	Name     string           `json:"name"`
	IDs      []wire.Snowflake `json:"ids"`
	Children []node           `json:"children"`
	Tags     []tag            `json:"tags"`
}

type tag struct {
	Key   string `json:"key"`
	Value *int   `json:"value"`
}

func TestArraysDecodeAsEncodingJSON(t *testing.T) {
	t.Parallel()
	long := func(elem string, n int) string { return "[" + strings.Repeat(elem+",", n-1) + elem + "]" }
	inputs := []string{
		`{"tags":[{"key":"a"},{"key":"b","value":1}],"ids":["1","2","3"]}`,
		`{"tags":[{"key":"a"},{"key":"b"}],"tags":[{"value":2}]}`,
		`{"tags":[{"key":"a"}],"tags":[{"value":2},{"key":"c"},{"key":"d"}]}`,
		`{"ids":["1","2"],"ids":["3"]}`,
		`{"tags":[],"ids":[],"children":[]}`,
		`{"children":[{"name":"a","children":[{"name":"b","children":[{"name":"c"}]},{"name":"d"}],"tags":[{"key":"x"}]},{"name":"e"}]}`,
		`{"tags":` + long(`{"key":"k","value":7}`, 20000) + `,"ids":` + long(`"18446744073709551615"`, 5000) + `}`,
		`{"children":` + long(`{"name":"n","ids":["1"],"tags":[{"key":"t"}]}`, 9000) + `}`,
		`{"tags":[{"key":"a"},{"key":1}]}`,
		`{"tags":[{"key":"a"},{"key":"b"}`,
		`{"ids":["1","x"]}`,
		`{"children":[{"tags":[{"key":"a"}]},{"tags":[{"key":"b"},` + strings.Repeat(`[`, 10001) + `]}]}`,
	}
	for _, in := range inputs {
		for _, v := range []any{node{}, []node{}} {
			checkAsEncodingJSON(t, in, reflect.TypeOf(v))
		}
		// The next call starts from clean room: its elements are only
		// what its input sets.
		var n node
		require.True(t, jsondec.Decode([]byte(`{"tags":[{},{}],"children":[{},{}]}`), &n))
		assert.Equal(t, node{Tags: []tag{{}, {}}, Children: []node{{}, {}}}, n, "after %.80s", in)
	}
}

func TestArrayIsItsLength(t *testing.T) {
	t.Parallel()
	var n node
	require.True(t, jsondec.Decode([]byte(`{"tags":[{"key":"a"},{"key":"b"},{"key":"c"}],"ids":["1","2","3","4","5"]}`), &n))
	assert.Equal(t, 3, cap(n.Tags), "the slice is made of the array's length")
	assert.Equal(t, 5, cap(n.IDs))
}

type shelf struct {
	Boxes []box `json:"boxes"`
}

type box struct {
	Name  string `json:"name"`
	Items []item `json:"items"`
}

type item struct {
	N int `json:"n"`
}

// TestArrayRoomSurvivesNewTypes: an array read while an array within it
// meets a type the room has not seen yet leaves its room free for the
// next call, which reads its array into a slice of its length again.
// Not parallel: the calls share the room kept between them.
func TestArrayRoomSurvivesNewTypes(t *testing.T) {
	in := []byte(`{"boxes":[{"name":"a","items":[{"n":1}]},{"items":[{"n":2},{"n":3}]},{"name":"c"}]}`)
	for range 3 {
		var s shelf
		require.True(t, jsondec.Decode(in, &s))
		require.Len(t, s.Boxes, 3)
		assert.Equal(t, 3, cap(s.Boxes))
		assert.Equal(t, []item{{2}, {3}}, s.Boxes[1].Items)
	}
}
