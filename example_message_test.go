package guildkit_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"strings"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

func ExampleMessageService_Create() {
	srv := guildkittest.New() // in a test: guildkittest.NewServer(t)
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{Name: "Gopher Guild"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	alice := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "alice"}})
	ctx := context.Background()
	client := srv.Client()

	// A member posts; the bot replies with an embed, pinging her.
	posted, err := srv.Post(ctx, alice.User.ID, ch.ID, "is the release out?")
	if err != nil {
		log.Fatal(err)
	}
	reply, err := client.Messages.Create(ctx, ch.ID, &guildkit.MessageCreateParams{
		Content: guildkit.Some(alice.Mention() + " yes, " + guildkit.FormatTimestamp(time.Unix(1764331200, 0), guildkit.TimestampRelative)),
		Embeds: []guildkit.Embed{*guildkit.NewEmbed("v1.2.0", "Messages and DMs").
			WithColor(0x00ADD8).
			WithField("Download", "https://example.com/v1.2.0", false)},
		MessageReference: guildkit.Some(guildkit.MessageReference{MessageID: posted.ID}),
		AllowedMentions:  guildkit.Some(guildkit.AllowedMentions{Users: []guildkit.Snowflake{alice.User.ID}, RepliedUser: true}),
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(reply.Type, strings.TrimPrefix(reply.Content, alice.Mention()))
	fmt.Println(reply.Embeds[0].Title, "mentions", reply.Mentions[0].Username)

	// A DM: open the channel, then send to it.
	dm, err := client.Users.CreateDM(ctx, alice.User.ID)
	if err != nil {
		log.Fatal(err)
	}
	_, err = client.Messages.Create(ctx, dm.ID, &guildkit.MessageCreateParams{Content: guildkit.Some("thanks for asking")})
	fmt.Println(dm.Type, err)

	// Problems are found before anything is sent, all at once.
	_, err = client.Messages.Create(ctx, ch.ID, &guildkit.MessageCreateParams{
		Content: guildkit.Some(strings.Repeat("x", 2001)),
		Nonce:   guildkit.Some(strings.Repeat("n", 26)),
	})
	var ve *guildkit.ValidationError
	fmt.Println(errors.As(err, &ve), len(ve.Problems))
	// Output:
	// REPLY  yes, <t:1764331200:R>
	// v1.2.0 mentions alice
	// DM <nil>
	// true 2
}

func ExampleMessageService_All() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{Name: "Gopher Guild"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	alice := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "alice"}})
	ctx := context.Background()
	for _, text := range []string{"one", "two", "three"} {
		if _, err := srv.Post(ctx, alice.User.ID, ch.ID, text); err != nil {
			log.Fatal(err)
		}
	}
	// Newest first, two a page; breaking out of the loop stops fetching.
	for m, err := range srv.Client().Messages.All(ctx, ch.ID, &guildkit.MessageListParams{Limit: guildkit.Some(2)}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(m.Author.Username+":", m.Content)
	}
	// Output:
	// alice: three
	// alice: two
	// alice: one
}

func ExampleNewEmbed() {
	e := guildkit.NewEmbed("Ban", guildkit.MentionUser(80351110224678912)+" was banned").
		WithColor(0xE74C3C).
		WithField("Reason", guildkit.EscapeMarkdown("spamming *links*"), true)
	fmt.Println(e.Validate())
	e.WithField("", strings.Repeat("x", 1025), false)
	fmt.Println(e.Validate())
	// Output:
	// <nil>
	// guildkit: invalid request, 2 problems:
	// 	fields[1].name: field name is required
	// 	fields[1].value: at most 1024 characters, got 1025
}

func ExampleEscapeMentions() {
	userText := "@everyone look at <@80351110224678912>"
	fmt.Println(strings.ReplaceAll(guildkit.EscapeMentions(userText), "\u200b", "<zwsp>"))
	for _, m := range guildkit.FindMentions(userText) {
		fmt.Println(m.Kind, m.ID)
	}
	// Output:
	// @<zwsp>everyone look at <@<zwsp>80351110224678912>
	// EVERYONE 0
	// USER 80351110224678912
}
