package guildkit_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// webhookFixture is a guild owned by the bot with a text channel and an
// incoming webhook in it.
type webhookFixture struct {
	srv     *guildkittest.Server
	c       *guildkit.Client
	guild   guildkit.Guild
	channel guildkit.Channel
	hook    guildkit.Webhook
}

func newWebhookFixture(t *testing.T, opts ...guildkittest.WebhookOption) webhookFixture {
	t.Helper()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	hook := srv.AddWebhook(ch.ID, "Captain Hook", opts...)
	return webhookFixture{srv: srv, c: srv.Client(), guild: g, channel: ch, hook: hook}
}

// seedWebhook seeds a guild, a channel and a webhook for a ledger call.
func seedWebhook(srv *guildkittest.Server) (guildkit.Guild, guildkit.Channel, guildkit.Webhook) {
	g := srv.AddGuild(guildkit.Guild{})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	return g, ch, srv.AddWebhook(ch.ID, "ledger")
}

var (
	_ = registerLedger("Create Webhook", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, ch, _ := seedWebhook(srv)
		_, err := c.Webhooks.Create(ctx, ch.ID, &guildkit.WebhookCreateParams{Name: "new"})
		return err
	})
	_ = registerLedger("Get Channel Webhooks", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, ch, _ := seedWebhook(srv)
		_, err := c.Webhooks.ListByChannel(ctx, ch.ID)
		return err
	})
	_ = registerLedger("Get Guild Webhooks", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		g, _, _ := seedWebhook(srv)
		_, err := c.Webhooks.ListByGuild(ctx, g.ID)
		return err
	})
	_ = registerLedger("Get Webhook", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, _, h := seedWebhook(srv)
		_, err := c.Webhooks.Get(ctx, h.ID)
		return err
	})
	_ = registerLedger("Get Webhook with Token", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, _, h := seedWebhook(srv)
		_, err := c.Webhooks.GetWithToken(ctx, h.ID, h.Token)
		return err
	})
	_ = registerLedger("Modify Webhook", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, _, h := seedWebhook(srv)
		_, err := c.Webhooks.Modify(ctx, h.ID, &guildkit.WebhookModifyParams{Name: guildkit.Some("renamed")})
		return err
	})
	_ = registerLedger("Modify Webhook with Token", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, _, h := seedWebhook(srv)
		_, err := c.Webhooks.ModifyWithToken(ctx, h.ID, h.Token, &guildkit.WebhookModifyWithTokenParams{Name: guildkit.Some("renamed")})
		return err
	})
	_ = registerLedger("Delete Webhook", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, _, h := seedWebhook(srv)
		return c.Webhooks.Delete(ctx, h.ID)
	})
	_ = registerLedger("Delete Webhook with Token", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, _, h := seedWebhook(srv)
		return c.Webhooks.DeleteWithToken(ctx, h.ID, h.Token)
	})
	_ = registerLedger("Execute Webhook", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, _, h := seedWebhook(srv)
		_, err := c.Webhooks.Execute(ctx, h.ID, h.Token, &guildkit.WebhookExecuteParams{Content: guildkit.Some("hi")})
		return err
	})
	_ = registerLedger("Execute chat-service-compatible Webhook", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, _, h := seedWebhook(srv)
		_, err := c.Webhooks.ExecuteChatCompat(ctx, h.ID, h.Token, &guildkit.ChatCompatPayload{Text: "hi"}, nil)
		return err
	})
	_ = registerLedger("Execute repository-compatible Webhook", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, _, h := seedWebhook(srv)
		_, err := c.Webhooks.ExecuteRepoCompat(ctx, h.ID, h.Token, guildkit.RepoEventWatch, json.RawMessage(`{"action":"started"}`), nil)
		return err
	})
	_ = registerLedger("Get Webhook Message", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, _, h := seedWebhook(srv)
		m, err := c.Webhooks.Execute(ctx, h.ID, h.Token, &guildkit.WebhookExecuteParams{Content: guildkit.Some("hi"), Wait: guildkit.Some(true)})
		if err != nil {
			return err
		}
		_, err = c.Webhooks.GetMessage(ctx, h.ID, h.Token, m.ID, nil)
		return err
	})
	_ = registerLedger("Edit Webhook Message", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, _, h := seedWebhook(srv)
		m, err := c.Webhooks.Execute(ctx, h.ID, h.Token, &guildkit.WebhookExecuteParams{Content: guildkit.Some("hi"), Wait: guildkit.Some(true)})
		if err != nil {
			return err
		}
		_, err = c.Webhooks.EditMessage(ctx, h.ID, h.Token, m.ID, &guildkit.WebhookMessageEditParams{Content: guildkit.Some("edited")})
		return err
	})
	_ = registerLedger("Delete Webhook Message", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		_, _, h := seedWebhook(srv)
		m, err := c.Webhooks.Execute(ctx, h.ID, h.Token, &guildkit.WebhookExecuteParams{Content: guildkit.Some("hi"), Wait: guildkit.Some(true)})
		if err != nil {
			return err
		}
		return c.Webhooks.DeleteMessage(ctx, h.ID, h.Token, m.ID, nil)
	})
)

func TestWebhookCreateListGetModifyDelete(t *testing.T) {
	t.Parallel()
	f := newWebhookFixture(t)
	ctx := t.Context()
	other := f.srv.AddChannel(f.guild.ID, guildkit.Channel{Name: "other", Type: guildkit.ChannelTypeGuildText})
	var w *guildkit.Webhook

	if !t.Run("create, with a reason and an avatar", func(t *testing.T) {
		pngAvatar, err := guildkit.NewImageData(webhookPNG(t))
		require.NoError(t, err)
		w, err = f.c.Webhooks.Create(ctx, f.channel.ID, &guildkit.WebhookCreateParams{Name: "Spidey", Avatar: guildkit.Some(pngAvatar)},
			guildkit.WithReason("for the tests"))
		require.NoError(t, err)
		assert.Equal(t, guildkit.WebhookTypeIncoming, w.Type)
		require.NotNil(t, w.Name)
		assert.Equal(t, "Spidey", *w.Name)
		assert.NotEmpty(t, w.Token)
		assert.NotNil(t, w.Avatar)
		require.NotNil(t, w.User)
		assert.Equal(t, f.srv.BotID(), w.User.ID)
		require.NotNil(t, w.ApplicationID, "a bot's webhook is owned by its application")
		assert.Equal(t, f.srv.BotID(), *w.ApplicationID)
		assert.True(t, w.ApplicationOwned())
		gid, _ := w.GuildID.Get()
		assert.Equal(t, f.guild.ID, gid)
		req, _ := f.srv.LastRequest()
		assert.Equal(t, "for%20the%20tests", req.Header.Get("X-Audit-Log-Reason"))
		ev := f.srv.EventsNamed(guildkit.EventWebhooksUpdate)
		require.Len(t, ev, 1)
		assert.Equal(t, guildkit.WebhooksUpdateEvent{GuildID: f.guild.ID, ChannelID: f.channel.ID}, ev[0].Data)
	}) {
		return // the phases below need the webhook
	}

	t.Run("list by channel and by guild", func(t *testing.T) {
		list, err := f.c.Webhooks.ListByChannel(ctx, f.channel.ID)
		require.NoError(t, err)
		assert.Len(t, list, 2)
		list, err = f.c.Webhooks.ListByChannel(ctx, other.ID)
		require.NoError(t, err)
		assert.Empty(t, list)
		list, err = f.c.Webhooks.ListByGuild(ctx, f.guild.ID)
		require.NoError(t, err)
		assert.Len(t, list, 2)
	})

	t.Run("get", func(t *testing.T) {
		got, err := f.c.Webhooks.Get(ctx, w.ID)
		require.NoError(t, err)
		assert.Equal(t, w.ID, got.ID)
		require.NotNil(t, got.User)
	})

	t.Run("modify moves it and resets the avatar", func(t *testing.T) {
		mod, err := f.c.Webhooks.Modify(ctx, w.ID, &guildkit.WebhookModifyParams{
			Name: guildkit.Some("Spidey 2"), Avatar: guildkit.Null[guildkit.ImageData](), ChannelID: guildkit.Some(other.ID),
		}, guildkit.WithReason("moving"))
		require.NoError(t, err)
		assert.Equal(t, "Spidey 2", *mod.Name)
		assert.Nil(t, mod.Avatar, "Null resets the avatar")
		assert.Equal(t, other.ID, *mod.ChannelID)
		ev := f.srv.EventsNamed(guildkit.EventWebhooksUpdate)
		require.Len(t, ev, 3, "a move updates both channels")
		assert.Equal(t, guildkit.WebhooksUpdateEvent{GuildID: f.guild.ID, ChannelID: f.channel.ID}, ev[1].Data)
		assert.Equal(t, guildkit.WebhooksUpdateEvent{GuildID: f.guild.ID, ChannelID: other.ID}, ev[2].Data)
	})

	t.Run("modify to an unknown channel", func(t *testing.T) {
		_, err := f.c.Webhooks.Modify(ctx, w.ID, &guildkit.WebhookModifyParams{ChannelID: guildkit.Some(guildkit.Snowflake(12345))})
		ae := requireWebhookAPIError(t, err, http.StatusBadRequest, guildkit.CodeInvalidFormBody)
		assert.Equal(t, "channel_id", ae.Errors[0].Path)
	})

	t.Run("delete, then gone", func(t *testing.T) {
		require.NoError(t, f.c.Webhooks.Delete(ctx, w.ID, guildkit.WithReason("done")))
		assert.Len(t, f.srv.EventsNamed(guildkit.EventWebhooksUpdate), 4)
		_, ok := f.srv.Webhook(w.ID)
		assert.False(t, ok)
		_, err := f.c.Webhooks.Get(ctx, w.ID)
		requireWebhookAPIError(t, err, http.StatusNotFound, guildkit.CodeUnknownWebhook)
		assert.ErrorIs(t, err, guildkit.ErrNotFound)
		err = f.c.Webhooks.Delete(ctx, w.ID)
		requireWebhookAPIError(t, err, http.StatusNotFound, guildkit.CodeUnknownWebhook)
	})

	t.Run("create in an unknown channel", func(t *testing.T) {
		_, err := f.c.Webhooks.Create(ctx, 999, &guildkit.WebhookCreateParams{Name: "x"})
		requireWebhookAPIError(t, err, http.StatusNotFound, guildkit.CodeUnknownChannel)
	})
}

