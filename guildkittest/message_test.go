package guildkittest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// chatWorld is a guild with a text channel, the bot (owner) and two
// members: alice, who may do what @everyone may, and muted, who may not
// send in #general.
type chatWorld struct {
	srv      *guildkittest.Server
	guild    guildkit.Guild
	general  guildkit.Channel
	alice    guildkit.Member
	muted    guildkit.Member
	aliceTok string
	mutedTok string
}

func newChatWorld(t *testing.T, opts ...guildkittest.Option) *chatWorld {
	t.Helper()
	srv := guildkittest.NewServer(t, opts...)
	g := srv.AddGuild(guildkit.Guild{Name: "chat"})
	alice := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "alice"}})
	muted := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "muted"}})
	general := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText,
		PermissionOverwrites: []guildkit.PermissionOverwrite{{ID: muted.User.ID, Type: guildkit.OverwriteTypeMember, Deny: guildkit.PermissionSendMessages}}})
	return &chatWorld{srv: srv, guild: g, general: general, alice: alice, muted: muted,
		aliceTok: srv.NewToken(alice.User.ID), mutedTok: srv.NewToken(muted.User.ID)}
}

// do sends a request with token ("" for the bot's) and returns the status
// and the decoded body.
func (w *chatWorld) do(t *testing.T, token, method, path string, body any) (int, map[string]any, []byte) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		require.NoError(t, err)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, w.srv.BaseURL()+path, rd)
	require.NoError(t, err)
	if token == "" {
		token = w.srv.Token()
	}
	req.Header.Set("Authorization", "Bot "+token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	return resp.StatusCode, out, raw
}

func (w *chatWorld) send(t *testing.T, token string, channelID guildkit.Snowflake, body any) map[string]any {
	t.Helper()
	status, out, raw := w.do(t, token, http.MethodPost, "/channels/"+channelID.String()+"/messages", body)
	require.Equal(t, http.StatusOK, status, "%s", raw)
	return out
}

func code(out map[string]any) int {
	c, _ := out["code"].(float64)
	return int(c)
}

func TestCreateMessageAndReadItBack(t *testing.T) {
	t.Parallel()
	w := newChatWorld(t)
	ch := w.general.ID.String()
	m := w.send(t, "", w.general.ID, map[string]any{"content": "hello <@" + w.alice.User.ID.String() + ">", "nonce": "n-1",
		"embeds": []any{map[string]any{"title": "t", "fields": []any{map[string]any{"name": "a", "value": "b"}}}}})
	assert.Equal(t, "hello <@"+w.alice.User.ID.String()+">", m["content"])
	assert.Equal(t, "n-1", m["nonce"])
	assert.Equal(t, float64(0), m["type"])
	assert.Nil(t, m["edited_timestamp"])
	assert.Equal(t, "rich", m["embeds"].([]any)[0].(map[string]any)["type"])
	mentions := m["mentions"].([]any)
	require.Len(t, mentions, 1)
	assert.Equal(t, w.alice.User.ID.String(), mentions[0].(map[string]any)["id"])
	assert.Equal(t, w.srv.BotID().String(), m["author"].(map[string]any)["id"])
	id := m["id"].(string)

	status, got, _ := w.do(t, "", http.MethodGet, "/channels/"+ch+"/messages/"+id, nil)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, m["content"], got["content"])
	assert.NotContains(t, got, "nonce", "the nonce is echoed on create only")

	status, got, raw := w.do(t, "", http.MethodPatch, "/channels/"+ch+"/messages/"+id, map[string]any{"content": "edited"})
	require.Equal(t, http.StatusOK, status, "%s", raw)
	assert.Equal(t, "edited", got["content"])
	assert.NotNil(t, got["edited_timestamp"])
	assert.Empty(t, got["mentions"], "mentions are rebuilt from the new content")

	status, _, _ = w.do(t, "", http.MethodDelete, "/channels/"+ch+"/messages/"+id, nil)
	assert.Equal(t, http.StatusNoContent, status)
	status, got, _ = w.do(t, "", http.MethodGet, "/channels/"+ch+"/messages/"+id, nil)
	assert.Equal(t, http.StatusNotFound, status)
	assert.Equal(t, 10008, code(got))

	var names []guildkit.EventName
	for _, e := range w.srv.Events() {
		names = append(names, e.Name)
	}
	assert.Equal(t, []guildkit.EventName{guildkit.EventMessageCreate, guildkit.EventMessageUpdate, guildkit.EventMessageDelete}, names)
}

