package guildkit_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

func channelNames(chs []guildkit.Channel) []string {
	var out []string
	for _, ch := range chs {
		out = append(out, ch.Name)
	}
	return out
}

func TestChannelList(t *testing.T) {
	t.Parallel()
	f := newGuildFixture(t, guildkit.Guild{})
	ctx := t.Context()
	b := f.srv.AddChannel(f.g.ID, guildkit.Channel{Name: "b", Position: 1})
	f.srv.AddChannel(f.g.ID, guildkit.Channel{Name: "a", Position: 1})
	f.srv.AddChannel(f.g.ID, guildkit.Channel{Name: "top", Position: 0, Type: guildkit.ChannelTypeGuildCategory})
	f.srv.AddThread(f.g.ID, b.ID, guildkit.Channel{Name: "a thread"})

	chs, err := f.c.Channels.List(ctx, f.g.ID)
	require.NoError(t, err)
	assert.Equal(t, []string{"top", "b", "a"}, channelNames(chs), "by position, ties by id; threads excluded")
	assert.Equal(t, f.g.ID, chs[0].GuildID)

	_, err = f.c.Channels.List(ctx, 1234)
	require.ErrorIs(t, err, guildkit.ErrNotFound)
	outsider := f.srv.AddUser(guildkit.User{})
	_, err = f.srv.ClientAs(outsider.ID).Channels.List(ctx, f.g.ID)
	require.ErrorIs(t, err, guildkit.ErrForbidden)
}

func TestChannelCreate(t *testing.T) {
	t.Parallel()
	f := newGuildFixture(t, guildkit.Guild{PremiumTier: guildkit.PremiumTier1})
	ctx := t.Context()
	cat := f.srv.AddChannel(f.g.ID, guildkit.Channel{Name: "Talk", Type: guildkit.ChannelTypeGuildCategory, Position: 3})
	mods := f.srv.AddRole(f.g.ID, guildkit.Role{Name: "mods"})

	text, err := f.c.Channels.Create(ctx, f.g.ID, &guildkit.ChannelCreateParams{
		Name:             "general",
		Topic:            guildkit.Some("Anything goes"),
		RateLimitPerUser: guildkit.Some(30),
		ParentID:         guildkit.Some(cat.ID),
		NSFW:             guildkit.Some(false),
		PermissionOverwrites: guildkit.Some([]guildkit.PermissionOverwriteParams{
			{ID: f.g.ID, Type: guildkit.OverwriteTypeRole, Deny: guildkit.Some(guildkit.PermissionSendMessages)},
			{ID: mods.ID, Type: guildkit.OverwriteTypeRole, Allow: guildkit.Some(guildkit.PermissionSendMessages), Deny: guildkit.Null[guildkit.Permissions]()},
		}),
	}, guildkit.WithReason("new channel"))
	require.NoError(t, err)
	assert.Equal(t, guildkit.ChannelTypeGuildText, text.Type, "text is the default type")
	assert.Equal(t, guildkit.Some("Anything goes"), text.Topic)
	assert.Equal(t, ptr(30), text.RateLimitPerUser)
	assert.Equal(t, ptr(false), text.NSFW, "nsfw is shown, false")
	assert.Nil(t, text.Bitrate, "a text channel has no bitrate")
	assert.Equal(t, guildkit.Some(cat.ID), text.ParentID)
	assert.Equal(t, 4, text.Position, "after every other channel")
	require.Len(t, text.PermissionOverwrites, 2)
	assert.Equal(t, guildkit.Permissions(0), text.PermissionOverwrites[1].Deny, "a null deny is no permission")
	stored, ok := f.srv.Channel(f.g.ID, text.ID)
	require.True(t, ok)
	assert.Equal(t, *text, stored)
	created := f.srv.EventsNamed(guildkit.EventChannelCreate)
	require.Len(t, created, 1)
	assert.Equal(t, text.ID, created[0].Data.(guildkit.Channel).ID)
	req, _ := f.srv.LastRequest()
	assert.Equal(t, "new%20channel", req.Header.Get("X-Audit-Log-Reason"))

	voice, err := f.c.Channels.Create(ctx, f.g.ID, &guildkit.ChannelCreateParams{
		Name: "Voice", Type: guildkit.Some(guildkit.ChannelTypeGuildVoice), Bitrate: guildkit.Some(128000),
		UserLimit: guildkit.Some(10), RTCRegion: guildkit.Some("rotterdam"), Position: guildkit.Some(0),
	})
	require.NoError(t, err, "128000 is tier 1's maximum")
	assert.Equal(t, ptr(128000), voice.Bitrate)
	assert.Equal(t, ptr(10), voice.UserLimit)
	assert.True(t, voice.Topic.IsZero(), "a voice channel has no topic")
	assert.Equal(t, guildkit.Some("rotterdam"), voice.RTCRegion)
	assert.Equal(t, guildkit.VideoQualityAuto, voice.VideoQualityMode)

	forum, err := f.c.Channels.Create(ctx, f.g.ID, &guildkit.ChannelCreateParams{
		Name: "help", Type: guildkit.Some(guildkit.ChannelTypeGuildForum),
		AvailableTags:        guildkit.Some([]guildkit.ForumTag{{Name: "solved", EmojiName: ptr("✅")}}),
		DefaultReactionEmoji: guildkit.Some(guildkit.DefaultReaction{EmojiName: ptr("👍")}),
		DefaultForumLayout:   guildkit.Some(guildkit.ForumLayoutGallery),
		DefaultSortOrder:     guildkit.Some(guildkit.SortOrderCreationDate),
	})
	require.NoError(t, err)
	require.Len(t, forum.AvailableTags, 1)
	assert.NotZero(t, forum.AvailableTags[0].ID, "new tags get ids")
	assert.Equal(t, guildkit.ForumLayoutGallery, forum.DefaultForumLayout)
	assert.Equal(t, guildkit.SortOrderCreationDate, forum.DefaultSortOrder.Or(0))
	assert.Len(t, f.srv.EventsNamed(guildkit.EventChannelCreate), 3)
}

