package guildkit_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"strings"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

func ExampleWebhookService_Execute() {
	srv := guildkittest.New() // in a test: guildkittest.NewServer(t)
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{Name: "Gopher Guild"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "releases", Type: guildkit.ChannelTypeGuildText})
	hook := srv.AddWebhook(ch.ID, "Release Bot")

	// Token operations need no credential.
	client, err := guildkit.New(nil, guildkit.WithBaseURL(srv.BaseURL()))
	if err != nil {
		log.Fatal(err)
	}
	msg, err := client.Webhooks.Execute(context.Background(), hook.ID, hook.Token, &guildkit.WebhookExecuteParams{
		Wait:    guildkit.Some(true), // answer with the message
		Content: guildkit.Some("v1.2.0 is out"),
		Embeds:  []guildkit.Embed{{Title: "Changelog", Color: guildkit.Some(0x00add8)}},
		Files:   []guildkit.File{{Name: "CHANGES.txt", Reader: strings.NewReader("- webhooks\n")}},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(msg.Author.Username, "said:", msg.Content)
	fmt.Println(msg.Embeds[0].Title, msg.Attachments[0].Filename, msg.Attachments[0].Size)

	// Problems are found before anything is sent.
	_, err = client.Webhooks.Execute(context.Background(), hook.ID, hook.Token, &guildkit.WebhookExecuteParams{
		Content: guildkit.Some("hidden"),
		Flags:   guildkit.Some(guildkit.MessageFlagIsComponentsV2),
	})
	fmt.Println(err)
	// Output:
	// Release Bot said: v1.2.0 is out
	// Changelog CHANGES.txt 11
	// guildkit: invalid request: content: a message with IS_COMPONENTS_V2 holds only components: no content
}

func ExampleNewWebhookClient() {
	wc, err := guildkit.NewWebhookClient("https://chat.example.com/api/v10/webhooks/223704706495545344/s3cr3t-t0k3n")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(wc.ID())
	fmt.Println(wc) // the token is never printed
	_, err = guildkit.NewWebhookClient("https://chat.example.com/webhooks/not-an-id/s3cr3t-t0k3n")
	fmt.Println(err)

	// Against the in-memory server: the webhook's URL is all it needs.
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "alerts", Type: guildkit.ChannelTypeGuildText})
	hook := srv.AddWebhook(ch.ID, "Pager")
	wc, err = guildkit.NewWebhookClient(srv.BaseURL() + "/webhooks/" + hook.ID.String() + "/" + hook.Token)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	msg, err := wc.Execute(ctx, &guildkit.WebhookExecuteParams{Wait: guildkit.Some(true), Content: guildkit.Some("disk 91% full")})
	if err != nil {
		log.Fatal(err)
	}
	msg, err = wc.EditMessage(ctx, msg.ID, &guildkit.WebhookMessageEditParams{Content: guildkit.Some("disk 60% full (resolved)")})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(msg.Content, msg.EditedTimestamp != nil)
	// Output:
	// 223704706495545344
	// https://chat.example.com/api/v10/webhooks/223704706495545344/<redacted>
	// guildkit: NewWebhookClient: the segment after /webhooks/ (9 characters) is not a snowflake id; the URL must end in /webhooks/{id}/{token}
	// disk 60% full (resolved) true
}

func ExampleWebhookService_Execute_componentsV2() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "ci", Type: guildkit.ChannelTypeGuildText})
	hook := srv.AddWebhook(ch.ID, "CI")
	client, err := guildkit.New(nil, guildkit.WithBaseURL(srv.BaseURL()))
	if err != nil {
		log.Fatal(err)
	}
	tree := components.List{
		components.NewContainer(
			components.NewTextDisplay("## Build 42 passed"),
			components.NewActionRow(components.LinkButton("https://ci.example.com/42", "Open")),
		).WithAccentColor(0x2ECC71),
	}
	msg, err := client.Webhooks.Execute(context.Background(), hook.ID, hook.Token, &guildkit.WebhookExecuteParams{
		Wait:           guildkit.Some(true),
		WithComponents: guildkit.Some(true), // the webhook is not an application's: non-interactive only
		Flags:          guildkit.Some(guildkit.MessageFlagIsComponentsV2),
		Components:     tree,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(msg.Flags, msg.Components[0].Type())

	// A button that sends an interaction is refused for this webhook.
	tree = append(tree, components.NewActionRow(components.PrimaryButton("rerun:42", "Re-run")))
	_, err = client.Webhooks.Execute(context.Background(), hook.ID, hook.Token, &guildkit.WebhookExecuteParams{
		WithComponents: guildkit.Some(true),
		Flags:          guildkit.Some(guildkit.MessageFlagIsComponentsV2),
		Components:     tree,
	})
	var ve *guildkit.ValidationError
	if errors.As(err, &ve) {
		fmt.Println(ve.Problems[0].Path)
	}
	// Output:
	// IS_COMPONENTS_V2 Container
	// components[1].components[0]
}