func TestCreateMessageRefusals(t *testing.T) {
	t.Parallel()
	w := newChatWorld(t)
	voice := w.srv.AddChannel(w.guild.ID, guildkit.Channel{Name: "cat", Type: guildkit.ChannelTypeGuildCategory})
	hidden := w.srv.AddChannel(w.guild.ID, guildkit.Channel{Name: "staff", Type: guildkit.ChannelTypeGuildText,
		PermissionOverwrites: []guildkit.PermissionOverwrite{{ID: w.guild.ID, Type: guildkit.OverwriteTypeRole, Deny: guildkit.PermissionViewChannel}}})
	long := strings.Repeat("x", 2001)
	for _, tc := range []struct {
		name    string
		token   string
		channel string
		body    any
		status  int
		code    int
	}{
		{"unknown channel", "", "1", map[string]any{"content": "x"}, 404, 10003},
		{"empty", "", "", map[string]any{}, 400, 50006},
		{"content too long", "", "", map[string]any{"content": long}, 400, 50035},
		{"embeds over 6000", "", "", map[string]any{"embeds": []any{
			map[string]any{"description": strings.Repeat("d", 4096)}, map[string]any{"description": strings.Repeat("d", 4000)}}}, 400, 50035},
		{"embed title too long", "", "", map[string]any{"embeds": []any{map[string]any{"title": strings.Repeat("t", 257)}}}, 400, 50035},
		{"eleven embeds", "", "", map[string]any{"embeds": make([]map[string]any, 11)}, 400, 50035},
		{"mentions conflict", "", "", map[string]any{"content": "x", "allowed_mentions": map[string]any{"parse": []string{"users"}, "users": []string{"1"}}}, 400, 50035},
		{"nonce too long", "", "", map[string]any{"content": "x", "nonce": strings.Repeat("n", 26)}, 400, 50035},
		{"ephemeral flag", "", "", map[string]any{"content": "x", "flags": 64}, 400, 50035},
		{"v2 with content", "", "", map[string]any{"content": "x", "flags": 1 << 15}, 400, 50035},
		{"reply to nothing", "", "", map[string]any{"content": "x", "message_reference": map[string]any{"message_id": "12345"}}, 400, 10008},
		{"forward without channel", "", "", map[string]any{"message_reference": map[string]any{"type": 1, "message_id": "12345"}}, 400, 50035},
		{"category", "", voice.ID.String(), map[string]any{"content": "x"}, 400, 50008},
		{"no SEND_MESSAGES", w.mutedTok, "", map[string]any{"content": "x"}, 403, 50013},
		{"no VIEW_CHANNEL", w.aliceTok, hidden.ID.String(), map[string]any{"content": "x"}, 403, 50001},
		{"tts without SEND_TTS_MESSAGES", w.aliceTok, "", map[string]any{"content": "x", "tts": true}, 403, 50013},
		{"not JSON", "", "", "{", 400, 50109},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ch := tc.channel
			if ch == "" {
				ch = w.general.ID.String()
			}
			status, out, raw := w.do(t, tc.token, http.MethodPost, "/channels/"+ch+"/messages", tc.body)
			assert.Equal(t, tc.status, status, "%s", raw)
			if tc.code != 50109 {
				assert.Equal(t, tc.code, code(out), "%s", raw)
			}
		})
	}
	assert.Empty(t, w.srv.EventsNamed(guildkit.EventMessageCreate), "nothing refused was announced")
}

func TestEmbedsDroppedWithoutEmbedLinks(t *testing.T) {
	t.Parallel()
	w := newChatWorld(t)
	// @everyone lacks EMBED_LINKS: alice's embeds are dropped, and a
	// message of embeds only is then empty.
	status, out, _ := w.do(t, w.aliceTok, http.MethodPost, "/channels/"+w.general.ID.String()+"/messages",
		map[string]any{"embeds": []any{map[string]any{"title": "t"}}})
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Equal(t, 50006, code(out))
	m := w.send(t, w.aliceTok, w.general.ID, map[string]any{"content": "c", "embeds": []any{map[string]any{"title": "t"}}})
	assert.Empty(t, m["embeds"])
}

func TestMentionsResolvedAsThePlatformDoes(t *testing.T) {
	t.Parallel()
	w := newChatWorld(t)
	quiet := w.srv.AddRole(w.guild.ID, guildkit.Role{Name: "quiet"})
	loud := w.srv.AddRole(w.guild.ID, guildkit.Role{Name: "loud", Mentionable: true})
	text := "@everyone <@&" + quiet.ID.String() + "> <@&" + loud.ID.String() + "> <@" + w.muted.User.ID.String() + ">"
	// alice lacks MENTION_EVERYONE: only the mentionable role and the user.
	m := w.send(t, w.aliceTok, w.general.ID, map[string]any{"content": text})
	assert.Equal(t, false, m["mention_everyone"])
	assert.Equal(t, []any{loud.ID.String()}, m["mention_roles"])
	assert.Len(t, m["mentions"], 1)
	// The bot owns the guild: everything pings.
	m = w.send(t, "", w.general.ID, map[string]any{"content": text})
	assert.Equal(t, true, m["mention_everyone"])
	assert.Len(t, m["mention_roles"], 2)
	// {"parse": []} pings nobody.
	m = w.send(t, "", w.general.ID, map[string]any{"content": text, "allowed_mentions": map[string]any{"parse": []string{}}})
	assert.Equal(t, false, m["mention_everyone"])
	assert.Empty(t, m["mention_roles"])
	assert.Empty(t, m["mentions"])
}

