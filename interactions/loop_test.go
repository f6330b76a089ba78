package interactions_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/guildkittest"
	"github.com/seed012df1e9/guildkit/interactions"
)

// loop is an application on the in-memory server: a guild with a channel,
// two members, the application's message with buttons and a select, and a
// Handler receiving the server's signed deliveries.
type loop struct {
	srv      *guildkittest.Server
	h        *interactions.Handler
	ch       guildkit.Snowflake
	guildID  guildkit.Snowflake
	ada, bob guildkit.Snowflake
	msg      guildkit.Message
}

func newLoop(t *testing.T, opts ...interactions.Option) *loop {
	t.Helper()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "Loop"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	ada := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "ada"}}).User
	bob := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "bob"}}).User
	msg := srv.AddApplicationMessage(ch.ID, guildkit.Message{Content: "Pick", Components: components.List{
		components.NewActionRow(
			components.PrimaryButton("reply", "Reply"), components.SecondaryButton("update", "Update"),
			components.SecondaryButton("defer", "Defer"), components.SecondaryButton("defer-update", "Defer update"),
			components.SuccessButton("modal", "Modal"),
		),
		components.NewActionRow(
			components.SecondaryButton("activity", "Activity"), components.SecondaryButton("file", "File"),
			components.SecondaryButton("slow", "Slow"), components.SecondaryButton("twice", "Twice"),
			components.SecondaryButton("invalid", "Invalid"),
		),
		components.NewActionRow(components.NewStringSelect("color",
			components.NewOption("Red", "red"), components.NewOption("Blue", "blue")).WithValues(1, 1)),
	}})
	opts = append([]interactions.Option{interactions.WithClock(srv),
		interactions.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))}, opts...)
	h, err := interactions.NewHandler(srv.Application().PublicKeyHex(), srv.Client(), opts...)
	require.NoError(t, err)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		require.NoError(t, h.Wait(ctx))
	})
	srv.SetInteractionsHandler(h)
	return &loop{srv: srv, h: h, ch: ch.ID, guildID: g.ID, ada: ada.ID, bob: bob.ID, msg: msg}
}

func text(s string) *guildkit.InteractionMessageParams {
	return &guildkit.InteractionMessageParams{Content: guildkit.Some(s)}
}

