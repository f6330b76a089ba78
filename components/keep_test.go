package components_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/internal/jsonscan"
)

// hosts gives, for every component type, a minimal valid JSON object of it
// without its closing brace, so a test can add members.
var hosts = map[reflect.Type]string{
	reflect.TypeFor[components.ActionRow]():         `{"type":1,"components":[]`,
	reflect.TypeFor[components.Button]():            `{"type":2,"style":1,"custom_id":"b","label":"B"`,
	reflect.TypeFor[components.StringSelect]():      `{"type":3,"custom_id":"s","options":[]`,
	reflect.TypeFor[components.TextInput]():         `{"type":4,"custom_id":"t","style":1`,
	reflect.TypeFor[components.UserSelect]():        `{"type":5,"custom_id":"u"`,
	reflect.TypeFor[components.RoleSelect]():        `{"type":6,"custom_id":"r"`,
	reflect.TypeFor[components.MentionableSelect](): `{"type":7,"custom_id":"m"`,
	reflect.TypeFor[components.ChannelSelect]():     `{"type":8,"custom_id":"c"`,
	reflect.TypeFor[components.Section]():           `{"type":9,"components":[]`,
	reflect.TypeFor[components.TextDisplay]():       `{"type":10,"content":"x"`,
	reflect.TypeFor[components.Thumbnail]():         `{"type":11,"media":{"url":"https://e.example/a.png"},"spoiler":false`,
	reflect.TypeFor[components.MediaGallery]():      `{"type":12,"items":[]`,
	reflect.TypeFor[components.File]():              `{"type":13,"file":{"url":"attachment://a.txt"},"spoiler":false`,
	reflect.TypeFor[components.Separator]():         `{"type":14`,
	reflect.TypeFor[components.Container]():         `{"type":17,"components":[],"spoiler":false`,
	reflect.TypeFor[components.Label]():             `{"type":18,"label":"L"`,
	reflect.TypeFor[components.FileUpload]():        `{"type":19,"custom_id":"f"`,
	reflect.TypeFor[components.RadioGroup]():        `{"type":21,"custom_id":"r","options":[]`,
	reflect.TypeFor[components.CheckboxGroup]():     `{"type":22,"custom_id":"g","options":[]`,
	reflect.TypeFor[components.Checkbox]():          `{"type":23,"custom_id":"c"`,
}

// subHosts places every sub-object inside a component: the JSON before it
// and after it.
var subHosts = map[reflect.Type][2]string{
	reflect.TypeFor[components.PartialEmoji]():      {`{"type":2,"style":1,"custom_id":"b","emoji":`, `}`},
	reflect.TypeFor[components.SelectOption]():      {`{"type":3,"custom_id":"s","options":[`, `]}`},
	reflect.TypeFor[components.DefaultValue]():      {`{"type":5,"custom_id":"u","default_values":[`, `]}`},
	reflect.TypeFor[components.UnfurledMediaItem](): {`{"type":11,"spoiler":false,"media":`, `}`},
	reflect.TypeFor[components.MediaGalleryItem]():  {`{"type":12,"items":[`, `]}`},
	reflect.TypeFor[components.RadioOption]():       {`{"type":21,"custom_id":"r","options":[`, `]}`},
}

// subBase is a valid sub-object without its closing brace.
var subBase = map[reflect.Type]string{
	reflect.TypeFor[components.PartialEmoji]():      `{"name":"x"`,
	reflect.TypeFor[components.SelectOption]():      `{"label":"L","value":"v"`,
	reflect.TypeFor[components.DefaultValue]():      `{"id":"1","type":"user"`,
	reflect.TypeFor[components.UnfurledMediaItem](): `{"url":"https://e.example/a.png"`,
	reflect.TypeFor[components.MediaGalleryItem]():  `{"media":{"url":"https://e.example/a.png"},"spoiler":false`,
	reflect.TypeFor[components.RadioOption]():       `{"value":"v","label":"L"`,
}

// zeroJSON is a JSON value that decodes to the zero value of t.
func zeroJSON(t reflect.Type) string {
	switch {
	case t.Name() == "Snowflake":
		return `"0"`
	case strings.HasPrefix(t.Name(), "Opt["):
		return "null"
	}
	switch t.Kind() {
	case reflect.String:
		return `""`
	case reflect.Bool:
		return "false"
	case reflect.Int, reflect.Int64, reflect.Uint64:
		return "0"
	case reflect.Slice:
		return "[]"
	case reflect.Pointer, reflect.Interface:
		return "null"
	case reflect.Struct:
		return "{}"
	}
	panic("no zero JSON for " + t.String())
}

// jsonFields lists the JSON member names and Go types of struct type t.
func jsonFields(t reflect.Type) (names []string, types []reflect.Type) {
	for _, f := range jsonscan.Fields(t) {
		names, types = append(names, f.Name), append(types, f.Type)
	}
	return names, types
}

// roundTrip decodes in as one component and encodes it again.
func roundTrip(t *testing.T, in string) string {
	t.Helper()
	c, err := components.Unmarshal([]byte(in))
	require.NoError(t, err, "%s", in)
	out, err := json.Marshal(c)
	require.NoError(t, err)
	return string(out)
}