func TestReplyCarriesReference(t *testing.T) {
	t.Parallel()
	w := newChatWorld(t)
	first, err := w.srv.Post(t.Context(), w.alice.User.ID, w.general.ID, "!ping")
	require.NoError(t, err)
	m := w.send(t, "", w.general.ID, map[string]any{"content": "pong",
		"message_reference": map[string]any{"message_id": first.ID.String()}, "allowed_mentions": map[string]any{"replied_user": true}})
	assert.Equal(t, float64(19), m["type"])
	ref := m["message_reference"].(map[string]any)
	assert.Equal(t, first.ID.String(), ref["message_id"])
	assert.Equal(t, w.general.ID.String(), ref["channel_id"])
	assert.Equal(t, w.guild.ID.String(), ref["guild_id"])
	assert.Equal(t, "!ping", m["referenced_message"].(map[string]any)["content"])
	require.Len(t, m["mentions"], 1, "replied_user pings the replied-to author")

	// The replied-to message deleted: referenced_message is null.
	status, _, _ := w.do(t, w.aliceTok, http.MethodDelete, "/channels/"+w.general.ID.String()+"/messages/"+first.ID.String(), nil)
	require.Equal(t, http.StatusNoContent, status)
	_, got, raw := w.do(t, "", http.MethodGet, "/channels/"+w.general.ID.String()+"/messages/"+m["id"].(string), nil)
	assert.Contains(t, string(raw), `"referenced_message":null`)
	assert.NotNil(t, got["message_reference"])

	// fail_if_not_exists false: sent as a plain message.
	m = w.send(t, "", w.general.ID, map[string]any{"content": "plain",
		"message_reference": map[string]any{"message_id": first.ID.String(), "fail_if_not_exists": false}})
	assert.Equal(t, float64(0), m["type"])
	assert.NotContains(t, m, "message_reference")
}

func TestEditAndDeleteRules(t *testing.T) {
	t.Parallel()
	w := newChatWorld(t)
	ch := w.general.ID.String()
	alices, err := w.srv.Post(t.Context(), w.alice.User.ID, w.general.ID, "mine")
	require.NoError(t, err)
	bots := w.send(t, "", w.general.ID, map[string]any{"content": "the bot's"})
	path := func(id string) string { return "/channels/" + ch + "/messages/" + id }

	// The bot (owner, MANAGE_MESSAGES) may change only flags of another's message.
	status, out, _ := w.do(t, "", http.MethodPatch, path(alices.ID.String()), map[string]any{"content": "x"})
	assert.Equal(t, http.StatusForbidden, status)
	assert.Equal(t, 50005, code(out))
	status, out, raw := w.do(t, "", http.MethodPatch, path(alices.ID.String()), map[string]any{"flags": 4})
	require.Equal(t, http.StatusOK, status, "%s", raw)
	assert.Equal(t, float64(4), out["flags"])
	assert.Nil(t, out["edited_timestamp"], "a flags change by another is not an edit")
	// alice may neither edit nor delete the bot's message.
	status, out, _ = w.do(t, w.aliceTok, http.MethodPatch, path(bots["id"].(string)), map[string]any{"flags": 4})
	assert.Equal(t, http.StatusForbidden, status)
	assert.Equal(t, 50013, code(out))
	status, out, _ = w.do(t, w.aliceTok, http.MethodDelete, path(bots["id"].(string)), nil)
	assert.Equal(t, http.StatusForbidden, status)
	assert.Equal(t, 50013, code(out))
	// The bot deletes alice's with MANAGE_MESSAGES.
	status, _, _ = w.do(t, "", http.MethodDelete, path(alices.ID.String()), nil)
	assert.Equal(t, http.StatusNoContent, status)
	status, out, _ = w.do(t, "", http.MethodDelete, path(alices.ID.String()), nil)
	assert.Equal(t, http.StatusNotFound, status)
	assert.Equal(t, 10008, code(out))
}

