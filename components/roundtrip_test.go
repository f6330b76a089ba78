package components_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit/components"
)

func readGolden(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return b
}

// typesOf lists the Go types of a tree depth-first, parent before children,
// as "%T" strings.
func typesOf(list components.List) []components.Type {
	var out []components.Type
	var visit func(c components.Component)
	visit = func(c components.Component) {
		if c == nil {
			return
		}
		out = append(out, c.Type())
		switch c := c.(type) {
		case *components.ActionRow:
			for _, ch := range c.Components {
				visit(ch)
			}
		case *components.Section:
			for _, ch := range c.Components {
				visit(ch)
			}
			visit(c.Accessory)
		case *components.Container:
			for _, ch := range c.Components {
				visit(ch)
			}
		case *components.Label:
			visit(c.Component)
		}
	}
	for _, c := range list {
		visit(c)
	}
	return out
}

func TestRoundTripGoldenLists(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file   string
		target components.Target
		want   []components.Type
	}{
		{
			file:   "v2_message.json",
			target: components.V2Message,
			want: []components.Type{
				components.TypeTextDisplay,
				components.TypeContainer,
				components.TypeTextDisplay,
				components.TypeSection, components.TypeTextDisplay, components.TypeTextDisplay, components.TypeThumbnail,
				components.TypeSection, components.TypeTextDisplay, components.TypeButton,
				components.TypeSeparator,
				components.TypeMediaGallery,
				components.TypeFile,
				components.TypeSeparator,
				components.TypeActionRow, components.TypeButton, components.TypeButton, components.TypeButton, components.TypeButton, components.TypeButton,
				components.TypeActionRow, components.TypeStringSelect,
				components.TypeActionRow, components.TypeUserSelect,
				components.TypeActionRow, components.TypeRoleSelect,
				components.TypeActionRow, components.TypeMentionableSelect,
				components.TypeActionRow, components.TypeChannelSelect,
				components.TypeSeparator,
				components.TypeFile,
			},
		},
		{
			file:   "modal.json",
			target: components.Modal,
			want: []components.Type{
				components.TypeTextDisplay,
				components.TypeLabel, components.TypeTextInput,
				components.TypeLabel, components.TypeTextInput,
				components.TypeLabel, components.TypeStringSelect,
				components.TypeLabel, components.TypeUserSelect,
				components.TypeLabel, components.TypeRoleSelect,
				components.TypeLabel, components.TypeMentionableSelect,
				components.TypeLabel, components.TypeChannelSelect,
				components.TypeLabel, components.TypeFileUpload,
				components.TypeLabel, components.TypeRadioGroup,
				components.TypeLabel, components.TypeCheckboxGroup,
				components.TypeLabel, components.TypeCheckbox,
				components.TypeActionRow, components.TypeTextInput,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			golden := readGolden(t, tt.file)
			var list components.List
			require.NoError(t, json.Unmarshal(golden, &list))
			assert.Equal(t, tt.want, typesOf(list))
			for _, c := range list {
				_, unknown := c.(*components.Unknown)
				assert.False(t, unknown, "known type decoded as Unknown: %d", c.Type())
			}
			out, err := json.Marshal(list)
			require.NoError(t, err)
			assert.JSONEq(t, string(golden), string(out))
			assert.NoError(t, components.Validate(tt.target, list...), "the golden tree is valid")
		})
	}
}

