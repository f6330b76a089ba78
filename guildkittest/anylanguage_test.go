package guildkittest_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// The server as a bot in another language finds it: every test here
// speaks plain HTTP and JSON, with no guildkit client.

// plain sends one request with an optional Authorization value and JSON
// body and decodes the answer into out (when not nil).
func plain(t *testing.T, method, url, auth, body string, out any) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, strings.NewReader(body))
	require.NoError(t, err)
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	if out != nil {
		_ = json.NewDecoder(resp.Body).Decode(out)
	}
	return resp
}

// TestAccessTokensWithoutGo: a seed declares a user's access token and the
// control API mints one; with either, Add Guild Member adds the user
// (201), and again answers 204 for a member already in; the token works as
// "Bearer" for /users/@me and never as "Bot".
func TestAccessTokensWithoutGo(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	seed, err := guildkittest.ParseSeed(strings.NewReader(`{
		"users": [{"id": "5001", "username": "dave"}, {"id": "5002", "username": "erin"}],
		"access_tokens": [{"user_id": "5001", "access_token": "access.dave-joins-guilds"}],
		"guilds": [{"id": "6001", "name": "join me"}]}`))
	require.NoError(t, err)
	srv.ApplySeed(seed)
	bot := "Bot " + srv.Token()

	var minted map[string]string
	resp := plain(t, "POST", srv.URL+guildkittest.ControlPrefix+"api/access-tokens", "", `{"user_id": "5002"}`, &minted)
	require.Equal(t, http.StatusCreated, resp.StatusCode)
	assert.Equal(t, "5002", minted["user_id"])
	require.True(t, strings.HasPrefix(minted["access_token"], "access."), minted["access_token"])

	for user, token := range map[string]string{"5001": "access.dave-joins-guilds", "5002": minted["access_token"]} {
		url := srv.BaseURL() + "/guilds/6001/members/" + user
		body := `{"access_token": "` + token + `"}`
		var member map[string]any
		resp := plain(t, "PUT", url, bot, body, &member)
		require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", member)
		assert.Equal(t, user, member["user"].(map[string]any)["id"])
		resp = plain(t, "PUT", url, bot, body, nil)
		assert.Equal(t, http.StatusNoContent, resp.StatusCode, "already a member: 204, as the documents say")

		var me map[string]any
		resp = plain(t, "GET", srv.BaseURL()+"/users/@me", "Bearer "+token, "", &me)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Equal(t, user, me["id"])
		resp = plain(t, "GET", srv.BaseURL()+"/users/@me", "Bot "+token, "", nil)
		assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	}

	// Someone else's token, and an unknown user, are refused.
	var problem map[string]any
	resp = plain(t, "PUT", srv.BaseURL()+"/guilds/6001/members/5002", bot, `{"access_token": "access.dave-joins-guilds"}`, &problem)
	assert.Equal(t, http.StatusForbidden, resp.StatusCode, "dave's token is not erin's")
	assert.EqualValues(t, 50025, problem["code"])
	resp = plain(t, "POST", srv.URL+guildkittest.ControlPrefix+"api/access-tokens", "", `{"user_id": "999"}`, &problem)
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	assert.Contains(t, problem["error"], "no user 999")

	// A seed token must look like one.
	_, err = guildkittest.ParseSeed(strings.NewReader(`{"users": [{"id": "1", "username": "x"}], "access_tokens": [{"user_id": "1", "access_token": "short"}]}`))
	require.ErrorContains(t, err, `access_tokens[0].access_token: an access token starts with "access."`)
}

// TestCurrentUser: Get Current User and List Current User Guilds answer as
// the reference platform does: the caller's own user object with the
// current user's fields, and its guilds with ownership and permissions.
func TestCurrentUser(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	owned := srv.AddGuild(guildkit.Guild{Name: "mine"})
	alice := srv.AddUser(guildkit.User{Username: "alice"})
	other := srv.AddGuild(guildkit.Guild{Name: "alice's", OwnerID: alice.ID})
	srv.AddMember(other.ID, guildkit.Member{User: &guildkit.User{ID: srv.BotID()}})
	srv.AddGuild(guildkit.Guild{Name: "not mine", OwnerID: alice.ID})
	bot := "Bot " + srv.Token()

	var me map[string]any
	resp := plain(t, "GET", srv.BaseURL()+"/users/@me", bot, "", &me)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, srv.BotID().String(), me["id"])
	assert.Equal(t, true, me["bot"])
	for _, k := range []string{"username", "discriminator", "global_name", "avatar", "public_flags", "flags", "mfa_enabled", "locale", "verified"} {
		assert.Contains(t, me, k)
	}

	var guilds []map[string]any
	resp = plain(t, "GET", srv.BaseURL()+"/users/@me/guilds?with_counts=true", bot, "", &guilds)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Len(t, guilds, 2, "the bot's guilds only")
	assert.Equal(t, owned.ID.String(), guilds[0]["id"])
	assert.Equal(t, true, guilds[0]["owner"])
	assert.Equal(t, other.ID.String(), guilds[1]["id"])
	assert.Equal(t, false, guilds[1]["owner"])
	assert.Equal(t, strconv.FormatUint(uint64(guildkittest.DefaultEveryonePermissions), 10), guilds[1]["permissions"], "permissions as a decimal string")
	assert.EqualValues(t, 2, guilds[1]["approximate_member_count"])

	resp = plain(t, "GET", srv.BaseURL()+"/users/@me/guilds?after="+owned.ID.String()+"&limit=1", bot, "", &guilds)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Len(t, guilds, 1)
	assert.Equal(t, other.ID.String(), guilds[0]["id"])
	resp = plain(t, "GET", srv.BaseURL()+"/users/@me/guilds?limit=0", bot, "", nil)
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
}

