package guildkit_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
	"github.com/seed012df1e9/guildkit/wire"
)

// The message routes through the in-memory server.

// chatFixture is a guild with a text channel #general, the bot holding
// perms there, and a member alice.
type chatFixture struct {
	*fixture
	general guildkit.Channel
	alice   guildkit.Member
}

func newChatFixture(t *testing.T, perms, everyone guildkit.Permissions) *chatFixture {
	t.Helper()
	f := newFixture(t, perms, everyone)
	general := f.srv.AddChannel(f.guild.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	return &chatFixture{fixture: f, general: general, alice: f.addMember(t, "alice")}
}

// memberPerms is what @everyone may do in the chat fixture.
const memberPerms = guildkit.PermissionViewChannel | guildkit.PermissionSendMessages | guildkit.PermissionReadMessageHistory

const chatPerms = guildkit.PermissionViewChannel | guildkit.PermissionSendMessages | guildkit.PermissionReadMessageHistory |
	guildkit.PermissionEmbedLinks | guildkit.PermissionAttachFiles | guildkit.PermissionAddReactions | guildkit.PermissionManageMessages

func TestMessagesThroughTheServer(t *testing.T) {
	t.Parallel()
	f := newChatFixture(t, chatPerms, memberPerms)
	ctx := t.Context()
	ch := f.general.ID

	posted, err := f.srv.Post(ctx, f.alice.User.ID, ch, "!ping")
	require.NoError(t, err)
	reply, err := f.c.Messages.Create(ctx, ch, &guildkit.MessageCreateParams{
		Content:          guildkit.Some("pong " + f.alice.Mention()),
		Embeds:           []guildkit.Embed{*guildkit.NewEmbed("Pong", "took 1 ms").WithColor(0x2ECC71)},
		MessageReference: guildkit.Some(guildkit.MessageReference{MessageID: posted.ID}),
		Nonce:            guildkit.Some("ping-1"),
		EnforceNonce:     guildkit.Some(true),
		Files:            []guildkit.File{{Name: "log.txt", Reader: strings.NewReader("hello")}},
	})
	require.NoError(t, err)
	assert.Equal(t, guildkit.MessageTypeReply, reply.Type)
	assert.Equal(t, "pong "+f.alice.Mention(), reply.Content)
	require.Len(t, reply.Mentions, 1)
	assert.Equal(t, f.alice.User.ID, reply.Mentions[0].ID)
	require.Len(t, reply.Embeds, 1)
	assert.Equal(t, "Pong", reply.Embeds[0].Title)
	require.Len(t, reply.Attachments, 1)
	assert.Equal(t, int64(5), reply.Attachments[0].Size)
	require.NotNil(t, reply.MessageReference)
	assert.Equal(t, posted.ID, reply.MessageReference.MessageID)

	// The same nonce again returns the first message, creating nothing.
	again, err := f.c.Messages.Create(ctx, ch, &guildkit.MessageCreateParams{Content: guildkit.Some("pong again"),
		Nonce: guildkit.Some("ping-1"), EnforceNonce: guildkit.Some(true)})
	require.NoError(t, err)
	assert.Equal(t, reply.ID, again.ID)

	got, err := f.c.Messages.Get(ctx, ch, reply.ID)
	require.NoError(t, err)
	assert.Equal(t, reply.Content, got.Content)

	edited, err := f.c.Messages.Edit(ctx, ch, reply.ID, &guildkit.MessageEditParams{Content: guildkit.Some("pong (edited)")})
	require.NoError(t, err)
	assert.Equal(t, "pong (edited)", edited.Content)
	assert.NotNil(t, edited.EditedTimestamp)
	assert.Empty(t, edited.Mentions, "mentions are rebuilt from the new content")

	require.NoError(t, f.c.Messages.React(ctx, ch, posted.ID, "👍"))
	withReaction, err := f.c.Messages.Get(ctx, ch, posted.ID)
	require.NoError(t, err)
	require.Len(t, withReaction.Reactions, 1)
	assert.True(t, withReaction.Reactions[0].Me)
	require.NoError(t, f.c.Messages.Unreact(ctx, ch, posted.ID, "👍"))

	require.NoError(t, f.c.Channels.TriggerTyping(ctx, ch))

	var history []guildkit.Snowflake
	for m, err := range f.c.Messages.All(ctx, ch, &guildkit.MessageListParams{Limit: guildkit.Some(1)}) {
		require.NoError(t, err)
		history = append(history, m.ID)
	}
	assert.Equal(t, []guildkit.Snowflake{reply.ID, posted.ID}, history, "newest first")

	// Alice's message is another's: MANAGE_MESSAGES deletes it.
	require.NoError(t, f.c.Messages.Delete(ctx, ch, posted.ID, guildkit.WithReason("spam")))
	_, err = f.c.Messages.Get(ctx, ch, posted.ID)
	assert.ErrorIs(t, err, guildkit.ErrUnknownMessage)

	var ids []guildkit.Snowflake
	for i := range 3 {
		m, err := f.srv.Post(ctx, f.alice.User.ID, ch, "spam "+string(rune('a'+i)))
		require.NoError(t, err)
		ids = append(ids, m.ID)
	}
	require.NoError(t, f.c.Messages.BulkDelete(ctx, ch, ids))
	left, err := f.c.Messages.List(ctx, ch, nil)
	require.NoError(t, err)
	require.Len(t, left, 1)
	assert.Equal(t, reply.ID, left[0].ID)

	var names []string
	for _, e := range f.srv.Events() {
		names = append(names, string(e.Name))
	}
	for _, want := range []string{"MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_DELETE", "MESSAGE_DELETE_BULK",
		"MESSAGE_REACTION_ADD", "MESSAGE_REACTION_REMOVE", "TYPING_START"} {
		assert.Contains(t, names, want)
	}
}

func TestMessageDMThroughTheServer(t *testing.T) {
	t.Parallel()
	f := newChatFixture(t, chatPerms, memberPerms)
	ctx := t.Context()
	dm, err := f.c.Users.CreateDM(ctx, f.alice.User.ID)
	require.NoError(t, err)
	assert.Equal(t, guildkit.ChannelTypeDM, dm.Type)
	require.Len(t, dm.Recipients, 1)
	assert.Equal(t, f.alice.User.ID, dm.Recipients[0].ID)
	same, err := f.c.Users.CreateDM(ctx, f.alice.User.ID)
	require.NoError(t, err)
	assert.Equal(t, dm.ID, same.ID, "an open DM is returned again")

	m, err := f.c.Messages.Create(ctx, dm.ID, &guildkit.MessageCreateParams{Content: guildkit.Some("your message was removed")})
	require.NoError(t, err)
	assert.Equal(t, dm.ID, m.ChannelID)
	got, err := f.c.Channels.Get(ctx, dm.ID)
	require.NoError(t, err)
	assert.Equal(t, guildkit.ChannelTypeDM, got.Type)

	f.srv.SetDirectMessagesOpen(f.alice.User.ID, false)
	_, err = f.c.Messages.Create(ctx, dm.ID, &guildkit.MessageCreateParams{Content: guildkit.Some("again")})
	assert.ErrorIs(t, err, guildkit.ErrCannotSendToUser)
	assert.ErrorIs(t, err, guildkit.ErrForbidden)
}

// TestMessageErrorsFromTheServer: the codes of messages.md §5 a bot meets,
// as the in-memory server answers them, match their sentinels.
func TestMessageErrorsFromTheServer(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	f := newChatFixture(t, chatPerms, memberPerms)
	quiet := f.srv.AddChannel(f.guild.ID, guildkit.Channel{Name: "quiet", Type: guildkit.ChannelTypeGuildText,
		PermissionOverwrites: []guildkit.PermissionOverwrite{{ID: f.botRole.ID, Type: guildkit.OverwriteTypeRole,
			Deny: guildkit.PermissionSendMessages | guildkit.PermissionManageMessages}}})
	_, err := f.c.Messages.Create(ctx, quiet.ID, &guildkit.MessageCreateParams{Content: guildkit.Some("hi")})
	assert.ErrorIs(t, err, guildkit.ErrMissingPermissions, "no SEND_MESSAGES")
	_, err = f.c.Messages.Create(ctx, 987654321, &guildkit.MessageCreateParams{Content: guildkit.Some("hi")})
	assert.ErrorIs(t, err, guildkit.ErrUnknownChannel)
	_, err = f.c.Messages.Get(ctx, f.general.ID, 987654321)
	assert.ErrorIs(t, err, guildkit.ErrUnknownMessage)
	posted, err := f.srv.Post(ctx, f.alice.User.ID, quiet.ID, "mine")
	require.NoError(t, err)
	err = f.c.Messages.Delete(ctx, quiet.ID, posted.ID)
	assert.ErrorIs(t, err, guildkit.ErrMissingPermissions, "another's message needs MANAGE_MESSAGES")

	// The server refuses what the client would have: sent raw, a bulk
	// delete of a message older than 14 days is 50034.
	old := wire.SnowflakeFromTime(time.Now().Add(-15 * 24 * time.Hour))
	full := newChatFixture(t, chatPerms, memberPerms)
	err = full.c.Messages.BulkDelete(ctx, full.general.ID, []guildkit.Snowflake{old, old + 1})
	var ve *guildkit.ValidationError
	require.ErrorAs(t, err, &ve, "refused before sending")
	_, sent := full.srv.LastRequest()
	assert.False(t, sent)
}

// TestMessageSendToTenChannelsAtOnce sends to 10 channels concurrently,
// each channel's whole budget of 5 sends (the in-memory server limits
// Create Message to 5 a minute per channel, with X-RateLimit-* headers).
// The sends ask not to wait (WithoutRateLimitRetry): a bucket shared by
// channels would refuse the sixth at once. Every channel has its own
// bucket, keyed by the channel id, so all 50 go through and the server
// answers no 429; a sixth send to one channel is then refused before
// sending, by that channel's bucket alone.
func TestMessageSendToTenChannelsAtOnce(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t, guildkittest.WithRouteLimit("POST /channels/{channel.id}/messages", 5, time.Minute))
	f := fixtureOn(srv, chatPerms, 0)
	ctx := t.Context()
	channels := make([]guildkit.Channel, 10)
	for i := range channels {
		channels[i] = srv.AddChannel(f.guild.ID, guildkit.Channel{Name: "c" + strconv.Itoa(i), Type: guildkit.ChannelTypeGuildText})
	}
	const perChannel = 5
	errs := make(chan error, len(channels)*perChannel)
	for _, ch := range channels {
		for j := range perChannel {
			go func() {
				_, err := f.c.Messages.Create(ctx, ch.ID, &guildkit.MessageCreateParams{Content: guildkit.Some("n" + strconv.Itoa(j))},
					guildkit.WithoutRateLimitRetry())
				errs <- err
			}()
		}
	}
	for range len(channels) * perChannel {
		require.NoError(t, <-errs)
	}
	assert.Zero(t, srv.RateLimited(), "no 429")
	for _, ch := range channels {
		ms, err := f.c.Messages.List(ctx, ch.ID, nil)
		require.NoError(t, err)
		assert.Len(t, ms, perChannel, "channel %s", ch.Name)
	}
	_, err := f.c.Messages.Create(ctx, channels[3].ID, &guildkit.MessageCreateParams{Content: guildkit.Some("sixth")}, guildkit.WithoutRateLimitRetry())
	var rl *guildkit.RateLimitError
	require.ErrorAs(t, err, &rl)
	assert.True(t, rl.NotSent, "the channel's own bucket is spent: refused before sending")
	assert.Zero(t, srv.RateLimited())
}