func TestRoundTripV2Fields(t *testing.T) {
	t.Parallel()
	var list components.List
	require.NoError(t, json.Unmarshal(readGolden(t, "v2_message.json"), &list))
	require.Len(t, list, 9)

	c := list[1].(*components.Container)
	assert.Equal(t, components.Some(0x5865F2), c.AccentColor)
	assert.Equal(t, 2, c.ComponentID())

	sec := c.Components[1].(*components.Section)
	th := sec.Accessory.(*components.Thumbnail)
	assert.Equal(t, "https://cdn.example.com/builds.png", th.Media.URL)
	assert.Equal(t, "https://media.example.com/external/builds.png", th.Media.ProxyURL)
	assert.Equal(t, components.Some(256), th.Media.Height)
	assert.Equal(t, "image/png", th.Media.ContentType)
	assert.Equal(t, components.Some("A build graph"), th.Description)
	assert.True(t, th.Spoiler)

	link := c.Components[2].(*components.Section).Accessory.(*components.Button)
	assert.Equal(t, components.ButtonLink, link.Style)

	sep := c.Components[3].(*components.Separator)
	assert.Equal(t, components.Some(false), sep.Divider, "an explicit divider:false is kept")
	assert.Equal(t, components.SpacingLarge, sep.Spacing)

	g := c.Components[4].(*components.MediaGallery)
	require.Len(t, g.Items, 3)
	assert.True(t, g.Items[1].Media.Height.IsNull(), "height null is kept")
	assert.Equal(t, components.Snowflake(1234567890123456789), g.Items[1].Media.AttachmentID)
	assert.True(t, g.Items[2].Description.IsNull(), "description null is kept")
	assert.True(t, g.Items[0].Description.IsSet())

	f := c.Components[5].(*components.File)
	assert.Equal(t, "notes.txt", f.Name)
	assert.Equal(t, int64(2048), f.Size)

	row := c.Components[7].(*components.ActionRow)
	require.Len(t, row.Components, 5)
	b := row.Components[0].(*components.Button)
	require.NotNil(t, b.Emoji)
	assert.Equal(t, components.PartialEmoji{ID: 41771983429993937, Name: "rocket", Animated: true}, *b.Emoji)
	assert.Equal(t, components.Snowflake(1180218955160375406), row.Components[4].(*components.Button).SKUID)

	sel := list[2].(*components.ActionRow).Components[0].(*components.StringSelect)
	assert.Equal(t, components.Some(0), sel.MinValues, "an explicit min_values:0 is kept")
	assert.Equal(t, components.Some(2), sel.MaxValues)
	assert.True(t, sel.Options[0].Default)

	cs := list[6].(*components.ActionRow).Components[0].(*components.ChannelSelect)
	assert.Equal(t, []components.ChannelType{0, 5}, cs.ChannelTypes)
	assert.Equal(t, []components.DefaultValue{components.DefaultChannel(41771983423143937)}, cs.DefaultValues)
}

func TestRoundTripModalFields(t *testing.T) {
	t.Parallel()
	var list components.List
	require.NoError(t, json.Unmarshal(readGolden(t, "modal.json"), &list))
	ti := list[2].(*components.Label).Component.(*components.TextInput)
	assert.Equal(t, components.Some(false), ti.Required, "an explicit required:false is kept")
	assert.Equal(t, components.TextInputParagraph, ti.Style)
	first := list[1].(*components.Label).Component.(*components.TextInput)
	assert.Equal(t, components.Some(0), first.MinLength)
	cg := list[10].(*components.Label).Component.(*components.CheckboxGroup)
	assert.Equal(t, components.Some(0), cg.MinValues)
	assert.Len(t, cg.Options, 3)
	cb := list[11].(*components.Label).Component.(*components.Checkbox)
	assert.True(t, cb.Default)
}

func TestRoundTripUnknown(t *testing.T) {
	t.Parallel()
	golden := readGolden(t, "unknown.json")
	var list components.List
	require.NoError(t, json.Unmarshal(golden, &list))
	require.Len(t, list, 3)

	top, ok := list[0].(*components.Unknown)
	require.True(t, ok)
	assert.Equal(t, components.Type(99), top.Type())
	assert.Equal(t, 1, top.ComponentID())
	assert.Equal(t, "Type(99)", top.Type().String())

	box := list[1].(*components.Container)
	inner, ok := box.Components[1].(*components.Unknown)
	require.True(t, ok, "an unknown child of a container stays Unknown")
	assert.Equal(t, components.Type(42), inner.Type())
	sec := box.Components[2].(*components.Section)
	assert.IsType(t, &components.Unknown{}, sec.Components[0])
	assert.IsType(t, &components.Unknown{}, sec.Accessory)
	lbl := list[2].(*components.Label)
	assert.IsType(t, &components.Unknown{}, lbl.Component)

	out, err := json.Marshal(list)
	require.NoError(t, err)
	assert.JSONEq(t, string(golden), string(out))

	// Byte for byte: each unknown re-encodes as exactly the compacted input.
	var raws []json.RawMessage
	require.NoError(t, json.Unmarshal(golden, &raws))
	var want bytes.Buffer
	require.NoError(t, json.Compact(&want, raws[0]))
	got, err := json.Marshal(top)
	require.NoError(t, err)
	assert.Equal(t, want.String(), string(got))

	u := &components.Unknown{Raw: json.RawMessage(`{"type":50,"id":"x"}`)}
	assert.Equal(t, 0, u.ComponentID(), "a non-integer id reads as 0")
}

func TestUnmarshalErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
	}{
		{"no type", `{"id":1}`},
		{"null type", `{"type":null}`},
		{"string type", `{"type":"2"}`},
		{"not an object", `[1]`},
		{"bad field", `{"type":2,"style":"big"}`},
		{"bad accessory", `{"type":9,"accessory":{"id":1}}`},
		{"bad label child", `{"type":18,"component":{"type":4,"style":[]}}`},
		{"null element", `null`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := components.Unmarshal([]byte(tt.in))
			assert.Error(t, err)
			assert.Nil(t, c)
		})
	}
	var list components.List
	err := json.Unmarshal([]byte(`[{"type":10,"content":"a"},{"id":2}]`), &list)
	require.Error(t, err)
	assert.ErrorIs(t, err, components.ErrNoType)
	assert.Contains(t, err.Error(), "[1]")
}

func TestEncodeWritesType(t *testing.T) {
	t.Parallel()
	tests := []struct {
		c    components.Component
		want string
	}{
		{&components.ActionRow{}, `{"type":1,"components":[]}`},
		{components.PrimaryButton("a", "A"), `{"type":2,"style":1,"label":"A","custom_id":"a"}`},
		{&components.StringSelect{CustomID: "s", MinValues: components.Some(0)}, `{"type":3,"custom_id":"s","options":null,"min_values":0}`},
		{components.NewTextInput("t", components.TextInputShort).WithRequired(false), `{"type":4,"custom_id":"t","style":1,"required":false}`},
		{components.NewUserSelect("u"), `{"type":5,"custom_id":"u"}`},
		{components.NewRoleSelect("r"), `{"type":6,"custom_id":"r"}`},
		{components.NewMentionableSelect("m"), `{"type":7,"custom_id":"m"}`},
		{components.NewChannelSelect("c"), `{"type":8,"custom_id":"c"}`},
		{&components.Section{}, `{"type":9,"components":[]}`},
		{components.NewTextDisplay("x"), `{"type":10,"content":"x"}`},
		{components.NewThumbnail("u"), `{"type":11,"media":{"url":"u"},"spoiler":false}`},
		{components.NewMediaGallery(), `{"type":12,"items":null}`},
		{components.NewFile("a.txt"), `{"type":13,"file":{"url":"attachment://a.txt"},"spoiler":false}`},
		{components.NewSeparator(), `{"type":14}`},
		{components.NewContainer().WithAccentColor(0), `{"type":17,"components":[],"accent_color":0,"spoiler":false}`},
		{&components.Container{AccentColor: components.Null[int]()}, `{"type":17,"components":[],"accent_color":null,"spoiler":false}`},
		{&components.Label{Label: "L"}, `{"type":18,"label":"L"}`},
		{components.NewFileUpload("f"), `{"type":19,"custom_id":"f"}`},
		{components.NewRadioGroup("r"), `{"type":21,"custom_id":"r","options":null}`},
		{components.NewCheckboxGroup("g"), `{"type":22,"custom_id":"g","options":null}`},
		{components.NewCheckbox("c").WithDefault(true), `{"type":23,"custom_id":"c","default":true}`},
	}
	for _, tt := range tests {
		t.Run(tt.c.Type().String(), func(t *testing.T) {
			t.Parallel()
			b, err := json.Marshal(tt.c)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(b))
			back, err := components.Unmarshal(b)
			require.NoError(t, err)
			assert.Equal(t, tt.c.Type(), back.Type())
			b2, err := json.Marshal(back)
			require.NoError(t, err)
			assert.Equal(t, string(b), string(b2))
		})
	}
}