// TestSeededBot: a seed fixes the bot's id, makes it a member of a guild
// another user owns with a low role, and a permission refusal can be
// tested from the seed alone.
func TestSeededBot(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	token := srv.Token()
	seed, err := guildkittest.ParseSeed(strings.NewReader(`{
		"bot": {"id": "4000", "username": "seeded-bot"},
		"users": [{"id": "4001", "username": "alice"}, {"id": "4002", "username": "bob"}],
		"guilds": [{"id": "4100", "name": "alice's", "owner_id": "4001",
			"roles": [{"id": "4101", "name": "helper", "permissions": "268435456", "position": 1},
			          {"id": "4102", "name": "admin", "permissions": "8", "position": 2}],
			"members": [{"user_id": "4000", "roles": ["4101"]}, {"user_id": "4002"}]}]}`))
	require.NoError(t, err)
	srv.ApplySeed(seed)
	assert.Equal(t, guildkit.Snowflake(4000), srv.BotID())
	// The token is made again with the bot's new id in it (disgo reads
	// the application id from it); the old one goes on working.
	assert.NotEqual(t, token, srv.Token())
	assert.True(t, strings.HasPrefix(srv.Token(), base64.RawStdEncoding.EncodeToString([]byte("4000"))+"."), srv.Token())

	var me map[string]any
	plain(t, "GET", srv.BaseURL()+"/users/@me", "Bot "+token, "", &me)
	assert.Equal(t, "4000", me["id"])
	assert.Equal(t, "seeded-bot", me["username"])

	// MANAGE_ROLES, but the admin role is above the bot's highest: 403.
	var refusal map[string]any
	resp := plain(t, "PUT", srv.BaseURL()+"/guilds/4100/members/4002/roles/4102", "Bot "+token, "", &refusal)
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	assert.EqualValues(t, guildkit.CodeMissingPermissions, refusal["code"])
	// No BAN_MEMBERS at all: 403.
	resp = plain(t, "PUT", srv.BaseURL()+"/guilds/4100/bans/4002", "Bot "+token, "{}", &refusal)
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)

	// Once the bot is in a guild, a seed cannot move it.
	var conflict map[string]any
	resp = plain(t, "POST", srv.URL+guildkittest.ControlPrefix+"api/seed", "", `{"bot": {"id": "4999"}}`, &conflict)
	assert.Equal(t, http.StatusConflict, resp.StatusCode)
	assert.Contains(t, conflict["error"], "the bot is already in a guild")
}

// TestBucketHeadersOnEveryRoute: with a default route limit every answer
// carries the X-RateLimit-* bucket headers, each route its own bucket.
func TestBucketHeadersOnEveryRoute(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t, guildkittest.WithDefaultRouteLimit(1000, time.Second))
	g := srv.AddGuild(guildkit.Guild{Name: "buckets"})
	bot := "Bot " + srv.Token()
	a := plain(t, "GET", srv.BaseURL()+"/guilds/"+g.ID.String(), bot, "", nil)
	b := plain(t, "GET", srv.BaseURL()+"/guilds/"+g.ID.String(), bot, "", nil)
	c := plain(t, "GET", srv.BaseURL()+"/guilds/"+g.ID.String()+"/roles", bot, "", nil)
	for _, r := range []*http.Response{a, b, c} {
		require.Equal(t, http.StatusOK, r.StatusCode)
		for _, h := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-RateLimit-Reset-After", "X-RateLimit-Bucket"} {
			assert.NotEmpty(t, r.Header.Get(h), h)
		}
	}
	assert.Equal(t, "1000", a.Header.Get("X-RateLimit-Limit"))
	assert.Equal(t, "999", a.Header.Get("X-RateLimit-Remaining"))
	assert.Equal(t, "998", b.Header.Get("X-RateLimit-Remaining"))
	assert.Equal(t, a.Header.Get("X-RateLimit-Bucket"), b.Header.Get("X-RateLimit-Bucket"))
	assert.NotEqual(t, a.Header.Get("X-RateLimit-Bucket"), c.Header.Get("X-RateLimit-Bucket"), "each route is its own bucket")

	// Without the option, as before, no bucket headers.
	bare := guildkittest.NewServer(t)
	r := plain(t, "GET", bare.BaseURL()+"/users/@me", "Bot "+bare.Token(), "", nil)
	assert.Empty(t, r.Header.Get("X-RateLimit-Bucket"))
}

