package guildkit_test

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// endpoint is an interactions endpoint in plain net/http and
// crypto/ed25519: it verifies the signature, answers PING, and runs
// handle for the rest (which writes the HTTP answer).
type endpoint struct {
	pub    ed25519.PublicKey
	handle func(w http.ResponseWriter, r *http.Request, it *guildkit.Interaction, raw []byte)
}

func (e endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	sig, err := hex.DecodeString(r.Header.Get("X-Signature-Ed25519"))
	if err != nil || !ed25519.Verify(e.pub, append([]byte(r.Header.Get("X-Signature-Timestamp")), body...), sig) {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	var it guildkit.Interaction
	if json.Unmarshal(body, &it) != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	if it.Type == guildkit.InteractionTypePing {
		_, _ = io.WriteString(w, `{"type":1}`)
		return
	}
	e.handle(w, r, &it, body)
}

// interactionSetup is a guild, a channel, two members and a message of the
// application with a button "go", on a fresh server.
type interactionSetup struct {
	srv        *guildkittest.Server
	c          *guildkit.Client
	ch         guildkit.Channel
	alice, bob guildkit.Snowflake
	msg        guildkit.Message
}

func newInteractionSetup(t *testing.T, opts ...guildkit.Option) *interactionSetup {
	t.Helper()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	alice := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "alice"}}).User.ID
	bob := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "bob"}}).User.ID
	msg := srv.AddApplicationMessage(ch.ID, guildkit.Message{Content: "Press",
		Components: components.List{components.NewActionRow(components.PrimaryButton("go", "Go"))}})
	return &interactionSetup{srv: srv, c: srv.Client(opts...), ch: ch, alice: alice, bob: bob, msg: msg}
}

// answerByCallback makes the endpoint answer with resp through
// InteractionService.CreateResponse, then 202; the result goes to got.
// after, when given, runs between the two.
func (s *interactionSetup) answerByCallback(t *testing.T, resp func(it *guildkit.Interaction) *guildkit.InteractionResponse, got *error, after ...func()) {
	s.srv.SetInteractionsHandler(endpoint{pub: s.srv.Application().PublicKey, handle: func(w http.ResponseWriter, r *http.Request, it *guildkit.Interaction, _ []byte) {
		_, err := s.c.Interactions.CreateResponse(r.Context(), it.ID, it.Token, resp(it), nil)
		if got != nil {
			*got = err
		}
		for _, f := range after {
			f()
		}
		w.WriteHeader(http.StatusAccepted)
	}})
}

// TestCreateResponseEveryType sends each callback type through the REST
// service and checks what the user saw.
func TestCreateResponseEveryType(t *testing.T) {
	t.Parallel()
	tests := []struct {
		resp *guildkit.InteractionResponse
		want string
	}{
		{guildkit.MessageResponse(&guildkit.InteractionMessageParams{Content: guildkit.Some("hi")}), "message: hi"},
		{guildkit.DeferredMessageResponse(true), "deferred (ephemeral): loading"},
		{guildkit.DeferredUpdateResponse(), "deferred"},
		{guildkit.UpdateResponse(&guildkit.InteractionMessageParams{Content: guildkit.Some("pressed")}), "updated: pressed"},
		{guildkit.ModalResponse("m", "Title", components.NewLabel("Q", components.NewTextInput("q", components.TextInputShort))), `modal "Title" (m)`},
		{guildkit.LaunchActivityResponse(), "launch activity"},
		{guildkit.AutocompleteResponse(guildkit.CommandOptionChoice{Name: "a", Value: "a"}), "failed: the application did not answer within 3 seconds"},
	}
	for _, tt := range tests {
		t.Run(tt.resp.Type.String(), func(t *testing.T) {
			t.Parallel()
			s := newInteractionSetup(t)
			var err error
			s.answerByCallback(t, func(*guildkit.Interaction) *guildkit.InteractionResponse { return tt.resp }, &err, func() {
				if err != nil {
					s.srv.AdvanceClock(4 * time.Second) // no other answer comes
				}
			})
			out, clickErr := s.srv.Click(t.Context(), s.alice, s.msg.ID, "go")
			require.NoError(t, clickErr)
			assert.Equal(t, tt.want, out.String())
			if tt.resp.Type == guildkit.InteractionResponseAutocompleteResult {
				var apiErr *guildkit.APIError
				require.ErrorAs(t, err, &apiErr, "the platform refuses an autocomplete answer to a click")
				assert.Equal(t, http.StatusBadRequest, apiErr.Status)
				assert.Equal(t, guildkit.CodeInvalidFormBody, apiErr.Code)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.resp.Type, out.Response.Type)
		})
	}
}