func TestWebhookNameRules(t *testing.T) {
	t.Parallel()
	f := newWebhookFixture(t)
	ctx := t.Context()
	for _, tc := range []struct{ name, code string }{
		{"", "required"},
		{"   ", "required"},
		{strings.Repeat("é", 81), "length"},
		{"My Discord hook", "invalid"},
		{"cLyDe", "invalid"},
	} {
		_, err := f.c.Webhooks.Create(ctx, f.channel.ID, &guildkit.WebhookCreateParams{Name: tc.name})
		requireWebhookProblem(t, err, "name", tc.code)
	}
	_, err := f.c.Webhooks.Create(ctx, f.channel.ID, nil)
	requireWebhookProblem(t, err, "name", "required")
	_, err = f.c.Webhooks.Create(ctx, f.channel.ID, &guildkit.WebhookCreateParams{Name: "ok", Avatar: guildkit.Some(guildkit.ImageData("not a data uri"))})
	requireWebhookProblem(t, err, "avatar", "invalid")
	_, err = f.c.Webhooks.Modify(ctx, f.hook.ID, &guildkit.WebhookModifyParams{Name: guildkit.Null[string](), ChannelID: guildkit.Null[guildkit.Snowflake]()})
	requireWebhookProblem(t, err, "name", "not_null")
	requireWebhookProblem(t, err, "channel_id", "not_null")
	_, err = f.c.Webhooks.ModifyWithToken(ctx, f.hook.ID, f.hook.Token, &guildkit.WebhookModifyWithTokenParams{Name: guildkit.Some("discord")})
	requireWebhookProblem(t, err, "name", "invalid")
	_, err = f.c.Webhooks.Create(ctx, f.channel.ID, &guildkit.WebhookCreateParams{Name: strings.Repeat("é", 80)})
	assert.NoError(t, err, "80 characters (not bytes) is fine")
	assert.Len(t, f.srv.Requests(), 1, "only the valid call was sent")

	// The reserved words are configurable; the server keeps the platform's.
	custom := f.srv.Client(guildkit.WithReservedWebhookNames("acme"))
	_, err = custom.Webhooks.Create(ctx, f.channel.ID, &guildkit.WebhookCreateParams{Name: "ACME bot"})
	requireWebhookProblem(t, err, "name", "invalid")
	_, err = custom.Webhooks.Create(ctx, f.channel.ID, &guildkit.WebhookCreateParams{Name: "clyde's hook"})
	ae := requireWebhookAPIError(t, err, http.StatusBadRequest, guildkit.CodeInvalidFormBody)
	require.Len(t, ae.Errors, 1)
	assert.Equal(t, "name", ae.Errors[0].Path)
	assert.Contains(t, ae.Errors[0].Message, "clyde")
	unchecked := f.srv.Client(guildkit.WithReservedWebhookNames())
	_, err = unchecked.Webhooks.Create(ctx, f.channel.ID, &guildkit.WebhookCreateParams{Name: "discord"})
	requireWebhookAPIError(t, err, http.StatusBadRequest, guildkit.CodeInvalidFormBody)
	_, err = guildkit.New(nil, guildkit.WithBaseURL(f.srv.BaseURL()), guildkit.WithReservedWebhookNames(""))
	assert.Error(t, err)
}

func TestWebhookPermissions(t *testing.T) {
	t.Parallel()
	f := newWebhookFixture(t)
	ctx := t.Context()
	u := f.srv.AddUser(guildkit.User{Username: "pleb"})
	f.srv.AddMember(f.guild.ID, guildkit.Member{User: &u})
	pleb := f.srv.ClientAs(u.ID)

	_, err := pleb.Webhooks.Create(ctx, f.channel.ID, &guildkit.WebhookCreateParams{Name: "x"})
	requireWebhookAPIError(t, err, http.StatusForbidden, guildkit.CodeMissingPermissions)
	_, err = pleb.Webhooks.ListByChannel(ctx, f.channel.ID)
	assert.ErrorIs(t, err, guildkit.ErrForbidden)
	_, err = pleb.Webhooks.ListByGuild(ctx, f.guild.ID)
	assert.ErrorIs(t, err, guildkit.ErrForbidden)
	_, err = pleb.Webhooks.Get(ctx, f.hook.ID)
	assert.ErrorIs(t, err, guildkit.ErrForbidden)
	_, err = pleb.Webhooks.Modify(ctx, f.hook.ID, &guildkit.WebhookModifyParams{Name: guildkit.Some("y")})
	assert.ErrorIs(t, err, guildkit.ErrForbidden)
	assert.ErrorIs(t, pleb.Webhooks.Delete(ctx, f.hook.ID), guildkit.ErrForbidden)
	_, err = f.c.Webhooks.ListByGuild(ctx, 4242)
	requireWebhookAPIError(t, err, http.StatusNotFound, guildkit.CodeUnknownGuild)
	stranger := f.srv.ClientAs(f.srv.AddUser(guildkit.User{Username: "stranger"}).ID)
	_, err = stranger.Webhooks.ListByGuild(ctx, f.guild.ID)
	requireWebhookAPIError(t, err, http.StatusForbidden, guildkit.CodeMissingAccess)
	_, err = stranger.Webhooks.ListByChannel(ctx, f.channel.ID)
	requireWebhookAPIError(t, err, http.StatusForbidden, guildkit.CodeMissingAccess)

	// A role with MANAGE_WEBHOOKS is enough.
	r := f.srv.AddRole(f.guild.ID, guildkit.Role{Name: "hooks", Permissions: guildkit.PermissionManageWebhooks})
	m := f.srv.AddUser(guildkit.User{Username: "manager"})
	f.srv.AddMember(f.guild.ID, guildkit.Member{User: &m, Roles: []guildkit.Snowflake{r.ID}})
	_, err = f.srv.ClientAs(m.ID).Webhooks.Get(ctx, f.hook.ID)
	assert.NoError(t, err)

	// The owning application may Get its webhook without the permission,
	// even from outside the guild; it may not modify it.
	app := f.srv.AddUser(guildkit.User{Username: "app", Bot: true})
	owned := f.srv.AddWebhook(f.channel.ID, "owned", guildkittest.WebhookApplication(app.ID))
	appClient := f.srv.ClientAs(app.ID)
	got, err := appClient.Webhooks.Get(ctx, owned.ID)
	require.NoError(t, err)
	assert.Equal(t, owned.ID, got.ID)
	_, err = appClient.Webhooks.Get(ctx, f.hook.ID)
	requireWebhookAPIError(t, err, http.StatusForbidden, guildkit.CodeMissingAccess)
	_, err = appClient.Webhooks.Modify(ctx, owned.ID, &guildkit.WebhookModifyParams{Name: guildkit.Some("z")})
	assert.ErrorIs(t, err, guildkit.ErrForbidden)

	// The token operations need no permission at all.
	anon, err := guildkit.New(nil, guildkit.WithBaseURL(f.srv.BaseURL()))
	require.NoError(t, err)
	_, err = anon.Webhooks.GetWithToken(ctx, f.hook.ID, f.hook.Token)
	assert.NoError(t, err)
	_, err = anon.Webhooks.Get(ctx, f.hook.ID)
	assert.ErrorIs(t, err, guildkit.ErrNoCredential)
}

func TestWebhookTokenOperations(t *testing.T) {
	t.Parallel()
	f := newWebhookFixture(t)
	ctx := t.Context()
	w, err := f.c.Webhooks.GetWithToken(ctx, f.hook.ID, f.hook.Token)
	require.NoError(t, err)
	assert.Nil(t, w.User, "token fetches omit the user")
	assert.Equal(t, "Captain Hook", *w.Name)

	w, err = f.c.Webhooks.ModifyWithToken(ctx, f.hook.ID, f.hook.Token, &guildkit.WebhookModifyWithTokenParams{Name: guildkit.Some("Smee")})
	require.NoError(t, err)
	assert.Equal(t, "Smee", *w.Name)
	assert.Nil(t, w.User)
	stored, _ := f.srv.Webhook(f.hook.ID)
	assert.Equal(t, "Smee", *stored.Name)

	_, err = f.c.Webhooks.GetWithToken(ctx, f.hook.ID, "wrong-token")
	requireWebhookAPIError(t, err, http.StatusUnauthorized, guildkit.CodeInvalidWebhookToken)
	assert.ErrorIs(t, err, guildkit.ErrUnauthorized)
	assert.NotContains(t, err.Error(), "wrong-token")
	_, err = f.c.Webhooks.GetWithToken(ctx, 4242, f.hook.Token)
	requireWebhookAPIError(t, err, http.StatusNotFound, guildkit.CodeUnknownWebhook)
	_, err = f.c.Webhooks.GetWithToken(ctx, f.hook.ID, "")
	requireWebhookProblem(t, err, "webhook.token", "required")
	_, err = f.c.Webhooks.GetWithToken(ctx, f.hook.ID, f.hook.Token, guildkit.WithReason("no"))
	requireWebhookProblem(t, err, "reason", "not_allowed")

	require.NoError(t, f.c.Webhooks.DeleteWithToken(ctx, f.hook.ID, f.hook.Token))
	assert.Len(t, f.srv.EventsNamed(guildkit.EventWebhooksUpdate), 2)
	err = f.c.Webhooks.DeleteWithToken(ctx, f.hook.ID, f.hook.Token)
	requireWebhookAPIError(t, err, http.StatusNotFound, guildkit.CodeUnknownWebhook)
}

// TestWebhookTokenRequestsSendNoAuthorization runs every token operation on
// a client that has a bot credential and inspects the raw requests: no
// Authorization header, and the token only in the path.
func TestWebhookTokenRequestsSendNoAuthorization(t *testing.T) {
	t.Parallel()
	f := newWebhookFixture(t)
	ctx := t.Context()
	id, tok := f.hook.ID, f.hook.Token
	m, err := f.c.Webhooks.Execute(ctx, id, tok, &guildkit.WebhookExecuteParams{Content: guildkit.Some("hi"), Wait: guildkit.Some(true)})
	require.NoError(t, err)
	_, err = f.c.Webhooks.Execute(ctx, id, tok, &guildkit.WebhookExecuteParams{Files: []guildkit.File{{Name: "a.txt", Reader: strings.NewReader("a")}}})
	require.NoError(t, err)
	_, err = f.c.Webhooks.GetMessage(ctx, id, tok, m.ID, nil)
	require.NoError(t, err)
	_, err = f.c.Webhooks.EditMessage(ctx, id, tok, m.ID, &guildkit.WebhookMessageEditParams{Content: guildkit.Some("ho")})
	require.NoError(t, err)
	_, err = f.c.Webhooks.ExecuteChatCompat(ctx, id, tok, &guildkit.ChatCompatPayload{Text: "chat"}, nil)
	require.NoError(t, err)
	_, err = f.c.Webhooks.ExecuteRepoCompat(ctx, id, tok, guildkit.RepoEventPush, json.RawMessage(`{"ref":"refs/heads/main","commits":[]}`), nil)
	require.NoError(t, err)
	require.NoError(t, f.c.Webhooks.DeleteMessage(ctx, id, tok, m.ID, nil))
	_, err = f.c.Webhooks.GetWithToken(ctx, id, tok)
	require.NoError(t, err)
	_, err = f.c.Webhooks.ModifyWithToken(ctx, id, tok, &guildkit.WebhookModifyWithTokenParams{Name: guildkit.Some("n")})
	require.NoError(t, err)
	require.NoError(t, f.c.Webhooks.DeleteWithToken(ctx, id, tok))

	reqs := f.srv.Requests()
	require.Len(t, reqs, 10)
	for _, r := range reqs {
		assert.Contains(t, r.Route, "{webhook.token}")
		assert.Empty(t, r.Header.Values("Authorization"), "%s %s sent Authorization", r.Method, r.Route)
		// The token went in the path (the route matched it); the log
		// shows the path with it redacted.
		assert.Contains(t, r.Path, "/webhooks/"+id.String()+"/[redacted]", "the token is in the path")
		assert.NotContains(t, r.Path, tok, "the request log never shows the token")
		for k, vs := range r.Header {
			for _, v := range vs {
				assert.NotContains(t, v, tok, "header %s carries the token", k)
			}
		}
		for k, vs := range r.Query {
			for _, v := range vs {
				assert.NotContains(t, v, tok, "query %s carries the token", k)
			}
		}
		assert.NotContains(t, string(r.Body), tok)
	}
}