func TestHistoryPagesAndBound(t *testing.T) {
	t.Parallel()
	w := newChatWorld(t, guildkittest.WithChannelMessageLimit(5))
	var ids []string
	for i := range 7 {
		m := w.send(t, "", w.general.ID, map[string]any{"content": string(rune('a' + i))})
		ids = append(ids, m["id"].(string))
	}
	list := func(query string) []string {
		t.Helper()
		_, _, raw := w.do(t, "", http.MethodGet, "/channels/"+w.general.ID.String()+"/messages"+query, nil)
		var ms []struct {
			ID string `json:"id"`
		}
		require.NoError(t, json.Unmarshal(raw, &ms), "%s", raw)
		var out []string
		for _, m := range ms {
			out = append(out, m.ID)
		}
		return out
	}
	assert.Equal(t, []string{ids[6], ids[5], ids[4], ids[3], ids[2]}, list(""), "the two oldest went; newest first")
	assert.Equal(t, []string{ids[6], ids[5]}, list("?limit=2"))
	assert.Equal(t, []string{ids[4], ids[3]}, list("?before="+ids[5]+"&limit=2"))
	assert.Equal(t, []string{ids[5], ids[4]}, list("?after="+ids[3]+"&limit=2"))
	assert.Equal(t, []string{ids[5], ids[4], ids[3]}, list("?around="+ids[4]+"&limit=3"))
	for _, q := range []string{"?limit=0", "?limit=101", "?before=1&after=2", "?before=x"} {
		status, out, _ := w.do(t, "", http.MethodGet, "/channels/"+w.general.ID.String()+"/messages"+q, nil)
		assert.Equal(t, http.StatusBadRequest, status, q)
		assert.Equal(t, 50035, code(out), q)
	}
	// Without READ_MESSAGE_HISTORY the answer is [], not an error.
	blind := w.srv.AddMember(w.guild.ID, guildkit.Member{User: &guildkit.User{Username: "blind"}})
	ch := w.srv.AddChannel(w.guild.ID, guildkit.Channel{Name: "nohistory", Type: guildkit.ChannelTypeGuildText,
		PermissionOverwrites: []guildkit.PermissionOverwrite{{ID: blind.User.ID, Type: guildkit.OverwriteTypeMember, Deny: guildkit.PermissionReadMessageHistory}}})
	w.send(t, "", ch.ID, map[string]any{"content": "x"})
	status, _, raw := w.do(t, w.srv.NewToken(blind.User.ID), http.MethodGet, "/channels/"+ch.ID.String()+"/messages", nil)
	assert.Equal(t, http.StatusOK, status)
	assert.JSONEq(t, "[]", string(raw))
}

func TestBulkDelete(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	w := newChatWorld(t, guildkittest.WithClock(func() time.Time { return start }))
	old := w.send(t, "", w.general.ID, map[string]any{"content": "old"})
	w.srv.AdvanceClock(15 * 24 * time.Hour)
	a := w.send(t, "", w.general.ID, map[string]any{"content": "a"})
	b := w.send(t, "", w.general.ID, map[string]any{"content": "b"})
	path := "/channels/" + w.general.ID.String() + "/messages/bulk-delete"
	for _, tc := range []struct {
		ids    []string
		token  string
		status int
		code   int
	}{
		{[]string{a["id"].(string)}, "", 400, 50016},
		{make([]string, 101), "", 400, 50016},
		{[]string{a["id"].(string), old["id"].(string)}, "", 400, 50034},
		{[]string{a["id"].(string), a["id"].(string)}, "", 400, 50035},
		{[]string{a["id"].(string), b["id"].(string)}, w.aliceTok, 403, 50013},
	} {
		for i := range tc.ids {
			if tc.ids[i] == "" {
				tc.ids[i] = guildkit.SnowflakeFromTime(w.srv.Now()).String()
			}
		}
		status, out, raw := w.do(t, tc.token, http.MethodPost, path, map[string]any{"messages": tc.ids})
		assert.Equal(t, tc.status, status, "%v: %s", tc.ids, raw)
		assert.Equal(t, tc.code, code(out), "%v: %s", tc.ids, raw)
	}
	status, _, raw := w.do(t, "", http.MethodPost, path, map[string]any{"messages": []string{a["id"].(string), b["id"].(string), guildkit.SnowflakeFromTime(w.srv.Now().Add(-time.Minute)).String()}})
	require.Equal(t, http.StatusNoContent, status, "%s", raw)
	evs := w.srv.EventsNamed("MESSAGE_DELETE_BULK")
	require.Len(t, evs, 1)
	got, _ := json.Marshal(evs[0].Data)
	assert.JSONEq(t, `{"ids":["`+a["id"].(string)+`","`+b["id"].(string)+`"],"channel_id":"`+w.general.ID.String()+`","guild_id":"`+w.guild.ID.String()+`"}`, string(got))
}

