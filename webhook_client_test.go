package guildkit_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

func TestNewWebhookClientParsesURLs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ url, base string }{
		{"https://chat.example.com/api/v10/webhooks/123/tok-EN", "https://chat.example.com/api/v10"},
		{"https://chat.example.com/api/webhooks/123/tok-EN", "https://chat.example.com/api"},
		{"https://hooks.example.org/webhooks/123/tok-EN/", "https://hooks.example.org"},
		{"http://127.0.0.1:8080/prefix/api/v9/webhooks/123/tok-EN", "http://127.0.0.1:8080/prefix/api/v9"},
		{"  https://chat.example.com/webhooks/123/tok-EN  ", "https://chat.example.com"},
	} {
		wc, err := guildkit.NewWebhookClient(tc.url)
		require.NoError(t, err, tc.url)
		assert.Equal(t, guildkit.Snowflake(123), wc.ID())
		assert.Equal(t, tc.base, wc.Client().BaseURL(), tc.url)
		assert.Equal(t, tc.base+"/webhooks/123/<redacted>", wc.String())
		for _, s := range []string{fmt.Sprint(wc), fmt.Sprintf("%+v", wc), fmt.Sprintf("%#v", wc)} {
			assert.NotContains(t, s, "tok-EN")
		}
	}
	for _, bad := range []string{
		"",
		"not a url at all tok-EN",
		"ftp://chat.example.com/webhooks/123/tok-EN",
		"/webhooks/123/tok-EN",
		"https://chat.example.com/hooks/123/tok-EN",
		"https://chat.example.com/webhooks/123",
		"https://chat.example.com/webhooks/123/tok-EN/extra",
		"https://chat.example.com/webhooks/abc/tok-EN",
		"https://chat.example.com/webhooks/0/tok-EN",
		"https://chat.example.com/webhooks/123/%20",
		"https://chat.example.com/webhooks/123/tok-EN?wait=true",
		"https://chat.example.com/webhooks/123/tok-EN#frag",
		"https://user:tok-EN@chat.example.com/webhooks/123/tok-EN",
		"https://chat.example.com/webhooks/123/tok-EN%zz",
		"http://[::1/webhooks/123/tok-EN",
	} {
		_, err := guildkit.NewWebhookClient(bad)
		require.Error(t, err, bad)
		assert.NotContains(t, err.Error(), "tok-EN", "error for %q shows the token", bad)
		assert.True(t, strings.HasPrefix(err.Error(), "guildkit: "), err.Error())
	}
	_, err := guildkit.NewWebhookClient("https://chat.example.com/webhooks/123/tok-EN", guildkit.WithHTTPClient(nil))
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "tok-EN")
}

func TestWebhookClientOperations(t *testing.T) {
	t.Parallel()
	f := newWebhookFixture(t)
	ctx := t.Context()
	// The URL of the server without its API prefix works as well.
	for _, base := range []string{f.srv.BaseURL(), f.srv.URL} {
		hook := f.srv.AddWebhook(f.channel.ID, "Client Hook")
		wc, err := guildkit.NewWebhookClient(base + "/webhooks/" + hook.ID.String() + "/" + hook.Token)
		require.NoError(t, err)

		w, err := wc.Get(ctx)
		require.NoError(t, err)
		assert.Equal(t, "Client Hook", *w.Name)
		assert.Nil(t, w.User)

		m, err := wc.Execute(ctx, &guildkit.WebhookExecuteParams{Wait: guildkit.Some(true), Content: guildkit.Some("hello")})
		require.NoError(t, err)
		got, err := wc.GetMessage(ctx, m.ID, nil)
		require.NoError(t, err)
		assert.Equal(t, "hello", got.Content)
		ed, err := wc.EditMessage(ctx, m.ID, &guildkit.WebhookMessageEditParams{Content: guildkit.Some("edited")})
		require.NoError(t, err)
		assert.Equal(t, "edited", ed.Content)
		m2, err := wc.ExecuteChatCompat(ctx, &guildkit.ChatCompatPayload{Text: "chat"}, nil)
		require.NoError(t, err)
		assert.Equal(t, "chat", m2.Content)
		m3, err := wc.ExecuteRepoCompat(ctx, guildkit.RepoEventPush, []byte(`{"ref":"refs/heads/dev","commits":[{}]}`), nil)
		require.NoError(t, err)
		assert.Equal(t, "[repository:dev] 1 new commit", m3.Content)
		require.NoError(t, wc.DeleteMessage(ctx, m.ID, nil))
		_, err = wc.GetMessage(ctx, m.ID, nil)
		requireWebhookAPIError(t, err, http.StatusNotFound, guildkit.CodeUnknownMessage)
		assert.NotContains(t, err.Error(), hook.Token)

		w, err = wc.Modify(ctx, &guildkit.WebhookModifyWithTokenParams{Name: guildkit.Some("Renamed")})
		require.NoError(t, err)
		assert.Equal(t, "Renamed", *w.Name)
		require.NoError(t, wc.Delete(ctx))
		_, err = wc.Get(ctx)
		requireWebhookAPIError(t, err, http.StatusNotFound, guildkit.CodeUnknownWebhook)
		assert.NotContains(t, err.Error(), hook.Token)
	}
	for _, r := range f.srv.Requests() {
		assert.Empty(t, r.Header.Get("Authorization"))
	}

	wrong, err := guildkit.NewWebhookClient(f.srv.BaseURL() + "/webhooks/" + f.hook.ID.String() + "/not-the-token")
	require.NoError(t, err)
	_, err = wrong.Execute(ctx, &guildkit.WebhookExecuteParams{Content: guildkit.Some("x")})
	requireWebhookAPIError(t, err, http.StatusUnauthorized, guildkit.CodeInvalidWebhookToken)
	assert.NotContains(t, err.Error(), "not-the-token")
	_, err = wrong.Client().Webhooks.Get(ctx, f.hook.ID)
	assert.ErrorIs(t, err, guildkit.ErrNoCredential, "the webhook client has no bot credential")
}