func TestWebhookErrorsNeverShowTheToken(t *testing.T) {
	t.Parallel()
	f := newWebhookFixture(t)
	ctx := t.Context()
	var logs strings.Builder
	c := f.srv.Client(guildkit.WithLogger(webhookLogger(&logs)))
	_, err := c.Webhooks.Execute(ctx, f.hook.ID, f.hook.Token, &guildkit.WebhookExecuteParams{Content: guildkit.Some("x"), ThreadID: guildkit.Some(guildkit.Snowflake(77))})
	require.Error(t, err)
	assert.NotContains(t, err.Error(), f.hook.Token)
	assert.Contains(t, err.Error(), "{webhook.token}")
	assert.NotContains(t, fmt.Sprintf("%v %+v %#v", f.hook, f.hook, f.hook), f.hook.Token)

	// A transport failure names the route, not the URL.
	dead, err := guildkit.New(nil, guildkit.WithBaseURL("http://127.0.0.1:1/api"), guildkit.WithRetry(0, 0, 0), guildkit.WithLogger(webhookLogger(&logs)))
	require.NoError(t, err)
	_, err = dead.Webhooks.GetWithToken(ctx, f.hook.ID, f.hook.Token)
	require.Error(t, err)
	assert.NotContains(t, err.Error(), f.hook.Token)
	assert.NotContains(t, logs.String(), f.hook.Token)
	assert.NotEmpty(t, logs.String())
}

func TestWebhookExecute(t *testing.T) {
	t.Parallel()
	f := newWebhookFixture(t)
	ctx := t.Context()
	u := f.srv.AddUser(guildkit.User{Username: "wendy"})
	other := f.srv.AddUser(guildkit.User{Username: "john"})
	r := f.srv.AddRole(f.guild.ID, guildkit.Role{Name: "lost boys"})

	// Without wait: 204, no message, no error.
	m, err := f.c.Webhooks.Execute(ctx, f.hook.ID, f.hook.Token, &guildkit.WebhookExecuteParams{Content: guildkit.Some("fire and forget")})
	require.NoError(t, err)
	assert.Nil(t, m)
	req, _ := f.srv.LastRequest()
	assert.Equal(t, http.StatusNoContent, req.Status)
	require.Len(t, f.srv.WebhookMessages(f.hook.ID), 1)

	content := fmt.Sprintf("hi <@%s> and <@!%s>, <@&%s> @everyone", u.ID, other.ID, r.ID)
	m, err = f.c.Webhooks.Execute(ctx, f.hook.ID, f.hook.Token, &guildkit.WebhookExecuteParams{
		Wait:      guildkit.Some(true),
		Content:   guildkit.Some(content),
		Username:  guildkit.Some("Tinker Bell"),
		AvatarURL: guildkit.Some("https://example.com/tb.png"),
		TTS:       guildkit.Some(true),
		Embeds: []guildkit.Embed{{Title: "Map", Color: guildkit.Some(0x00ff00), Fields: []guildkit.EmbedField{{Name: "to", Value: "Neverland", Inline: true}},
			Footer: &guildkit.EmbedFooter{Text: "second star"}, Image: &guildkit.EmbedMedia{URL: "https://example.com/map.png"}}},
		AllowedMentions: guildkit.Some(guildkit.AllowedMentions{Parse: []guildkit.AllowedMentionType{guildkit.AllowedMentionRoles}, Users: []guildkit.Snowflake{u.ID}}),
		Flags:           guildkit.Some(guildkit.MessageFlagSuppressNotifications),
	})
	require.NoError(t, err)
	require.NotNil(t, m)
	assert.Equal(t, content, m.Content)
	assert.Equal(t, f.channel.ID, m.ChannelID)
	require.NotNil(t, m.WebhookID)
	assert.Equal(t, f.hook.ID, *m.WebhookID)
	require.NotNil(t, m.Author)
	assert.Equal(t, "Tinker Bell", m.Author.Username)
	assert.True(t, m.Author.Bot)
	assert.True(t, m.TTS)
	assert.Equal(t, guildkit.MessageFlagSuppressNotifications, m.Flags)
	require.Len(t, m.Embeds, 1)
	assert.Equal(t, guildkit.EmbedTypeRich, m.Embeds[0].Type)
	assert.Equal(t, 0x00ff00, m.Embeds[0].Color.Or(0))
	require.Len(t, m.Mentions, 1, "only the allowed user is mentioned")
	assert.Equal(t, u.ID, m.Mentions[0].ID)
	assert.Equal(t, []guildkit.Snowflake{r.ID}, m.MentionRoles)
	assert.False(t, m.MentionEveryone, "everyone is not in parse")
	stored, ok := f.srv.WebhookMessage(m.ID)
	require.True(t, ok)
	assert.Equal(t, m.Content, stored.Content)

	// Default allowances: everything pings.
	m, err = f.c.Webhooks.Execute(ctx, f.hook.ID, f.hook.Token, &guildkit.WebhookExecuteParams{Wait: guildkit.Some(true), Content: guildkit.Some(content)})
	require.NoError(t, err)
	assert.Len(t, m.Mentions, 2)
	assert.True(t, m.MentionEveryone)

	// A poll alone is a message.
	m, err = f.c.Webhooks.Execute(ctx, f.hook.ID, f.hook.Token, &guildkit.WebhookExecuteParams{Wait: guildkit.Some(true), Poll: guildkit.Some(guildkit.PollCreate{
		Question: guildkit.PollMedia{Text: "Grow up?"},
		Answers:  []guildkit.PollAnswer{{PollMedia: guildkit.PollMedia{Text: "never"}}, {PollMedia: guildkit.PollMedia{Text: "maybe"}}},
		Duration: guildkit.Some(2),
	})})
	require.NoError(t, err)
	require.NotNil(t, m.Poll)
	assert.Len(t, m.Poll.Answers, 2)
	assert.Equal(t, 2, m.Poll.Answers[1].AnswerID)
}

func TestWebhookExecuteValidation(t *testing.T) {
	t.Parallel()
	f := newWebhookFixture(t)
	ctx := t.Context()
	exec := func(p *guildkit.WebhookExecuteParams) error {
		_, err := f.c.Webhooks.Execute(ctx, f.hook.ID, f.hook.Token, p)
		return err
	}
	eleven := make([]guildkit.Embed, 11)
	for i := range eleven {
		eleven[i].Title = "e"
	}
	requireWebhookProblem(t, exec(nil), "", "required")
	requireWebhookProblem(t, exec(&guildkit.WebhookExecuteParams{}), "", "required")
	requireWebhookProblem(t, exec(&guildkit.WebhookExecuteParams{Content: guildkit.Some(strings.Repeat("x", 2001))}), "content", "length")
	assert.NoError(t, exec(&guildkit.WebhookExecuteParams{Content: guildkit.Some(strings.Repeat("ü", 2000))}))
	requireWebhookProblem(t, exec(&guildkit.WebhookExecuteParams{Embeds: eleven}), "embeds", "length")
	requireWebhookProblem(t, exec(&guildkit.WebhookExecuteParams{Content: guildkit.Null[string]()}), "content", "not_null")
	requireWebhookProblem(t, exec(&guildkit.WebhookExecuteParams{Content: guildkit.Some("x"), Flags: guildkit.Some(guildkit.MessageFlagEphemeral)}), "flags", "not_allowed")
	requireWebhookProblem(t, exec(&guildkit.WebhookExecuteParams{Content: guildkit.Some("x"), Username: guildkit.Some("Discord Support")}), "username", "invalid")
	v2 := guildkit.Some(guildkit.MessageFlagIsComponentsV2)
	err := exec(&guildkit.WebhookExecuteParams{Flags: v2, Content: guildkit.Some("x"), Embeds: []guildkit.Embed{{Title: "t"}},
		Files: []guildkit.File{{Name: "a.txt", Reader: strings.NewReader("a")}},
		Poll:  guildkit.Some(guildkit.PollCreate{Question: guildkit.PollMedia{Text: "q"}, Answers: []guildkit.PollAnswer{{PollMedia: guildkit.PollMedia{Text: "a"}}}})})
	for _, p := range []string{"content", "embeds", "files[0]", "poll"} {
		requireWebhookProblem(t, err, p, "conflict")
	}
	requireWebhookProblem(t, exec(&guildkit.WebhookExecuteParams{Embeds: []guildkit.Embed{{Type: guildkit.EmbedTypeVideo, Video: &guildkit.EmbedMedia{URL: "u"},
		Provider: &guildkit.EmbedProvider{Name: "p"}, Thumbnail: &guildkit.EmbedMedia{URL: "u", Width: 3}}}}), "embeds[0].type", "not_allowed")
	err = exec(&guildkit.WebhookExecuteParams{Embeds: []guildkit.Embed{{Video: &guildkit.EmbedMedia{URL: "u"}, Provider: &guildkit.EmbedProvider{Name: "p"},
		Thumbnail: &guildkit.EmbedMedia{URL: "u", Width: 3}, Color: guildkit.Some(0x1000000)}}})
	requireWebhookProblem(t, err, "embeds[0].video", "not_allowed")
	requireWebhookProblem(t, err, "embeds[0].provider", "not_allowed")
	requireWebhookProblem(t, err, "embeds[0].thumbnail", "not_allowed")
	requireWebhookProblem(t, err, "embeds[0].color", "range")
	requireWebhookProblem(t, exec(&guildkit.WebhookExecuteParams{Content: guildkit.Some("x"),
		AllowedMentions: guildkit.Some(guildkit.AllowedMentions{Parse: []guildkit.AllowedMentionType{"users"}, Users: []guildkit.Snowflake{1}})}),
		"allowed_mentions.users", "conflict")
	requireWebhookProblem(t, exec(&guildkit.WebhookExecuteParams{Files: []guildkit.File{{Name: "a"}}}), "files[0].reader", "required")
	requireWebhookProblem(t, exec(&guildkit.WebhookExecuteParams{Files: []guildkit.File{{Name: "a", Reader: strings.NewReader("")}},
		Attachments: []guildkit.PartialAttachment{{ID: 1}}}), "attachments[0].id", "invalid")
	requireWebhookProblem(t, exec(&guildkit.WebhookExecuteParams{Content: guildkit.Some("x"), ThreadID: guildkit.Some(guildkit.Snowflake(5)),
		ThreadName: guildkit.Some("t")}), "thread_name", "conflict")
	requireWebhookProblem(t, exec(&guildkit.WebhookExecuteParams{Poll: guildkit.Some(guildkit.PollCreate{})}), "poll.question.text", "required")
	assert.Len(t, f.srv.Requests(), 1, "only the valid call reached the server")

	// The server's own checks, for a client that does not validate.
	for _, body := range []struct {
		json string
		code guildkit.ErrorCode
		path string
	}{
		{`{}`, 50006, ""},
		{`{"content":"` + strings.Repeat("x", 2001) + `"}`, guildkit.CodeInvalidFormBody, "content"},
		{`{"content":"x","flags":64}`, guildkit.CodeInvalidFormBody, "flags"},
		{`{"content":"x","flags":32768}`, guildkit.CodeInvalidFormBody, "content"},
		{`{"content":"x","thread_name":"t"}`, guildkit.CodeInvalidRequest, ""},
		{`{"embeds":[{"title":"t"}],"flags":32768}`, guildkit.CodeInvalidFormBody, "embeds"},
		{`{"poll":{"question":{"text":"q"},"answers":[{"poll_media":{"text":"a"}}]},"flags":32768}`, guildkit.CodeInvalidFormBody, "poll"},
		{`{"content":"x","username":"Clyde"}`, guildkit.CodeInvalidFormBody, "username"},
	} {
		_, err := guildkit.ExportDoNoAuth(f.c, ctx, "POST", "/webhooks/{webhook.id}/{webhook.token}", json.RawMessage(body.json), nil, f.hook.ID, f.hook.Token)
		ae := requireWebhookAPIError(t, err, http.StatusBadRequest, body.code)
		if body.path != "" {
			require.NotEmpty(t, ae.Errors, body.json)
			assert.Equal(t, body.path, ae.Errors[0].Path)
		}
	}
}