// TestEveryCallbackType drives each answer a component can get through the
// real Handler and the in-memory server, and checks what the user saw.
func TestEveryCallbackType(t *testing.T) {
	t.Parallel()
	l := newLoop(t)
	ctx := t.Context()
	l.h.HandleComponent("reply", func(ctx context.Context, r *interactions.Request) error { return r.Reply(ctx, text("hello")) })
	l.h.HandleComponent("update", func(ctx context.Context, r *interactions.Request) error { return r.Update(ctx, text("updated")) })
	l.h.HandleComponent("defer", func(ctx context.Context, r *interactions.Request) error {
		if err := r.Respond(ctx, guildkit.DeferredMessageResponse(false)); err != nil {
			return err
		}
		_, err := r.EditOriginal(ctx, &guildkit.WebhookMessageEditParams{Content: guildkit.Some("loaded")})
		return err
	})
	l.h.HandleComponent("defer-update", func(ctx context.Context, r *interactions.Request) error {
		if err := r.Defer(ctx, false); err != nil {
			return err
		}
		_, err := r.EditOriginal(ctx, &guildkit.WebhookMessageEditParams{Content: guildkit.Some("edited later")})
		return err
	})
	l.h.HandleComponent("modal", func(ctx context.Context, r *interactions.Request) error {
		return r.ShowModal(ctx, "form", "Tell us", components.NewLabel("Name", components.NewTextInput("name", components.TextInputShort)))
	})
	l.h.HandleModal("form", func(ctx context.Context, r *interactions.Request) error {
		name, err := r.Interaction.ModalSubmit.Text("name")
		if err != nil {
			return err
		}
		return r.ReplyEphemeral(ctx, "hi "+name)
	})
	l.h.HandleComponent("activity", func(ctx context.Context, r *interactions.Request) error {
		return r.Respond(ctx, guildkit.LaunchActivityResponse())
	})
	l.h.HandleComponent("color", func(ctx context.Context, r *interactions.Request) error {
		return r.Update(ctx, text("color: "+strings.Join(r.Interaction.Component.Values, ",")))
	})
	l.h.HandleCommand("search", func(ctx context.Context, r *interactions.Request) error { return r.Reply(ctx, text("searched")) })
	l.srv.AddCommand(0, guildkit.CommandCreateParams{Name: "search", Description: "Search", Options: []guildkit.CommandOptionDefinition{
		{Type: guildkit.CommandOptionString, Name: "q", Description: "What", Autocomplete: true},
	}})
	l.h.HandleAutocomplete("search", func(ctx context.Context, r *interactions.Request) error {
		o, _ := r.Interaction.Command.Focused()
		return r.Respond(ctx, guildkit.AutocompleteResponse(guildkit.CommandOptionChoice{Name: o.StringValue() + "!", Value: o.StringValue()}))
	})

	out, err := l.srv.Click(ctx, l.ada, l.msg.ID, "reply")
	require.NoError(t, err)
	assert.Equal(t, guildkittest.OutcomeMessage, out.Kind, out.String())
	assert.Equal(t, "hello", out.Message.Content)

	out, err = l.srv.Click(ctx, l.ada, l.msg.ID, "defer")
	require.NoError(t, err)
	assert.Equal(t, guildkittest.OutcomeDeferred, out.Kind, out.String())
	require.NoError(t, l.h.Wait(ctx))
	found := false
	for _, m := range l.srv.ChannelMessages(l.ch, l.ada) {
		if m.Content == "loaded" && !m.Flags.Has(guildkit.MessageFlagLoading) {
			found = true
		}
	}
	assert.True(t, found, "the deferred message was edited")

	out, err = l.srv.Click(ctx, l.ada, l.msg.ID, "defer-update")
	require.NoError(t, err)
	assert.Equal(t, guildkittest.OutcomeDeferred, out.Kind)
	require.NoError(t, l.h.Wait(ctx))
	assert.Equal(t, "edited later", l.message(t).Content, "a deferred update edits the clicked message")

	out, err = l.srv.Click(ctx, l.ada, l.msg.ID, "update")
	require.NoError(t, err)
	assert.Equal(t, guildkittest.OutcomeUpdated, out.Kind)
	assert.Equal(t, "updated", l.message(t).Content)

	out, err = l.srv.Select(ctx, l.ada, l.msg.ID, "color", "blue")
	require.NoError(t, err)
	assert.Equal(t, "color: blue", out.Message.Content)

	out, err = l.srv.Click(ctx, l.ada, l.msg.ID, "modal")
	require.NoError(t, err)
	require.Equal(t, guildkittest.OutcomeModal, out.Kind)
	out, err = l.srv.SubmitModal(ctx, l.ada, out.Modal, guildkittest.ModalValues{"name": "Ada"})
	require.NoError(t, err)
	assert.Equal(t, "hi Ada", out.Message.Content)
	assert.True(t, out.Ephemeral)

	out, err = l.srv.Click(ctx, l.ada, l.msg.ID, "activity")
	require.NoError(t, err)
	assert.Equal(t, guildkittest.OutcomeLaunchActivity, out.Kind)

	out, err = l.srv.RunCommand(ctx, l.ada, l.ch, "search")
	require.NoError(t, err)
	assert.Equal(t, "searched", out.Message.Content)
	out, err = l.srv.Autocomplete(ctx, l.ada, l.ch, "search", guildkit.CommandOption{Name: "q", Type: guildkit.CommandOptionString, Value: []byte(`"go"`), Focused: true})
	require.NoError(t, err)
	require.Equal(t, guildkittest.OutcomeAutocomplete, out.Kind)
	require.Len(t, out.Response.Choices, 1)
	assert.Equal(t, "go!", out.Response.Choices[0].Name)
}

