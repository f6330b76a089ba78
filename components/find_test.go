package components_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/seed012df1e9/guildkit/components"
)

// A test finds the button it clicks by what the user sees on it, with no
// chain of type assertions through rows and sections.
func ExampleFindButton() {
	msg := components.List{
		components.NewTextDisplay("Warned @troll: spam"),
		components.NewActionRow(
			components.DangerButton("undo:42", "Undo"),
			components.SecondaryButton("keep:42", "Keep"),
		),
	}
	undo := msg.FindButton("Undo")
	fmt.Println(undo.CustomID)
	fmt.Println(components.CustomID(msg.Find("keep:42")))
	// Output:
	// undo:42
	// keep:42
}

func TestFind(t *testing.T) {
	t.Parallel()
	reason := components.NewTextInput("reason", components.TextInputParagraph)
	list := components.List{
		components.NewContainer(
			components.NewSection(components.PrimaryButton("in-section", "Open"), components.NewTextDisplay("a")),
			components.NewActionRow(components.NewStringSelect("colour", components.NewOption("Red", "red"))),
		),
		components.NewLabel("Reason", reason),
		components.NewActionRow(components.PrimaryButton("second", "Open")),
	}
	assert.Equal(t, "in-section", list.FindButton("Open").CustomID, "depth-first: the first of two buttons of one label")
	assert.Equal(t, "colour", components.CustomID(list.Find("colour")))
	assert.Same(t, reason, list.FindLabel("Reason"), "a Label names the component it holds")
	assert.Equal(t, "second", components.CustomID(components.Find(list, "second")))
	assert.Nil(t, list.Find("missing"))
	assert.Nil(t, list.Find(""), "an empty custom_id finds nothing")
	assert.Nil(t, list.FindButton("Reason"), "a Label is not a button")
	assert.Nil(t, list.FindLabel("missing"))
	assert.Nil(t, components.List(nil).FindButton("Open"))
	assert.Empty(t, components.CustomID(components.NewTextDisplay("x")))
	assert.Empty(t, components.CustomID(nil))
}