// TestControlRouteList: the control API lists its routes as JSON, and its
// 404 points to that list.
func TestControlRouteList(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	var routes []guildkittest.ControlRoute
	resp := plain(t, "GET", srv.URL+guildkittest.ControlPrefix+"api/", "", "", &routes)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, guildkittest.ControlRoutes, routes)
	// Every listed route is served (none answers the 404 of the list).
	for _, r := range routes {
		if strings.HasSuffix(r.Path, "/stream") || strings.HasSuffix(r.Path, "/feed") || r.Method != "GET" {
			continue
		}
		var problem map[string]any
		resp := plain(t, r.Method, srv.URL+r.Path, "", "", &problem)
		if strings.Contains(r.Path, "{") {
			// A wildcard taken literally names nothing: the route's own 404.
			assert.Equal(t, http.StatusNotFound, resp.StatusCode, "%s %s", r.Method, r.Path)
			assert.NotContains(t, problem["error"], "no such control route", "%s %s", r.Method, r.Path)
			continue
		}
		assert.Equal(t, http.StatusOK, resp.StatusCode, "%s %s", r.Method, r.Path)
	}
	var problem map[string]any
	resp = plain(t, "GET", srv.URL+guildkittest.ControlPrefix+"api/nope", "", "", &problem)
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	assert.Contains(t, problem["error"], "see the list at "+guildkittest.ControlPrefix+"api/")
}

// TestWidgetInviteLink: the widget's instant_invite link is served: JSON
// of the invite for a bot, a page for a browser.
func TestWidgetInviteLink(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "Widget guild"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "lobby", Type: guildkit.ChannelTypeGuildText})
	bot := "Bot " + srv.Token()
	resp := plain(t, "PATCH", srv.BaseURL()+"/guilds/"+g.ID.String()+"/widget", bot, `{"enabled": true, "channel_id": "`+ch.ID.String()+`"}`, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var widget map[string]any
	plain(t, "GET", srv.BaseURL()+"/guilds/"+g.ID.String()+"/widget.json", "", "", &widget)
	link, _ := widget["instant_invite"].(string)
	require.True(t, strings.HasPrefix(link, srv.URL+"/invite/"), link)

	var inv map[string]any
	resp = plain(t, "GET", link, "", "", &inv)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, link[strings.LastIndexByte(link, '/')+1:], inv["code"])
	assert.Equal(t, "Widget guild", inv["guild"].(map[string]any)["name"])

	req, err := http.NewRequestWithContext(t.Context(), "GET", link, nil)
	require.NoError(t, err)
	req.Header.Set("Accept", "text/html")
	page, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer page.Body.Close()
	assert.Equal(t, http.StatusOK, page.StatusCode)
	assert.Contains(t, page.Header.Get("Content-Type"), "text/html")

	resp = plain(t, "GET", srv.URL+"/invite/nosuchcode", "", "", nil)
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
}

// TestListenUnspecifiedAddress: a server listening on 0.0.0.0 names a
// loopback address a client can use.
func TestListenUnspecifiedAddress(t *testing.T) {
	t.Parallel()
	srv, err := guildkittest.Listen("0.0.0.0:0")
	require.NoError(t, err)
	defer srv.Close()
	require.True(t, strings.HasPrefix(srv.URL, "http://127.0.0.1:"), srv.URL)
	resp := plain(t, "GET", srv.BaseURL()+"/users/@me", "Bot "+srv.Token(), "", nil)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

// TestControlRequestLogRedacted: the request log the control API (and the
// inspector page) shows holds no credential: no Authorization value, no
// webhook token in a path, no access token in a body.
func TestControlRequestLogRedacted(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{Name: "redact"})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	hook := srv.AddWebhook(ch.ID, "hook")
	joiner := srv.AddUser(guildkit.User{Username: "joiner"})
	access := srv.NewAccessToken(joiner.ID)
	bot := "Bot " + srv.Token()
	plain(t, "PUT", srv.BaseURL()+"/guilds/"+g.ID.String()+"/members/"+joiner.ID.String(), bot, `{"access_token": "`+access+`"}`, nil)
	plain(t, "POST", srv.BaseURL()+"/webhooks/"+hook.ID.String()+"/"+hook.Token+"?wait=true", "", `{"content": "hi"}`, nil)
	plain(t, "GET", srv.BaseURL()+"/webhooks/"+hook.ID.String()+"/"+hook.Token, "", "", nil)

	req, err := http.NewRequestWithContext(t.Context(), "GET", srv.URL+guildkittest.ControlPrefix+"api/requests", nil)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var log []map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&log))
	require.Len(t, log, 3)
	raw, err := json.Marshal(log)
	require.NoError(t, err)
	for name, secret := range map[string]string{"bot token": srv.Token(), "access token": access, "webhook token": hook.Token} {
		assert.NotContains(t, string(raw), secret, name)
	}
	assert.Equal(t, "/webhooks/"+hook.ID.String()+"/[redacted]", log[1]["path"])
	assert.Equal(t, map[string]any{"access_token": "[redacted]"}, log[0]["body"])
	assert.Equal(t, map[string]any{"content": "hi"}, log[1]["body"], "the rest of a body is kept")
}
