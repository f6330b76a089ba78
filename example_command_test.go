package guildkit_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// A command is checked against the platform's rules before anything is
// sent: every problem comes back at once, with its path.
func ExampleCommandService_Create() {
	srv := guildkittest.New()
	defer srv.Close()
	c := srv.Client()
	ctx := context.Background()
	app := srv.Application().ID // the application's id: the bot user's, for applications made today

	_, _, err := c.Commands.Create(ctx, app, &guildkit.CommandCreateParams{
		Name:        "Blep", // CHAT_INPUT names are lower-case
		Description: "Send a random adorable animal photo",
		Options: []guildkit.CommandOptionDefinition{
			{Type: guildkit.CommandOptionString, Name: "animal", Description: "The type of animal", Autocomplete: true,
				Choices: []guildkit.CommandOptionChoice{{Name: "Dog", Value: "animal_dog"}}},
		},
	})
	var ve *guildkit.ValidationError
	if errors.As(err, &ve) {
		for _, p := range ve.Problems {
			fmt.Println(p)
		}
	}

	cmd, created, err := c.Commands.Create(ctx, app, &guildkit.CommandCreateParams{
		Name:        "blep",
		Description: "Send a random adorable animal photo",
		Options: []guildkit.CommandOptionDefinition{
			{Type: guildkit.CommandOptionString, Name: "animal", Description: "The type of animal", Required: true,
				Choices: []guildkit.CommandOptionChoice{{Name: "Dog", Value: "animal_dog"}, {Name: "Cat", Value: "animal_cat"}}},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(cmd.Name, cmd.Type, created)
	// Output:
	// name: "Blep": letters must be lower-case
	// options[0].autocomplete: an option has choices or autocomplete, not both
	// blep CHAT_INPUT true
}