// TestInteractionOneAnswerAndDeadline: a second answer is
// ErrInteractionAcknowledged, a late one ErrUnknownInteraction.
func TestInteractionOneAnswerAndDeadline(t *testing.T) {
	t.Parallel()
	s := newInteractionSetup(t)
	var second, late error
	s.srv.SetInteractionsHandler(endpoint{pub: s.srv.Application().PublicKey, handle: func(w http.ResponseWriter, r *http.Request, it *guildkit.Interaction, _ []byte) {
		_, err := s.c.Interactions.CreateResponse(r.Context(), it.ID, it.Token, guildkit.DeferredUpdateResponse(), nil)
		require.NoError(t, err)
		_, second = s.c.Interactions.CreateResponse(r.Context(), it.ID, it.Token, guildkit.DeferredUpdateResponse(), nil)
		w.WriteHeader(http.StatusAccepted)
	}})
	_, err := s.srv.Click(t.Context(), s.alice, s.msg.ID, "go")
	require.NoError(t, err)
	require.ErrorIs(t, second, guildkit.ErrInteractionAcknowledged)
	assert.NotErrorIs(t, second, guildkit.ErrUnknownInteraction)

	s.srv.SetInteractionsHandler(endpoint{pub: s.srv.Application().PublicKey, handle: func(w http.ResponseWriter, r *http.Request, it *guildkit.Interaction, _ []byte) {
		s.srv.AdvanceClock(3*time.Second + time.Millisecond)
		_, late = s.c.Interactions.CreateResponse(r.Context(), it.ID, it.Token, guildkit.DeferredUpdateResponse(), nil)
		w.WriteHeader(http.StatusAccepted)
	}})
	out, err := s.srv.Click(t.Context(), s.alice, s.msg.ID, "go")
	require.NoError(t, err)
	require.ErrorIs(t, late, guildkit.ErrUnknownInteraction)
	assert.Equal(t, guildkittest.OutcomeFailed, out.Kind)
}

// TestInteractionFollowupsFor15Minutes: follow-ups and edits of the
// original response work for 15 minutes of the token's life, then the
// token is an unknown webhook (10015), as on the reference platform.
func TestInteractionFollowupsFor15Minutes(t *testing.T) {
	t.Parallel()
	s := newInteractionSetup(t)
	var token guildkit.InteractionToken
	s.answerByCallback(t, func(it *guildkit.Interaction) *guildkit.InteractionResponse {
		token = it.Token
		return guildkit.DeferredMessageResponse(false)
	}, nil)
	out, err := s.srv.Click(t.Context(), s.alice, s.msg.ID, "go")
	require.NoError(t, err)
	app := s.srv.Application().ID

	s.srv.AdvanceClock(14 * time.Minute)
	m, err := s.c.Interactions.EditOriginalResponse(t.Context(), app, token, &guildkit.WebhookMessageEditParams{Content: guildkit.Some("ready")})
	require.NoError(t, err)
	assert.Equal(t, out.Message.ID, m.ID)
	assert.False(t, m.Flags.Has(guildkit.MessageFlagLoading))
	fu, err := s.c.Interactions.CreateFollowup(t.Context(), app, token, &guildkit.InteractionMessageParams{Content: guildkit.Some("more")})
	require.NoError(t, err)
	assert.NotEqual(t, m.ID, fu.ID, "after an edit of the original, a follow-up is a new message")

	s.srv.AdvanceClock(time.Minute + time.Second)
	_, err = s.c.Interactions.CreateFollowup(t.Context(), app, token, &guildkit.InteractionMessageParams{Content: guildkit.Some("late")})
	var apiErr *guildkit.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, guildkit.CodeInvalidWebhookToken, apiErr.Code)
	_, err = s.c.Interactions.EditFollowup(t.Context(), app, token, fu.ID, &guildkit.WebhookMessageEditParams{Content: guildkit.Some("late")})
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusUnauthorized, apiErr.Status, "an expired token, as the reference platform answers")

	// The token shows in no error, under any verb.
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q"} {
		assert.NotContains(t, fmt.Sprintf(verb, err), string(token), verb)
	}
}

// TestInteractionEphemeralVisibility: an ephemeral answer is seen by the
// invoking user only, and emits no MESSAGE_CREATE.
func TestInteractionEphemeralVisibility(t *testing.T) {
	t.Parallel()
	s := newInteractionSetup(t)
	s.answerByCallback(t, func(*guildkit.Interaction) *guildkit.InteractionResponse {
		return guildkit.MessageResponse(&guildkit.InteractionMessageParams{Content: guildkit.Some("for you"), Flags: guildkit.Some(guildkit.MessageFlagEphemeral)})
	}, nil)
	out, err := s.srv.Click(t.Context(), s.alice, s.msg.ID, "go")
	require.NoError(t, err)
	assert.True(t, out.Ephemeral)
	assert.Len(t, s.srv.ChannelMessages(s.ch.ID, s.alice), 2)
	assert.Len(t, s.srv.ChannelMessages(s.ch.ID, s.bob), 1)
	assert.Empty(t, s.srv.EventsNamed(guildkit.EventMessageCreate))
}

