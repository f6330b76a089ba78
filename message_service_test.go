package guildkit_test

import (
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/wire"
)

// The message routes against httptest handlers that assert what is sent;
// message_server_test.go runs them against the in-memory server.

const msgJSON = `{"id":"900","channel_id":"10","author":{"id":"1","username":"bot","bot":true},"content":"hi",
	"timestamp":"2026-11-28T12:00:00.123456+00:00","edited_timestamp":null,"tts":false,"mention_everyone":false,
	"mentions":[],"mention_roles":[],"attachments":[],"embeds":[],"pinned":false,"type":19,"flags":0,"components":[],
	"nonce":"n-1","message_reference":{"type":0,"message_id":"800","channel_id":"10","guild_id":"5"},
	"referenced_message":null,"reactions":[{"count":2,"count_details":{"burst":0,"normal":2},"me":true,"me_burst":false,"emoji":{"id":null,"name":"👍"},"burst_colors":[]}]}`

func TestMessageCreateWire(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	mux.HandleFunc("POST /channels/10/messages", func(w http.ResponseWriter, r *http.Request) {
		testHeader(t, r, "Authorization", "Bot "+testToken)
		testHeader(t, r, "Content-Type", "application/json")
		testQuery(t, r, nil)
		testJSONBody(t, r, `{"content":"hi <@2>","nonce":"n-1","enforce_nonce":true,
			"embeds":[{"title":"T","color":255,"fields":[{"name":"a","value":"b","inline":true}]}],
			"allowed_mentions":{"parse":[],"users":["2"],"replied_user":true},
			"message_reference":{"message_id":"800","fail_if_not_exists":false},
			"components":[{"type":1,"components":[{"type":2,"style":1,"custom_id":"ok","label":"OK"}]}],
			"sticker_ids":["77"],"flags":4096}`)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, msgJSON)
	})
	m, err := c.Messages.Create(t.Context(), 10, &guildkit.MessageCreateParams{
		Content:          guildkit.Some("hi " + guildkit.MentionUser(2)),
		Nonce:            guildkit.Some("n-1"),
		EnforceNonce:     guildkit.Some(true),
		Embeds:           []guildkit.Embed{*guildkit.NewEmbed("T", "").WithColor(0xFF).WithField("a", "b", true)},
		AllowedMentions:  guildkit.Some(guildkit.AllowedMentions{Parse: []guildkit.AllowedMentionType{}, Users: []guildkit.Snowflake{2}, RepliedUser: true}),
		MessageReference: guildkit.Some(guildkit.MessageReference{MessageID: 800, FailIfNotExists: guildkit.Some(false)}),
		Components:       components.List{components.NewActionRow(components.PrimaryButton("ok", "OK"))},
		StickerIDs:       []guildkit.Snowflake{77},
		Flags:            guildkit.Some(guildkit.MessageFlagSuppressNotifications),
	})
	require.NoError(t, err)
	assert.Equal(t, guildkit.Snowflake(900), m.ID)
	assert.Equal(t, guildkit.MessageTypeReply, m.Type)
	assert.Equal(t, guildkit.Nonce("n-1"), m.Nonce)
	require.NotNil(t, m.MessageReference)
	assert.Equal(t, guildkit.Snowflake(800), m.MessageReference.MessageID)
	assert.True(t, m.ReferencedMessage.IsNull(), "null: the replied-to message was deleted")
	require.Len(t, m.Reactions, 1)
	assert.Equal(t, 2, m.Reactions[0].Count)
	assert.True(t, m.Reactions[0].Me)
}