var _ = registerLedger("Get Channel", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
	f := fixtureOn(srv, chatPerms, 0)
	ch := srv.AddChannel(f.guild.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	_, err := c.Channels.Get(ctx, ch.ID)
	return err
})

// ledgerChat seeds a guild with a channel holding one message of a member.
func ledgerChat(ctx context.Context, srv *guildkittest.Server) (channel, message guildkit.Snowflake, err error) {
	f := fixtureOn(srv, chatPerms, guildkit.PermissionViewChannel|guildkit.PermissionSendMessages)
	ch := srv.AddChannel(f.guild.ID, guildkit.Channel{Name: "general", Type: guildkit.ChannelTypeGuildText})
	m := srv.AddMember(f.guild.ID, guildkit.Member{User: &guildkit.User{Username: "alice"}})
	posted, err := srv.Post(ctx, m.User.ID, ch.ID, "hello")
	return ch.ID, posted.ID, err
}

var _ = registerLedger("Get Channel Messages", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
	ch, _, err := ledgerChat(ctx, srv)
	if err != nil {
		return err
	}
	_, err = c.Messages.List(ctx, ch, nil)
	return err
})

var _ = registerLedger("Get Channel Message", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
	ch, m, err := ledgerChat(ctx, srv)
	if err != nil {
		return err
	}
	_, err = c.Messages.Get(ctx, ch, m)
	return err
})