// TestInteractionFilesInAnswer: an answer with files goes as multipart to
// the callback route, and the message has the attachments.
func TestInteractionFilesInAnswer(t *testing.T) {
	t.Parallel()
	s := newInteractionSetup(t)
	var err error
	s.answerByCallback(t, func(*guildkit.Interaction) *guildkit.InteractionResponse {
		return guildkit.MessageResponse(&guildkit.InteractionMessageParams{Content: guildkit.Some("see file"),
			Files: []guildkit.File{{Name: "notes.txt", Reader: strings.NewReader("some notes")}}})
	}, &err)
	out, clickErr := s.srv.Click(t.Context(), s.alice, s.msg.ID, "go")
	require.NoError(t, clickErr)
	require.NoError(t, err)
	require.Len(t, out.Message.Attachments, 1)
	assert.Equal(t, "notes.txt", out.Message.Attachments[0].Filename)
	assert.Equal(t, int64(len("some notes")), out.Message.Attachments[0].Size)
	var callback *guildkittest.Request
	for _, r := range s.srv.Requests() {
		if r.Route == "/interactions/{interaction.id}/{interaction.token}/callback" {
			callback = &r
		}
	}
	require.NotNil(t, callback)
	assert.True(t, strings.HasPrefix(callback.Header.Get("Content-Type"), "multipart/form-data; boundary="))

	// An edit of the original response keeps the attachment its entry
	// names, with the description the entry gives, as Edit Webhook Message.
	att := out.Message.Attachments[0]
	edited, err := s.c.Interactions.EditOriginalResponse(t.Context(), out.Interaction.ApplicationID, out.Interaction.Token,
		&guildkit.WebhookMessageEditParams{Attachments: guildkit.Some([]guildkit.PartialAttachment{{ID: att.ID, Description: "the notes"}})})
	require.NoError(t, err)
	require.Len(t, edited.Attachments, 1)
	assert.Equal(t, att.ID, edited.Attachments[0].ID)
	assert.Equal(t, "the notes", edited.Attachments[0].Description)
}

// TestInteractionInvalidTreeNotSent: an invalid component tree is refused
// by the client, and nothing reaches the server.
func TestInteractionInvalidTreeNotSent(t *testing.T) {
	t.Parallel()
	s := newInteractionSetup(t)
	bad := components.List{components.PrimaryButton("loose", "Not in a row")}
	before := len(s.srv.Requests())
	calls := map[string]func() error{
		"CreateResponse": func() error {
			_, err := s.c.Interactions.CreateResponse(t.Context(), 1, "tok", guildkit.MessageResponse(&guildkit.InteractionMessageParams{Components: bad}), nil)
			return err
		},
		"modal": func() error {
			_, err := s.c.Interactions.CreateResponse(t.Context(), 1, "tok", guildkit.ModalResponse("m", "T", components.NewActionRow(components.PrimaryButton("b", "B"))), nil)
			return err
		},
		"CreateFollowup": func() error {
			_, err := s.c.Interactions.CreateFollowup(t.Context(), s.srv.Application().ID, "tok", &guildkit.InteractionMessageParams{Components: bad})
			return err
		},
		"EditOriginalResponse": func() error {
			_, err := s.c.Interactions.EditOriginalResponse(t.Context(), s.srv.Application().ID, "tok", &guildkit.WebhookMessageEditParams{Components: guildkit.Some(bad)})
			return err
		},
	}
	for name, call := range calls {
		var ve *guildkit.ValidationError
		assert.ErrorAs(t, call(), &ve, name)
	}
	assert.Len(t, s.srv.Requests(), before, "nothing reached the server")
}

