package components_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit/components"
)

func TestAssignIDs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		build func() []components.Component
		want  []int // ids depth-first, parent before children
	}{
		{
			name: "all empty",
			build: func() []components.Component {
				return list(
					components.NewTextDisplay("a"),
					components.NewContainer(
						components.NewSection(thumb(), texts(2)...),
						row(btn("x"), btn("y")),
					),
				)
			},
			// text, container, section, text, text, thumbnail, row, button, button
			want: []int{1, 2, 3, 4, 5, 6, 7, 8, 9},
		},
		{
			name: "skips ids in use anywhere",
			build: func() []components.Component {
				return list(
					components.NewTextDisplay("a"),
					&components.TextDisplay{ID: 2, Content: "b"},
					components.NewContainer(&components.TextDisplay{ID: 4, Content: "c"}, components.NewTextDisplay("d")),
					components.NewTextDisplay("e"),
				)
			},
			want: []int{1, 2, 3, 4, 5, 6},
		},
		{
			name: "keeps existing ids and fills around them",
			build: func() []components.Component {
				return list(
					&components.TextDisplay{ID: 1, Content: "a"},
					components.NewTextDisplay("b"),
					&components.TextDisplay{ID: 3, Content: "c"},
					components.NewTextDisplay("d"),
				)
			},
			want: []int{1, 2, 3, 4},
		},
		{
			name: "label then its child",
			build: func() []components.Component {
				return list(
					components.NewTextDisplay("intro"),
					lbl(components.NewTextInput("t", components.TextInputShort)),
					lbl(components.NewCheckbox("c")),
				)
			},
			want: []int{1, 2, 3, 4, 5},
		},
		{
			name: "unknown id is not reused and not changed",
			build: func() []components.Component {
				return list(
					components.NewTextDisplay("a"),
					&components.Unknown{Raw: json.RawMessage(`{"type":99,"id":2}`)},
					components.NewTextDisplay("b"),
				)
			},
			want: []int{1, 2, 3},
		},
		{
			name: "nil entries are skipped",
			build: func() []components.Component {
				return list(nil, components.NewSection(nil, nil, components.NewTextDisplay("a")))
			},
			want: []int{1, 2},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tree := tt.build()
			components.AssignIDs(tree...)
			var got []int
			walkIDs(tree, &got)
			assert.Equal(t, tt.want, got)
		})
	}
}

func walkIDs(list []components.Component, out *[]int) {
	for _, c := range list {
		if c == nil {
			continue
		}
		if s, ok := c.(*components.Section); ok && s == nil {
			continue
		}
		*out = append(*out, c.ComponentID())
		switch c := c.(type) {
		case *components.ActionRow:
			walkIDs(c.Components, out)
		case *components.Section:
			walkIDs(c.Components, out)
			if c.Accessory != nil {
				walkIDs([]components.Component{c.Accessory}, out)
			}
		case *components.Container:
			walkIDs(c.Components, out)
		case *components.Label:
			walkIDs([]components.Component{c.Component}, out)
		}
	}
}

func TestAssignIDsThenValidate(t *testing.T) {
	t.Parallel()
	var tree components.List
	require.NoError(t, json.Unmarshal(readGolden(t, "v2_message.json"), &tree))
	// Free three ids; AssignIDs refills them in depth-first order with the
	// smallest free ids, which are exactly the ones freed.
	var all []int
	walkIDs(tree, &all)
	require.Len(t, all, 32)
	box := tree[1].(*components.Container)
	tree[0].(*components.TextDisplay).ID = 0
	box.Components[1].(*components.Section).Accessory.(*components.Thumbnail).ID = 0
	box.Components[7].(*components.ActionRow).Components[4].(*components.Button).ID = 0
	components.AssignIDs(tree...)
	var got []int
	walkIDs(tree, &got)
	assert.Equal(t, all, got)
	assert.NoError(t, components.Validate(components.V2Message, tree...))

	fresh := list(components.NewContainer(texts(3)...), &components.TextDisplay{ID: 1, Content: "x"})
	components.AssignIDs(fresh...)
	assert.NoError(t, components.Validate(components.V2Message, fresh...), "assigned ids never collide")
	got = nil
	walkIDs(fresh, &got)
	assert.Equal(t, []int{2, 3, 4, 5, 1}, got)
}