func TestChannelCreateValidation(t *testing.T) {
	t.Parallel()
	f := newGuildFixture(t, guildkit.Guild{})
	ctx := t.Context()

	_, err := f.c.Channels.Create(ctx, f.g.ID, &guildkit.ChannelCreateParams{
		Name:                 "",
		Topic:                guildkit.Some(strings.Repeat("x", 1025)),
		RateLimitPerUser:     guildkit.Some(21601),
		Bitrate:              guildkit.Some(64000), // not for text
		DefaultForumLayout:   guildkit.Some(guildkit.ForumLayoutList),
		PermissionOverwrites: guildkit.Some([]guildkit.PermissionOverwriteParams{{Type: 3}}),
	})
	requireValidation(t, err, "name", "topic", "rate_limit_per_user", "bitrate", "default_forum_layout",
		"permission_overwrites[0].id", "permission_overwrites[0].type")

	_, err = f.c.Channels.Create(ctx, f.g.ID, &guildkit.ChannelCreateParams{
		Name: strings.Repeat("n", 101), Type: guildkit.Some(guildkit.ChannelTypeGuildVoice),
		Bitrate: guildkit.Some(7999), Topic: guildkit.Some("voice has no topic"), NSFW: guildkit.Null[bool](),
	})
	requireValidation(t, err, "name", "bitrate", "topic")

	_, err = f.c.Channels.Create(ctx, f.g.ID, &guildkit.ChannelCreateParams{
		Name: "cat", Type: guildkit.Some(guildkit.ChannelTypeGuildCategory), ParentID: guildkit.Some[guildkit.Snowflake](1), NSFW: guildkit.Some(true),
	})
	requireValidation(t, err, "parent_id", "nsfw")
	_, err = f.c.Channels.Create(ctx, f.g.ID, &guildkit.ChannelCreateParams{Name: "t", Type: guildkit.Some(guildkit.ChannelTypePublicThread)})
	requireValidation(t, err, "type")
	assert.Empty(t, f.srv.Requests(), "nothing was sent")

	assert.Equal(t, []string{"default_forum_layout", "nsfw"}, (&guildkit.ChannelCreateParams{
		Type: guildkit.Some(guildkit.ChannelTypeGuildMedia), Topic: guildkit.Some("ok"), NSFW: guildkit.Some(true),
		DefaultForumLayout: guildkit.Some(guildkit.ForumLayoutList), DefaultSortOrder: guildkit.Null[guildkit.SortOrderType](),
	}).InapplicableFields(), "media channels take a topic, but neither nsfw nor a forum layout; Null is never refused")
	assert.True(t, guildkit.ChannelFieldApplies("bitrate", guildkit.ChannelTypeGuildStageVoice))
	assert.False(t, guildkit.ChannelFieldApplies("default_forum_layout", guildkit.ChannelTypeGuildMedia))
	assert.True(t, guildkit.ChannelFieldApplies("position", guildkit.ChannelTypeGuildCategory))
}