// TestInteractionRoutesNotHeldByGlobalLimit: with the client's global
// limit spent for the next thousand seconds, interaction calls still go
// out at once.
func TestInteractionRoutesNotHeldByGlobalLimit(t *testing.T) {
	t.Parallel()
	s := newInteractionSetup(t, guildkit.WithGlobalRateLimit(0.001, 1))
	_, err := s.c.Guilds.Get(t.Context(), s.ch.GuildID, nil) // spends the burst
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	app := s.srv.Application().ID
	var wg sync.WaitGroup
	errs := make([]error, 4)
	calls := []func() error{
		func() error {
			_, err := s.c.Interactions.CreateResponse(ctx, 1, "tok", guildkit.DeferredUpdateResponse(), nil)
			return err
		},
		func() error { _, err := s.c.Interactions.GetOriginalResponse(ctx, app, "tok"); return err },
		func() error {
			_, err := s.c.Interactions.CreateFollowup(ctx, app, "tok", &guildkit.InteractionMessageParams{Content: guildkit.Some("x")})
			return err
		},
		func() error { return s.c.Interactions.DeleteFollowup(ctx, app, "tok", 1) },
	}
	for i, call := range calls {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = call() }()
	}
	wg.Wait()
	for i, err := range errs {
		var apiErr *guildkit.APIError
		require.ErrorAs(t, err, &apiErr, "call %d reached the server instead of waiting for the limiter", i)
		assert.Equal(t, http.StatusNotFound, apiErr.Status)
	}
	// A guild call is still held back by the limiter.
	short, cancelShort := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancelShort()
	_, err = s.c.Guilds.Get(short, s.ch.GuildID, nil)
	require.Error(t, err)
}

// TestInteractionRoutesNotHeldByGlobalPause: right after a global 429 on an
// ordinary route, an interaction callback (due within 3 seconds) is sent at
// once; other calls wait out the pause.
func TestInteractionRoutesNotHeldByGlobalPause(t *testing.T) {
	t.Parallel()
	s := newInteractionSetup(t, guildkit.WithRetry(0, 0, 0))
	s.srv.InjectGlobalLimit(10 * time.Second)
	_, err := s.c.Guilds.Get(t.Context(), s.ch.GuildID, nil)
	var apiErr *guildkit.APIError
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, http.StatusTooManyRequests, apiErr.Status)
	require.Equal(t, 1, s.srv.GlobalRateLimited())

	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
	defer cancel()
	_, err = s.c.Interactions.CreateResponse(ctx, 1, "tok", guildkit.DeferredUpdateResponse(), nil)
	require.ErrorAs(t, err, &apiErr, "the callback reached the server instead of waiting out the global pause")
	assert.Equal(t, http.StatusNotFound, apiErr.Status)
	_, err = s.c.Interactions.GetOriginalResponse(ctx, s.srv.Application().ID, "tok")
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusNotFound, apiErr.Status)

	// A guild call is still held by the pause: it would outlast the deadline.
	_, err = s.c.Guilds.Get(ctx, s.ch.GuildID, nil)
	require.Error(t, err)
	assert.False(t, errors.As(err, &apiErr), "refused before it was sent: %v", err)
	assert.Equal(t, 1, s.srv.GlobalRateLimited())
}

// TestDeliveredInteractionShape: the delivered JSON has every field of the
// reference platform's interaction, and decodes into guildkit.Interaction.
func TestDeliveredInteractionShape(t *testing.T) {
	t.Parallel()
	s := newInteractionSetup(t)
	var raw []byte
	s.srv.SetInteractionsHandler(endpoint{pub: s.srv.Application().PublicKey, handle: func(w http.ResponseWriter, _ *http.Request, _ *guildkit.Interaction, body []byte) {
		raw = body
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"type":6}`)
	}})
	_, err := s.srv.Click(t.Context(), s.alice, s.msg.ID, "go")
	require.NoError(t, err)
	var fields map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &fields))
	want := []string{"id", "application_id", "type", "data", "guild", "guild_id", "channel", "channel_id", "member", "token", "version",
		"message", "app_permissions", "locale", "guild_locale", "entitlements", "authorizing_integration_owners", "context", "attachment_size_limit"}
	for _, k := range want {
		assert.Contains(t, fields, k)
	}
	assert.JSONEq(t, `3`, string(fields["type"]))
	assert.JSONEq(t, `1`, string(fields["version"]))
	assert.JSONEq(t, `0`, string(fields["context"]))
	assert.JSONEq(t, `[]`, string(fields["entitlements"]))
	assert.JSONEq(t, `"en-US"`, string(fields["locale"]))
	var data map[string]any
	require.NoError(t, json.Unmarshal(fields["data"], &data))
	assert.Equal(t, map[string]any{"custom_id": "go", "component_type": float64(2), "id": float64(2)}, data)
	var member map[string]any
	require.NoError(t, json.Unmarshal(fields["member"], &member))
	assert.Contains(t, member, "permissions")
	assert.Contains(t, member, "user")
	var perms string
	require.NoError(t, json.Unmarshal(fields["app_permissions"], &perms), "permissions are strings")

	var it guildkit.Interaction
	require.NoError(t, json.Unmarshal(raw, &it))
	assert.Equal(t, "go", it.CustomID())
	assert.Equal(t, s.alice, it.Invoker().ID)
	assert.NotContains(t, it.String(), string(it.Token))
}
