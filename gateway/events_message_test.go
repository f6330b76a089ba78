package gateway

import (
	"bytes"
	"context"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
)

func TestMessageEventsCarryMentionsWithMembers(t *testing.T) {
	t.Parallel()
	m := decodeFixture[*MessageCreate](t, "message_create.json")
	require.Len(t, m.Mentions, 1)
	assert.Equal(t, "auditbot", m.Mentions[0].Username)
	require.NotNil(t, m.Mentions[0].Member, "a mention in a guild carries the user's partial member")
	assert.Equal(t, `Nelly the "Gopher"`, *m.Mentions[0].Member.Nick)
	assert.Nil(t, m.Mentions[0].Member.User)
	assert.Empty(t, m.Message.Mentions, "the event's Mentions stands for the message's")
	assert.Equal(t, guildkit.Nonce("1177890123456788887"), m.Nonce)

	bulk := decodeFixture[*MessageDeleteBulk](t, "message_delete_bulk.json")
	assert.Equal(t, []guildkit.Snowflake{1177890123456788888, 1177890123456788889}, bulk.IDs)
	assert.Equal(t, guildkit.Snowflake(613425648685547550), bulk.ChannelID)
	require.NotNil(t, bulk.GuildID)
	assert.Equal(t, IntentGuildMessages, eventIntents(bulk.EventName()))
}

// TestMessageUpdateSaysWhichFieldsCame: an update holding only some
// fields (as older documents allow) tells them apart from fields emptied.
func TestMessageUpdateSaysWhichFieldsCame(t *testing.T) {
	t.Parallel()
	full := decodeFixture[*MessageUpdate](t, "message_update.json")
	for _, f := range []string{"id", "channel_id", "content", "embeds", "edited_timestamp", "mentions", "member", "guild_id", "author"} {
		assert.True(t, full.Has(f), f)
	}
	e, err := decodeEvent("MESSAGE_UPDATE", []byte(`{"id":"5","channel_id":"6","embeds":[{"type":"link","url":"https://example.com"}]}`))
	require.NoError(t, err)
	partial := e.(*MessageUpdate)
	assert.True(t, partial.Has("embeds"))
	assert.True(t, partial.Has("id"))
	assert.False(t, partial.Has("content"), "content left out: unchanged, not emptied")
	assert.False(t, partial.Has("attachments"))
	assert.False(t, partial.Has("no_such_field"))
	require.Len(t, partial.Embeds, 1)
	assert.Equal(t, guildkit.EmbedTypeLink, partial.Embeds[0].Type)
}

func TestReadsContentAsksForMessageContent(t *testing.T) {
	t.Parallel()
	m := NewMux()
	On(m, func(context.Context, *MessageCreate) {})
	assert.Equal(t, IntentGuildMessages|IntentDirectMessages, m.Intents(), "reading ids and authors needs no content")
	On(m, func(context.Context, *MessageUpdate) {}, ReadsContent())
	assert.Equal(t, IntentGuildMessages|IntentDirectMessages|IntentMessageContent, m.Intents())
	assert.Equal(t, []string{"MESSAGE_UPDATE (reads content: needs MESSAGE_CONTENT)"}, m.missingContent(IntentGuildMessages))
	assert.Empty(t, m.missingContent(IntentGuildMessages|IntentMessageContent))
}

// TestOpenNamesTheMissingContentIntent: a shard whose intents were set
// without MESSAGE_CONTENT warns, at Open, of a handler that reads content.
func TestOpenNamesTheMissingContentIntent(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	s, err := NewShard("token", WithIntents(IntentGuildMessages), WithLogger(logger), WithURL("ws://127.0.0.1:1"))
	require.NoError(t, err)
	On(s, func(context.Context, *MessageCreate) {}, ReadsContent())
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_ = s.Open(ctx)
	_, _ = s.Close(context.Background())
	<-s.Done()
	assert.Contains(t, logs.String(), "MESSAGE_CREATE (reads content: needs MESSAGE_CONTENT)")
}