func TestChannelCreateServerRules(t *testing.T) {
	t.Parallel()
	f := newGuildFixture(t, guildkit.Guild{})
	ctx := t.Context()
	text := f.srv.AddChannel(f.g.ID, guildkit.Channel{Name: "text"})

	cases := []struct {
		name   string
		params guildkit.ChannelCreateParams
		path   string
	}{
		{"voice over the tier-0 maximum", guildkit.ChannelCreateParams{Name: "v", Type: guildkit.Some(guildkit.ChannelTypeGuildVoice), Bitrate: guildkit.Some(96001)}, "bitrate"},
		{"stage over 64000", guildkit.ChannelCreateParams{Name: "s", Type: guildkit.Some(guildkit.ChannelTypeGuildStageVoice), Bitrate: guildkit.Some(64001)}, "bitrate"},
		{"parent not a category", guildkit.ChannelCreateParams{Name: "p", ParentID: guildkit.Some(text.ID)}, "parent_id"},
		{"VIP region without VIP_REGIONS", guildkit.ChannelCreateParams{Name: "r", Type: guildkit.Some(guildkit.ChannelTypeGuildVoice), RTCRegion: guildkit.Some("vip-us-east")}, "rtc_region"},
		{"overwrite for an unknown role", guildkit.ChannelCreateParams{Name: "o", PermissionOverwrites: guildkit.Some([]guildkit.PermissionOverwriteParams{{ID: 77}})}, "permission_overwrites[0].id"},
	}
	for _, tc := range cases {
		_, err := f.c.Channels.Create(ctx, f.g.ID, &tc.params)
		requireFormError(t, err, tc.path)
	}

	vip := f.srv.AddGuild(guildkit.Guild{Features: []guildkit.GuildFeature{guildkit.FeatureVIPRegions}})
	ch, err := f.c.Channels.Create(ctx, vip.ID, &guildkit.ChannelCreateParams{
		Name: "hifi", Type: guildkit.Some(guildkit.ChannelTypeGuildVoice), Bitrate: guildkit.Some(384000), RTCRegion: guildkit.Some("vip-us-east"),
	})
	require.NoError(t, err, "VIP_REGIONS allows 384000")
	assert.Equal(t, ptr(384000), ch.Bitrate)

	manager := f.clientWith(guildkit.PermissionManageChannels | guildkit.PermissionManageRoles | guildkit.PermissionViewChannel)
	_, err = manager.Channels.Create(ctx, f.g.ID, &guildkit.ChannelCreateParams{Name: "ok", PermissionOverwrites: guildkit.Some(
		[]guildkit.PermissionOverwriteParams{{ID: f.g.ID, Deny: guildkit.Some(guildkit.PermissionViewChannel)}})})
	require.NoError(t, err, "a permission the caller holds")
	_, err = manager.Channels.Create(ctx, f.g.ID, &guildkit.ChannelCreateParams{Name: "roles", PermissionOverwrites: guildkit.Some(
		[]guildkit.PermissionOverwriteParams{{ID: f.g.ID, Allow: guildkit.Some(guildkit.PermissionManageRoles)}})})
	require.ErrorIs(t, err, guildkit.ErrForbidden, "MANAGE_ROLES in overwrites is for administrators")
	_, err = manager.Channels.Create(ctx, f.g.ID, &guildkit.ChannelCreateParams{Name: "ban", PermissionOverwrites: guildkit.Some(
		[]guildkit.PermissionOverwriteParams{{ID: f.g.ID, Deny: guildkit.Some(guildkit.PermissionBanMembers)}})})
	require.ErrorIs(t, err, guildkit.ErrForbidden, "a permission the caller lacks")
	_, err = f.clientWith(guildkit.PermissionSendMessages).Channels.Create(ctx, f.g.ID, &guildkit.ChannelCreateParams{Name: "x"})
	require.ErrorIs(t, err, guildkit.ErrForbidden, "no MANAGE_CHANNELS")
	_, err = f.c.Channels.Create(ctx, 5150, &guildkit.ChannelCreateParams{Name: "x"})
	require.ErrorIs(t, err, guildkit.ErrNotFound)
	assert.Len(t, f.srv.EventsNamed(guildkit.EventChannelCreate), 2, "only the two successes")
}