// TestWebhookExecuteWire checks the exact query and body Execute and
// EditMessage send.
func TestWebhookExecuteWire(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	mux.HandleFunc("POST /webhooks/1/tok", func(w http.ResponseWriter, r *http.Request) {
		testHeader(t, r, "Authorization", "")
		testQuery(t, r, url.Values{"wait": {"true"}, "thread_id": {"9"}, "with_components": {"true"}})
		testJSONBody(t, r, `{"content":"hi","tts":false,"flags":4,"allowed_mentions":{"parse":[]}}`)
		writeJSON(w, http.StatusOK, map[string]any{"id": "5", "channel_id": "9", "content": "hi"})
	})
	mux.HandleFunc("PATCH /webhooks/1/tok/messages/5", func(w http.ResponseWriter, r *http.Request) {
		testQuery(t, r, url.Values{"thread_id": {"9"}})
		testJSONBody(t, r, `{"content":null,"embeds":[],"attachments":[{"id":"3"}]}`)
		writeJSON(w, http.StatusOK, map[string]any{"id": "5", "channel_id": "9"})
	})
	mux.HandleFunc("POST /webhooks/1/tok/chatcompat", func(w http.ResponseWriter, r *http.Request) {
		testQuery(t, r, url.Values{"wait": {"true"}})
		testJSONBody(t, r, `{"text":"hi","attachments":[{"title":"t","footer_icon":"x","short_name":1}],"unfurl_links":false}`)
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /webhooks/1/tok/repocompat", func(w http.ResponseWriter, r *http.Request) {
		testQuery(t, r, url.Values{"wait": {"false"}, "thread_id": {"9"}})
		testHeader(t, r, "X-GitHub-Event", "issues")
		testJSONBody(t, r, `{"action":"opened"}`)
		w.WriteHeader(http.StatusNoContent)
	})
	ctx := t.Context()
	m, err := c.Webhooks.Execute(ctx, 1, "tok", &guildkit.WebhookExecuteParams{
		Wait: guildkit.Some(true), ThreadID: guildkit.Some(guildkit.Snowflake(9)), WithComponents: guildkit.Some(true),
		Content: guildkit.Some("hi"), TTS: guildkit.Some(false), Flags: guildkit.Some(guildkit.MessageFlagSuppressEmbeds),
		AllowedMentions: guildkit.Some(guildkit.AllowedMentions{Parse: []guildkit.AllowedMentionType{}}),
	})
	require.NoError(t, err)
	assert.Equal(t, guildkit.Snowflake(5), m.ID)
	_, err = c.Webhooks.EditMessage(ctx, 1, "tok", 5, &guildkit.WebhookMessageEditParams{
		ThreadID: guildkit.Some(guildkit.Snowflake(9)), Content: guildkit.Null[string](), Embeds: guildkit.Some([]guildkit.Embed{}),
		Attachments: guildkit.Some([]guildkit.PartialAttachment{{ID: 3}}),
	})
	require.NoError(t, err)
	m, err = c.Webhooks.ExecuteChatCompat(ctx, 1, "tok", &guildkit.ChatCompatPayload{Text: "hi",
		Attachments: []guildkit.ChatCompatAttachment{{Title: "t", FooterIcon: "x", Extra: map[string]json.RawMessage{"short_name": json.RawMessage(`1`)}}},
		Extra:       map[string]json.RawMessage{"unfurl_links": json.RawMessage(`false`)}}, nil)
	require.NoError(t, err)
	assert.Nil(t, m)
	m, err = c.Webhooks.ExecuteRepoCompat(ctx, 1, "tok", guildkit.RepoEventIssues, json.RawMessage(`{"action": "opened"}`),
		&guildkit.WebhookCompatParams{Wait: guildkit.Some(false), ThreadID: guildkit.Some(guildkit.Snowflake(9))})
	require.NoError(t, err)
	assert.Nil(t, m)
}

// TestWebhookExecuteMultipartWire checks the streamed multipart body: the
// payload_json part first, then files[n], with attachments whose ids match.
func TestWebhookExecuteMultipartWire(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	mux.HandleFunc("POST /webhooks/1/tok", func(w http.ResponseWriter, r *http.Request) {
		mr, err := r.MultipartReader()
		require.NoError(t, err)
		var names []string
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			require.NoError(t, err)
			b, _ := io.ReadAll(p)
			names = append(names, p.FormName()+"="+p.FileName())
			if p.FormName() == "payload_json" {
				assert.JSONEq(t, `{"content":"files","attachments":[{"id":"0","filename":"a.txt","description":"first"},{"id":"1","filename":"b.png"}]}`, string(b))
				assert.Equal(t, "application/json", p.Header.Get("Content-Type"))
			}
		}
		assert.Equal(t, []string{"payload_json=", "files[0]=a.txt", "files[1]=b.png"}, names)
		w.WriteHeader(http.StatusNoContent)
	})
	_, err := c.Webhooks.Execute(t.Context(), 1, "tok", &guildkit.WebhookExecuteParams{
		Content:     guildkit.Some("files"),
		Files:       []guildkit.File{{Name: "a.txt", Reader: strings.NewReader("aaa")}, {Name: "b.png", Reader: strings.NewReader("bbb")}},
		Attachments: []guildkit.PartialAttachment{{ID: 0, Description: "first"}},
	})
	require.NoError(t, err)
}

func TestWebhookExecuteFiles(t *testing.T) {
	t.Parallel()
	f := newWebhookFixture(t)
	ctx := t.Context()
	m, err := f.c.Webhooks.Execute(ctx, f.hook.ID, f.hook.Token, &guildkit.WebhookExecuteParams{
		Wait: guildkit.Some(true),
		Files: []guildkit.File{
			{Name: "notes.txt", Reader: strings.NewReader("hello")},
			{Name: "data.bin", ContentType: "application/x-test", Reader: strings.NewReader(strings.Repeat("z", 1000))},
			{Name: "empty.txt", Reader: strings.NewReader("")},
		},
		Attachments: []guildkit.PartialAttachment{{ID: 1, Description: "some data"}},
	})
	require.NoError(t, err)
	require.Len(t, m.Attachments, 3)
	assert.Equal(t, "notes.txt", m.Attachments[0].Filename)
	assert.Equal(t, int64(5), m.Attachments[0].Size)
	assert.Equal(t, "data.bin", m.Attachments[1].Filename)
	assert.Equal(t, "application/x-test", m.Attachments[1].ContentType)
	assert.Equal(t, int64(1000), m.Attachments[1].Size)
	assert.Equal(t, "some data", m.Attachments[1].Description)
	assert.Equal(t, int64(0), m.Attachments[2].Size)
	assert.NotZero(t, m.Attachments[0].ID)
}

// TestWebhookExecuteLargeFileAllocations sends three files, one of 24 MiB
// (just under the platform's 25 MiB upload limit per request) from an
// *os.File, and measures the bytes allocated by the whole process (client
// and in-memory server) while doing it. It does not call t.Parallel: the
// measurement needs the other tests paused.
func TestWebhookExecuteLargeFileAllocations(t *testing.T) {
	f := newWebhookFixture(t)
	const size = 24 << 20
	path := filepath.Join(t.TempDir(), "big.bin")
	big, err := os.Create(path)
	require.NoError(t, err)
	require.NoError(t, big.Truncate(size))
	t.Cleanup(func() { big.Close() })
	ctx := context.Background()
	params := &guildkit.WebhookExecuteParams{
		Wait: guildkit.Some(true),
		Files: []guildkit.File{
			{Name: "big.bin", Reader: big},
			{Name: "small.txt", Reader: strings.NewReader("small")},
			{Name: "mid.txt", Reader: strings.NewReader(strings.Repeat("m", 64<<10))},
		},
	}
	// Warm up connections and lazily built state with a small call.
	_, err = f.c.Webhooks.Execute(ctx, f.hook.ID, f.hook.Token, &guildkit.WebhookExecuteParams{Content: guildkit.Some("warm up")})
	require.NoError(t, err)

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	m, err := f.c.Webhooks.Execute(ctx, f.hook.ID, f.hook.Token, params)
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("Execute with a 24 MiB file: %d bytes allocated (%.2f MiB) by client and server together", alloc, float64(alloc)/(1<<20))
	assert.Less(t, alloc, uint64(4<<20), "the file must be streamed, not buffered")
	require.Len(t, m.Attachments, 3)
	assert.Equal(t, int64(size), m.Attachments[0].Size)
	assert.Equal(t, int64(64<<10), m.Attachments[2].Size)
}

