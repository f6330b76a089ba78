// Command modal-form is a bot with a bug-report form in a modal: a label
// over each input, with a text input, a radio group, a checkbox group and a
// file upload. It validates the form before use (first a draft with
// mistakes, then the fixed form), posts a message whose button opens the
// form, and answers each submission with an ephemeral summary of what it
// read, files included.
//
// With no GUILDKIT_TOKEN and no GUILDKIT_PUBLIC_KEY set it runs the whole
// loop against the in-memory server from guildkittest: a member clicks the
// button, fills the modal and submits it, and the program prints what the
// member saw:
//
//	go run ./examples/modal-form
//
// With GUILDKIT_PUBLIC_KEY (the application's public key) set it serves its
// interactions endpoint at http://$GUILDKIT_INTERACTIONS_ADDR/interactions
// (default 127.0.0.1:8080); with GUILDKIT_TOKEN and GUILDKIT_CHANNEL_ID it
// first posts the button to that channel through a webhook it creates (the
// bot needs MANAGE_WEBHOOKS there), deleted when the program stops:
//
//	GUILDKIT_PUBLIC_KEY=... GUILDKIT_BASE_URL=https://chat.example.com/api/v10 GUILDKIT_TOKEN=... GUILDKIT_CHANNEL_ID=123 go run ./examples/modal-form
//
// With GUILDKIT_TOKEN alone it posts the button and stops.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/guildkittest"
	"github.com/seed012df1e9/guildkit/interactions"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if os.Getenv("GUILDKIT_PUBLIC_KEY") == "" {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
	}
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

// Custom ids of the button and the modal.
const (
	openFormID = "open-bug-form"
	formID     = "bug-report"
)

// register adds the bot's functions: the button opens the form, the
// submission is answered with what was read.
func register(h *interactions.Handler) {
	h.HandleComponent(openFormID, func(ctx context.Context, r *interactions.Request) error {
		return r.ShowModal(ctx, formID, "Report a bug", bugForm()...)
	})
	h.HandleModal(formID, func(ctx context.Context, r *interactions.Request) error {
		report, err := readReport(r.Interaction)
		if err != nil {
			return r.ReplyEphemeral(ctx, "That form could not be read: "+err.Error())
		}
		return r.ReplyEphemeral(ctx, report)
	})
	h.HandleFallback(func(ctx context.Context, r *interactions.Request) error {
		return r.ReplyEphemeral(ctx, "This button belongs to an older version of the bot.")
	})
}

// readReport reads a submission of the form into one line per field.
func readReport(it *guildkit.Interaction) (string, error) {
	data := it.ModalSubmit
	summary, err := data.Text("summary")
	if err != nil {
		return "", err
	}
	severity, picked, err := data.Selected("severity")
	if err != nil {
		return "", err
	}
	if !picked {
		severity = "(none)"
	}
	platforms, err := data.Values("platforms")
	if err != nil {
		return "", err
	}
	files, err := data.Files("attachments")
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Thanks, %s. We got:\n", it.Invoker().Username)
	fmt.Fprintf(&b, "summary: %q\nseverity: %s\nplatforms: %s", summary, severity, strings.Join(platforms, ", "))
	for _, id := range files {
		if it.Resolved == nil {
			break
		}
		a := it.Resolved.Attachments[id]
		fmt.Fprintf(&b, "\nfile: %s (%s, %d bytes)", a.Filename, a.ContentType, a.Size)
	}
	return b.String(), nil
}

// buttonMessage is the message whose button opens the form.
func buttonMessage() (string, components.List) {
	return "Found a bug? Tell us.", components.List{
		components.NewActionRow(components.DangerButton(openFormID, "Report a bug")),
	}
}

// run does the work of the program, writing to out and reading its settings
// through getenv, so that a test can run it.
func run(ctx context.Context, out io.Writer, getenv func(string) string) error {
	// 1. Validate: every problem at once, with its path and code.
	err := components.Validate(components.Modal, draftForm()...)
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

	switch {
	case getenv("GUILDKIT_PUBLIC_KEY") != "":
		return serve(ctx, out, getenv)
	case getenv("GUILDKIT_TOKEN") != "":
		client, err := guildkit.New(guildkit.BotToken(getenv("GUILDKIT_TOKEN")), guildkit.WithBaseURL(getenv("GUILDKIT_BASE_URL")))
		if err != nil {
			return err
		}
		remove, err := postButton(ctx, out, client, getenv)
		if err != nil {
			return err
		}
		remove()
		fmt.Fprintln(out, "set GUILDKIT_PUBLIC_KEY to serve the interactions endpoint that answers the button")
		return nil
	}
	return demo(ctx, out)
}

