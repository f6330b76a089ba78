// Command modal-form builds the bug-report form a bot shows in a modal: a
// label over each input, with a text input, a radio group, a checkbox group
// and a file upload. It validates the form before use (first a draft with
// mistakes, then the fixed form), posts the message whose button opens it,
// and reads a submission back into typed values.
//
// A modal is shown in answer to an interaction (a button click), which
// reaches the bot through the gateway or its interactions endpoint; this
// interface does not cover that answer, so the program builds and checks the
// modal and decodes a sample submission shaped as the service sends it.
//
// With no GUILDKIT_TOKEN set it runs against the in-memory server from
// guildkittest:
//
//	go run ./examples/modal-form
//
// Against a real deployment it posts the message with the button to the
// channel GUILDKIT_CHANNEL_ID through a webhook it creates (and deletes at
// the end; the message stays). The bot needs MANAGE_WEBHOOKS there:
//
//	GUILDKIT_BASE_URL=https://chat.example.com/api/v10 GUILDKIT_TOKEN=... GUILDKIT_CHANNEL_ID=123 go run ./examples/modal-form
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	if err := run(ctx, os.Stdout, os.Getenv); err != nil {
		log.Fatal(err)
	}
}

// bugForm returns the modal's components. Each input sits in a Label, which
// gives it its visible title and an optional description.
func bugForm() components.List {
	return components.List{
		components.NewTextDisplay("Thanks for taking the time to report a bug."),
		components.NewLabel("Summary",
			components.NewTextInput("summary", components.TextInputShort).WithLength(5, 100).
				WithPlaceholder("The app crashes when..."),
		).WithDescription("One line"),
		components.NewLabel("Severity",
			components.NewRadioGroup("severity",
				components.NewChoice("Low: a workaround exists", "low"),
				components.NewChoice("High: no workaround", "high"),
				components.NewChoice("Critical: data is lost", "critical"),
			),
		),
		components.NewLabel("Where does it happen?",
			components.NewCheckboxGroup("platforms",
				components.NewChoice("Windows", "windows"),
				components.NewChoice("macOS", "macos"),
				components.NewChoice("Linux", "linux"),
			).WithValues(1, 3),
		),
		components.NewLabel("Screenshots or logs",
			components.NewFileUpload("attachments").WithValues(0, 3).WithRequired(false),
		).WithDescription("Up to 3 files"),
	}
}

// draftForm is a first draft with three mistakes the client catches before
// anything is sent: a text input outside a label, a radio group with one
// option, and a custom_id used twice.
func draftForm() components.List {
	return components.List{
		components.NewTextInput("summary", components.TextInputShort),
		components.NewLabel("Severity", components.NewRadioGroup("severity", components.NewChoice("Low", "low"))),
		components.NewLabel("Details", components.NewTextInput("summary", components.TextInputParagraph)),
	}
}