func TestWebhookThreadsAndForums(t *testing.T) {
	t.Parallel()
	f := newWebhookFixture(t)
	ctx := t.Context()
	parent := f.channel.ID
	thread := f.srv.AddChannel(f.guild.ID, guildkit.Channel{Name: "thread", Type: guildkit.ChannelTypePublicThread, ParentID: guildkit.Some(parent)})
	f.srv.ArchiveWebhookThread(thread.ID)
	st, _ := f.srv.WebhookThread(thread.ID)
	require.True(t, st.Archived)

	m, err := f.c.Webhooks.Execute(ctx, f.hook.ID, f.hook.Token, &guildkit.WebhookExecuteParams{
		Wait: guildkit.Some(true), ThreadID: guildkit.Some(thread.ID), Content: guildkit.Some("in the thread")})
	require.NoError(t, err)
	assert.Equal(t, thread.ID, m.ChannelID)
	st, _ = f.srv.WebhookThread(thread.ID)
	assert.False(t, st.Archived, "posting unarchives the thread")

	// The message lives in the thread: thread_id is needed to reach it.
	_, err = f.c.Webhooks.GetMessage(ctx, f.hook.ID, f.hook.Token, m.ID, nil)
	requireWebhookAPIError(t, err, http.StatusNotFound, guildkit.CodeUnknownMessage)
	got, err := f.c.Webhooks.GetMessage(ctx, f.hook.ID, f.hook.Token, m.ID, &guildkit.WebhookMessageGetParams{ThreadID: guildkit.Some(thread.ID)})
	require.NoError(t, err)
	assert.Equal(t, "in the thread", got.Content)
	_, err = f.c.Webhooks.EditMessage(ctx, f.hook.ID, f.hook.Token, m.ID, &guildkit.WebhookMessageEditParams{ThreadID: guildkit.Some(thread.ID), Content: guildkit.Some("edited")})
	require.NoError(t, err)
	require.NoError(t, f.c.Webhooks.DeleteMessage(ctx, f.hook.ID, f.hook.Token, m.ID, &guildkit.WebhookMessageDeleteParams{ThreadID: guildkit.Some(thread.ID)}))

	_, err = f.c.Webhooks.Execute(ctx, f.hook.ID, f.hook.Token, &guildkit.WebhookExecuteParams{ThreadID: guildkit.Some(guildkit.Snowflake(31337)), Content: guildkit.Some("x")})
	requireWebhookAPIError(t, err, http.StatusNotFound, guildkit.CodeUnknownChannel)
	_, err = f.c.Webhooks.Execute(ctx, f.hook.ID, f.hook.Token, &guildkit.WebhookExecuteParams{ThreadName: guildkit.Some("t"), Content: guildkit.Some("x")})
	requireWebhookAPIError(t, err, http.StatusBadRequest, guildkit.CodeInvalidRequest)

	for _, typ := range []guildkit.ChannelType{guildkit.ChannelTypeGuildForum, guildkit.ChannelTypeGuildMedia} {
		forum := f.srv.AddChannel(f.guild.ID, guildkit.Channel{Name: "forum", Type: typ})
		tag := guildkit.Snowflake(777)
		f.srv.SetWebhookForumTags(forum.ID, tag)
		fh := f.srv.AddWebhook(forum.ID, "forum hook")
		_, err = f.c.Webhooks.Execute(ctx, fh.ID, fh.Token, &guildkit.WebhookExecuteParams{Content: guildkit.Some("no thread")})
		requireWebhookAPIError(t, err, http.StatusBadRequest, guildkit.CodeInvalidRequest)
		_, err = f.c.Webhooks.Execute(ctx, fh.ID, fh.Token, &guildkit.WebhookExecuteParams{Content: guildkit.Some("x"), ThreadName: guildkit.Some("post"),
			AppliedTags: []guildkit.Snowflake{778}})
		requireWebhookAPIError(t, err, http.StatusBadRequest, guildkit.CodeInvalidFormBody)
		m, err := f.c.Webhooks.Execute(ctx, fh.ID, fh.Token, &guildkit.WebhookExecuteParams{Wait: guildkit.Some(true), Content: guildkit.Some("first post"),
			ThreadName: guildkit.Some("A new post"), AppliedTags: []guildkit.Snowflake{tag}})
		require.NoError(t, err)
		require.NotNil(t, m.Thread)
		assert.Equal(t, "A new post", m.Thread.Name)
		assert.Equal(t, m.Thread.ID, m.ChannelID)
		assert.Equal(t, guildkit.Some(forum.ID), m.Thread.ParentID)
		st, ok := f.srv.WebhookThread(m.Thread.ID)
		require.True(t, ok)
		assert.Equal(t, []guildkit.Snowflake{tag}, st.AppliedTags)
		// And the new thread takes later posts by thread_id.
		m2, err := f.c.Webhooks.Execute(ctx, fh.ID, fh.Token, &guildkit.WebhookExecuteParams{Wait: guildkit.Some(true), Content: guildkit.Some("reply"), ThreadID: guildkit.Some(m.Thread.ID)})
		require.NoError(t, err)
		assert.Equal(t, m.Thread.ID, m2.ChannelID)
	}
}

func TestWebhookMessages(t *testing.T) {
	t.Parallel()
	f := newWebhookFixture(t)
	ctx := t.Context()
	u := f.srv.AddUser(guildkit.User{Username: "hook"})
	m, err := f.c.Webhooks.Execute(ctx, f.hook.ID, f.hook.Token, &guildkit.WebhookExecuteParams{
		Wait: guildkit.Some(true), Content: guildkit.Some(fmt.Sprintf("hello <@%s> @everyone", u.ID)),
		Files: []guildkit.File{{Name: "one.txt", Reader: strings.NewReader("1")}, {Name: "two.txt", Reader: strings.NewReader("22")}},
	})
	require.NoError(t, err)
	require.Len(t, m.Attachments, 2)
	assert.Len(t, m.Mentions, 1)
	assert.True(t, m.MentionEveryone)
	assert.Nil(t, m.EditedTimestamp)

	got, err := f.c.Webhooks.GetMessage(ctx, f.hook.ID, f.hook.Token, m.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, m.Content, got.Content)

	// Editing content rebuilds the mentions from scratch, with the request's
	// allowed mentions; files are appended to the kept attachments.
	ed, err := f.c.Webhooks.EditMessage(ctx, f.hook.ID, f.hook.Token, m.ID, &guildkit.WebhookMessageEditParams{
		Content:         guildkit.Some(fmt.Sprintf("bye <@%s> @everyone", u.ID)),
		AllowedMentions: guildkit.Some(guildkit.AllowedMentions{Parse: []guildkit.AllowedMentionType{guildkit.AllowedMentionEveryone}}),
		Attachments:     guildkit.Some([]guildkit.PartialAttachment{{ID: m.Attachments[1].ID}}),
		Files:           []guildkit.File{{Name: "three.txt", Reader: strings.NewReader("333")}},
	})
	require.NoError(t, err)
	assert.Empty(t, ed.Mentions, "users are not allowed any more")
	assert.True(t, ed.MentionEveryone)
	require.NotNil(t, ed.EditedTimestamp)
	require.Len(t, ed.Attachments, 2)
	assert.Equal(t, "two.txt", ed.Attachments[0].Filename)
	assert.Equal(t, "three.txt", ed.Attachments[1].Filename)
	assert.Equal(t, int64(3), ed.Attachments[1].Size)

	// Without attachments, files are appended to all existing ones.
	ed, err = f.c.Webhooks.EditMessage(ctx, f.hook.ID, f.hook.Token, m.ID, &guildkit.WebhookMessageEditParams{
		Files: []guildkit.File{{Name: "four.txt", Reader: strings.NewReader("4444")}}})
	require.NoError(t, err)
	assert.Len(t, ed.Attachments, 3)
	assert.True(t, ed.MentionEveryone, "mentions stay when the content is not edited")
	// Null attachments removes them all.
	ed, err = f.c.Webhooks.EditMessage(ctx, f.hook.ID, f.hook.Token, m.ID, &guildkit.WebhookMessageEditParams{Attachments: guildkit.Null[[]guildkit.PartialAttachment]()})
	require.NoError(t, err)
	assert.Empty(t, ed.Attachments)
	// SUPPRESS_EMBEDS can be set and cleared.
	ed, err = f.c.Webhooks.EditMessage(ctx, f.hook.ID, f.hook.Token, m.ID, &guildkit.WebhookMessageEditParams{Flags: guildkit.Some(guildkit.MessageFlagSuppressEmbeds)})
	require.NoError(t, err)
	assert.True(t, ed.Flags.Has(guildkit.MessageFlagSuppressEmbeds))
	ed, err = f.c.Webhooks.EditMessage(ctx, f.hook.ID, f.hook.Token, m.ID, &guildkit.WebhookMessageEditParams{Flags: guildkit.Some(guildkit.MessageFlags(0))})
	require.NoError(t, err)
	assert.False(t, ed.Flags.Has(guildkit.MessageFlagSuppressEmbeds))
	// Clearing everything leaves an empty message: refused.
	_, err = f.c.Webhooks.EditMessage(ctx, f.hook.ID, f.hook.Token, m.ID, &guildkit.WebhookMessageEditParams{Content: guildkit.Null[string]()})
	requireWebhookAPIError(t, err, http.StatusBadRequest, 50006)
	// A poll can only be added to a deferred interaction response.
	_, err = f.c.Webhooks.EditMessage(ctx, f.hook.ID, f.hook.Token, m.ID, &guildkit.WebhookMessageEditParams{Poll: guildkit.Some(guildkit.PollCreate{
		Question: guildkit.PollMedia{Text: "q"}, Answers: []guildkit.PollAnswer{{PollMedia: guildkit.PollMedia{Text: "a"}}}})})
	requireWebhookAPIError(t, err, http.StatusBadRequest, guildkit.CodeInvalidFormBody)

	// Another webhook's message, or an unknown one, is Unknown Message.
	other := f.srv.AddWebhook(f.channel.ID, "other")
	_, err = f.c.Webhooks.GetMessage(ctx, other.ID, other.Token, m.ID, nil)
	requireWebhookAPIError(t, err, http.StatusNotFound, guildkit.CodeUnknownMessage)
	_, err = f.c.Webhooks.EditMessage(ctx, other.ID, other.Token, m.ID, &guildkit.WebhookMessageEditParams{Content: guildkit.Some("mine")})
	requireWebhookAPIError(t, err, http.StatusNotFound, guildkit.CodeUnknownMessage)
	err = f.c.Webhooks.DeleteMessage(ctx, other.ID, other.Token, m.ID, nil)
	requireWebhookAPIError(t, err, http.StatusNotFound, guildkit.CodeUnknownMessage)
	_, err = f.c.Webhooks.GetMessage(ctx, f.hook.ID, "bad", m.ID, nil)
	requireWebhookAPIError(t, err, http.StatusUnauthorized, guildkit.CodeInvalidWebhookToken)

	require.NoError(t, f.c.Webhooks.DeleteMessage(ctx, f.hook.ID, f.hook.Token, m.ID, nil))
	_, ok := f.srv.WebhookMessage(m.ID)
	assert.False(t, ok)
	_, err = f.c.Webhooks.GetMessage(ctx, f.hook.ID, f.hook.Token, m.ID, nil)
	requireWebhookAPIError(t, err, http.StatusNotFound, guildkit.CodeUnknownMessage)
}

