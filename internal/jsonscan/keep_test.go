package jsonscan

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type sample struct {
	Name  string   `json:"name"`
	Note  string   `json:"note,omitempty"`
	Count int      `json:"count,omitzero"`
	Tags  []string `json:"tags,omitempty"`
	Skip  string   `json:"-"`
	local string
}

func TestFieldsOf(t *testing.T) {
	t.Parallel()
	fs := FieldsOf[sample]("type")
	for _, tc := range []struct {
		key          string
		known, drops bool
	}{
		{"type", true, false}, {"name", true, false}, {"NAME", true, false}, {"note", true, true},
		{"count", true, true}, {"tags", true, true}, {"Skip", false, false}, {"-", false, false}, {"local", false, false}, {"other", false, false},
	} {
		known, drops := fs.lookup([]byte(tc.key))
		assert.Equal(t, [2]bool{tc.known, tc.drops}, [2]bool{known, drops}, tc.key)
	}
	// The unexported field is no member: encoding/json leaves it out too.
	b, err := json.Marshal(sample{Name: "n", local: "not a member"})
	require.NoError(t, err)
	assert.NotContains(t, string(b), "not a member")
}

func TestMayBeZero(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]bool{
		`null`: true, `false`: true, `""`: true, `"0"`: true, `[]`: true, `{}`: true, `[ ]`: true, "{\n}": true,
		`0`: true, `-0`: true, `0e5`: true, `0.0`: true, `1e0`: false, `10`: false, `-3`: false, `0.5`: false,
		`true`: false, `"x"`: false, `[0]`: false, `{"a":1}`: false,
	} {
		assert.Equal(t, want, mayBeZero([]byte(v)), v)
	}
}

func TestCollectAndMerge(t *testing.T) {
	t.Parallel()
	fs := FieldsOf[sample]()
	var k Kept
	in := `{"name":"n","note":"","count":0,"tags":["a"],"new":{"x":[1,2]},"count2":3}`
	require.NoError(t, k.Collect([]byte(in), fs))
	assert.Equal(t, Kept(`{"note":"","count":0,"new":{"x":[1,2]},"count2":3}`), k, "only what the struct drops")
	assert.True(t, k.Has("NEW"))
	assert.False(t, k.Has("name"))

	for _, tc := range []struct{ enc, want string }{
		{`{"name":"n","tags":["a"]}`, `{"name":"n","tags":["a"],"note":"","count":0,"new":{"x":[1,2]},"count2":3}`},
		{`{"name":"n","note":"set"}`, `{"name":"n","note":"set","count":0,"new":{"x":[1,2]},"count2":3}`},
		{`{}`, `{"note":"","count":0,"new":{"x":[1,2]},"count2":3}`},
		{"{ }\n", `{"note":"","count":0,"new":{"x":[1,2]},"count2":3}`},
	} {
		out, err := k.Merge([]byte(tc.enc))
		require.NoError(t, err)
		assert.JSONEq(t, tc.want, string(out), tc.enc)
	}

	require.NoError(t, k.Collect([]byte(`{"name":"n"}`), fs))
	assert.Equal(t, Kept(""), k, "nothing dropped, nothing kept")
	out, err := k.Merge([]byte(`{"name":"n"}`))
	require.NoError(t, err)
	assert.Equal(t, `{"name":"n"}`, string(out))
	assert.Error(t, k.Collect([]byte(`[1]`), fs))

	var p sample
	k = "old"
	require.NoError(t, Decode([]byte(`null`), &p, &k, fs))
	assert.Equal(t, sample{}, p)
	assert.Equal(t, Kept(""), k, "null keeps nothing")
	require.NoError(t, Decode([]byte(`{"name":"n","x":1}`), &p, &k, fs))
	assert.Equal(t, "n", p.Name)
	assert.Equal(t, Kept(`{"x":1}`), k)
}
