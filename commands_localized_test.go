package guildkit_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// TestCommandOptionsLocalized: List without localizations gives each
// option's and choice's name (and an option's description) in the
// requester's language, as the command's own, instead of the maps; with
// them, the maps. Params leaves the read-only localized names out.
func TestCommandOptionsLocalized(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	c := srv.Client()
	app := srv.Application().ID
	fr := func(s string) map[string]string { return map[string]string{"fr": s} }
	_, _, err := c.Commands.Create(t.Context(), app, &guildkit.CommandCreateParams{
		Name: "pet", NameLocalizations: fr("animal"), Description: "Pet one", DescriptionLocalizations: fr("Caresser"),
		Options: []guildkit.CommandOptionDefinition{{
			Type: guildkit.CommandOptionSubCommand, Name: "pick", NameLocalizations: fr("choisir"), Description: "Pick", DescriptionLocalizations: fr("Choisir"),
			Options: []guildkit.CommandOptionDefinition{{
				Type: guildkit.CommandOptionString, Name: "kind", NameLocalizations: fr("espece"), Description: "Kind", DescriptionLocalizations: fr("Espèce"),
				Choices: []guildkit.CommandOptionChoice{{Name: "Dog", NameLocalizations: fr("Chien"), Value: "dog"}, {Name: "Cat", Value: "cat"}},
			}},
		}},
	})
	require.NoError(t, err)

	list, err := c.Commands.List(t.Context(), app, nil, guildkit.WithHeader("X-Discord-Locale", "fr"))
	require.NoError(t, err)
	require.Len(t, list, 1)
	sub := list[0].Options[0]
	assert.Equal(t, guildkit.Some("choisir"), sub.NameLocalized)
	assert.Equal(t, guildkit.Some("Choisir"), sub.DescriptionLocalized)
	assert.Nil(t, sub.NameLocalizations)
	kind := sub.Options[0]
	assert.Equal(t, guildkit.Some("espece"), kind.NameLocalized)
	assert.Equal(t, guildkit.Some("Espèce"), kind.DescriptionLocalized)
	assert.Equal(t, guildkit.Some("Chien"), kind.Choices[0].NameLocalized)
	assert.Nil(t, kind.Choices[0].NameLocalizations)
	assert.True(t, kind.Choices[1].NameLocalized.IsZero(), "absent where the language has none")
	assert.Equal(t, "dog", kind.Choices[0].Value)

	p := list[0].Params()
	assert.True(t, p.Options[0].NameLocalized.IsZero())
	assert.True(t, p.Options[0].Options[0].Choices[0].NameLocalized.IsZero())
	assert.Equal(t, guildkit.Some("choisir"), list[0].Options[0].NameLocalized, "Params copies, the command keeps its own")

	full, err := c.Commands.List(t.Context(), app, &guildkit.CommandListParams{WithLocalizations: guildkit.Some(true)}, guildkit.WithHeader("X-Discord-Locale", "fr"))
	require.NoError(t, err)
	kind = full[0].Options[0].Options[0]
	assert.Equal(t, "Chien", kind.Choices[0].NameLocalizations["fr"])
	assert.True(t, kind.Choices[0].NameLocalized.IsZero())
	assert.Equal(t, "espece", kind.NameLocalizations["fr"])
	assert.True(t, kind.NameLocalized.IsZero())
}