func TestWebhookEditValidation(t *testing.T) {
	t.Parallel()
	f := newWebhookFixture(t)
	ctx := t.Context()
	edit := func(p *guildkit.WebhookMessageEditParams) error {
		_, err := f.c.Webhooks.EditMessage(ctx, f.hook.ID, f.hook.Token, 1, p)
		return err
	}
	requireWebhookProblem(t, edit(&guildkit.WebhookMessageEditParams{Content: guildkit.Some(strings.Repeat("x", 2001))}), "content", "length")
	requireWebhookProblem(t, edit(&guildkit.WebhookMessageEditParams{Flags: guildkit.Some(guildkit.MessageFlagSuppressNotifications)}), "flags", "not_allowed")
	v2 := guildkit.Some(guildkit.MessageFlagIsComponentsV2)
	err := edit(&guildkit.WebhookMessageEditParams{Flags: v2, Content: guildkit.Some("x"), Embeds: guildkit.Some([]guildkit.Embed{{Title: "t"}}),
		Files: []guildkit.File{{Name: "f", Reader: strings.NewReader("")}}})
	requireWebhookProblem(t, err, "content", "conflict")
	requireWebhookProblem(t, err, "embeds", "conflict")
	requireWebhookProblem(t, err, "attachments", "conflict")
	requireWebhookProblem(t, err, "poll", "conflict")
	// Setting the flag needs the four fields nulled explicitly: omitted is
	// not enough, as the original may still hold them.
	err = edit(&guildkit.WebhookMessageEditParams{Flags: v2, Components: webhookV2Text("x")})
	for _, p := range []string{"content", "embeds", "attachments", "poll"} {
		requireWebhookProblem(t, err, p, "conflict")
	}
	requireWebhookProblem(t, edit(&guildkit.WebhookMessageEditParams{ThreadID: guildkit.Null[guildkit.Snowflake]()}), "thread_id", "not_null")
	assert.Empty(t, f.srv.Requests())
}

func TestWebhookComponentsV2Transitions(t *testing.T) {
	t.Parallel()
	f := newWebhookFixture(t)
	ctx := t.Context()
	hook := f.srv.AddWebhook(f.channel.ID, "app hook", guildkittest.WebhookApplication(f.srv.BotID()))
	m, err := f.c.Webhooks.Execute(ctx, hook.ID, hook.Token, &guildkit.WebhookExecuteParams{Wait: guildkit.Some(true), Content: guildkit.Some("legacy"),
		Files: []guildkit.File{{Name: "a.txt", Reader: strings.NewReader("a")}}})
	require.NoError(t, err)
	edit := func(p *guildkit.WebhookMessageEditParams) (*guildkit.Message, error) {
		p.ApplicationOwned = true // the bot's application owns hook
		return f.c.Webhooks.EditMessage(ctx, hook.ID, hook.Token, m.ID, p)
	}
	v2 := guildkit.Some(guildkit.MessageFlagIsComponentsV2)
	text := webhookV2Text("now in V2")
	// Setting the flag while the original's content and files are set: 400
	// from the service (sent raw: the client refuses it before sending).
	_, err = guildkit.ExportDoNoAuth(f.c, ctx, "PATCH", "/webhooks/{webhook.id}/{webhook.token}/messages/{message.id}",
		json.RawMessage(`{"flags":32768,"components":[{"type":10,"content":"now in V2"}]}`), nil, hook.ID, hook.Token, m.ID)
	ae := requireWebhookAPIError(t, err, http.StatusBadRequest, guildkit.CodeInvalidFormBody)
	require.Len(t, ae.Errors, 2, "content and attachments: %v", ae.Errors)
	assert.Equal(t, "attachments", ae.Errors[0].Path)
	assert.Equal(t, "content", ae.Errors[1].Path)
	// With content, embeds, attachments and poll nulled it works.
	ed, err := edit(&guildkit.WebhookMessageEditParams{Flags: v2, Components: text, Content: guildkit.Null[string](),
		Embeds: guildkit.Null[[]guildkit.Embed](), Attachments: guildkit.Null[[]guildkit.PartialAttachment](), Poll: guildkit.Null[guildkit.PollCreate]()})
	require.NoError(t, err)
	assert.True(t, ed.Flags.Has(guildkit.MessageFlagIsComponentsV2))
	assert.Empty(t, ed.Content)
	assert.NotEmpty(t, ed.Components)
	// The flag cannot be removed.
	_, err = edit(&guildkit.WebhookMessageEditParams{Flags: guildkit.Some(guildkit.MessageFlagSuppressEmbeds)})
	ae = requireWebhookAPIError(t, err, http.StatusBadRequest, guildkit.CodeInvalidFormBody)
	assert.Equal(t, "flags", ae.Errors[0].Path)
	// Content cannot come back while it is set.
	_, err = edit(&guildkit.WebhookMessageEditParams{Content: guildkit.Some("text again")})
	requireWebhookAPIError(t, err, http.StatusBadRequest, guildkit.CodeInvalidFormBody)
	// Mentions of a V2 message come from its text displays; without Flags
	// the flag stays.
	u := f.srv.AddUser(guildkit.User{Username: "mentioned"})
	ed, err = edit(&guildkit.WebhookMessageEditParams{Components: webhookV2Text(fmt.Sprintf("hi <@%s>", u.ID))})
	require.NoError(t, err)
	require.Len(t, ed.Mentions, 1)
	assert.Equal(t, u.ID, ed.Mentions[0].ID)
	assert.True(t, ed.Flags.Has(guildkit.MessageFlagIsComponentsV2))
}

func TestWebhookChatCompat(t *testing.T) {
	t.Parallel()
	f := newWebhookFixture(t)
	ctx := t.Context()
	m, err := f.c.Webhooks.ExecuteChatCompat(ctx, f.hook.ID, f.hook.Token, &guildkit.ChatCompatPayload{
		Text: "deploy finished", Username: "ci", IconURL: "https://example.com/ci.png",
		Attachments: []guildkit.ChatCompatAttachment{{Color: "#36a64f", Title: "build 42", TitleLink: "https://ci.example.com/42", Text: "all green",
			Fields: []guildkit.ChatCompatField{{Title: "env", Value: "prod", Short: true}}, Footer: "ci"}},
	}, nil)
	require.NoError(t, err)
	require.NotNil(t, m, "wait defaults to true")
	assert.Equal(t, "deploy finished", m.Content)
	assert.Equal(t, "ci", m.Author.Username)
	require.Len(t, m.Embeds, 1)
	assert.Equal(t, "build 42", m.Embeds[0].Title)
	assert.Equal(t, 0x36a64f, m.Embeds[0].Color.Or(0))
	assert.Equal(t, "env", m.Embeds[0].Fields[0].Name)

	m, err = f.c.Webhooks.ExecuteChatCompat(ctx, f.hook.ID, f.hook.Token, &guildkit.ChatCompatPayload{Text: "quiet"},
		&guildkit.WebhookCompatParams{Wait: guildkit.Some(false)})
	require.NoError(t, err)
	assert.Nil(t, m)
	assert.Len(t, f.srv.WebhookMessages(f.hook.ID), 2)

	m, err = f.c.Webhooks.ExecuteChatCompat(ctx, f.hook.ID, f.hook.Token, &guildkit.ChatCompatPayload{
		Blocks: []json.RawMessage{json.RawMessage(`{"type":"section","text":{"type":"mrkdwn","text":"from blocks"}}`)}}, nil)
	require.NoError(t, err)
	assert.Equal(t, "from blocks", m.Content)

	n := len(f.srv.Requests())
	_, err = f.c.Webhooks.ExecuteChatCompat(ctx, f.hook.ID, f.hook.Token, &guildkit.ChatCompatPayload{Text: "x",
		Extra: map[string]json.RawMessage{"channel": json.RawMessage(`"#general"`), "icon_emoji": json.RawMessage(`":ghost:"`),
			"mrkdwn": json.RawMessage(`true`), "text": json.RawMessage(`"dup"`), "bad": json.RawMessage(`{`)},
		Attachments: []guildkit.ChatCompatAttachment{{Text: "a", Extra: map[string]json.RawMessage{"mrkdwn_in": json.RawMessage(`["text"]`)}}},
	}, nil)
	requireWebhookProblem(t, err, "channel", "not_allowed")
	requireWebhookProblem(t, err, "icon_emoji", "not_allowed")
	requireWebhookProblem(t, err, "mrkdwn", "not_allowed")
	requireWebhookProblem(t, err, "text", "duplicate")
	requireWebhookProblem(t, err, "bad", "invalid")
	requireWebhookProblem(t, err, "attachments[0].mrkdwn_in", "not_allowed")
	_, err = f.c.Webhooks.ExecuteChatCompat(ctx, f.hook.ID, f.hook.Token, nil, nil)
	requireWebhookProblem(t, err, "", "required")
	assert.Len(t, f.srv.Requests(), n, "refused calls are not sent")

	_, err = f.c.Webhooks.ExecuteChatCompat(ctx, f.hook.ID, "bad", &guildkit.ChatCompatPayload{Text: "x"}, nil)
	requireWebhookAPIError(t, err, http.StatusUnauthorized, guildkit.CodeInvalidWebhookToken)
}