func TestUnmarshalTypeKey(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want components.Type
	}{
		{"type first", `{"type":10,"content":"a"}`, components.TypeTextDisplay},
		{"type last", `{"content":"a","id":3,"type":10}`, components.TypeTextDisplay},
		{"type after nested objects", `{"components":[{"type":2,"x":"}]\"{"}],"type":1}`, components.TypeActionRow},
		{"case-insensitive key", `{"TYPE":14}`, components.TypeSeparator},
		{"escaped key", `{"typ\u0065":14}`, components.TypeSeparator},
		{"first non-null wins", `{"type":null,"type":14,"type":10}`, components.TypeSeparator},
		{"whitespace", " \n{ \"type\" :\t12 , \"items\" : [ ] } ", components.TypeMediaGallery},
		{"negative unknown", `{"type":-3}`, components.Type(-3)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := components.Unmarshal([]byte(tt.in))
			require.NoError(t, err)
			assert.Equal(t, tt.want, c.Type())
		})
	}
	for _, bad := range []string{`{"type":1.5}`, `{"type":"1"}`, `{"type":1`, `{"type":99,}`, `{"type":99}x`, ``, `"type"`} {
		_, err := components.Unmarshal([]byte(bad))
		assert.Error(t, err, "%s", bad)
	}
}

func TestDecodeLayoutMembers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want string // re-encoded
	}{
		{"children key matched case-insensitively", `{"type":17,"Components":[{"type":10,"content":"a"}],"spoiler":true}`,
			`{"type":17,"components":[{"type":10,"content":"a"}],"spoiler":true}`},
		{"last children member wins", `{"type":1,"components":[{"type":2,"style":1,"custom_id":"a","label":"A"}],"components":[]}`,
			`{"type":1,"components":[]}`},
		{"null children", `{"type":9,"components":null,"accessory":null,"id":4}`, `{"type":9,"id":4,"components":[],"accessory":null}`},
		{"own fields around children", `{"id":7,"components":[{"type":14}],"accent_color":null,"type":17}`,
			`{"type":17,"id":7,"components":[{"type":14}],"accent_color":null,"spoiler":false}`},
		{"label child", `{"component":{"type":23,"custom_id":"c"},"label":"L","type":18}`,
			`{"type":18,"label":"L","component":{"type":23,"custom_id":"c"}}`},
		{"escaped key", `{"type":18,"label":"L","compon\u0065nt":{"type":23,"custom_id":"c"}}`,
			`{"type":18,"label":"L","component":{"type":23,"custom_id":"c"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := components.Unmarshal([]byte(tt.in))
			require.NoError(t, err)
			out, err := json.Marshal(c)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(out))
		})
	}

	errs := []struct {
		in, want string
	}{
		{`{"type":17,"components":[{"type":10,"content":"a"},{"id":1}]}`, "components[1]"},
		{`{"type":1,"components":5}`, "components: "},
		{`{"type":9,"components":[],"accessory":{"type":"x"}}`, "accessory"},
		{`{"type":18,"label":"L","component":[]}`, "component"},
		{`{"type":17,"accent_color":"red","components":[]}`, "accent_color"},
	}
	for _, e := range errs {
		_, err := components.Unmarshal([]byte(e.in))
		require.Error(t, err, e.in)
		assert.Contains(t, err.Error(), e.want, e.in)
	}
}

func TestListMarshal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   components.List
		want string
	}{
		{"nil", nil, `[]`},
		{"empty", components.List{}, `[]`},
		{"nil elements", components.List{nil, (*components.Button)(nil), components.NewTextDisplay("a")}, `[null,null,{"type":10,"content":"a"}]`},
		{"unknown with spaces is compacted", components.List{&components.Unknown{Raw: json.RawMessage("{ \"type\" : 99 ,\n \"x\" : [ 1 , 2 ] }")}}, `[{"type":99,"x":[1,2]}]`},
		{"nested unknown", components.List{components.NewContainer(&components.Unknown{Raw: json.RawMessage(` {"type":98} `)})}, `[{"type":17,"components":[{"type":98}],"spoiler":false}]`},
		{"html characters", components.List{components.NewTextDisplay("<b>&</b>")}, `[{"type":10,"content":"\u003cb\u003e\u0026\u003c/b\u003e"}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, err := json.Marshal(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(b))
		})
	}
	_, err := json.Marshal(components.List{&components.Unknown{Raw: json.RawMessage(`{"type":`)}})
	assert.Error(t, err, "invalid raw JSON is an encoding error")
}
