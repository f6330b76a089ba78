package components_test

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit/components"
)

// nullable lists the Opt fields the spec marks nullable ("?type"), by Go
// type and JSON name. Every other Opt field must be reported as not_null by
// Validate when it holds Null.
var nullable = map[string]bool{
	"Thumbnail.description":        true, // ?string
	"MediaGalleryItem.description": true, // ?string
	"Container.accent_color":       true, // ?integer
	"UnfurledMediaItem.height":     true, // ?integer, response only
	"UnfurledMediaItem.width":      true, // ?integer, response only
}

// TestValidateNullPerField walks every Opt field of every component by
// reflection, sets it to Null in an otherwise valid tree, and checks that
// Validate reports exactly that field as not_null, or nothing when the spec
// makes the field nullable. A new Opt field without a decision fails here.
func TestValidateNullPerField(t *testing.T) {
	t.Parallel()
	type base struct {
		target components.Target
		build  func() ([]components.Component, any) // the tree and the struct whose fields are walked
		prefix string
	}
	// Each build makes a fresh tree: the subtests run in parallel.
	inRow := func(mk func() components.Component) func() ([]components.Component, any) {
		return func() ([]components.Component, any) { c := mk(); return list(row(c)), c }
	}
	inLabel := func(mk func() components.Component) func() ([]components.Component, any) {
		return func() ([]components.Component, any) { c := mk(); return list(lbl(c)), c }
	}
	bases := []base{
		{components.V2Message, inRow(func() components.Component { return components.NewStringSelect("s", opts(1)...) }), "[0].components[0]"},
		{components.V2Message, inRow(func() components.Component { return components.NewUserSelect("u") }), "[0].components[0]"},
		{components.V2Message, inRow(func() components.Component { return components.NewRoleSelect("r") }), "[0].components[0]"},
		{components.V2Message, inRow(func() components.Component { return components.NewMentionableSelect("m") }), "[0].components[0]"},
		{components.V2Message, inRow(func() components.Component { return components.NewChannelSelect("c") }), "[0].components[0]"},
		{components.Modal, inLabel(func() components.Component { return components.NewTextInput("t", components.TextInputShort) }), "[0].component"},
		{components.Modal, inLabel(func() components.Component { return components.NewFileUpload("f") }), "[0].component"},
		{components.Modal, inLabel(func() components.Component { return components.NewRadioGroup("r", choices(2)...) }), "[0].component"},
		{components.Modal, inLabel(func() components.Component { return components.NewCheckboxGroup("g", choices(2)...) }), "[0].component"},
		{components.V2Message, func() ([]components.Component, any) {
			s := components.NewSeparator()
			return list(s), s
		}, "[0]"},
		{components.V2Message, func() ([]components.Component, any) {
			c := components.NewContainer(texts(1)...)
			return list(c), c
		}, "[0]"},
		{components.V2Message, func() ([]components.Component, any) {
			th := thumb()
			return list(components.NewSection(th, texts(1)...)), th
		}, "[0].accessory"},
		{components.V2Message, func() ([]components.Component, any) {
			g := components.NewMediaGallery(items(1)...)
			return list(g), &g.Items[0]
		}, "[0].items[0]"},
		{components.V2Message, func() ([]components.Component, any) {
			f := components.NewFile("a.txt")
			return list(f), f
		}, "[0]"},
	}
	seen := 0
	for _, b := range bases {
		_, probe := b.build()
		typ := reflect.TypeOf(probe).Elem()
		for _, f := range optFields(typ, nil) {
			name := typ.Name() + "." + f.json
			if len(f.index) > 1 {
				name = f.owner + "." + f.json
			}
			t.Run(typ.Name()+"."+f.path, func(t *testing.T) {
				t.Parallel()
				tree, target := b.build()
				field := reflect.ValueOf(target).Elem().FieldByIndex(f.index)
				require.NoError(t, jsonNull(field), "set %s to null", name)
				err := components.Validate(b.target, tree...)
				if nullable[name] {
					assert.NoError(t, err, "%s is nullable", name)
					return
				}
				path := b.prefix + "." + f.path
				assert.Equal(t, []string{path + " not_null"}, problems(t, err))
			})
			seen++
		}
	}
	assert.GreaterOrEqual(t, seen, 30, "every Opt field was walked")
}

type optField struct {
	index []int
	json  string // the field's JSON name
	path  string // its path below the component
	owner string // the Go type that declares it
}

// optFields returns the Opt fields of typ, descending into nested structs
// (an unfurled media item) but not into slices.
func optFields(typ reflect.Type, parent []int) []optField {
	var out []optField
	for i := range typ.NumField() {
		sf := typ.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		idx := append(append([]int(nil), parent...), i)
		switch {
		case strings.HasPrefix(sf.Type.Name(), "Opt["):
			out = append(out, optField{index: idx, json: name, path: name, owner: typ.Name()})
		case sf.Type.Kind() == reflect.Struct && sf.Type.PkgPath() == typ.PkgPath():
			for _, nf := range optFields(sf.Type, nil) {
				nf.index = append(append([]int(nil), idx...), nf.index...)
				nf.path = name + "." + nf.path
				out = append(out, nf)
			}
		}
	}
	return out
}

// jsonNull sets an Opt field to Null through its UnmarshalJSON.
func jsonNull(v reflect.Value) error {
	u := v.Addr().Interface().(interface{ UnmarshalJSON([]byte) error })
	return u.UnmarshalJSON([]byte("null"))
}

// TestOptFieldsOmitZero checks that every Opt field of every component and
// sub-object is tagged omitzero, so an omitted Opt never reaches the wire.
func TestOptFieldsOmitZero(t *testing.T) {
	t.Parallel()
	var walk func(typ reflect.Type, seen map[reflect.Type]bool)
	count := 0
	walk = func(typ reflect.Type, seen map[reflect.Type]bool) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct || seen[typ] || typ.PkgPath() != reflect.TypeOf(components.List{}).PkgPath() {
			return
		}
		seen[typ] = true
		for i := range typ.NumField() {
			sf := typ.Field(i)
			tag := sf.Tag.Get("json")
			if strings.HasPrefix(sf.Type.Name(), "Opt[") {
				count++
				assert.True(t, strings.HasSuffix(tag, ",omitzero"), "%s.%s: Opt field without omitzero (%q)", typ.Name(), sf.Name, tag)
				continue
			}
			walk(sf.Type, seen)
		}
	}
	seen := map[reflect.Type]bool{}
	for n := range 30 {
		typ := components.Type(n)
		if !typ.Known() {
			continue
		}
		c, err := components.Unmarshal([]byte(`{"type":` + strconv.Itoa(n) + `}`))
		require.NoError(t, err)
		require.Equal(t, typ, c.Type())
		walk(reflect.TypeOf(c), seen)
	}
	for _, v := range []any{components.ModalSubmitData{}, components.InteractionData{}} {
		walk(reflect.TypeOf(v), seen)
	}
	assert.Equal(t, 20+len([]string{"SelectOption", "DefaultValue", "UnfurledMediaItem", "MediaGalleryItem", "RadioOption", "PartialEmoji", "ModalSubmitData", "ResponseData", "InteractionData"}), len(seen), "every struct was walked")
	assert.Greater(t, count, 30)
}