func TestWebhookRepoCompat(t *testing.T) {
	t.Parallel()
	f := newWebhookFixture(t)
	ctx := t.Context()
	push := json.RawMessage(`{"ref":"refs/heads/main","repository":{"full_name":"octo/kit"},"commits":[{"id":"a"},{"id":"b"},{"id":"c"}]}`)
	m, err := f.c.Webhooks.ExecuteRepoCompat(ctx, f.hook.ID, f.hook.Token, guildkit.RepoEventPush, push, nil)
	require.NoError(t, err)
	require.NotNil(t, m, "wait defaults to true")
	assert.Equal(t, "[octo/kit:main] 3 new commits", m.Content)
	req, _ := f.srv.LastRequest()
	assert.Equal(t, "push", req.Header.Get("X-GitHub-Event"))

	m, err = f.c.Webhooks.ExecuteRepoCompat(ctx, f.hook.ID, f.hook.Token, guildkit.RepoEventIssues,
		json.RawMessage(`{"action":"opened","issue":{"number":7,"title":"Webhooks"},"repository":{"full_name":"octo/kit"}}`), nil)
	require.NoError(t, err)
	assert.Equal(t, "[octo/kit] Issue opened: #7 Webhooks", m.Content)

	m, err = f.c.Webhooks.ExecuteRepoCompat(ctx, f.hook.ID, f.hook.Token, guildkit.RepoEventWatch, json.RawMessage(`{}`),
		&guildkit.WebhookCompatParams{Wait: guildkit.Some(false)})
	require.NoError(t, err)
	assert.Nil(t, m)

	// The header cannot be overridden by the caller's options.
	_, err = f.c.Webhooks.ExecuteRepoCompat(ctx, f.hook.ID, f.hook.Token, guildkit.RepoEventFork, json.RawMessage(`{"forkee":{"full_name":"me/kit"}}`), nil,
		guildkit.WithHeader("X-GitHub-Event", "push"))
	require.NoError(t, err)
	req, _ = f.srv.LastRequest()
	assert.Equal(t, "fork", req.Header.Get("X-GitHub-Event"))

	n := len(f.srv.Requests())
	_, err = f.c.Webhooks.ExecuteRepoCompat(ctx, f.hook.ID, f.hook.Token, "gollum", json.RawMessage(`{}`), nil)
	requireWebhookProblem(t, err, "event", "invalid")
	_, err = f.c.Webhooks.ExecuteRepoCompat(ctx, f.hook.ID, f.hook.Token, guildkit.RepoEventPush, json.RawMessage(`{`), nil)
	requireWebhookProblem(t, err, "payload", "invalid")
	_, err = f.c.Webhooks.ExecuteRepoCompat(ctx, f.hook.ID, f.hook.Token, guildkit.RepoEventPush, nil, nil)
	requireWebhookProblem(t, err, "payload", "required")
	assert.Len(t, f.srv.Requests(), n)
	assert.Len(t, guildkit.RepoEvents, 18)
}

func TestMessageFlagsAndTypes(t *testing.T) {
	t.Parallel()
	f := guildkit.MessageFlagSuppressEmbeds | guildkit.MessageFlagIsComponentsV2
	assert.Equal(t, "SUPPRESS_EMBEDS|IS_COMPONENTS_V2", f.String())
	assert.Equal(t, guildkit.MessageFlags(32768), guildkit.MessageFlagIsComponentsV2)
	assert.Equal(t, guildkit.MessageFlags(4096), guildkit.MessageFlagSuppressNotifications)
	assert.Equal(t, "SUPPRESS_NOTIFICATIONS", guildkit.MessageFlagSuppressNotifications.String())
	assert.Equal(t, "EPHEMERAL|1<<20", (guildkit.MessageFlagEphemeral | 1<<20).String())
	assert.True(t, f.Has(guildkit.MessageFlagIsComponentsV2))
	assert.Equal(t, "INCOMING", guildkit.WebhookTypeIncoming.String())
	assert.Equal(t, "CHANNEL_FOLLOWER", guildkit.WebhookTypeChannelFollower.String())
	assert.Equal(t, "APPLICATION", guildkit.WebhookTypeApplication.String())
	assert.Equal(t, "WebhookType(9)", guildkit.WebhookType(9).String())
	assert.Equal(t, "DEFAULT", guildkit.MessageTypeDefault.String())
}