var _ = registerLedger("Create Message", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
	ch, _, err := ledgerChat(ctx, srv)
	if err != nil {
		return err
	}
	_, err = c.Messages.Create(ctx, ch, &guildkit.MessageCreateParams{Content: guildkit.Some("hi")})
	return err
})

var _ = registerLedger("Edit Message", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
	ch, m, err := ledgerChat(ctx, srv)
	if err != nil {
		return err
	}
	_, err = c.Messages.Edit(ctx, ch, m, &guildkit.MessageEditParams{Flags: guildkit.Some(guildkit.MessageFlagSuppressEmbeds)})
	return err
})

var _ = registerLedger("Delete Message", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
	ch, m, err := ledgerChat(ctx, srv)
	if err != nil {
		return err
	}
	return c.Messages.Delete(ctx, ch, m)
})

var _ = registerLedger("Bulk Delete Messages", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
	ch, m, err := ledgerChat(ctx, srv)
	if err != nil {
		return err
	}
	return c.Messages.BulkDelete(ctx, ch, []guildkit.Snowflake{m, m + 1})
})

var _ = registerLedger("Create Reaction", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
	ch, m, err := ledgerChat(ctx, srv)
	if err != nil {
		return err
	}
	return c.Messages.React(ctx, ch, m, "👍")
})

var _ = registerLedger("Delete Own Reaction", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
	ch, m, err := ledgerChat(ctx, srv)
	if err != nil {
		return err
	}
	return c.Messages.Unreact(ctx, ch, m, "👍")
})

var _ = registerLedger("Trigger Typing Indicator", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
	ch, _, err := ledgerChat(ctx, srv)
	if err != nil {
		return err
	}
	return c.Channels.TriggerTyping(ctx, ch)
})

var _ = registerLedger("Create DM", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
	f := fixtureOn(srv, chatPerms, 0)
	m := srv.AddMember(f.guild.ID, guildkit.Member{User: &guildkit.User{Username: "alice"}})
	_, err := c.Users.CreateDM(ctx, m.User.ID)
	return err
})