// message returns the loop's message as the server holds it now.
func (l *loop) message(t *testing.T) guildkit.Message {
	t.Helper()
	for _, m := range l.srv.ChannelMessages(l.ch, l.ada) {
		if m.ID == l.msg.ID {
			return m
		}
	}
	t.Fatal("the message is gone")
	return guildkit.Message{}
}

// TestAutoDeferralOnTheServersClock: a function still working at the
// deadline gets its deferral sent by the Handler; the user sees no
// failure; the function's late update edits the message. No sleeps: the
// server's clock drives the Handler's deadline.
func TestAutoDeferralOnTheServersClock(t *testing.T) {
	t.Parallel()
	l := newLoop(t)
	entered, release := make(chan struct{}), make(chan struct{})
	late := make(chan error, 1)
	l.h.HandleComponent("slow", func(ctx context.Context, r *interactions.Request) error {
		close(entered)
		<-release // the database is slow
		err := r.Update(ctx, text("done at last"))
		late <- err
		return err
	})
	type result struct {
		out *guildkittest.Outcome
		err error
	}
	clicked := make(chan result, 1)
	go func() {
		out, err := l.srv.Click(context.Background(), l.ada, l.msg.ID, "slow")
		clicked <- result{out, err}
	}()
	<-entered
	l.srv.AdvanceClock(interactions.DefaultDeadline) // the Handler's deadline passes
	res := <-clicked
	require.NoError(t, res.err)
	assert.Equal(t, guildkittest.OutcomeDeferred, res.out.Kind, res.out.String())
	assert.Equal(t, guildkit.InteractionResponseDeferredUpdateMessage, res.out.Response.Type)
	close(release)
	require.NoError(t, <-late)
	assert.Equal(t, "done at last", l.message(t).Content)
	d := l.srv.Deliveries()
	require.NotEmpty(t, d)
	assert.Empty(t, d[len(d)-1].Failure)
}

// TestOneAnswerAndFollowups: a second answer is refused; follow-ups work
// for the token's 15 minutes and then fail as the platform answers.
func TestOneAnswerAndFollowups(t *testing.T) {
	t.Parallel()
	l := newLoop(t)
	var mu sync.Mutex
	var req *interactions.Request
	second := make(chan error, 1)
	l.h.HandleComponent("twice", func(ctx context.Context, r *interactions.Request) error {
		if err := r.ReplyEphemeral(ctx, "first"); err != nil {
			return err
		}
		second <- r.ReplyEphemeral(ctx, "second")
		mu.Lock()
		req = r
		mu.Unlock()
		return nil
	})
	out, err := l.srv.Click(t.Context(), l.ada, l.msg.ID, "twice")
	require.NoError(t, err)
	assert.Equal(t, "first", out.Message.Content)
	assert.ErrorIs(t, <-second, guildkit.ErrInteractionAcknowledged)
	require.NoError(t, l.h.Wait(t.Context()))

	mu.Lock()
	r := req
	mu.Unlock()
	f, err := r.Followup(t.Context(), &guildkit.InteractionMessageParams{Content: guildkit.Some("later, for ada only"), Flags: guildkit.Some(guildkit.MessageFlagEphemeral)})
	require.NoError(t, err)
	assert.Equal(t, "later, for ada only", f.Content)
	ids := func(user guildkit.Snowflake) map[guildkit.Snowflake]bool {
		m := map[guildkit.Snowflake]bool{}
		for _, msg := range l.srv.ChannelMessages(l.ch, user) {
			m[msg.ID] = true
		}
		return m
	}
	assert.True(t, ids(l.ada)[f.ID], "ada sees her ephemeral follow-up")
	assert.False(t, ids(l.bob)[f.ID], "bob does not")

	l.srv.AdvanceClock(interactions.TokenLifetime + time.Second)
	_, err = r.Followup(t.Context(), text("too late"))
	require.Error(t, err)
	var apiErr *guildkit.APIError
	require.True(t, errors.As(err, &apiErr), "%v", err)
	assert.Equal(t, 401, apiErr.Status, "an expired token: Invalid Webhook Token")
	assert.Equal(t, guildkit.CodeInvalidWebhookToken, apiErr.Code)
	assert.NotContains(t, err.Error(), string(r.Interaction.Token))
}

