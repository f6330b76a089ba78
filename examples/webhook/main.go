// Command webhook posts a build report through a webhook URL, the way a CI
// job would: a Components V2 message, edited when the build finishes, and
// the build log in a Components V2 message that shows it with a File
// component; then it cleans up.
//
// A webhook needs no bot token: its URL carries its id and its secret token.
// With no GUILDKIT_WEBHOOK_URL set, the program starts the in-memory server
// from guildkittest and makes a webhook there:
//
//	go run ./examples/webhook
//
// Against a real deployment:
//
//	GUILDKIT_WEBHOOK_URL=https://chat.example.com/api/v10/webhooks/123/abc go run ./examples/webhook
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	url := os.Getenv("GUILDKIT_WEBHOOK_URL")
	if url == "" {
		fmt.Println("GUILDKIT_WEBHOOK_URL is not set: running against the in-memory server")
		srv := guildkittest.New()
		defer srv.Close()
		g := srv.AddGuild(guildkit.Guild{Name: "Gopher Guild", OwnerID: srv.BotID()})
		ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "builds", Type: guildkit.ChannelTypeGuildText})
		hook := srv.AddWebhook(ch.ID, "CI")
		url = srv.BaseURL() + "/webhooks/" + hook.ID.String() + "/" + hook.Token
	}

	// The client parses the URL; its String and every error hide the token.
	wh, err := guildkit.NewWebhookClient(url)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("webhook:", wh)

	// A V2 message: the text lives in components, not in content.
	msg, err := wh.Execute(ctx, &guildkit.WebhookExecuteParams{
		Wait:           guildkit.Some(true), // return the message
		WithComponents: guildkit.Some(true), // this webhook is not an application's: non-interactive components only
		Flags:          guildkit.Some(guildkit.MessageFlagIsComponentsV2),
		Components:     report("Build 42 is running", 0xF1C40F),
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("posted message %s\n", msg.ID)

	// Edit it when the build is done. A V2 message stays V2.
	edited, err := wh.EditMessage(ctx, msg.ID, &guildkit.WebhookMessageEditParams{
		WithComponents: guildkit.Some(true),
		Components:     guildkit.Some(report("Build 42 passed", 0x2ECC71)),
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("edited; first component:", edited.Components[0].Type())

	// A V2 message shows an uploaded file only through a component that
	// refers to it: here a File component, attachment://build.log. The file
	// is streamed as a multipart part, never buffered.
	logFile := strings.NewReader("go test ./...\nok  \texample.com/app\t0.42s\n")
	withLog, err := wh.Execute(ctx, &guildkit.WebhookExecuteParams{
		Wait:           guildkit.Some(true),
		WithComponents: guildkit.Some(true),
		Flags:          guildkit.Some(guildkit.MessageFlagIsComponentsV2),
		Components:     components.List{components.NewTextDisplay("Build 42 log:"), components.NewFile("build.log")},
		Files:          []guildkit.File{{Name: "build.log", ContentType: "text/plain", Reader: logFile}},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("posted the log as %s (%d bytes), shown by a %s component\n",
		withLog.Attachments[0].Filename, withLog.Attachments[0].Size, withLog.Components[1].Type())

	// A file no component refers to would not be shown: the client says so
	// before sending.
	_, err = wh.Execute(ctx, &guildkit.WebhookExecuteParams{
		WithComponents: guildkit.Some(true),
		Flags:          guildkit.Some(guildkit.MessageFlagIsComponentsV2),
		Components:     report("Build 43", 0xF1C40F),
		Files:          []guildkit.File{{Name: "build.log", Reader: strings.NewReader("...")}},
	})
	fmt.Println("refused before sending:", err)

	for _, id := range []guildkit.Snowflake{msg.ID, withLog.ID} {
		if err := wh.DeleteMessage(ctx, id, nil); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println("deleted both messages")
}

// report builds the message: a coloured container with a heading, a
// separator and a link button (link buttons send no interaction, so any
// webhook may use them).
func report(title string, color int) components.List {
	return components.List{
		components.NewContainer(
			components.NewTextDisplay("## "+title),
			components.NewSeparator(),
			components.NewActionRow(components.LinkButton("https://ci.example.com/builds/42", "Open in CI")),
		).WithAccentColor(color),
	}
}