func TestDirectMessages(t *testing.T) {
	t.Parallel()
	w := newChatWorld(t)
	status, dm, raw := w.do(t, "", http.MethodPost, "/users/@me/channels", map[string]any{"recipient_id": w.alice.User.ID.String()})
	require.Equal(t, http.StatusOK, status, "%s", raw)
	assert.Equal(t, float64(1), dm["type"])
	assert.NotContains(t, dm, "guild_id")
	assert.Equal(t, w.alice.User.ID.String(), dm["recipients"].([]any)[0].(map[string]any)["id"])
	_, again, _ := w.do(t, "", http.MethodPost, "/users/@me/channels", map[string]any{"recipient_id": w.alice.User.ID.String()})
	assert.Equal(t, dm["id"], again["id"], "the same DM is returned")
	dmID, err := guildkit.ParseSnowflake(dm["id"].(string))
	require.NoError(t, err)
	assert.Equal(t, dmID, w.srv.DMChannel(w.alice.User.ID))

	m := w.send(t, "", dmID, map[string]any{"content": "hello alice", "embeds": []any{map[string]any{"title": "e"}}})
	assert.Len(t, m["embeds"], 1)
	reply, err := w.srv.Post(t.Context(), w.alice.User.ID, dmID, "hi bot")
	require.NoError(t, err)
	assert.Equal(t, dmID, reply.ChannelID)
	status, got, _ := w.do(t, "", http.MethodGet, "/channels/"+dm["id"].(string), nil)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, reply.ID.String(), got["last_message_id"])

	// Others cannot read it; the bot cannot delete alice's DM message.
	status, out, _ := w.do(t, w.mutedTok, http.MethodGet, "/channels/"+dm["id"].(string)+"/messages", nil)
	assert.Equal(t, http.StatusForbidden, status)
	assert.Equal(t, 50001, code(out))
	status, out, _ = w.do(t, "", http.MethodDelete, "/channels/"+dm["id"].(string)+"/messages/"+reply.ID.String(), nil)
	assert.Equal(t, http.StatusForbidden, status)
	assert.Equal(t, 50003, code(out))

	// A user who refuses DMs: 50007; a bot user: 50007; a stranger: 50278.
	w.srv.SetDirectMessagesOpen(w.alice.User.ID, false)
	status, out, _ = w.do(t, "", http.MethodPost, "/channels/"+dm["id"].(string)+"/messages", map[string]any{"content": "x"})
	assert.Equal(t, http.StatusForbidden, status)
	assert.Equal(t, 50007, code(out))
	stranger := w.srv.AddUser(guildkit.User{Username: "stranger"})
	_, sdm, _ := w.do(t, "", http.MethodPost, "/users/@me/channels", map[string]any{"recipient_id": stranger.ID.String()})
	status, out, _ = w.do(t, "", http.MethodPost, "/channels/"+sdm["id"].(string)+"/messages", map[string]any{"content": "x"})
	assert.Equal(t, http.StatusForbidden, status)
	assert.Equal(t, 50278, code(out))
	status, out, _ = w.do(t, "", http.MethodPost, "/users/@me/channels", map[string]any{"recipient_id": "1"})
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Equal(t, 50033, code(out))
}

func TestPostIsCheckedAgainstTheMember(t *testing.T) {
	t.Parallel()
	w := newChatWorld(t)
	_, err := w.srv.Post(t.Context(), w.muted.User.ID, w.general.ID, "let me speak")
	var apiErr *guildkit.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, guildkit.CodeMissingPermissions, apiErr.Code)
	assert.ErrorIs(t, err, guildkit.ErrForbidden)

	until := w.srv.Now().Add(time.Hour)
	_, err = w.srv.Client().Members.Modify(t.Context(), w.guild.ID, w.alice.User.ID, &guildkit.MemberModifyParams{CommunicationDisabledUntil: guildkit.Some(until)})
	require.NoError(t, err)
	_, err = w.srv.Post(t.Context(), w.alice.User.ID, w.general.ID, "timed out")
	assert.ErrorIs(t, err, guildkit.ErrForbidden, "a timed-out member cannot post")

	m, err := w.srv.PostMessage(t.Context(), w.muted.User.ID, w.srv.DMChannel(w.muted.User.ID), guildkittest.PostParams{
		Content: "with a file", Files: []guildkittest.PostFile{{Name: "a.txt", ContentType: "text/plain", Data: []byte("file body")}},
	})
	require.NoError(t, err)
	require.Len(t, m.Attachments, 1)
	resp, err := http.Get(m.Attachments[0].URL)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, "file body", string(body))
}

func TestCreateMessageMultipart(t *testing.T) {
	t.Parallel()
	w := newChatWorld(t)
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	require.NoError(t, mw.WriteField("payload_json", `{"content":"see file","attachments":[{"id":0,"description":"alt"}]}`))
	fw, err := mw.CreateFormFile("files[0]", "log.txt")
	require.NoError(t, err)
	_, _ = fw.Write([]byte("line one\n"))
	require.NoError(t, mw.Close())
	send := func(token string) (int, map[string]any) {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, w.srv.BaseURL()+"/channels/"+w.general.ID.String()+"/messages", bytes.NewReader(buf.Bytes()))
		req.Header.Set("Authorization", "Bot "+token)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out
	}
	status, out := send(w.aliceTok)
	assert.Equal(t, http.StatusForbidden, status, "@everyone lacks ATTACH_FILES")
	assert.Equal(t, 50013, code(out))
	status, out = send(w.srv.Token())
	require.Equal(t, http.StatusOK, status, "%v", out)
	att := out["attachments"].([]any)[0].(map[string]any)
	assert.Equal(t, "log.txt", att["filename"])
	assert.Equal(t, "alt", att["description"])
	resp, err := http.Get(att["url"].(string))
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, "line one\n", string(body))
}