func TestChannelModifyPositions(t *testing.T) {
	t.Parallel()
	f := newGuildFixture(t, guildkit.Guild{})
	ctx := t.Context()
	cat := f.srv.AddChannel(f.g.ID, guildkit.Channel{Name: "cat", Type: guildkit.ChannelTypeGuildCategory, Position: 0,
		PermissionOverwrites: []guildkit.PermissionOverwrite{{ID: f.g.ID, Deny: guildkit.PermissionSendMessages}}})
	a := f.srv.AddChannel(f.g.ID, guildkit.Channel{Name: "a", Position: 1})
	b := f.srv.AddChannel(f.g.ID, guildkit.Channel{Name: "b", Position: 2})
	c := f.srv.AddChannel(f.g.ID, guildkit.Channel{Name: "c", Position: 3, ParentID: guildkit.Some(cat.ID)})

	err := f.c.Channels.ModifyPositions(ctx, f.g.ID, []guildkit.ChannelPositionParams{
		{ID: b.ID, Position: guildkit.Some(1)}, // ties with a: sorted by id, a first
		{ID: a.ID, ParentID: guildkit.Some(cat.ID), LockPermissions: guildkit.Some(true)},
		{ID: c.ID, ParentID: guildkit.Null[guildkit.Snowflake]()},
		{ID: cat.ID, Position: guildkit.Some(0)}, // unchanged: no event
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"cat", "a", "b", "c"}, channelNames(f.srv.Channels(f.g.ID)))
	gotA, _ := f.srv.Channel(f.g.ID, a.ID)
	assert.Equal(t, guildkit.Some(cat.ID), gotA.ParentID)
	assert.Equal(t, cat.PermissionOverwrites, gotA.PermissionOverwrites, "lock_permissions syncs with the new parent")
	gotC, _ := f.srv.Channel(f.g.ID, c.ID)
	assert.True(t, gotC.ParentID.IsNull(), "Null takes the channel out of its category")
	updates := f.srv.EventsNamed(guildkit.EventChannelUpdate)
	require.Len(t, updates, 3, "one per channel moved")
	assert.Equal(t, b.ID, updates[0].Data.(guildkit.Channel).ID)

	err = f.c.Channels.ModifyPositions(ctx, f.g.ID, []guildkit.ChannelPositionParams{{ID: a.ID}, {}, {ID: a.ID}})
	requireValidation(t, err, "[1].id", "[2].id")
	requireValidation(t, f.c.Channels.ModifyPositions(ctx, f.g.ID, nil), "")
	err = f.c.Channels.ModifyPositions(ctx, f.g.ID, []guildkit.ChannelPositionParams{{ID: cat.ID, ParentID: guildkit.Some(cat.ID)}})
	requireFormError(t, err, "[0].parent_id")
	err = f.c.Channels.ModifyPositions(ctx, f.g.ID, []guildkit.ChannelPositionParams{{ID: 999, Position: guildkit.Some(1)}})
	requireFormError(t, err, "[0].id")
	err = f.clientWith(guildkit.PermissionManageGuild).Channels.ModifyPositions(ctx, f.g.ID, []guildkit.ChannelPositionParams{{ID: a.ID, Position: guildkit.Some(9)}})
	require.ErrorIs(t, err, guildkit.ErrForbidden)
	assert.Len(t, f.srv.EventsNamed(guildkit.EventChannelUpdate), 3, "failures change nothing")
}