// TestWebhookAndMessageRoundTrip decodes real-shaped payloads and encodes
// them again without losing anything.
func TestWebhookAndMessageRoundTrip(t *testing.T) {
	t.Parallel()
	for name, raw := range map[string]string{
		"webhook": `{"id":"223704706495545344","type":1,"guild_id":"199737254929760256","channel_id":"199737254929760256",
			"user":{"id":"53908232506183680","username":"mason","discriminator":"9999","avatar":"a_d5efa99b3eeaa7dd43acca82f5692432"},
			"name":"test webhook","avatar":null,"token":"3d89bb7572e0fb30d8128367b3b1b44fecd1726de135cbe28a41f8b2f777c372ba2939e72279b94526ff5d1bd4358d65cf11",
			"application_id":null}`,
		"follower": `{"id":"1","type":2,"guild_id":null,"channel_id":"2","name":"news","avatar":"abc","application_id":"3",
			"source_guild":{"id":"4","name":"src","icon":"i"},"source_channel":{"id":"5","name":"announcements","type":5}}`,
		"message": `{"id":"10","channel_id":"20","author":{"id":"30","username":"hook","discriminator":"0000","avatar":null,"bot":true},
			"content":"hi","timestamp":"2024-05-01T12:00:00.123Z","edited_timestamp":null,"tts":false,"mention_everyone":false,
			"mentions":[],"mention_roles":[],"attachments":[{"id":"40","filename":"a.png","description":"alt","content_type":"image/png","size":12,
			"url":"https://cdn/a.png","proxy_url":"https://media/a.png","height":10,"width":20}],
			"embeds":[{"title":"t","type":"rich","description":"d","url":"https://x","timestamp":"2024-05-01T12:00:00Z","color":0,
			"footer":{"text":"f","icon_url":"https://i"},"image":{"url":"https://img","proxy_url":"https://p","height":1,"width":2},
			"video":{"url":"https://v"},"provider":{"name":"p","url":"https://p"},"author":{"name":"a"},"fields":[{"name":"n","value":"v","inline":true}]}],
			"pinned":false,"webhook_id":"30","type":0,"application_id":"50","flags":4,
			"components":[{"type":1,"id":1,"components":[{"type":2,"id":2,"style":5,"label":"Docs","url":"https://docs"}]},{"type":99,"id":3,"future":true}],
			"poll":{"question":{"text":"q"},"answers":[{"answer_id":1,"poll_media":{"text":"a"}}],"expiry":null,"allow_multiselect":false,"layout_type":1,
			"results":{"is_finalized":false,"answer_counts":[{"id":1,"count":2,"me_voted":false}]}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var v any = &guildkit.Webhook{}
			if name == "message" {
				v = &guildkit.Message{}
			}
			require.NoError(t, json.Unmarshal([]byte(raw), v))
			out, err := json.Marshal(v)
			require.NoError(t, err)
			assert.JSONEq(t, raw, string(out))
		})
	}
}

func TestWebhookString(t *testing.T) {
	t.Parallel()
	name := "hook"
	w := guildkit.Webhook{ID: 5, Type: guildkit.WebhookTypeIncoming, Name: &name, Token: "s3cret"}
	for _, s := range []string{w.String(), fmt.Sprintf("%v", w), fmt.Sprintf("%+v", &w), fmt.Sprintf("%#v", w)} {
		assert.NotContains(t, s, "s3cret")
		assert.Contains(t, s, "<redacted>")
	}
	assert.False(t, errors.Is(nil, guildkit.ErrNotFound))
}

func webhookPNG(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 1, 1))))
	return buf.Bytes()
}

func webhookLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// webhookV2Text is a Components V2 tree of one text display.
func webhookV2Text(s string) guildkit.Opt[components.List] {
	return guildkit.Some(components.List{components.NewTextDisplay(s)})
}

// TestWebhookServerRefusesFilesInV2Message sends a raw multipart body the
// client would refuse: files with IS_COMPONENTS_V2.
// TestWebhookServerV2Files: the in-memory server, as the reference
// platform, takes the files of a Components V2 message when each is
// referenced by an attachment:// URL of its components, and answers 400 for
// an unreferenced file or a reference to a file not uploaded (sent raw: the
// client refuses both before sending).
func TestWebhookServerV2Files(t *testing.T) {
	t.Parallel()
	f := newWebhookFixture(t, guildkittest.WebhookOfType(guildkit.WebhookTypeIncoming))
	post := func(payload string, files ...string) (int, string) {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		require.NoError(t, mw.WriteField("payload_json", payload))
		for i, name := range files {
			fw, err := mw.CreateFormFile(fmt.Sprintf("files[%d]", i), name)
			require.NoError(t, err)
			_, _ = fw.Write([]byte("content of " + name))
		}
		require.NoError(t, mw.Close())
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost,
			f.srv.BaseURL()+"/webhooks/"+f.hook.ID.String()+"/"+f.hook.Token+"?with_components=true&wait=true", &body)
		require.NoError(t, err)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(raw)
	}
	status, raw := post(`{"flags":32768,"components":[{"type":10,"content":"x"}]}`, "a.txt")
	assert.Equal(t, http.StatusBadRequest, status, raw)
	assert.Contains(t, raw, `"files"`)
	status, raw = post(`{"flags":32768,"components":[{"type":13,"file":{"url":"attachment://b.txt"}}]}`, "a.txt")
	assert.Equal(t, http.StatusBadRequest, status, raw)
	assert.Contains(t, raw, "attachment://b.txt")
	status, raw = post(`{"flags":32768,"components":[{"type":10,"content":"the log:"},{"type":13,"file":{"url":"attachment://a.txt"}}]}`, "a.txt")
	require.Equal(t, http.StatusOK, status, raw)
	var m guildkit.Message
	require.NoError(t, json.Unmarshal([]byte(raw), &m))
	require.Len(t, m.Attachments, 1)
	assert.Equal(t, "a.txt", m.Attachments[0].Filename)
}

func TestWebhookExecuteComponents(t *testing.T) {
	t.Parallel()
	f := newWebhookFixture(t)
	ctx := t.Context()
	owned := f.srv.AddWebhook(f.channel.ID, "app hook", guildkittest.WebhookApplication(f.srv.BotID()))
	exec := func(h guildkit.Webhook, p *guildkit.WebhookExecuteParams) (*guildkit.Message, error) {
		p.Wait = guildkit.Some(true)
		return f.c.Webhooks.Execute(ctx, h.ID, h.Token, p)
	}
	row := components.List{components.NewActionRow(components.PrimaryButton("vote:yes", "Yes"), components.LinkButton("https://example.com", "Docs"))}

	// A webhook not owned by an application: interactive components are
	// refused before sending, with the components path.
	_, err := exec(f.hook, &guildkit.WebhookExecuteParams{Content: guildkit.Some("vote"), Components: row, WithComponents: guildkit.Some(true)})
	paths := problemPathsWithPrefix(t, err, "components[0].components[0]")
	assert.NotEmpty(t, paths, "the interactive button is reported: %v", err)
	assert.Empty(t, problemPathsWithPrefix(t, err, "components[0].components[1]"), "a link button is not interactive")

	// Told the webhook is application-owned, the client lets them through,
	// and the server honours them without with_components.
	m, err := exec(owned, &guildkit.WebhookExecuteParams{Content: guildkit.Some("vote"), Components: row, ApplicationOwned: true})
	require.NoError(t, err)
	require.Len(t, m.Components, 1)
	r, ok := m.Components[0].(*components.ActionRow)
	require.True(t, ok, "%T", m.Components[0])
	require.Len(t, r.Components, 2)
	assert.Equal(t, "vote:yes", r.Components[0].(*components.Button).CustomID)

	// Non-interactive components on a plain webhook: honoured with
	// with_components, ignored without.
	links := components.List{components.NewActionRow(components.LinkButton("https://example.com", "Docs"))}
	m, err = exec(f.hook, &guildkit.WebhookExecuteParams{Content: guildkit.Some("docs"), Components: links, WithComponents: guildkit.Some(true)})
	require.NoError(t, err)
	assert.Len(t, m.Components, 1)
	// Without with_components the service would drop them: the client
	// refuses before sending, naming the parameter.
	_, err = exec(f.hook, &guildkit.WebhookExecuteParams{Content: guildkit.Some("docs"), Components: links})
	requireWebhookProblem(t, err, "with_components", "required")
	assert.Contains(t, err.Error(), "WithComponents")
	// Sent raw, the service drops them indeed.
	_, err = guildkit.ExportDoNoAuth(f.c, ctx, "POST", "/webhooks/{webhook.id}/{webhook.token}",
		map[string]any{"content": "docs", "components": links}, nil, f.hook.ID, f.hook.Token)
	require.NoError(t, err)
	sent := f.srv.WebhookMessages(f.hook.ID)
	require.NotEmpty(t, sent)
	assert.Equal(t, "docs", sent[len(sent)-1].Content)
	assert.Empty(t, sent[len(sent)-1].Components, "ignored without with_components")

	// The mode follows the flag: V2 components without IS_COMPONENTS_V2 are
	// refused, with it they pass.
	v2tree := components.List{components.NewContainer(components.NewTextDisplay("## Build 42 passed")).WithAccentColor(0x2ECC71)}
	_, err = exec(f.hook, &guildkit.WebhookExecuteParams{Components: v2tree, WithComponents: guildkit.Some(true)})
	assert.NotEmpty(t, problemPathsWithPrefix(t, err, "components[0]"))
	m, err = exec(f.hook, &guildkit.WebhookExecuteParams{Components: v2tree, WithComponents: guildkit.Some(true),
		Flags: guildkit.Some(guildkit.MessageFlagIsComponentsV2)})
	require.NoError(t, err)
	assert.True(t, m.Flags.Has(guildkit.MessageFlagIsComponentsV2))
	require.Len(t, m.Components, 1)
	assert.Equal(t, components.TypeContainer, m.Components[0].Type())

	// A button whose fields break its style's rules: invalid component, and
	// every problem comes back in one error beside the others.
	bad := components.List{components.NewActionRow(&components.Button{Style: components.ButtonPrimary, Label: "x", URL: "https://example.com"})}
	_, err = exec(owned, &guildkit.WebhookExecuteParams{Content: guildkit.Some(strings.Repeat("x", 2001)), Components: bad, ApplicationOwned: true})
	requireWebhookProblem(t, err, "content", "length")
	assert.NotEmpty(t, problemPathsWithPrefix(t, err, "components[0].components[0]"))

	// The server runs the same check on what it honours.
	raw := `{"content":"x","components":[{"type":1,"components":[{"type":2,"style":1,"label":"Yes","custom_id":"vote:yes"}]}]}`
	status, body := rawWebhookPost(t, f.srv, f.hook, "?with_components=true&wait=true", raw)
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Contains(t, body, `"components"`)
	status, _ = rawWebhookPost(t, f.srv, owned, "?wait=true", raw)
	assert.Equal(t, http.StatusOK, status, "an application-owned webhook may send interactive components")
	status, body = rawWebhookPost(t, f.srv, owned, "?wait=true", `{"components":[{"type":17,"components":[{"type":10,"content":"v2"}]}]}`)
	assert.Equal(t, http.StatusBadRequest, status, "a container needs IS_COMPONENTS_V2: %s", body)
}

func TestWebhookEditComponents(t *testing.T) {
	t.Parallel()
	f := newWebhookFixture(t)
	ctx := t.Context()
	owned := f.srv.AddWebhook(f.channel.ID, "app hook", guildkittest.WebhookApplication(f.srv.BotID()))
	m, err := f.c.Webhooks.Execute(ctx, owned.ID, owned.Token, &guildkit.WebhookExecuteParams{Wait: guildkit.Some(true),
		Flags: guildkit.Some(guildkit.MessageFlagIsComponentsV2), Components: components.List{components.NewTextDisplay("v1")}, ApplicationOwned: true})
	require.NoError(t, err)
	// Without Flags the client infers V2 from the tree and checks it so.
	ed, err := f.c.Webhooks.EditMessage(ctx, owned.ID, owned.Token, m.ID, &guildkit.WebhookMessageEditParams{
		Components: guildkit.Some(components.List{components.NewTextDisplay("v2"), components.NewSeparator()}), ApplicationOwned: true})
	require.NoError(t, err)
	require.Len(t, ed.Components, 2)
	assert.Equal(t, "v2", ed.Components[0].(*components.TextDisplay).Content)
	// Interactive components of a plain webhook are refused in edits too.
	_, err = f.c.Webhooks.EditMessage(ctx, f.hook.ID, f.hook.Token, m.ID, &guildkit.WebhookMessageEditParams{
		Components: guildkit.Some(components.List{components.NewActionRow(components.PrimaryButton("a", "A"))})})
	assert.NotEmpty(t, problemPathsWithPrefix(t, err, "components[0].components[0]"))
	// Legacy rules when the flag is given without V2: more than 5 rows.
	rows := components.List{}
	for i := range 6 {
		rows = append(rows, components.NewActionRow(components.LinkButton(fmt.Sprintf("https://example.com/%d", i), "x")))
	}
	_, err = f.c.Webhooks.EditMessage(ctx, f.hook.ID, f.hook.Token, m.ID, &guildkit.WebhookMessageEditParams{
		Flags: guildkit.Some(guildkit.MessageFlags(0)), Components: guildkit.Some(rows)})
	assert.NotEmpty(t, problemPathsWithPrefix(t, err, "components"))
}

// rawWebhookPost posts body to Execute Webhook as JSON, without the client's
// checks, and returns the status and body.
func rawWebhookPost(t *testing.T, srv *guildkittest.Server, h guildkit.Webhook, query, body string) (int, string) {
	t.Helper()
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	resp, err := (&http.Client{Transport: tr}).Post(srv.BaseURL()+"/webhooks/"+h.ID.String()+"/"+h.Token+query, "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestWebhookRateLimitPerWebhook limits Execute Webhook to one call a minute
// per webhook: the second call on one webhook is limited (and its error
// hides the token), while another webhook has its own bucket.
func TestWebhookRateLimitPerWebhook(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t, guildkittest.WithRouteLimit("POST /webhooks/{webhook.id}/{webhook.token}", 1, time.Minute))
	g := srv.AddGuild(guildkit.Guild{})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	a, b := srv.AddWebhook(ch.ID, "a"), srv.AddWebhook(ch.ID, "b")
	c := srv.Client()
	ctx := t.Context()
	p := &guildkit.WebhookExecuteParams{Content: guildkit.Some("x")}
	_, err := c.Webhooks.Execute(ctx, a.ID, a.Token, p)
	require.NoError(t, err)
	_, err = c.Webhooks.Execute(ctx, a.ID, a.Token, p, guildkit.WithoutRateLimitRetry())
	require.ErrorIs(t, err, guildkit.ErrRateLimited)
	assert.NotContains(t, err.Error(), a.Token)
	_, err = c.Webhooks.Execute(ctx, b.ID, b.Token, p, guildkit.WithoutRateLimitRetry())
	assert.NoError(t, err, "another webhook is another bucket")
}

// TestWebhookV2MessageWithFile: a Components V2 message whose File
// component shows its uploaded file goes through end to end; the client
// refuses an unreferenced file and a reference to no file before sending.
func TestWebhookV2MessageWithFile(t *testing.T) {
	t.Parallel()
	f := newWebhookFixture(t)
	v2 := guildkit.Some(guildkit.MessageFlagIsComponentsV2)
	logFile := func() []guildkit.File {
		return []guildkit.File{{Name: "build.log", ContentType: "text/plain", Reader: strings.NewReader("step 1 ok\n")}}
	}
	m, err := f.c.Webhooks.Execute(t.Context(), f.hook.ID, f.hook.Token, &guildkit.WebhookExecuteParams{
		Wait: guildkit.Some(true), Flags: v2, WithComponents: guildkit.Some(true), Files: logFile(),
		Components: components.List{components.NewTextDisplay("Build passed"), components.NewFile("build.log")},
	})
	require.NoError(t, err)
	require.Len(t, m.Attachments, 1)
	assert.Equal(t, "build.log", m.Attachments[0].Filename)
	require.Len(t, m.Components, 2)

	n := len(f.srv.Requests())
	_, err = f.c.Webhooks.Execute(t.Context(), f.hook.ID, f.hook.Token, &guildkit.WebhookExecuteParams{
		Flags: v2, WithComponents: guildkit.Some(true), Files: logFile(),
		Components: components.List{components.NewTextDisplay("no reference")},
	})
	requireWebhookProblem(t, err, "files[0]", "conflict")
	_, err = f.c.Webhooks.Execute(t.Context(), f.hook.ID, f.hook.Token, &guildkit.WebhookExecuteParams{
		Flags: v2, WithComponents: guildkit.Some(true),
		Components: components.List{components.NewFile("missing.log")},
	})
	requireWebhookProblem(t, err, "components", "invalid")
	assert.Len(t, f.srv.Requests(), n, "nothing sent")
}