func TestReactionsAndTyping(t *testing.T) {
	t.Parallel()
	w := newChatWorld(t)
	m := w.send(t, "", w.general.ID, map[string]any{"content": "react"})
	base := "/channels/" + w.general.ID.String() + "/messages/" + m["id"].(string) + "/reactions/"
	status, _, raw := w.do(t, "", http.MethodPut, base+"%F0%9F%91%8D/@me", nil)
	require.Equal(t, http.StatusNoContent, status, "%s", raw)
	status, out, _ := w.do(t, "", http.MethodPut, base+"notanemoji/@me", nil)
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Equal(t, 10014, code(out))
	// Not an emoji however it is spelled: a sender cannot store a header's
	// worth of text as a reaction.
	status, out, _ = w.do(t, "", http.MethodPut, base+strings.Repeat("%F0%9F%91%8D", 500)+"/@me", nil)
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Equal(t, 10014, code(out))
	_, got, _ := w.do(t, w.aliceTok, http.MethodGet, "/channels/"+w.general.ID.String()+"/messages/"+m["id"].(string), nil)
	r := got["reactions"].([]any)[0].(map[string]any)
	assert.Equal(t, float64(1), r["count"])
	assert.Equal(t, false, r["me"], "me is the viewer's")
	assert.Equal(t, "👍", r["emoji"].(map[string]any)["name"])
	status, _, _ = w.do(t, "", http.MethodDelete, base+"%F0%9F%91%8D/@me", nil)
	assert.Equal(t, http.StatusNoContent, status)
	status, _, _ = w.do(t, "", http.MethodPost, "/channels/"+w.general.ID.String()+"/typing", nil)
	assert.Equal(t, http.StatusNoContent, status)
	assert.Len(t, w.srv.EventsNamed("MESSAGE_REACTION_ADD"), 1)
	assert.Len(t, w.srv.EventsNamed("MESSAGE_REACTION_REMOVE"), 1)
	assert.Len(t, w.srv.EventsNamed("TYPING_START"), 1)
}

func TestGetChannel(t *testing.T) {
	t.Parallel()
	w := newChatWorld(t)
	status, out, _ := w.do(t, "", http.MethodGet, "/channels/"+w.general.ID.String(), nil)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "general", out["name"])
	status, out, _ = w.do(t, "", http.MethodGet, "/channels/42", nil)
	assert.Equal(t, http.StatusNotFound, status)
	assert.Equal(t, 10003, code(out))
	status, out, _ = w.do(t, "", http.MethodGet, "/users/"+w.alice.User.ID.String(), nil)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "alice", out["username"])
	status, out, _ = w.do(t, "", http.MethodGet, "/users/42", nil)
	assert.Equal(t, http.StatusNotFound, status)
	assert.Equal(t, 10013, code(out))
}

func TestControlPost(t *testing.T) {
	t.Parallel()
	w := newChatWorld(t)
	post := func(body string) (int, map[string]any) {
		t.Helper()
		resp, err := http.Post(w.srv.URL+guildkittest.ControlPrefix+"api/messages", "application/json", strings.NewReader(body))
		require.NoError(t, err)
		defer resp.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out
	}
	status, out := post(`{"user_id":"` + w.alice.User.ID.String() + `","channel_id":"` + w.general.ID.String() + `","content":"!ping"}`)
	require.Equal(t, http.StatusOK, status, "%v", out)
	assert.Equal(t, "!ping", out["content"])
	assert.Equal(t, w.alice.User.ID.String(), out["author"].(map[string]any)["id"])
	status, out = post(`{"user_id":"` + w.muted.User.ID.String() + `","channel_id":"` + w.general.ID.String() + `","content":"x"}`)
	assert.Equal(t, http.StatusForbidden, status)
	assert.Equal(t, float64(50013), out["code"])
	status, _ = post(`{"content":"x"}`)
	assert.Equal(t, http.StatusBadRequest, status)

	w.srv.DMChannel(w.alice.User.ID)
	resp, err := http.Get(w.srv.URL + guildkittest.ControlPrefix + "api/dms")
	require.NoError(t, err)
	defer resp.Body.Close()
	var dms []map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&dms))
	require.Len(t, dms, 1)
	assert.Equal(t, w.alice.User.ID.String(), dms[0]["recipients"].([]any)[0].(map[string]any)["id"])
}