// TestFilesAndInvalidTrees: an answer's files reach the message; an
// invalid tree is refused before anything leaves, and the user sees the
// Handler's notice instead.
func TestFilesAndInvalidTrees(t *testing.T) {
	t.Parallel()
	l := newLoop(t)
	var invalidErr error
	l.h.HandleComponent("file", func(ctx context.Context, r *interactions.Request) error {
		return r.Reply(ctx, &guildkit.InteractionMessageParams{Content: guildkit.Some("the log"),
			Files: []guildkit.File{{Name: "log.txt", Reader: strings.NewReader("all good\n")}}})
	})
	l.h.HandleComponent("invalid", func(ctx context.Context, r *interactions.Request) error {
		invalidErr = r.Reply(ctx, &guildkit.InteractionMessageParams{Flags: guildkit.Some(guildkit.MessageFlagIsComponentsV2),
			Content: guildkit.Some("V2 holds no content"), Components: components.List{components.NewTextDisplay("")}})
		return invalidErr
	})
	out, err := l.srv.Click(t.Context(), l.ada, l.msg.ID, "file")
	require.NoError(t, err)
	require.Len(t, out.Message.Attachments, 1)
	assert.Equal(t, "log.txt", out.Message.Attachments[0].Filename)
	assert.EqualValues(t, len("all good\n"), out.Message.Attachments[0].Size)

	out, err = l.srv.Click(t.Context(), l.ada, l.msg.ID, "invalid")
	require.NoError(t, err)
	var ve *guildkit.ValidationError
	require.ErrorAs(t, invalidErr, &ve)
	paths := map[string]bool{}
	for _, p := range ve.Problems {
		paths[p.Path] = true
	}
	assert.True(t, paths["data.content"], "%v", ve)
	assert.True(t, out.Ephemeral)
	assert.Equal(t, "Something went wrong while handling this interaction.", out.Message.Content)
}

// TestCallbackModeWithTheServer: answers over the callback route, and the
// delivery answered 202.
func TestCallbackModeWithTheServer(t *testing.T) {
	t.Parallel()
	l := newLoop(t, interactions.WithAnswerMode(interactions.AnswerByCallback))
	l.h.HandleComponent("reply", func(ctx context.Context, r *interactions.Request) error { return r.ReplyEphemeral(ctx, "by callback") })
	out, err := l.srv.Click(t.Context(), l.ada, l.msg.ID, "reply")
	require.NoError(t, err)
	assert.Equal(t, "by callback", out.Message.Content)
	d := l.srv.Deliveries()
	require.NotEmpty(t, d)
	last := d[len(d)-1]
	assert.Equal(t, 202, last.Status)
	assert.True(t, last.Callback)

	// A deferral, then the edit, both over REST within the one request: a
	// serverless host's whole job.
	l.h.HandleComponent("defer", func(ctx context.Context, r *interactions.Request) error {
		if err := r.Defer(ctx, false); err != nil {
			return err
		}
		_, err := r.EditOriginal(ctx, &guildkit.WebhookMessageEditParams{Content: guildkit.Some("edited in the same request")})
		return err
	})
	out, err = l.srv.Click(t.Context(), l.ada, l.msg.ID, "defer")
	require.NoError(t, err)
	assert.Equal(t, guildkittest.OutcomeDeferred, out.Kind, out.String())
	assert.Equal(t, "edited in the same request", l.message(t).Content)
}