// TestDecodeKeepsEveryMember: for every component type and sub-object and
// every one of its fields, an explicit zero value ("disabled": false,
// "label": "", "emoji": null, ...) survives decoding and encoding, and so
// does a member the type does not model; an edit made after decoding still
// wins. The types and fields are read from the package by reflection, so a
// field added later is covered too.
func TestDecodeKeepsEveryMember(t *testing.T) {
	t.Parallel()
	unknown := `"future_field":{"a":[1,"b",null]}`
	for typ, head := range hosts {
		names, types := jsonFields(typ)
		for i, name := range names {
			if strings.Contains(head, `"`+name+`"`) || name == "type" {
				continue
			}
			in := head + `,"` + name + `":` + zeroJSON(types[i]) + "," + unknown + "}"
			t.Run(typ.Name()+"/"+name, func(t *testing.T) {
				t.Parallel()
				assert.JSONEq(t, in, roundTrip(t, in))
			})
		}
	}
	for typ, around := range subHosts {
		names, types := jsonFields(typ)
		for i, name := range names {
			if strings.Contains(subBase[typ], `"`+name+`"`) {
				continue
			}
			in := around[0] + subBase[typ] + `,"` + name + `":` + zeroJSON(types[i]) + "," + unknown + "}" + around[1]
			t.Run(typ.Name()+"/"+name, func(t *testing.T) {
				t.Parallel()
				assert.JSONEq(t, in, roundTrip(t, in))
			})
		}
	}
	// Every type is listed above.
	for i := 1; i <= 23; i++ {
		c, err := components.Unmarshal([]byte(fmt.Sprintf(`{"type":%d}`, i)))
		require.NoError(t, err)
		if _, unknown := c.(*components.Unknown); unknown {
			continue
		}
		_, ok := hosts[reflect.TypeOf(c).Elem()]
		assert.True(t, ok, "type %d has a host", i)
	}
}

// TestKeptMembersNested: members kept deep in a tree (in a container's
// section's accessory's media item) come back where they were.
func TestKeptMembersNested(t *testing.T) {
	t.Parallel()
	in := `[{"type":17,"spoiler":false,"components":[{"type":9,"components":[{"type":10,"content":"x","flags":0}],` +
		`"accessory":{"type":11,"spoiler":false,"media":{"url":"https://e.example/a.png","placeholder":"abc","placeholder_version":1,"loading_state":2,"flags":0}}}],"new":true}]`
	var l components.List
	require.NoError(t, json.Unmarshal([]byte(in), &l))
	out, err := json.Marshal(l)
	require.NoError(t, err)
	assert.JSONEq(t, in, string(out))
}

// TestEditWinsOverKept: a field given a value after decoding is encoded
// with that value, once; a field cleared after decoding stays cleared.
func TestEditWinsOverKept(t *testing.T) {
	t.Parallel()
	c, err := components.Unmarshal([]byte(`{"type":2,"style":1,"custom_id":"a","label":"","disabled":false,"emoji":null,"x":1}`))
	require.NoError(t, err)
	b := c.(*components.Button)
	b.Label, b.Disabled = "Go", true
	out, err := json.Marshal(b)
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":2,"style":1,"custom_id":"a","label":"Go","disabled":true,"emoji":null,"x":1}`, string(out))
	assert.Equal(t, 1, strings.Count(string(out), `"label"`), "label once: %s", out)

	c, err = components.Unmarshal([]byte(`{"type":2,"style":1,"custom_id":"a","label":"Old"}`))
	require.NoError(t, err)
	b = c.(*components.Button)
	b.Label = ""
	out, err = json.Marshal(b)
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":2,"style":1,"custom_id":"a"}`, string(out), "the cleared label is not brought back")

	// A kept explicit id 0 gives way to the id AssignIDs fills in.
	var l components.List
	require.NoError(t, json.Unmarshal([]byte(`[{"type":10,"content":"x","id":0}]`), &l))
	components.AssignIDs(l...)
	out, err = json.Marshal(l)
	require.NoError(t, err)
	assert.JSONEq(t, `[{"type":10,"content":"x","id":1}]`, string(out))
}

// TestKeptMembersKeepTypesComparable: the types without slices stay
// comparable with ==, as before members were kept.
func TestKeptMembersKeepTypesComparable(t *testing.T) {
	t.Parallel()
	for _, typ := range []reflect.Type{
		reflect.TypeFor[components.Button](), reflect.TypeFor[components.TextInput](), reflect.TypeFor[components.TextDisplay](),
		reflect.TypeFor[components.Thumbnail](), reflect.TypeFor[components.File](), reflect.TypeFor[components.Separator](),
		reflect.TypeFor[components.FileUpload](), reflect.TypeFor[components.Checkbox](), reflect.TypeFor[components.PartialEmoji](),
		reflect.TypeFor[components.UnfurledMediaItem](), reflect.TypeFor[components.SelectOption](), reflect.TypeFor[components.DefaultValue](),
		reflect.TypeFor[components.MediaGalleryItem](), reflect.TypeFor[components.RadioOption](),
	} {
		assert.True(t, typ.Comparable(), "%s is comparable", typ)
	}
}