func TestForwardEnforceNonceAndContentGate(t *testing.T) {
	t.Parallel()
	w := newChatWorld(t)
	other := w.srv.AddChannel(w.guild.ID, guildkit.Channel{Name: "other", Type: guildkit.ChannelTypeGuildText})
	src, err := w.srv.Post(t.Context(), w.alice.User.ID, w.general.ID, "worth sharing")
	require.NoError(t, err)

	// A forward: HAS_SNAPSHOT, one snapshot of the original, no author in it.
	fwd := w.send(t, "", other.ID, map[string]any{"message_reference": map[string]any{
		"type": 1, "message_id": src.ID.String(), "channel_id": w.general.ID.String()}})
	assert.Equal(t, float64(1<<14), fwd["flags"])
	snaps := fwd["message_snapshots"].([]any)
	require.Len(t, snaps, 1)
	snap := snaps[0].(map[string]any)["message"].(map[string]any)
	assert.Equal(t, "worth sharing", snap["content"])
	assert.NotContains(t, snap, "author")

	// enforce_nonce: the same nonce again returns the first message.
	body := map[string]any{"content": "once", "nonce": "n-42", "enforce_nonce": true}
	first := w.send(t, "", w.general.ID, body)
	again := w.send(t, "", w.general.ID, body)
	assert.Equal(t, first["id"], again["id"])
	creates := 0
	for _, e := range w.srv.EventsNamed(guildkit.EventMessageCreate) {
		if e.Data.(guildkit.Message).Content == "once" {
			creates++
		}
	}
	assert.Equal(t, 1, creates)

	// An application not approved for MESSAGE_CONTENT reads members'
	// messages without content over REST, but its own and those that
	// mention it in full.
	w.srv.SetPrivilegedIntents(0)
	_, err = w.srv.Post(t.Context(), w.alice.User.ID, w.general.ID, "hey <@"+w.srv.BotID().String()+">")
	require.NoError(t, err)
	_, _, raw := w.do(t, "", http.MethodGet, "/channels/"+w.general.ID.String()+"/messages", nil)
	var list []map[string]any
	require.NoError(t, json.Unmarshal(raw, &list))
	contents := map[string]bool{}
	for _, m := range list {
		contents[m["content"].(string)] = true
	}
	assert.True(t, contents["hey <@"+w.srv.BotID().String()+">"], "a mention of the bot keeps its content")
	assert.True(t, contents["once"], "the bot's own message keeps its content")
	assert.False(t, contents["worth sharing"], "a member's message is read without content")
	_, got, _ := w.do(t, w.aliceTok, http.MethodGet, "/channels/"+w.general.ID.String()+"/messages/"+src.ID.String(), nil)
	assert.Equal(t, "worth sharing", got["content"], "the gate is the application's, not a member's")
}

func TestPerChannelBudgets(t *testing.T) {
	t.Parallel()
	w := newChatWorld(t, guildkittest.WithRouteLimit("POST /channels/{channel.id}/messages", 1, time.Hour))
	other := w.srv.AddChannel(w.guild.ID, guildkit.Channel{Name: "other", Type: guildkit.ChannelTypeGuildText})
	w.send(t, "", w.general.ID, map[string]any{"content": "a"})
	status, _, _ := w.do(t, "", http.MethodPost, "/channels/"+w.general.ID.String()+"/messages", map[string]any{"content": "b"})
	assert.Equal(t, http.StatusTooManyRequests, status, "#general's budget is spent")
	w.send(t, "", other.ID, map[string]any{"content": "c"}) // #other has its own
}

func TestThreadsAndVoiceChat(t *testing.T) {
	t.Parallel()
	w := newChatWorld(t)
	th := w.srv.AddThread(w.guild.ID, w.general.ID, guildkit.Channel{Name: "thread"})
	// @everyone lacks SEND_MESSAGES_IN_THREADS: SEND_MESSAGES does not let
	// alice post in a thread.
	_, err := w.srv.Post(t.Context(), w.alice.User.ID, th.ID, "in thread")
	var apiErr *guildkit.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, guildkit.CodeMissingPermissions, apiErr.Code)
	w.send(t, "", th.ID, map[string]any{"content": "the owner may"})
	got, ok := w.srv.Channel(w.guild.ID, th.ID)
	require.True(t, ok)
	require.NotNil(t, got.MessageCount)
	assert.Equal(t, 1, *got.MessageCount)

	voice := w.srv.AddChannel(w.guild.ID, guildkit.Channel{Name: "Voice", Type: guildkit.ChannelTypeGuildVoice})
	_, err = w.srv.Post(t.Context(), w.alice.User.ID, voice.ID, "voice channels have a text chat")
	require.NoError(t, err)
	forum := w.srv.AddChannel(w.guild.ID, guildkit.Channel{Name: "forum", Type: guildkit.ChannelTypeGuildForum})
	status, out, _ := w.do(t, "", http.MethodPost, "/channels/"+forum.ID.String()+"/messages", map[string]any{"content": "x"})
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Equal(t, 40058, code(out))
}