// run does the work of the program, writing to out and reading its settings
// through getenv, so that a test can run it.
func run(ctx context.Context, out io.Writer, getenv func(string) string) error {
	client, channelID, cleanup, err := connect(out, getenv)
	if err != nil {
		return err
	}
	defer cleanup()

	// 1. Validate: every problem at once, with its path and code.
	err = components.Validate(components.Modal, draftForm()...)
	var invalid *components.ValidationError
	if !errors.As(err, &invalid) {
		return fmt.Errorf("the draft should not validate, got %v", err)
	}
	fmt.Fprintf(out, "draft form: %d problems\n", len(invalid.Problems))
	for _, p := range invalid.Problems {
		fmt.Fprintf(out, "  %s (%s)\n", p.Path, p.Code)
	}
	form := bugForm()
	if err := components.Validate(components.Modal, form...); err != nil {
		return err
	}
	fmt.Fprintf(out, "bug form: valid, %d components\n", len(form))

	// 2. The message whose button opens the form. Buttons other than links
	// need a webhook owned by an application: one the bot creates is.
	hook, err := client.Webhooks.Create(ctx, channelID, &guildkit.WebhookCreateParams{Name: "Bug reports"})
	if err != nil {
		return err
	}
	defer func() {
		if err := client.Webhooks.Delete(ctx, hook.ID); err != nil {
			fmt.Fprintln(out, "deleting the webhook:", err)
		}
	}()
	msg, err := client.Webhooks.Execute(ctx, hook.ID, hook.Token, &guildkit.WebhookExecuteParams{
		Wait:             guildkit.Some(true),
		Content:          guildkit.Some("Found a bug? Tell us."),
		ApplicationOwned: hook.ApplicationOwned(),
		Components: components.List{
			components.NewActionRow(components.DangerButton("open-bug-form", "Report a bug")),
		},
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "posted the button (custom_id %q) in %d row(s)\n", "open-bug-form", len(msg.Components))

	// 3. A submission, as the service sends it when the user submits the
	// modal: the components' response data in the modal's shape, and the
	// uploaded files in the resolved data.
	var sub struct {
		components.ModalSubmitData
		Resolved struct {
			Attachments map[guildkit.Snowflake]guildkit.Attachment `json:"attachments"`
		} `json:"resolved"`
	}
	if err := json.Unmarshal([]byte(sampleSubmission), &sub); err != nil {
		return err
	}
	data := &sub.ModalSubmitData
	summary, err := data.Text("summary")
	if err != nil {
		return err
	}
	severity, picked, err := data.Selected("severity")
	if err != nil {
		return err
	}
	platforms, err := data.Values("platforms")
	if err != nil {
		return err
	}
	files, err := data.Files("attachments")
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "submission of %q:\n", data.CustomID)
	fmt.Fprintf(out, "  summary: %q\n", summary)
	fmt.Fprintf(out, "  severity: %q (picked: %v)\n", severity, picked)
	fmt.Fprintf(out, "  platforms: %s\n", strings.Join(platforms, ", "))
	for _, id := range files {
		a := sub.Resolved.Attachments[id]
		fmt.Fprintf(out, "  file: %s (%s, %d bytes)\n", a.Filename, a.ContentType, a.Size)
	}
	// A look-up by the wrong type says what the component is.
	if _, err := data.Text("severity"); err != nil {
		fmt.Fprintln(out, "  reading severity as text:", err)
	}
	return nil
}

// sampleSubmission is the data of a modal-submit interaction for bugForm.
const sampleSubmission = `{
  "custom_id": "bug-report",
  "components": [
    {"type": 10, "id": 1},
    {"type": 18, "id": 2, "component": {"type": 4, "id": 3, "custom_id": "summary", "value": "Crash when saving a file"}},
    {"type": 18, "id": 4, "component": {"type": 21, "id": 5, "custom_id": "severity", "value": "high"}},
    {"type": 18, "id": 6, "component": {"type": 22, "id": 7, "custom_id": "platforms", "values": ["linux", "macos"]}},
    {"type": 18, "id": 8, "component": {"type": 19, "id": 9, "custom_id": "attachments", "values": ["1300000000000000001"]}}
  ],
  "resolved": {
    "attachments": {
      "1300000000000000001": {
        "id": "1300000000000000001", "filename": "crash.log", "content_type": "text/plain", "size": 2048,
        "url": "https://cdn.example.com/attachments/1/crash.log", "proxy_url": "https://media.example.com/attachments/1/crash.log"
      }
    }
  }
}`

// connect returns a client and the channel to post in: the deployment named
// by the environment, or an in-memory server with a guild and a channel.
func connect(out io.Writer, getenv func(string) string) (*guildkit.Client, guildkit.Snowflake, func(), error) {
	token := getenv("GUILDKIT_TOKEN")
	if token == "" {
		fmt.Fprintln(out, "GUILDKIT_TOKEN is not set: running against the in-memory server")
		srv := guildkittest.New()
		g := srv.AddGuild(guildkit.Guild{Name: "Gopher Guild"})
		ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "support", Type: guildkit.ChannelTypeGuildText})
		return srv.Client(), ch.ID, srv.Close, nil
	}
	channelID, err := guildkit.ParseSnowflake(getenv("GUILDKIT_CHANNEL_ID"))
	if err != nil {
		return nil, 0, nil, fmt.Errorf("GUILDKIT_CHANNEL_ID: %w", err)
	}
	client, err := guildkit.New(guildkit.BotToken(token), guildkit.WithBaseURL(getenv("GUILDKIT_BASE_URL")))
	if err != nil {
		return nil, 0, nil, err
	}
	return client, channelID, func() {}, nil
}
