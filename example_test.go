package guildkit_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

func ExampleNew() {
	client, err := guildkit.New(guildkit.BotToken("my-bot-token"),
		guildkit.WithBaseURL("https://chat.example.com/api/v10"),
		guildkit.WithRetry(5, time.Second, 30*time.Second))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(client) // the token is never printed
	// Output: guildkit.Client{https://chat.example.com/api/v10, Bot <redacted>}
}

func ExampleGuildService_Get() {
	srv := guildkittest.New() // in a test: guildkittest.NewServer(t)
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{Name: "Gopher Guild"})
	srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "ada"}})

	client := srv.Client()
	guild, err := client.Guilds.Get(context.Background(), g.ID, &guildkit.GuildGetParams{WithCounts: guildkit.Some(true)})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(guild.Name, *guild.ApproximateMemberCount)

	_, err = client.Guilds.Get(context.Background(), 42, nil)
	fmt.Println(errors.Is(err, guildkit.ErrNotFound))
	fmt.Println(err)
	// Output:
	// Gopher Guild 2
	// true
	// guildkit: GET /guilds/{guild.id}: 404 Not Found: Unknown Guild (10004)
}

func ExampleNull() {
	params := struct {
		Nick  guildkit.Opt[string]    `json:"nick,omitzero"`
		Until guildkit.Opt[time.Time] `json:"communication_disabled_until,omitzero"`
		Mute  guildkit.Opt[bool]      `json:"mute,omitzero"`
	}{
		Nick:  guildkit.Some("bob"),       // send a value
		Until: guildkit.Null[time.Time](), // send null: lift the timeout
		// Mute is omitted: left unchanged
	}
	b, _ := json.Marshal(params)
	fmt.Println(string(b))
	// Output: {"nick":"bob","communication_disabled_until":null}
}

func ExampleAPIError() {
	srv := guildkittest.New()
	defer srv.Close()
	_, err := srv.Client().Guilds.Get(context.Background(), 7, nil)

	var apiErr *guildkit.APIError
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.Status, apiErr.Code == guildkit.CodeUnknownGuild, apiErr.Route)
	}
	// Output: 404 true /guilds/{guild.id}
}