// demo runs the loop against the in-memory server.
func demo(ctx context.Context, out io.Writer) error {
	fmt.Fprintln(out, "GUILDKIT_TOKEN is not set: running against the in-memory server")
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{Name: "Gopher Guild", OwnerID: srv.BotID()})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "support", Type: guildkit.ChannelTypeGuildText})
	ada := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "ada"}}).User
	h, err := interactions.NewHandler(srv.Application().PublicKeyHex(), srv.Client(),
		interactions.WithClock(srv), interactions.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	if err != nil {
		return err
	}
	register(h)
	srv.SetInteractionsHandler(h)

	// The button goes out through the application's webhook: only an
	// application's messages deliver interactions to it.
	hook := srv.ApplicationWebhook(ch.ID)
	content, comps := buttonMessage()
	msg, err := srv.Client().Webhooks.Execute(ctx, hook.ID, hook.Token, &guildkit.WebhookExecuteParams{
		Wait: guildkit.Some(true), Content: guildkit.Some(content), Components: comps, ApplicationOwned: true,
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "posted the button (custom_id %q) in %d row(s)\n", openFormID, len(msg.Components))

	opened, err := srv.Click(ctx, ada.ID, msg.ID, openFormID)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "ada clicks the button: %s\n", opened)
	if opened.Modal == nil {
		return fmt.Errorf("no modal opened: %s", opened)
	}
	// The platform's client refuses a form that breaks its rules before
	// anything is sent: here, a summary shorter than 5 characters.
	_, err = srv.SubmitModal(ctx, ada.ID, opened.Modal, guildkittest.ModalValues{"summary": "Bug", "severity": "high", "platforms": []string{"linux"}})
	fmt.Fprintf(out, "ada submits a 3-character summary: refused (%v)\n", err != nil)
	submitted, err := srv.SubmitModal(ctx, ada.ID, opened.Modal, guildkittest.ModalValues{
		"summary":     "Crash when saving a file",
		"severity":    "high",
		"platforms":   []string{"linux", "macos"},
		"attachments": []guildkit.File{{Name: "crash.log", ContentType: "text/plain", Reader: strings.NewReader(strings.Repeat("panic: nil map\n", 128))}},
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "ada submits the form: %s\n", submitted.Kind)
	if submitted.Message != nil {
		fmt.Fprintf(out, "the bot answers (ephemeral: %v):\n%s\n", submitted.Ephemeral, submitted.Message.Content)
	}
	return nil
}

// postButton posts the button to GUILDKIT_CHANNEL_ID through a webhook the
// bot creates, which is owned by its application (so its buttons deliver
// interactions to it); remove deletes the webhook.
func postButton(ctx context.Context, out io.Writer, client *guildkit.Client, getenv func(string) string) (remove func(), err error) {
	channelID, err := guildkit.ParseSnowflake(getenv("GUILDKIT_CHANNEL_ID"))
	if err != nil {
		return nil, fmt.Errorf("GUILDKIT_CHANNEL_ID: %w", err)
	}
	hook, err := client.Webhooks.Create(ctx, channelID, &guildkit.WebhookCreateParams{Name: "Bug reports"})
	if err != nil {
		return nil, err
	}
	remove = func() {
		if err := client.Webhooks.Delete(context.WithoutCancel(ctx), hook.ID); err != nil {
			fmt.Fprintln(out, "deleting the webhook:", err)
		}
	}
	content, comps := buttonMessage()
	msg, err := client.Webhooks.Execute(ctx, hook.ID, hook.Token, &guildkit.WebhookExecuteParams{
		Wait: guildkit.Some(true), Content: guildkit.Some(content), Components: comps, ApplicationOwned: hook.ApplicationOwned(),
	})
	if err != nil {
		remove()
		return nil, err
	}
	fmt.Fprintf(out, "posted the button (custom_id %q) in %d row(s)\n", openFormID, len(msg.Components))
	return remove, nil
}

// serve runs the interactions endpoint until ctx ends.
func serve(ctx context.Context, out io.Writer, getenv func(string) string) error {
	var client *guildkit.Client
	if token := getenv("GUILDKIT_TOKEN"); token != "" {
		c, err := guildkit.New(guildkit.BotToken(token), guildkit.WithBaseURL(getenv("GUILDKIT_BASE_URL")))
		if err != nil {
			return err
		}
		client = c
		if getenv("GUILDKIT_CHANNEL_ID") != "" {
			remove, err := postButton(ctx, out, client, getenv)
			if err != nil {
				return err
			}
			defer remove()
		}
	} else {
		srv := guildkittest.New()
		defer srv.Close()
		fmt.Fprintf(out, "no GUILDKIT_TOKEN: REST calls go to an in-memory server at %s\n", srv.BaseURL())
		client = srv.Client()
	}
	h, err := interactions.NewHandler(getenv("GUILDKIT_PUBLIC_KEY"), client)
	if err != nil {
		return err
	}
	register(h)
	addr := getenv("GUILDKIT_INTERACTIONS_ADDR")
	if addr == "" {
		addr = "127.0.0.1:8080"
	}
	mux := http.NewServeMux()
	mux.Handle("/interactions", h)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "interactions endpoint: http://%s/interactions\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdown); err != nil {
		return err
	}
	return h.Wait(shutdown)
}