func TestMessageCreateForwardNeedsOnlyTheReference(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	mux.HandleFunc("POST /channels/10/messages", func(w http.ResponseWriter, r *http.Request) {
		testJSONBody(t, r, `{"message_reference":{"type":1,"message_id":"800","channel_id":"11"}}`)
		writeJSON(w, http.StatusOK, map[string]any{"id": "901", "channel_id": "10", "flags": 1 << 14,
			"message_snapshots": []any{map[string]any{"message": map[string]any{"type": 0, "content": "orig", "timestamp": "2026-11-28T12:00:00Z"}}}})
	})
	m, err := c.Messages.Create(t.Context(), 10, &guildkit.MessageCreateParams{
		MessageReference: guildkit.Some(guildkit.MessageReference{Type: guildkit.MessageReferenceForward, MessageID: 800, ChannelID: 11}),
	})
	require.NoError(t, err)
	assert.True(t, m.Flags.Has(guildkit.MessageFlagHasSnapshot))
	require.Len(t, m.MessageSnapshots, 1)
	assert.Equal(t, "orig", m.MessageSnapshots[0].Message.Content)
}

func TestMessageNonceDecodesStringOrInteger(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	mux.HandleFunc("GET /channels/10/messages/{id}", func(w http.ResponseWriter, r *http.Request) {
		nonce := map[string]string{"1": `"abc"`, "2": `1234567890123456789`, "3": `null`}[r.PathValue("id")]
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"`+r.PathValue("id")+`","channel_id":"10","nonce":`+nonce+`}`)
	})
	for id, want := range map[guildkit.Snowflake]guildkit.Nonce{1: "abc", 2: "1234567890123456789", 3: ""} {
		m, err := c.Messages.Get(t.Context(), 10, id)
		require.NoError(t, err)
		assert.Equal(t, want, m.Nonce)
	}
}

// TestMessageCreateFilesWire sends files as webhooks do: a streamed
// multipart body, payload_json first, attachments matching files[n]; a
// 429 makes the client send it again from the start.
func TestMessageCreateFilesWire(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	var calls atomic.Int32
	mux.HandleFunc("POST /channels/10/messages", func(w http.ResponseWriter, r *http.Request) {
		mr, err := r.MultipartReader()
		require.NoError(t, err)
		var got []string
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			require.NoError(t, err)
			b, _ := io.ReadAll(p)
			if p.FormName() == "payload_json" {
				assert.JSONEq(t, `{"content":"log","embeds":[{"image":{"url":"attachment://a.png"}}],
					"attachments":[{"id":"0","filename":"a.png","description":"alt"},{"id":"1","filename":"b.txt"}]}`, string(b))
				got = append(got, "payload_json")
				continue
			}
			got = append(got, p.FormName()+"="+p.FileName()+":"+string(b))
		}
		assert.Equal(t, []string{"payload_json", "files[0]=a.png:PNG", "files[1]=b.txt:text"}, got)
		if calls.Add(1) == 1 {
			w.Header().Set("Retry-After", "0")
			writeJSON(w, http.StatusTooManyRequests, map[string]any{"message": "slow down", "retry_after": 0.001, "global": false})
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"id": "902", "channel_id": "10"})
	})
	m, err := c.Messages.Create(t.Context(), 10, &guildkit.MessageCreateParams{
		Content:     guildkit.Some("log"),
		Embeds:      []guildkit.Embed{{Image: &guildkit.EmbedMedia{URL: "attachment://a.png"}}},
		Files:       []guildkit.File{{Name: "a.png", Reader: strings.NewReader("PNG")}, {Name: "b.txt", Reader: strings.NewReader("text")}},
		Attachments: []guildkit.PartialAttachment{{ID: 0, Description: "alt"}},
	})
	require.NoError(t, err)
	assert.Equal(t, guildkit.Snowflake(902), m.ID)
	assert.Equal(t, int32(2), calls.Load(), "the 429 was retried with the whole body")
}

func TestMessageCreateValidation(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("nothing should be sent: %s %s", r.Method, r.URL.Path)
	})
	long := strings.Repeat("x", 2001)
	cases := []struct {
		name   string
		params *guildkit.MessageCreateParams
		paths  []string
	}{
		{"empty", &guildkit.MessageCreateParams{}, []string{""}},
		{"nil params", nil, []string{""}},
		{"blank content only is empty", &guildkit.MessageCreateParams{Content: guildkit.Some("")}, []string{""}},
		{"content over 2000", &guildkit.MessageCreateParams{Content: guildkit.Some(long)}, []string{"content"}},
		{"content of 2000 multi-byte characters passes, one more fails", &guildkit.MessageCreateParams{Content: guildkit.Some(strings.Repeat("é", 2001))}, []string{"content"}},
		{"nulls", &guildkit.MessageCreateParams{Content: guildkit.Null[string](), Nonce: guildkit.Null[string](), TTS: guildkit.Null[bool](),
			AllowedMentions: guildkit.Null[guildkit.AllowedMentions](), MessageReference: guildkit.Null[guildkit.MessageReference](),
			Flags: guildkit.Null[guildkit.MessageFlags](), Poll: guildkit.Null[guildkit.PollCreate](), EnforceNonce: guildkit.Null[bool]()},
			[]string{"content", "nonce", "tts", "allowed_mentions", "message_reference", "flags", "poll", "enforce_nonce", ""}},
		{"nonce over 25", &guildkit.MessageCreateParams{Content: guildkit.Some("a"), Nonce: guildkit.Some(strings.Repeat("n", 26))}, []string{"nonce"}},
		{"enforce_nonce without nonce", &guildkit.MessageCreateParams{Content: guildkit.Some("a"), EnforceNonce: guildkit.Some(true)}, []string{"enforce_nonce"}},
		{"11 embeds", &guildkit.MessageCreateParams{Embeds: make([]guildkit.Embed, 11)}, []string{"embeds"}},
		{"6001 characters across embeds", &guildkit.MessageCreateParams{Embeds: []guildkit.Embed{
			{Description: strings.Repeat("d", 4000)}, {Description: strings.Repeat("d", 2001)}}}, []string{"embeds"}},
		{"each embed field's limit", &guildkit.MessageCreateParams{Embeds: []guildkit.Embed{{}, {Title: strings.Repeat("t", 257),
			Fields: []guildkit.EmbedField{{Name: "n", Value: strings.Repeat("v", 1025)}}, Footer: &guildkit.EmbedFooter{Text: strings.Repeat("f", 2049)},
			Author: &guildkit.EmbedAuthor{Name: strings.Repeat("a", 257)}, Description: strings.Repeat("d", 4097)}}},
			[]string{"embeds[1].title", "embeds[1].description", "embeds[1].fields[0].value", "embeds[1].footer.text", "embeds[1].author.name", "embeds"}},
		{"allowed mentions conflicts", &guildkit.MessageCreateParams{Content: guildkit.Some("a"), AllowedMentions: guildkit.Some(guildkit.AllowedMentions{
			Parse: []guildkit.AllowedMentionType{"users", "roles", "bogus"}, Users: []guildkit.Snowflake{1}, Roles: []guildkit.Snowflake{2}})},
			[]string{"allowed_mentions.users", "allowed_mentions.roles", "allowed_mentions.parse[2]"}},
		{"101 allowed users", &guildkit.MessageCreateParams{Content: guildkit.Some("a"), AllowedMentions: guildkit.Some(guildkit.AllowedMentions{
			Users: make([]guildkit.Snowflake, 101)})}, []string{"allowed_mentions.users"}},
		{"V2 forbids content, embeds, stickers and poll", &guildkit.MessageCreateParams{
			Flags: guildkit.Some(guildkit.MessageFlagIsComponentsV2), Content: guildkit.Some("a"), Embeds: []guildkit.Embed{{Title: "t"}},
			StickerIDs: []guildkit.Snowflake{1}, Components: components.List{components.NewTextDisplay("hi")},
			Poll: guildkit.Some(guildkit.PollCreate{Question: guildkit.PollMedia{Text: "q"}, Answers: []guildkit.PollAnswer{{PollMedia: guildkit.PollMedia{Text: "a"}}}})},
			[]string{"content", "embeds", "sticker_ids", "poll"}},
		{"legacy components checked", &guildkit.MessageCreateParams{Components: components.List{components.NewTextDisplay("hi")}}, []string{"components[0]"}},
		{"flags a message cannot set", &guildkit.MessageCreateParams{Content: guildkit.Some("a"), Flags: guildkit.Some(guildkit.MessageFlagEphemeral | guildkit.MessageFlagCrossposted)}, []string{"flags"}},
		{"voice message with content", &guildkit.MessageCreateParams{Content: guildkit.Some("a"), Flags: guildkit.Some(guildkit.MessageFlagIsVoiceMessage)}, []string{"flags", "attachments"}},
		{"voice message without duration and waveform", &guildkit.MessageCreateParams{Flags: guildkit.Some(guildkit.MessageFlagIsVoiceMessage),
			Files: []guildkit.File{{Name: "v.ogg", Reader: strings.NewReader("x")}}, Attachments: []guildkit.PartialAttachment{{ID: 0, DurationSecs: 1.5}}},
			[]string{"attachments"}},
		{"4 stickers", &guildkit.MessageCreateParams{StickerIDs: []guildkit.Snowflake{1, 2, 3, 4}}, []string{"sticker_ids"}},
		{"reply without message id", &guildkit.MessageCreateParams{Content: guildkit.Some("a"), MessageReference: guildkit.Some(guildkit.MessageReference{ChannelID: 1})}, []string{"message_reference.message_id"}},
		{"forward without channel", &guildkit.MessageCreateParams{MessageReference: guildkit.Some(guildkit.MessageReference{Type: guildkit.MessageReferenceForward, MessageID: 1})}, []string{"message_reference.channel_id"}},
		{"unknown reference type", &guildkit.MessageCreateParams{Content: guildkit.Some("a"), MessageReference: guildkit.Some(guildkit.MessageReference{Type: 7, MessageID: 1})}, []string{"message_reference.type"}},
		{"11 files", &guildkit.MessageCreateParams{Files: make([]guildkit.File, 11)}, []string{"files", "files[0].name", "files[0].reader", "files[1].name", "files[1].reader",
			"files[2].name", "files[2].reader", "files[3].name", "files[3].reader", "files[4].name", "files[4].reader", "files[5].name", "files[5].reader",
			"files[6].name", "files[6].reader", "files[7].name", "files[7].reader", "files[8].name", "files[8].reader", "files[9].name", "files[9].reader",
			"files[10].name", "files[10].reader"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := c.Messages.Create(t.Context(), 10, tc.params)
			requireValidation(t, err, tc.paths...)
		})
	}
	_, err := c.Messages.Create(t.Context(), 0, &guildkit.MessageCreateParams{Content: guildkit.Some("a")})
	requireValidation(t, err, "channel.id")
}

func TestMessageCreateVoiceMessage(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	mux.HandleFunc("POST /channels/10/messages", func(w http.ResponseWriter, r *http.Request) {
		require.NoError(t, r.ParseMultipartForm(1<<20))
		assert.JSONEq(t, `{"flags":8192,"attachments":[{"id":"0","filename":"v.ogg","duration_secs":1.5,"waveform":"AAAA"}]}`, r.FormValue("payload_json"))
		writeJSON(w, http.StatusOK, map[string]any{"id": "903", "channel_id": "10", "flags": 8192})
	})
	_, err := c.Messages.Create(t.Context(), 10, &guildkit.MessageCreateParams{
		Flags:       guildkit.Some(guildkit.MessageFlagIsVoiceMessage),
		Files:       []guildkit.File{{Name: "v.ogg", Reader: strings.NewReader("OggS")}},
		Attachments: []guildkit.PartialAttachment{{ID: 0, DurationSecs: 1.5, Waveform: "AAAA"}},
	})
	require.NoError(t, err)
}

func TestMessageListWire(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	mux.HandleFunc("GET /channels/10/messages", func(w http.ResponseWriter, r *http.Request) {
		testQuery(t, r, url.Values{"around": {"55"}, "limit": {"3"}})
		writeJSON(w, http.StatusOK, []map[string]any{{"id": "56", "channel_id": "10"}, {"id": "55", "channel_id": "10"}})
	})
	ms, err := c.Messages.List(t.Context(), 10, &guildkit.MessageListParams{Around: guildkit.Some[guildkit.Snowflake](55), Limit: guildkit.Some(3)})
	require.NoError(t, err)
	require.Len(t, ms, 2)

	_, err = c.Messages.List(t.Context(), 10, &guildkit.MessageListParams{Before: guildkit.Some[guildkit.Snowflake](1), After: guildkit.Some[guildkit.Snowflake](2),
		Limit: guildkit.Some(101)})
	requireValidation(t, err, "", "limit")
	_, err = c.Messages.List(t.Context(), 10, &guildkit.MessageListParams{Limit: guildkit.Some(0), Around: guildkit.Null[guildkit.Snowflake]()})
	requireValidation(t, err, "limit", "around")
}

// TestMessageAllWalksBack walks a history of 7 messages in pages of 3,
// newest first, each page before the oldest seen; breaking out stops the
// fetching.
func TestMessageAllWalksBack(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	var queries lockedStrings
	mux.HandleFunc("GET /channels/10/messages", func(w http.ResponseWriter, r *http.Request) {
		queries.add(r.URL.RawQuery)
		before := uint64(1 << 62)
		if b := r.URL.Query().Get("before"); b != "" {
			id, err := guildkit.ParseSnowflake(b)
			require.NoError(t, err)
			before = uint64(id)
		}
		var page []map[string]any
		for id := uint64(7); id >= 1 && len(page) < 3; id-- {
			if id < before {
				page = append(page, map[string]any{"id": guildkit.Snowflake(id).String(), "channel_id": "10"})
			}
		}
		writeJSON(w, http.StatusOK, page)
	})
	var ids []guildkit.Snowflake
	for m, err := range c.Messages.All(t.Context(), 10, &guildkit.MessageListParams{Limit: guildkit.Some(3)}) {
		require.NoError(t, err)
		ids = append(ids, m.ID)
	}
	assert.Equal(t, []guildkit.Snowflake{7, 6, 5, 4, 3, 2, 1}, ids)
	assert.Equal(t, []string{"limit=3", "before=5&limit=3", "before=2&limit=3"}, queries.get())

	queries.reset()
	for m, err := range c.Messages.All(t.Context(), 10, &guildkit.MessageListParams{Before: guildkit.Some[guildkit.Snowflake](6), Limit: guildkit.Some(3)}) {
		require.NoError(t, err)
		if m.ID == 4 {
			break
		}
	}
	assert.Equal(t, []string{"before=6&limit=3"}, queries.get(), "breaking out stops fetching")

	for _, err := range c.Messages.All(t.Context(), 10, &guildkit.MessageListParams{After: guildkit.Some[guildkit.Snowflake](6)}) {
		requireValidation(t, err, "after")
	}
}

func TestMessageEditWire(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	mux.HandleFunc("PATCH /channels/10/messages/900", func(w http.ResponseWriter, r *http.Request) {
		testJSONBody(t, r, `{"content":null,"embeds":null,"attachments":null,"flags":32768,
			"components":[{"type":10,"content":"now V2"}]}`)
		writeJSON(w, http.StatusOK, map[string]any{"id": "900", "channel_id": "10", "flags": 32768})
	})
	m, err := c.Messages.Edit(t.Context(), 10, 900, &guildkit.MessageEditParams{
		Content: guildkit.Null[string](), Embeds: guildkit.Null[[]guildkit.Embed](), Attachments: guildkit.Null[[]guildkit.PartialAttachment](),
		Flags:      guildkit.Some(guildkit.MessageFlagIsComponentsV2),
		Components: guildkit.Some(components.List{components.NewTextDisplay("now V2")}),
	})
	require.NoError(t, err)
	assert.True(t, m.Flags.Has(guildkit.MessageFlagIsComponentsV2))

	_, err = c.Messages.Edit(t.Context(), 10, 900, &guildkit.MessageEditParams{
		Content: guildkit.Some(strings.Repeat("x", 2001)),
		Flags:   guildkit.Some(guildkit.MessageFlagIsComponentsV2 | guildkit.MessageFlagSuppressNotifications),
	})
	requireValidation(t, err, "content", "content", "flags", "embeds", "attachments")
}

func TestMessageDeleteAndBulkDeleteWire(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	mux.HandleFunc("DELETE /channels/10/messages/900", func(w http.ResponseWriter, r *http.Request) {
		testHeader(t, r, "X-Audit-Log-Reason", "spam%20link")
		w.WriteHeader(http.StatusNoContent)
	})
	recent := wire.SnowflakeFromTime(time.Now().Add(-time.Hour))
	mux.HandleFunc("POST /channels/10/messages/bulk-delete", func(w http.ResponseWriter, r *http.Request) {
		testHeader(t, r, "X-Audit-Log-Reason", "raid")
		testJSONBody(t, r, `{"messages":["`+recent.String()+`","`+(recent+1).String()+`"]}`)
		w.WriteHeader(http.StatusNoContent)
	})
	require.NoError(t, c.Messages.Delete(t.Context(), 10, 900, guildkit.WithReason("spam link")))
	require.NoError(t, c.Messages.BulkDelete(t.Context(), 10, []guildkit.Snowflake{recent, recent + 1}, guildkit.WithReason("raid")))

	old := wire.SnowflakeFromTime(time.Now().Add(-15 * 24 * time.Hour))
	err := c.Messages.BulkDelete(t.Context(), 10, []guildkit.Snowflake{recent, old, recent})
	requireValidation(t, err, "messages[2]", "messages[1]")
	err = c.Messages.BulkDelete(t.Context(), 10, []guildkit.Snowflake{recent})
	requireValidation(t, err, "messages")
	err = c.Messages.BulkDelete(t.Context(), 10, make([]guildkit.Snowflake, 101))
	assert.Contains(t, problemPaths(t, err), "messages")
}

func TestMessageReactionsEncodeTheEmoji(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	var got lockedStrings
	mux.HandleFunc("/channels/10/messages/900/reactions/{emoji}/@me", func(w http.ResponseWriter, r *http.Request) {
		got.add(r.Method + " " + r.URL.EscapedPath())
		w.WriteHeader(http.StatusNoContent)
	})
	ctx := t.Context()
	require.NoError(t, c.Messages.React(ctx, 10, 900, "👍"))
	require.NoError(t, c.Messages.React(ctx, 10, 900, "blob:123"))
	require.NoError(t, c.Messages.React(ctx, 10, 900, guildkit.MentionEmoji("party", 456, true)))
	require.NoError(t, c.Messages.Unreact(ctx, 10, 900, "👍"))
	assert.Equal(t, []string{
		"PUT " + "/channels/10/messages/900/reactions/%F0%9F%91%8D/@me",
		"PUT " + "/channels/10/messages/900/reactions/blob:123/@me",
		"PUT " + "/channels/10/messages/900/reactions/party:456/@me",
		"DELETE " + "/channels/10/messages/900/reactions/%F0%9F%91%8D/@me",
	}, got.get())
	for _, bad := range []string{"", " ", "blob:", "bl ob:1", "<@1>", "\xff"} {
		requireValidation(t, c.Messages.React(ctx, 10, 900, bad), "emoji")
	}
}

func TestCreateDMAndTypingAndGetChannelWire(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	mux.HandleFunc("POST /users/@me/channels", func(w http.ResponseWriter, r *http.Request) {
		testJSONBody(t, r, `{"recipient_id":"42"}`)
		writeJSON(w, http.StatusOK, map[string]any{"id": "77", "type": 1, "last_message_id": nil,
			"recipients": []any{map[string]any{"id": "42", "username": "alice"}}})
	})
	mux.HandleFunc("POST /channels/77/typing", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /channels/77", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"id": "77", "type": 1, "recipients": []any{map[string]any{"id": "42", "username": "alice"}}})
	})
	dm, err := c.Users.CreateDM(t.Context(), 42)
	require.NoError(t, err)
	assert.Equal(t, guildkit.ChannelTypeDM, dm.Type)
	require.Len(t, dm.Recipients, 1)
	assert.Equal(t, "alice", dm.Recipients[0].Username)
	assert.True(t, dm.LastMessageID.IsNull())
	require.NoError(t, c.Channels.TriggerTyping(t.Context(), dm.ID))
	got, err := c.Channels.Get(t.Context(), dm.ID)
	require.NoError(t, err)
	assert.Equal(t, dm.Recipients, got.Recipients)

	_, err = c.Users.CreateDM(t.Context(), 0)
	requireValidation(t, err, "recipient_id")
}

// TestMessageErrorSentinels: the codes a bot meets on the message routes
// match their sentinels and the status sentinels alike.
func TestMessageErrorSentinels(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	answers := map[string]struct {
		status int
		code   guildkit.ErrorCode
	}{
		"1": {http.StatusNotFound, guildkit.CodeUnknownChannel},
		"2": {http.StatusNotFound, guildkit.CodeUnknownMessage},
		"3": {http.StatusForbidden, guildkit.CodeMissingPermissions},
		"4": {http.StatusForbidden, guildkit.CodeCannotSendToUser},
		"5": {http.StatusBadRequest, guildkit.CodeMessageTooOldToBulkDelete},
	}
	mux.HandleFunc("POST /channels/{id}/messages", func(w http.ResponseWriter, r *http.Request) {
		a := answers[r.PathValue("id")]
		writeJSON(w, a.status, map[string]any{"code": a.code, "message": "no"})
	})
	for id, want := range map[guildkit.Snowflake][]error{
		1: {guildkit.ErrUnknownChannel, guildkit.ErrNotFound},
		2: {guildkit.ErrUnknownMessage, guildkit.ErrNotFound},
		3: {guildkit.ErrMissingPermissions, guildkit.ErrForbidden},
		4: {guildkit.ErrCannotSendToUser, guildkit.ErrForbidden},
		5: {guildkit.ErrMessageTooOld, guildkit.ErrBadRequest},
	} {
		_, err := c.Messages.Create(t.Context(), id, &guildkit.MessageCreateParams{Content: guildkit.Some("x")})
		for _, sentinel := range want {
			assert.True(t, errors.Is(err, sentinel), "channel %d: %v is not %v", id, err, sentinel)
		}
		for _, other := range []error{guildkit.ErrUnknownChannel, guildkit.ErrUnknownMessage, guildkit.ErrMissingPermissions, guildkit.ErrCannotSendToUser, guildkit.ErrMessageTooOld} {
			if other != want[0] {
				assert.False(t, errors.Is(err, other), "channel %d: %v matches %v", id, err, other)
			}
		}
	}
}

// lockedStrings collects strings from handlers.
type lockedStrings struct {
	mu sync.Mutex
	s  []string
}

func (l *lockedStrings) add(s string) { l.mu.Lock(); l.s = append(l.s, s); l.mu.Unlock() }
func (l *lockedStrings) reset()       { l.mu.Lock(); l.s = nil; l.mu.Unlock() }
func (l *lockedStrings) get() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.s...)
}