func TestMessagesSurviveSaveAndLoad(t *testing.T) {
	t.Parallel()
	w := newChatWorld(t)
	ping, err := w.srv.Post(t.Context(), w.alice.User.ID, w.general.ID, "!ping")
	require.NoError(t, err)
	reply := w.send(t, "", w.general.ID, map[string]any{"content": "pong", "message_reference": map[string]any{"message_id": ping.ID.String()}})
	status, _, _ := w.do(t, "", http.MethodPut, "/channels/"+w.general.ID.String()+"/messages/"+ping.ID.String()+"/reactions/%E2%9C%85/@me", nil)
	require.Equal(t, http.StatusNoContent, status)
	dm := w.srv.DMChannel(w.alice.User.ID)
	w.send(t, "", dm, map[string]any{"content": "psst"})

	var buf bytes.Buffer
	require.NoError(t, w.srv.SaveState(&buf))
	other := guildkittest.NewServer(t)
	require.NoError(t, other.LoadState(&buf))
	assert.Equal(t, dm, other.DMChannel(w.alice.User.ID), "the DM channel is kept")
	assert.Len(t, other.ChannelMessages(dm, w.alice.User.ID), 1)
	w2 := &chatWorld{srv: other}
	_, got, raw := w2.do(t, "", http.MethodGet, "/channels/"+w.general.ID.String()+"/messages/"+reply["id"].(string), nil)
	assert.Equal(t, ping.ID.String(), got["message_reference"].(map[string]any)["message_id"], "%s", raw)
	assert.Equal(t, "!ping", got["referenced_message"].(map[string]any)["content"])
	_, got, _ = w2.do(t, "", http.MethodGet, "/channels/"+w.general.ID.String()+"/messages/"+ping.ID.String(), nil)
	assert.Len(t, got["reactions"], 1)
}

func TestControlChannelAsAMemberReadsIt(t *testing.T) {
	t.Parallel()
	w := newChatWorld(t)
	blind := w.srv.AddChannel(w.guild.ID, guildkit.Channel{Name: "staff", Type: guildkit.ChannelTypeGuildText,
		PermissionOverwrites: []guildkit.PermissionOverwrite{{ID: w.alice.User.ID, Type: guildkit.OverwriteTypeMember, Deny: guildkit.PermissionViewChannel}}})
	w.send(t, "", w.general.ID, map[string]any{"content": "one"})
	w.send(t, "", w.general.ID, map[string]any{"content": "two"})
	view := func(channel, user guildkit.Snowflake) map[string]any {
		t.Helper()
		resp, err := http.Get(w.srv.URL + guildkittest.ControlPrefix + "api/channels/" + channel.String() + "/messages?user_id=" + user.String())
		require.NoError(t, err)
		defer resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)
		var out map[string]any
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
		return out
	}
	v := view(w.general.ID, w.alice.User.ID)
	msgs := v["messages"].([]any)
	require.Len(t, msgs, 2)
	assert.Equal(t, "one", msgs[0].(map[string]any)["content"], "oldest first")
	assert.Equal(t, true, v["can_send"])
	assert.Equal(t, false, view(w.general.ID, w.muted.User.ID)["can_send"])
	v = view(blind.ID, w.alice.User.ID)
	assert.Empty(t, v["messages"])
	assert.Equal(t, "Missing Access", v["refused"])
}

// A malformed channel id on a message route is one 404 Unknown Channel:
// a single JSON error body, not two.
func TestMessageRoutesMalformedChannelID(t *testing.T) {
	w := newChatWorld(t)
	for _, method := range []string{http.MethodGet, http.MethodPatch, http.MethodDelete} {
		status, out, raw := w.do(t, "", method, "/channels/abc/messages/1", map[string]any{"content": "x"})
		assert.Equal(t, http.StatusNotFound, status, method)
		require.NotNil(t, out, "%s: body is not one JSON object: %s", method, raw)
		assert.EqualValues(t, guildkit.CodeUnknownChannel, out["code"], method)
		assert.Equal(t, 1, bytes.Count(raw, []byte(`"code"`)), "%s: %s", method, raw)
	}
}

// TestReactionCustomEmojiNamedByTheGuild: a reaction with one of the
// guild's emoji is named as the guild names it, whatever name the path
// gave with its id.
func TestReactionCustomEmojiNamedByTheGuild(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	emojiID := guildkit.Snowflake(900000000000000001)
	name := "gopher"
	g := srv.AddGuild(guildkit.Guild{Name: "chat", Emojis: []guildkit.Emoji{{ID: &emojiID, Name: &name}}})
	ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	w := &chatWorld{srv: srv, guild: g, general: ch}
	m := w.send(t, "", ch.ID, map[string]any{"content": "react"})
	path := "/channels/" + ch.ID.String() + "/messages/" + m["id"].(string)
	status, _, raw := w.do(t, "", http.MethodPut, path+"/reactions/anything:"+emojiID.String()+"/@me", nil)
	require.Equal(t, http.StatusNoContent, status, "%s", raw)
	_, got, _ := w.do(t, "", http.MethodGet, path, nil)
	e := got["reactions"].([]any)[0].(map[string]any)["emoji"].(map[string]any)
	assert.Equal(t, "gopher", e["name"])
	assert.Equal(t, emojiID.String(), e["id"])
}