func TestChannelModifyPositionsWireBody(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	mux.HandleFunc("PATCH /guilds/9/channels", func(w http.ResponseWriter, r *http.Request) {
		testJSONBody(t, r, `[{"id":"1","position":2},{"id":"3","lock_permissions":false,"parent_id":null}]`)
		w.WriteHeader(http.StatusNoContent)
	})
	err := c.Channels.ModifyPositions(t.Context(), 9, []guildkit.ChannelPositionParams{
		{ID: 1, Position: guildkit.Some(2)},
		{ID: 3, LockPermissions: guildkit.Some(false), ParentID: guildkit.Null[guildkit.Snowflake]()},
	})
	require.NoError(t, err)
	// Modify Guild Channel Positions is not an audit-log operation.
	err = c.Channels.ModifyPositions(t.Context(), 9, []guildkit.ChannelPositionParams{{ID: 1}}, guildkit.WithReason("x"))
	requireValidation(t, err, "reason")
}

func TestChannelListActiveThreads(t *testing.T) {
	t.Parallel()
	f := newGuildFixture(t, guildkit.Guild{})
	ctx := t.Context()
	parent := f.srv.AddChannel(f.g.ID, guildkit.Channel{Name: "general"})
	ada := f.srv.AddMember(f.g.ID, guildkit.Member{User: &guildkit.User{Username: "ada"}})
	first := f.srv.AddThread(f.g.ID, parent.ID, guildkit.Channel{Name: "first"})
	private := f.srv.AddThread(f.g.ID, parent.ID, guildkit.Channel{Name: "private", Type: guildkit.ChannelTypePrivateThread, OwnerID: ada.User.ID})
	f.srv.AddThread(f.g.ID, parent.ID, guildkit.Channel{Name: "archived", ThreadMetadata: &guildkit.ThreadMetadata{Archived: true}})
	f.srv.AddThreadMember(f.g.ID, first.ID, ada.User.ID)

	got, err := f.c.Channels.ListActiveThreads(ctx, f.g.ID)
	require.NoError(t, err)
	assert.Equal(t, []string{"private", "first"}, channelNames(got.Threads), "active only, by id descending")
	assert.Equal(t, guildkit.Some(parent.ID), got.Threads[0].ParentID)
	assert.Equal(t, 2, *got.Threads[1].MemberCount)
	require.Len(t, got.Members, 1, "the bot joined only the thread it owns")
	assert.Equal(t, first.ID, *got.Members[0].ID)
	assert.Equal(t, f.srv.BotID(), *got.Members[0].UserID)

	got, err = f.srv.ClientAs(ada.User.ID).Channels.ListActiveThreads(ctx, f.g.ID)
	require.NoError(t, err)
	require.Len(t, got.Members, 2, "ada is in both")
	assert.Equal(t, private.ID, *got.Members[0].ID)

	_, err = f.c.Channels.ListActiveThreads(ctx, 777)
	require.ErrorIs(t, err, guildkit.ErrNotFound)
}

func TestChannelEnumsString(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "MEMBER", guildkit.OverwriteTypeMember.String())
	assert.Equal(t, "FULL", guildkit.VideoQualityFull.String())
	assert.Equal(t, "CREATION_DATE", guildkit.SortOrderCreationDate.String())
	assert.Equal(t, "GALLERY_VIEW", guildkit.ForumLayoutGallery.String())
	assert.Equal(t, "ForumLayoutType(5)", guildkit.ForumLayoutType(5).String())
}

var (
	_ = registerLedger("Get Guild Channels", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		g := srv.AddGuild(guildkit.Guild{})
		_, err := c.Channels.List(ctx, g.ID)
		return err
	})
	_ = registerLedger("Create Guild Channel", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		g := srv.AddGuild(guildkit.Guild{})
		_, err := c.Channels.Create(ctx, g.ID, &guildkit.ChannelCreateParams{Name: "general"})
		return err
	})
	_ = registerLedger("Modify Guild Channel Positions", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		g := srv.AddGuild(guildkit.Guild{})
		ch := srv.AddChannel(g.ID, guildkit.Channel{Name: "general"})
		return c.Channels.ModifyPositions(ctx, g.ID, []guildkit.ChannelPositionParams{{ID: ch.ID, Position: guildkit.Some(2)}})
	})
	_ = registerLedger("List Active Guild Threads", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		g := srv.AddGuild(guildkit.Guild{})
		_, err := c.Channels.ListActiveThreads(ctx, g.ID)
		return err
	})
)