func TestWebhookClientConcurrentUse(t *testing.T) {
	t.Parallel()
	f := newWebhookFixture(t)
	wc, err := guildkit.NewWebhookClient(f.srv.BaseURL() + "/webhooks/" + f.hook.ID.String() + "/" + f.hook.Token)
	require.NoError(t, err)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := wc.Execute(t.Context(), &guildkit.WebhookExecuteParams{Content: guildkit.Some(fmt.Sprintf("message %d", i)),
				Files: []guildkit.File{{Name: "f.txt", Reader: strings.NewReader(strings.Repeat("x", 1000*i))}}})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		assert.NoError(t, err)
	}
	assert.Len(t, f.srv.WebhookMessages(f.hook.ID), 8)
}

// TestWebhookClientsFromWhatUsersHold: a webhook client from an id and a
// token, and from a *Webhook the bot created (whose URL the client fills in
// and whose application ownership it infers, so interactive components need
// no ApplicationOwned); a webhook without a token is refused.
func TestWebhookClientsFromWhatUsersHold(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "ops", Type: guildkit.ChannelTypeGuildText})
	c := srv.Client()

	hook, err := c.Webhooks.Create(t.Context(), ch.ID, &guildkit.WebhookCreateParams{Name: "Ops"})
	require.NoError(t, err)
	require.True(t, hook.ApplicationOwned())
	assert.Equal(t, srv.BaseURL()+"/webhooks/"+hook.ID.String()+"/"+hook.Token, hook.URL, "the client fills the URL")
	list, err := c.Webhooks.ListByChannel(t.Context(), ch.ID)
	require.NoError(t, err)
	assert.Equal(t, hook.URL, list[0].URL)

	fromURL, err := guildkit.NewWebhookClient(hook.URL)
	require.NoError(t, err)
	assert.Equal(t, hook.ID, fromURL.ID())

	fromID, err := guildkit.NewWebhookClientFromID(hook.ID, hook.Token, guildkit.WithBaseURL(srv.BaseURL()))
	require.NoError(t, err)
	m, err := fromID.Execute(t.Context(), &guildkit.WebhookExecuteParams{Wait: guildkit.Some(true), Content: guildkit.Some("from id")})
	require.NoError(t, err)
	assert.Equal(t, "from id", m.Content)

	vote := components.List{components.NewActionRow(components.NewButton(components.ButtonPrimary, "vote:yes", "Yes"))}
	params := &guildkit.WebhookExecuteParams{Wait: guildkit.Some(true), Content: guildkit.Some("vote"), Components: vote}
	_, err = fromID.Execute(t.Context(), params)
	requireWebhookProblem(t, err, "components[0].components[0]", "not_allowed")
	assert.Contains(t, err.Error(), "ApplicationOwned", "the error names the field")

	fromHook, err := c.WebhookClient(hook)
	require.NoError(t, err)
	m, err = fromHook.Execute(t.Context(), params)
	require.NoError(t, err, "ownership inferred from the *Webhook")
	assert.Len(t, m.Components, 1)
	assert.False(t, params.ApplicationOwned, "the caller's params are not changed")

	_, err = c.WebhookClient(&guildkit.Webhook{ID: 5})
	assert.ErrorContains(t, err, "no token")
	_, err = guildkit.NewWebhookClientFromID(0, "x", guildkit.WithBaseURL(srv.BaseURL()))
	assert.Error(t, err)
	_, err = guildkit.NewWebhookClientFromID(5, "secret-token")
	require.Error(t, err, "the base URL is required")
	assert.NotContains(t, err.Error(), "secret-token")
}
