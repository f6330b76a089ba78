package guildkit_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

func TestGuildGet(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{
		Name:              "Gophers",
		Features:          []guildkit.GuildFeature{guildkit.FeatureCommunity, guildkit.FeatureVIPRegions},
		VerificationLevel: guildkit.VerificationLevelHigh,
		PremiumTier:       guildkit.PremiumTier2,
		SystemChannelFlags: guildkit.SystemChannelSuppressJoinNotifications |
			guildkit.SystemChannelSuppressGuildReminderNotifications,
	})
	alice := srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "alice"}})
	srv.AddMember(g.ID, guildkit.Member{User: &guildkit.User{Username: "bob"}})
	srv.SetOnline(g.ID, alice.User.ID, true)
	c := srv.Client()
	ctx := t.Context()

	got, err := c.Guilds.Get(ctx, g.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, g.ID, got.ID)
	assert.Equal(t, "Gophers", got.Name)
	assert.Equal(t, srv.BotID(), got.OwnerID)
	assert.True(t, got.HasFeature(guildkit.FeatureVIPRegions))
	assert.False(t, got.HasFeature(guildkit.FeatureDiscoverable))
	assert.Equal(t, guildkit.VerificationLevelHigh, got.VerificationLevel)
	assert.Equal(t, "HIGH", got.VerificationLevel.String())
	assert.Equal(t, guildkit.PremiumTier2, got.PremiumTier)
	assert.True(t, got.SystemChannelFlags.Has(guildkit.SystemChannelSuppressJoinNotifications))
	assert.Equal(t, "SUPPRESS_JOIN_NOTIFICATIONS|SUPPRESS_GUILD_REMINDER_NOTIFICATIONS", got.SystemChannelFlags.String())
	require.Len(t, got.Roles, 1)
	assert.Equal(t, g.ID, got.Roles[0].ID, "@everyone has the guild's id")
	assert.Nil(t, got.ApproximateMemberCount, "no counts without with_counts")
	assert.Equal(t, 300, got.AFKTimeout)
	assert.Equal(t, "en-US", got.PreferredLocale)

	got, err = c.Guilds.Get(ctx, g.ID, &guildkit.GuildGetParams{WithCounts: guildkit.Some(true)})
	require.NoError(t, err)
	require.NotNil(t, got.ApproximateMemberCount)
	assert.Equal(t, 3, *got.ApproximateMemberCount, "bot, alice and bob")
	assert.Equal(t, 1, *got.ApproximatePresenceCount, "only alice is online")
	req, ok := srv.LastRequest()
	require.True(t, ok)
	assert.Equal(t, "/guilds/{guild.id}", req.Route)
	assert.Equal(t, []string{"true"}, req.Query["with_counts"])
}

func TestGuildGetErrors(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	other := srv.AddUser(guildkit.User{Username: "owner"})
	foreign := srv.AddGuild(guildkit.Guild{Name: "Elsewhere", OwnerID: other.ID})
	ctx := t.Context()

	_, err := srv.Client().Guilds.Get(ctx, 12345, nil)
	require.ErrorIs(t, err, guildkit.ErrNotFound)
	var apiErr *guildkit.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, guildkit.CodeUnknownGuild, apiErr.Code)
	assert.Equal(t, "Unknown Guild", apiErr.Message)

	_, err = srv.Client().Guilds.Get(ctx, foreign.ID, nil)
	require.ErrorIs(t, err, guildkit.ErrForbidden, "the bot is not a member")

	bad, err := guildkit.New(guildkit.BotToken("not-a-token"), guildkit.WithBaseURL(srv.BaseURL()))
	require.NoError(t, err)
	_, err = bad.Guilds.Get(ctx, foreign.ID, nil)
	require.ErrorIs(t, err, guildkit.ErrUnauthorized)
	req, _ := srv.LastRequest()
	assert.Equal(t, 401, req.Status)
}

func TestGuildEnumsString(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "ONLY_MENTIONS", guildkit.NotifyOnlyMentions.String())
	assert.Equal(t, "MEMBERS_WITHOUT_ROLES", guildkit.ExplicitContentFilterMembersWithoutRoles.String())
	assert.Equal(t, "ELEVATED", guildkit.MFALevelElevated.String())
	assert.Equal(t, "AGE_RESTRICTED", guildkit.NSFWLevelAgeRestricted.String())
	assert.Equal(t, "TIER_3", guildkit.PremiumTier3.String())
	assert.Equal(t, "VerificationLevel(9)", guildkit.VerificationLevel(9).String())
	assert.Equal(t, "SUPPRESS_ROLE_SUBSCRIPTION_PURCHASE_NOTIFICATION_REPLIES|1<<7", (guildkit.SystemChannelSuppressRoleSubscriptionPurchaseNotificationReplies | 1<<7).String())
	assert.Len(t, guildkit.GuildFeatures, 34)
}

// guildFixture is a server with one guild the bot owns, for the guild
// resource's tests.
type guildFixture struct {
	srv *guildkittest.Server
	g   guildkit.Guild
	c   *guildkit.Client
}

func newGuildFixture(t *testing.T, g guildkit.Guild, opts ...guildkittest.Option) *guildFixture {
	t.Helper()
	srv := guildkittest.NewServer(t, opts...)
	g = srv.AddGuild(g)
	return &guildFixture{srv: srv, g: g, c: srv.Client()}
}

// clientWith adds a member holding perms through a role and returns a
// client acting as that member.
func (f *guildFixture) clientWith(perms guildkit.Permissions) *guildkit.Client {
	r := f.srv.AddRole(f.g.ID, guildkit.Role{Name: "perms " + perms.String(), Permissions: perms})
	m := f.srv.AddMember(f.g.ID, guildkit.Member{User: &guildkit.User{}, Roles: []guildkit.Snowflake{r.ID}})
	return f.srv.ClientAs(m.User.ID)
}

func TestGuildModify(t *testing.T) {
	t.Parallel()
	f := newGuildFixture(t, guildkit.Guild{Name: "Old", Description: ptr("old"),
		Features: []guildkit.GuildFeature{guildkit.FeatureVerified, guildkit.FeatureInviteSplash}})
	afk := f.srv.AddChannel(f.g.ID, guildkit.Channel{Name: "AFK", Type: guildkit.ChannelTypeGuildVoice})
	ctx := t.Context()
	png := widgetPNG(t)

	got, err := f.c.Guilds.Modify(ctx, f.g.ID, &guildkit.GuildModifyParams{
		Name:                      guildkit.Some("  Gopher Guild  "),
		AFKTimeout:                guildkit.Some(900),
		AFKChannelID:              guildkit.Some(afk.ID),
		VerificationLevel:         guildkit.Some(guildkit.VerificationLevelMedium),
		SystemChannelFlags:        guildkit.Some(guildkit.SystemChannelSuppressJoinNotifications),
		Description:               guildkit.Null[string](),
		Splash:                    guildkit.Some(png),
		PremiumProgressBarEnabled: guildkit.Some(true),
		// VERIFIED cannot be removed by a caller and NEWS cannot be added:
		// both are left as they were; INVITES_DISABLED is turned on.
		Features: guildkit.Some([]guildkit.GuildFeature{guildkit.FeatureInviteSplash, guildkit.FeatureNews, guildkit.FeatureInvitesDisabled}),
	}, guildkit.WithReason("spring cleaning"))
	require.NoError(t, err)
	assert.Equal(t, "Gopher Guild", got.Name, "surrounding whitespace is trimmed")
	assert.Equal(t, 900, got.AFKTimeout)
	require.NotNil(t, got.AFKChannelID)
	assert.Equal(t, afk.ID, *got.AFKChannelID)
	assert.Equal(t, guildkit.VerificationLevelMedium, got.VerificationLevel)
	assert.Nil(t, got.Description, "Null clears the description")
	require.NotNil(t, got.Splash, "the splash is stored as a hash")
	assert.True(t, got.PremiumProgressBarEnabled)
	assert.ElementsMatch(t, []guildkit.GuildFeature{guildkit.FeatureVerified, guildkit.FeatureInviteSplash, guildkit.FeatureInvitesDisabled}, got.Features)

	stored, ok := f.srv.Guild(f.g.ID)
	require.True(t, ok)
	assert.Equal(t, "Gopher Guild", stored.Name)
	assert.Equal(t, got.Features, stored.Features)
	events := f.srv.EventsNamed(guildkit.EventGuildUpdate)
	require.Len(t, events, 1)
	assert.Equal(t, "Gopher Guild", events[0].Data.(guildkit.Guild).Name)
	req, _ := f.srv.LastRequest()
	assert.Equal(t, "spring%20cleaning", req.Header.Get("X-Audit-Log-Reason"))
}

func TestGuildModifyValidation(t *testing.T) {
	t.Parallel()
	f := newGuildFixture(t, guildkit.Guild{})
	ctx := t.Context()

	_, err := f.c.Guilds.Modify(ctx, f.g.ID, &guildkit.GuildModifyParams{
		Name:       guildkit.Some("  x  "),
		AFKTimeout: guildkit.Some(120),
		Features:   guildkit.Some([]guildkit.GuildFeature{guildkit.FeatureCommunity, "TELEPORTATION", guildkit.FeatureCommunity}),
		Icon:       guildkit.Some(guildkit.ImageData("not a data uri")),
	})
	requireValidation(t, err, "name", "afk_timeout", "features[1]", "features[2]", "icon")

	_, err = f.c.Guilds.Modify(ctx, f.g.ID, &guildkit.GuildModifyParams{
		Name:                      guildkit.Null[string](),
		AFKTimeout:                guildkit.Null[int](),
		SystemChannelFlags:        guildkit.Null[guildkit.SystemChannelFlags](),
		Features:                  guildkit.Null[[]guildkit.GuildFeature](),
		PremiumProgressBarEnabled: guildkit.Null[bool](),
		// nullable fields accept Null
		Region: guildkit.Null[string](), VerificationLevel: guildkit.Null[guildkit.VerificationLevel](),
		Icon: guildkit.Null[guildkit.ImageData](), PreferredLocale: guildkit.Null[string](),
	})
	requireValidation(t, err, "name", "afk_timeout", "system_channel_flags", "features", "premium_progress_bar_enabled")
	var fe guildkit.FieldError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, "not_null", fe.Code)
	assert.Empty(t, f.srv.Requests(), "nothing was sent")
}

func TestGuildModifyPermissions(t *testing.T) {
	t.Parallel()
	f := newGuildFixture(t, guildkit.Guild{})
	ctx := t.Context()
	manager := f.clientWith(guildkit.PermissionManageGuild)

	g, err := manager.Guilds.Modify(ctx, f.g.ID, &guildkit.GuildModifyParams{
		Features: guildkit.Some([]guildkit.GuildFeature{guildkit.FeatureRaidAlertsDisabled}),
	})
	require.NoError(t, err, "MANAGE_GUILD may change RAID_ALERTS_DISABLED")
	assert.True(t, g.HasFeature(guildkit.FeatureRaidAlertsDisabled))

	_, err = manager.Guilds.Modify(ctx, f.g.ID, &guildkit.GuildModifyParams{
		Features: guildkit.Some([]guildkit.GuildFeature{guildkit.FeatureRaidAlertsDisabled, guildkit.FeatureCommunity}),
	})
	require.ErrorIs(t, err, guildkit.ErrForbidden, "COMMUNITY needs ADMINISTRATOR")

	_, err = f.clientWith(guildkit.PermissionKickMembers).Guilds.Modify(ctx, f.g.ID, &guildkit.GuildModifyParams{Name: guildkit.Some("nope")})
	require.ErrorIs(t, err, guildkit.ErrForbidden, "no MANAGE_GUILD")

	_, err = f.c.Guilds.Modify(ctx, 424242, &guildkit.GuildModifyParams{Name: guildkit.Some("nope")})
	require.ErrorIs(t, err, guildkit.ErrNotFound)

	// Rules only the service can check: DISCOVERABLE needs COMMUNITY, a
	// splash needs INVITE_SPLASH.
	_, err = f.c.Guilds.Modify(ctx, f.g.ID, &guildkit.GuildModifyParams{
		Features: guildkit.Some([]guildkit.GuildFeature{guildkit.FeatureDiscoverable}),
	})
	requireFormError(t, err, "features")
	_, err = f.c.Guilds.Modify(ctx, f.g.ID, &guildkit.GuildModifyParams{Splash: guildkit.Some(widgetPNG(t))})
	requireFormError(t, err, "splash")

	g, err = f.c.Guilds.Modify(ctx, f.g.ID, &guildkit.GuildModifyParams{
		Features: guildkit.Some([]guildkit.GuildFeature{guildkit.FeatureCommunity, guildkit.FeatureDiscoverable}),
	})
	require.NoError(t, err, "the owner is an administrator")
	assert.ElementsMatch(t, []guildkit.GuildFeature{guildkit.FeatureCommunity, guildkit.FeatureDiscoverable}, g.Features,
		"RAID_ALERTS_DISABLED was left out of the list, so it is turned off")
	assert.Len(t, f.srv.EventsNamed(guildkit.EventGuildUpdate), 2, "one per successful call")
}

func TestGuildModifyWireBody(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	mux.HandleFunc("PATCH /guilds/1", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPatch)
		testHeader(t, r, "X-Audit-Log-Reason", "why%20not")
		testJSONBody(t, r, `{"name":"Renamed","afk_channel_id":null,"features":["COMMUNITY"],"description":null}`)
		writeJSON(w, http.StatusOK, map[string]any{"id": "1", "name": "Renamed"})
	})
	g, err := c.Guilds.Modify(t.Context(), 1, &guildkit.GuildModifyParams{
		Name:         guildkit.Some("Renamed"),
		AFKChannelID: guildkit.Null[guildkit.Snowflake](),
		Features:     guildkit.Some([]guildkit.GuildFeature{guildkit.FeatureCommunity}),
		Description:  guildkit.Null[string](),
	}, guildkit.WithReason("why not"))
	require.NoError(t, err)
	assert.Equal(t, "Renamed", g.Name)
}

func TestGuildGetPreview(t *testing.T) {
	t.Parallel()
	f := newGuildFixture(t, guildkit.Guild{Name: "Members only", Description: ptr("hi")})
	ada := f.srv.AddMember(f.g.ID, guildkit.Member{User: &guildkit.User{Username: "ada"}})
	f.srv.SetOnline(f.g.ID, ada.User.ID, true)
	ctx := t.Context()

	p, err := f.c.Guilds.GetPreview(ctx, f.g.ID)
	require.NoError(t, err)
	assert.Equal(t, f.g.ID, p.ID)
	assert.Equal(t, "Members only", p.Name)
	assert.Equal(t, 2, p.ApproximateMemberCount)
	assert.Equal(t, 1, p.ApproximatePresenceCount)
	assert.Equal(t, "hi", *p.Description)
	assert.NotNil(t, p.Stickers)

	outsider := f.srv.AddUser(guildkit.User{Username: "outsider"})
	oc := f.srv.ClientAs(outsider.ID)
	_, err = oc.Guilds.GetPreview(ctx, f.g.ID)
	require.ErrorIs(t, err, guildkit.ErrForbidden, "not a member and not discoverable: 403, as the reference platform answers")

	public := f.srv.AddGuild(guildkit.Guild{Name: "Public", Features: []guildkit.GuildFeature{guildkit.FeatureCommunity, guildkit.FeatureDiscoverable}})
	p, err = oc.Guilds.GetPreview(ctx, public.ID)
	require.NoError(t, err, "a discoverable guild can be previewed from outside")
	assert.Equal(t, "Public", p.Name)
}

func TestGuildListVoiceRegions(t *testing.T) {
	t.Parallel()
	f := newGuildFixture(t, guildkit.Guild{})
	vip := f.srv.AddGuild(guildkit.Guild{Features: []guildkit.GuildFeature{guildkit.FeatureVIPRegions}})
	ctx := t.Context()

	ids := func(rs []guildkit.VoiceRegion) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.ID)
		}
		return out
	}
	regions, err := f.c.Guilds.ListVoiceRegions(ctx, f.g.ID)
	require.NoError(t, err)
	assert.Contains(t, ids(regions), "us-east")
	assert.NotContains(t, ids(regions), "vip-us-east")
	assert.True(t, regions[0].Optimal)

	vipRegions, err := f.c.Guilds.ListVoiceRegions(ctx, vip.ID)
	require.NoError(t, err)
	assert.Contains(t, ids(vipRegions), "vip-us-east")
	assert.Len(t, vipRegions, len(regions)+2)

	_, err = f.c.Guilds.ListVoiceRegions(ctx, 999)
	require.ErrorIs(t, err, guildkit.ErrNotFound)
}

func TestGuildListInvites(t *testing.T) {
	t.Parallel()
	f := newGuildFixture(t, guildkit.Guild{})
	ch := f.srv.AddChannel(f.g.ID, guildkit.Channel{Name: "general"})
	first := f.srv.AddInvite(f.g.ID, ch.ID, guildkit.Invite{Code: "first", MaxUses: ptr(5)})
	f.srv.AddInvite(f.g.ID, ch.ID, guildkit.Invite{Code: "second"})
	other := f.srv.AddGuild(guildkit.Guild{})
	otherCh := f.srv.AddChannel(other.ID, guildkit.Channel{Name: "elsewhere"})
	f.srv.AddInvite(other.ID, otherCh.ID, guildkit.Invite{Code: "elsewhere"})
	ctx := t.Context()

	invites, err := f.c.Guilds.ListInvites(ctx, f.g.ID)
	require.NoError(t, err)
	require.Len(t, invites, 2, "only this guild's invites")
	assert.Equal(t, first.Code, invites[0].Code)
	assert.True(t, invites[0].HasMetadata(), "MANAGE_GUILD sees the metadata")
	assert.Equal(t, 5, *invites[0].MaxUses)
	assert.Equal(t, ch.ID, invites[0].Channel.ID)

	auditor := f.clientWith(guildkit.PermissionViewAuditLog)
	invites, err = auditor.Guilds.ListInvites(ctx, f.g.ID)
	require.NoError(t, err)
	require.Len(t, invites, 2)
	assert.False(t, invites[0].HasMetadata(), "VIEW_AUDIT_LOG alone sees no metadata")

	_, err = f.clientWith(guildkit.PermissionKickMembers).Guilds.ListInvites(ctx, f.g.ID)
	require.ErrorIs(t, err, guildkit.ErrForbidden)
}

func TestGuildIntegrations(t *testing.T) {
	t.Parallel()
	f := newGuildFixture(t, guildkit.Guild{})
	ctx := t.Context()
	bot := f.srv.AddMember(f.g.ID, guildkit.Member{User: &guildkit.User{Username: "streamsync", Bot: true}})
	synced := f.srv.AddIntegration(f.g.ID, guildkit.Integration{
		Name: "Stream Sync", Type: guildkit.IntegrationTypeBot, Enabled: true,
		Application: &guildkit.PartialApplication{ID: 77, Name: "Stream Sync", Bot: bot.User},
		Scopes:      []string{"bot"},
	})
	for i := range 54 {
		f.srv.AddIntegration(f.g.ID, guildkit.Integration{Name: fmt.Sprintf("yt %d", i), Type: guildkit.IntegrationTypeYouTube, Enabled: true})
	}
	ch := f.srv.AddChannel(f.g.ID, guildkit.Channel{Name: "alerts", Type: guildkit.ChannelTypeGuildText})
	appHook := f.srv.AddWebhook(ch.ID, "Stream Sync", guildkittest.WebhookApplication(77))
	otherHook := f.srv.AddWebhook(ch.ID, "Someone else's")

	list, err := f.c.Guilds.ListIntegrations(ctx, f.g.ID)
	require.NoError(t, err)
	assert.Len(t, list, guildkittest.MaxIntegrations, "at most 50 are returned")
	assert.Equal(t, synced.ID, list[0].ID)
	assert.Equal(t, "Stream Sync", list[0].Account.Name)
	assert.Equal(t, []string{"bot"}, list[0].Scopes)

	err = f.c.Guilds.DeleteIntegration(ctx, f.g.ID, synced.ID, guildkit.WithReason("unused"))
	require.NoError(t, err)
	assert.Len(t, f.srv.Integrations(f.g.ID), 54)
	_, stillMember := f.srv.Member(f.g.ID, bot.User.ID)
	assert.False(t, stillMember, "the integration's bot is kicked")
	_, hookKept := f.srv.Webhook(appHook.ID)
	assert.False(t, hookKept, "the integration's webhooks are removed")
	_, otherKept := f.srv.Webhook(otherHook.ID)
	assert.True(t, otherKept, "other webhooks stay")
	require.Len(t, f.srv.EventsNamed(guildkit.EventWebhooksUpdate), 1)
	up := f.srv.EventsNamed(guildkit.EventGuildIntegrationsUpdate)
	require.Len(t, up, 1)
	assert.Equal(t, guildkittest.GuildIntegrationsUpdate{GuildID: f.g.ID}, up[0].Data)
	del := f.srv.EventsNamed(guildkit.EventIntegrationDelete)
	require.Len(t, del, 1)
	assert.Equal(t, synced.ID, del[0].Data.(guildkittest.IntegrationDelete).ID)
	assert.Equal(t, guildkit.Snowflake(77), *del[0].Data.(guildkittest.IntegrationDelete).ApplicationID)

	err = f.c.Guilds.DeleteIntegration(ctx, f.g.ID, synced.ID)
	require.ErrorIs(t, err, guildkit.ErrNotFound)
	var apiErr *guildkit.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, guildkit.CodeUnknownIntegration, apiErr.Code)

	manager := f.clientWith(guildkit.PermissionKickMembers)
	_, err = manager.Guilds.ListIntegrations(ctx, f.g.ID)
	require.ErrorIs(t, err, guildkit.ErrForbidden)
	require.ErrorIs(t, manager.Guilds.DeleteIntegration(ctx, f.g.ID, list[1].ID), guildkit.ErrForbidden)
	requireValidation(t, f.c.Guilds.DeleteIntegration(ctx, f.g.ID, 0), "integration.id")
}

func TestGuildWidget(t *testing.T) {
	t.Parallel()
	f := newGuildFixture(t, guildkit.Guild{Name: "Widgets"})
	ctx := t.Context()
	lobby := f.srv.AddChannel(f.g.ID, guildkit.Channel{Name: "Lobby", Type: guildkit.ChannelTypeGuildVoice, Position: 1})
	f.srv.AddChannel(f.g.ID, guildkit.Channel{Name: "Stage", Type: guildkit.ChannelTypeGuildStageVoice, Position: 2})
	f.srv.AddChannel(f.g.ID, guildkit.Channel{Name: "Staff", Type: guildkit.ChannelTypeGuildVoice, Position: 0,
		PermissionOverwrites: []guildkit.PermissionOverwrite{{ID: f.g.ID, Deny: guildkit.PermissionViewChannel}}})
	general := f.srv.AddChannel(f.g.ID, guildkit.Channel{Name: "general"})
	for _, name := range []string{"ada", "rob", "ken"} {
		m := f.srv.AddMember(f.g.ID, guildkit.Member{User: &guildkit.User{Username: name}})
		f.srv.SetOnline(f.g.ID, m.User.ID, name != "ken")
	}

	ws, err := f.c.Guilds.GetWidgetSettings(ctx, f.g.ID)
	require.NoError(t, err)
	assert.False(t, ws.Enabled)
	assert.Nil(t, ws.ChannelID)

	_, err = f.c.Guilds.GetWidget(ctx, f.g.ID)
	require.ErrorIs(t, err, guildkit.ErrForbidden)
	var apiErr *guildkit.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, guildkit.CodeWidgetDisabled, apiErr.Code)

	ws, err = f.c.Guilds.ModifyWidget(ctx, f.g.ID, &guildkit.GuildWidgetModifyParams{
		Enabled: guildkit.Some(true), ChannelID: guildkit.Some(general.ID),
	}, guildkit.WithReason("show off"))
	require.NoError(t, err)
	assert.True(t, ws.Enabled)
	assert.Equal(t, general.ID, *ws.ChannelID)
	g, _ := f.srv.Guild(f.g.ID)
	assert.True(t, *g.WidgetEnabled)
	require.Len(t, f.srv.EventsNamed(guildkit.EventGuildUpdate), 1)

	w, err := f.c.Guilds.GetWidget(ctx, f.g.ID)
	require.NoError(t, err)
	assert.Equal(t, "Widgets", w.Name)
	require.Len(t, w.Channels, 2, "voice and stage channels @everyone can view")
	assert.Equal(t, lobby.ID, w.Channels[0].ID)
	assert.Equal(t, 2, w.PresenceCount)
	require.Len(t, w.Members, 2)
	assert.Equal(t, "0", w.Members[0].ID, "member ids are anonymised")
	assert.Equal(t, "0000", w.Members[0].Discriminator)
	require.NotNil(t, w.InstantInvite)
	created := f.srv.EventsNamed(guildkit.EventInviteCreate)
	require.Len(t, created, 1, "the widget made an invite")
	inv := created[0].Data.(guildkit.Invite)
	assert.True(t, strings.HasSuffix(*w.InstantInvite, "/"+inv.Code))
	stored, ok := f.srv.Invite(inv.Code)
	require.True(t, ok)
	assert.Equal(t, general.ID, stored.Channel.ID)

	_, err = f.c.Guilds.GetWidget(ctx, f.g.ID)
	require.NoError(t, err)
	assert.Len(t, f.srv.EventsNamed(guildkit.EventInviteCreate), 1, "the invite is made once")

	_, err = f.c.Guilds.ModifyWidget(ctx, f.g.ID, &guildkit.GuildWidgetModifyParams{Enabled: guildkit.Null[bool]()})
	requireValidation(t, err, "enabled")
	_, err = f.c.Guilds.ModifyWidget(ctx, f.g.ID, &guildkit.GuildWidgetModifyParams{ChannelID: guildkit.Some[guildkit.Snowflake](5)})
	requireFormError(t, err, "channel_id")
	ws, err = f.c.Guilds.ModifyWidget(ctx, f.g.ID, &guildkit.GuildWidgetModifyParams{ChannelID: guildkit.Null[guildkit.Snowflake]()})
	require.NoError(t, err)
	assert.Nil(t, ws.ChannelID, "Null removes the invite channel")
	w, err = f.c.Guilds.GetWidget(ctx, f.g.ID)
	require.NoError(t, err)
	assert.Nil(t, w.InstantInvite)

	plain := f.clientWith(guildkit.PermissionKickMembers)
	_, err = plain.Guilds.GetWidgetSettings(ctx, f.g.ID)
	require.ErrorIs(t, err, guildkit.ErrForbidden)
	_, err = plain.Guilds.ModifyWidget(ctx, f.g.ID, &guildkit.GuildWidgetModifyParams{Enabled: guildkit.Some(false)})
	require.ErrorIs(t, err, guildkit.ErrForbidden)
	_, err = plain.Guilds.GetWidget(ctx, f.g.ID)
	require.NoError(t, err, "the widget needs no permission")
	_, err = plain.Guilds.GetWidget(ctx, 31337)
	require.ErrorIs(t, err, guildkit.ErrNotFound)
}

// widgetPNG returns a small PNG as image data.
func widgetPNG(t *testing.T) guildkit.ImageData {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 16, 9))))
	d, err := guildkit.NewImageData(buf.Bytes())
	require.NoError(t, err)
	return d
}

func TestGuildGetWidgetImage(t *testing.T) {
	t.Parallel()
	f := newGuildFixture(t, guildkit.Guild{WidgetEnabled: ptr(true)})
	ada := f.srv.AddMember(f.g.ID, guildkit.Member{User: &guildkit.User{Username: "ada"}})
	f.srv.SetOnline(f.g.ID, ada.User.ID, true)
	ctx := t.Context()

	sizes := map[image.Point]guildkit.WidgetStyle{}
	for _, style := range guildkit.WidgetStyles {
		b, err := f.c.Guilds.GetWidgetImageBytes(ctx, f.g.ID, style)
		require.NoError(t, err, style)
		img, err := png.Decode(bytes.NewReader(b))
		require.NoError(t, err, "%s is a PNG", style)
		size := img.Bounds().Size()
		assert.NotContains(t, sizes, size, "%s looks like %s", style, sizes[size])
		sizes[size] = style
		req, _ := f.srv.LastRequest()
		assert.Empty(t, req.Header.Get("Authorization"), "no credential is sent")
		assert.Equal(t, []string{string(style)}, req.Query["style"])
	}

	rc, err := f.c.Guilds.GetWidgetImage(ctx, f.g.ID, "")
	require.NoError(t, err)
	img, err := png.Decode(rc)
	require.NoError(t, rc.Close())
	require.NoError(t, err)
	assert.Equal(t, guildkit.WidgetStyleShield, sizes[img.Bounds().Size()], "the default style is shield")
	req, _ := f.srv.LastRequest()
	assert.NotContains(t, req.Query, "style")

	_, err = f.c.Guilds.GetWidgetImage(ctx, f.g.ID, "banner9")
	requireValidation(t, err, "style")

	anon, err := guildkit.New(nil, guildkit.WithBaseURL(f.srv.BaseURL()))
	require.NoError(t, err)
	b, err := anon.Guilds.GetWidgetImageBytes(ctx, f.g.ID, guildkit.WidgetStyleBanner4)
	require.NoError(t, err, "a client without a credential can fetch the image")
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	require.NoError(t, err)
	assert.Equal(t, guildkit.WidgetStyleBanner4, sizes[image.Pt(cfg.Width, cfg.Height)])

	closed := f.srv.AddGuild(guildkit.Guild{})
	_, err = f.c.Guilds.GetWidgetImageBytes(ctx, closed.ID, guildkit.WidgetStyleBanner2)
	require.ErrorIs(t, err, guildkit.ErrForbidden, "widget disabled")
	_, err = f.c.Guilds.GetWidgetImage(ctx, 404, guildkit.WidgetStyleShield)
	require.ErrorIs(t, err, guildkit.ErrNotFound)
}

func TestGuildGetVanityURL(t *testing.T) {
	t.Parallel()
	f := newGuildFixture(t, guildkit.Guild{})
	ctx := t.Context()

	v, err := f.c.Guilds.GetVanityURL(ctx, f.g.ID)
	require.NoError(t, err)
	assert.Nil(t, v.Code, "no vanity URL set")
	assert.Zero(t, v.Uses)

	f.srv.SetVanityURL(f.g.ID, "gophers", 42)
	v, err = f.c.Guilds.GetVanityURL(ctx, f.g.ID)
	require.NoError(t, err)
	assert.Equal(t, "gophers", *v.Code)
	assert.Equal(t, 42, v.Uses)
	g, _ := f.srv.Guild(f.g.ID)
	assert.Equal(t, "gophers", *g.VanityURLCode)

	_, err = f.clientWith(guildkit.PermissionViewAuditLog).Guilds.GetVanityURL(ctx, f.g.ID)
	require.ErrorIs(t, err, guildkit.ErrForbidden)
}

func TestGuildWelcomeScreen(t *testing.T) {
	t.Parallel()
	f := newGuildFixture(t, guildkit.Guild{Features: []guildkit.GuildFeature{guildkit.FeatureCommunity}})
	ctx := t.Context()
	rules := f.srv.AddChannel(f.g.ID, guildkit.Channel{Name: "rules"})
	hello := f.srv.AddChannel(f.g.ID, guildkit.Channel{Name: "hello"})
	member := f.clientWith(guildkit.PermissionSendMessages)

	_, err := member.Guilds.GetWelcomeScreen(ctx, f.g.ID)
	require.ErrorIs(t, err, guildkit.ErrForbidden, "MANAGE_GUILD while not enabled")
	ws, err := f.c.Guilds.GetWelcomeScreen(ctx, f.g.ID)
	require.NoError(t, err)
	assert.Empty(t, ws.WelcomeChannels)

	ws, err = f.c.Guilds.ModifyWelcomeScreen(ctx, f.g.ID, &guildkit.GuildWelcomeScreenModifyParams{
		Enabled:     guildkit.Some(true),
		Description: guildkit.Some("Start here"),
		WelcomeChannels: guildkit.Some([]guildkit.WelcomeChannel{
			{ChannelID: rules.ID, Description: "Read the rules", EmojiName: ptr("📜")},
			{ChannelID: hello.ID, Description: "Say hi", EmojiID: ptr[guildkit.Snowflake](99), EmojiName: ptr("wave")},
		}),
	}, guildkit.WithReason("onboarding"))
	require.NoError(t, err)
	assert.Equal(t, "Start here", *ws.Description)
	require.Len(t, ws.WelcomeChannels, 2)
	assert.Equal(t, guildkit.Snowflake(99), *ws.WelcomeChannels[1].EmojiID)
	stored, enabled := f.srv.WelcomeScreen(f.g.ID)
	assert.True(t, enabled)
	assert.Equal(t, ws.WelcomeChannels, stored.WelcomeChannels)
	events := f.srv.EventsNamed(guildkit.EventGuildUpdate)
	require.Len(t, events, 1, "turning it on updates the guild's features")
	assert.Contains(t, events[0].Data.(guildkit.Guild).Features, guildkit.FeatureWelcomeScreenEnabled)

	ws, err = member.Guilds.GetWelcomeScreen(ctx, f.g.ID)
	require.NoError(t, err, "anyone in the guild once it is enabled")
	assert.Len(t, ws.WelcomeChannels, 2)

	ws, err = f.c.Guilds.ModifyWelcomeScreen(ctx, f.g.ID, &guildkit.GuildWelcomeScreenModifyParams{Description: guildkit.Null[string]()})
	require.NoError(t, err)
	assert.Nil(t, ws.Description)
	assert.Len(t, ws.WelcomeChannels, 2, "omitted fields are left alone")
	assert.Len(t, f.srv.EventsNamed(guildkit.EventGuildUpdate), 1, "no GUILD_UPDATE when enabled did not change")

	six := make([]guildkit.WelcomeChannel, 6)
	for i := range six {
		six[i] = guildkit.WelcomeChannel{ChannelID: rules.ID, Description: "x"}
	}
	_, err = f.c.Guilds.ModifyWelcomeScreen(ctx, f.g.ID, &guildkit.GuildWelcomeScreenModifyParams{WelcomeChannels: guildkit.Some(six)})
	requireValidation(t, err, "welcome_channels")
	_, err = f.c.Guilds.ModifyWelcomeScreen(ctx, f.g.ID, &guildkit.GuildWelcomeScreenModifyParams{
		WelcomeChannels: guildkit.Some([]guildkit.WelcomeChannel{{ChannelID: 12345, Description: "gone"}}),
	})
	requireFormError(t, err, "welcome_channels[0].channel_id")
	_, err = member.Guilds.ModifyWelcomeScreen(ctx, f.g.ID, &guildkit.GuildWelcomeScreenModifyParams{Enabled: guildkit.Some(false)})
	require.ErrorIs(t, err, guildkit.ErrForbidden)
}

func TestGuildOnboarding(t *testing.T) {
	t.Parallel()
	f := newGuildFixture(t, guildkit.Guild{})
	ctx := t.Context()
	role := f.srv.AddRole(f.g.ID, guildkit.Role{Name: "backend"})
	var chans []guildkit.Snowflake
	for i := range 7 {
		ch := guildkit.Channel{Name: fmt.Sprintf("c%d", i)}
		if i >= 4 { // three channels where @everyone cannot write
			ch.PermissionOverwrites = []guildkit.PermissionOverwrite{{ID: f.g.ID, Type: guildkit.OverwriteTypeRole, Deny: guildkit.PermissionSendMessages}}
		}
		chans = append(chans, f.srv.AddChannel(f.g.ID, ch).ID)
	}
	extra := f.srv.AddChannel(f.g.ID, guildkit.Channel{Name: "extra"}).ID

	o, err := f.c.Guilds.GetOnboarding(ctx, f.g.ID)
	require.NoError(t, err)
	assert.Equal(t, f.g.ID, o.GuildID)
	assert.False(t, o.Enabled)
	assert.Empty(t, o.Prompts)

	o, err = f.c.Guilds.ModifyOnboarding(ctx, f.g.ID, &guildkit.GuildOnboardingModifyParams{
		Prompts: guildkit.Some([]guildkit.OnboardingPromptParams{{
			Type: guildkit.PromptTypeDropdown, Title: "What do you work on?", Required: guildkit.Some(true),
			Options: []guildkit.OnboardingPromptOptionParams{
				{Title: "Backend", ChannelIDs: guildkit.Some([]guildkit.Snowflake{extra}), RoleIDs: guildkit.Some([]guildkit.Snowflake{role.ID}),
					EmojiID: guildkit.Some[guildkit.Snowflake](555), EmojiName: guildkit.Some("gopher"), EmojiAnimated: guildkit.Some(true)},
				{Title: "Frontend", EmojiName: guildkit.Some("🎨"), Description: guildkit.Some("pixels")},
			},
		}}),
		DefaultChannelIDs: guildkit.Some(chans[:6]),
	}, guildkit.WithReason("set up"))
	require.NoError(t, err)
	require.Len(t, o.Prompts, 1)
	pr := o.Prompts[0]
	assert.NotZero(t, pr.ID, "a new prompt gets an id")
	assert.True(t, pr.Required)
	assert.True(t, pr.InOnboarding, "in_onboarding defaults to true")
	require.Len(t, pr.Options, 2)
	opt := pr.Options[0]
	assert.NotZero(t, opt.ID)
	require.NotNil(t, opt.Emoji, "the input emoji fields come back as an emoji object")
	assert.Equal(t, guildkit.Snowflake(555), *opt.Emoji.ID)
	assert.Equal(t, "gopher", *opt.Emoji.Name)
	assert.True(t, *opt.Emoji.Animated)
	assert.Nil(t, opt.EmojiID, "the input form is not echoed")
	assert.Nil(t, pr.Options[1].Emoji.ID)
	assert.Equal(t, "pixels", *pr.Options[1].Description)
	assert.Equal(t, *o, f.srv.Onboarding(f.g.ID))

	// 6 default channels: too few to enable.
	_, err = f.c.Guilds.ModifyOnboarding(ctx, f.g.ID, &guildkit.GuildOnboardingModifyParams{Enabled: guildkit.Some(true)})
	requireFormError(t, err, "default_channel_ids")
	// 7 channels, but @everyone can write in only 4.
	_, err = f.c.Guilds.ModifyOnboarding(ctx, f.g.ID, &guildkit.GuildOnboardingModifyParams{
		Enabled: guildkit.Some(true), DefaultChannelIDs: guildkit.Some(chans),
	})
	requireFormError(t, err, "default_channel_ids")
	assert.False(t, f.srv.Onboarding(f.g.ID).Enabled, "nothing changed on failure")
	// In advanced mode the prompt's channel counts too: 8 channels, 5 writable.
	o, err = f.c.Guilds.ModifyOnboarding(ctx, f.g.ID, &guildkit.GuildOnboardingModifyParams{
		Enabled: guildkit.Some(true), DefaultChannelIDs: guildkit.Some(chans), Mode: guildkit.Some(guildkit.OnboardingAdvanced),
	})
	require.NoError(t, err)
	assert.True(t, o.Enabled)
	assert.Equal(t, guildkit.OnboardingAdvanced, o.Mode)
	assert.Len(t, o.Prompts, 1, "prompts omitted are kept")
	// While enabled, going back to default mode breaks the rule again.
	_, err = f.c.Guilds.ModifyOnboarding(ctx, f.g.ID, &guildkit.GuildOnboardingModifyParams{Mode: guildkit.Some(guildkit.OnboardingDefault)})
	requireFormError(t, err, "default_channel_ids")

	_, err = f.c.Guilds.ModifyOnboarding(ctx, f.g.ID, &guildkit.GuildOnboardingModifyParams{
		Enabled: guildkit.Null[bool](),
		Prompts: guildkit.Some([]guildkit.OnboardingPromptParams{{Title: " ", Type: 7, Options: []guildkit.OnboardingPromptOptionParams{{}}}}),
	})
	requireValidation(t, err, "enabled", "prompts[0].title", "prompts[0].type", "prompts[0].options[0].title")

	_, err = f.clientWith(guildkit.PermissionManageGuild).Guilds.ModifyOnboarding(ctx, f.g.ID, &guildkit.GuildOnboardingModifyParams{Enabled: guildkit.Some(false)})
	require.ErrorIs(t, err, guildkit.ErrForbidden, "MANAGE_ROLES is needed too")
	_, err = f.c.Guilds.GetOnboarding(ctx, 8080)
	require.ErrorIs(t, err, guildkit.ErrNotFound)
}

func TestGuildModifyIncidentActions(t *testing.T) {
	t.Parallel()
	// The server's clock runs two hours behind the client's, so a time the
	// client accepts can be too far ahead for the server.
	f := newGuildFixture(t, guildkit.Guild{}, guildkittest.WithClock(func() time.Time { return time.Now().Add(-2 * time.Hour) }))
	ctx := t.Context()
	until := time.Now().Add(3 * time.Hour).UTC().Truncate(time.Second)

	data, err := f.c.Guilds.ModifyIncidentActions(ctx, f.g.ID, &guildkit.GuildIncidentActionsModifyParams{
		InvitesDisabledUntil: guildkit.Some(until),
		DMsDisabledUntil:     guildkit.Some(until),
	})
	require.NoError(t, err)
	require.NotNil(t, data.InvitesDisabledUntil)
	assert.True(t, until.Equal(*data.InvitesDisabledUntil))
	g, _ := f.srv.Guild(f.g.ID)
	require.NotNil(t, g.IncidentsData)
	assert.True(t, until.Equal(*g.IncidentsData.DMsDisabledUntil))

	data, err = f.c.Guilds.ModifyIncidentActions(ctx, f.g.ID, &guildkit.GuildIncidentActionsModifyParams{DMsDisabledUntil: guildkit.Null[time.Time]()})
	require.NoError(t, err)
	assert.Nil(t, data.DMsDisabledUntil, "Null lifts the action")
	assert.NotNil(t, data.InvitesDisabledUntil, "an omitted action is left alone")

	_, err = f.c.Guilds.ModifyIncidentActions(ctx, f.g.ID, &guildkit.GuildIncidentActionsModifyParams{
		InvitesDisabledUntil: guildkit.Some(time.Now().Add(25 * time.Hour)),
	})
	requireValidation(t, err, "invites_disabled_until")
	_, err = f.c.Guilds.ModifyIncidentActions(ctx, f.g.ID, &guildkit.GuildIncidentActionsModifyParams{
		DMsDisabledUntil: guildkit.Some(time.Now().Add(23 * time.Hour)),
	})
	requireFormError(t, err, "dms_disabled_until")
	_, err = f.clientWith(guildkit.PermissionBanMembers).Guilds.ModifyIncidentActions(ctx, f.g.ID, &guildkit.GuildIncidentActionsModifyParams{
		DMsDisabledUntil: guildkit.Null[time.Time](),
	})
	require.ErrorIs(t, err, guildkit.ErrForbidden)
}

func registerGuildLedger(name string, call func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client, g guildkit.Guild) error) bool {
	return registerLedger(name, func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client) error {
		return call(ctx, srv, c, srv.AddGuild(guildkit.Guild{}))
	})
}

var (
	_ = registerGuildLedger("Get Guild Preview", func(ctx context.Context, _ *guildkittest.Server, c *guildkit.Client, g guildkit.Guild) error {
		_, err := c.Guilds.GetPreview(ctx, g.ID)
		return err
	})
	_ = registerGuildLedger("Modify Guild", func(ctx context.Context, _ *guildkittest.Server, c *guildkit.Client, g guildkit.Guild) error {
		_, err := c.Guilds.Modify(ctx, g.ID, &guildkit.GuildModifyParams{Name: guildkit.Some("renamed")})
		return err
	})
	_ = registerGuildLedger("Get Guild Voice Regions", func(ctx context.Context, _ *guildkittest.Server, c *guildkit.Client, g guildkit.Guild) error {
		_, err := c.Guilds.ListVoiceRegions(ctx, g.ID)
		return err
	})
	_ = registerGuildLedger("Get Guild Invites", func(ctx context.Context, _ *guildkittest.Server, c *guildkit.Client, g guildkit.Guild) error {
		_, err := c.Guilds.ListInvites(ctx, g.ID)
		return err
	})
	_ = registerGuildLedger("Get Guild Integrations", func(ctx context.Context, _ *guildkittest.Server, c *guildkit.Client, g guildkit.Guild) error {
		_, err := c.Guilds.ListIntegrations(ctx, g.ID)
		return err
	})
	_ = registerGuildLedger("Delete Guild Integration", func(ctx context.Context, srv *guildkittest.Server, c *guildkit.Client, g guildkit.Guild) error {
		in := srv.AddIntegration(g.ID, guildkit.Integration{Name: "yt", Type: guildkit.IntegrationTypeYouTube})
		return c.Guilds.DeleteIntegration(ctx, g.ID, in.ID)
	})
	_ = registerGuildLedger("Get Guild Widget Settings", func(ctx context.Context, _ *guildkittest.Server, c *guildkit.Client, g guildkit.Guild) error {
		_, err := c.Guilds.GetWidgetSettings(ctx, g.ID)
		return err
	})
	_ = registerGuildLedger("Modify Guild Widget", func(ctx context.Context, _ *guildkittest.Server, c *guildkit.Client, g guildkit.Guild) error {
		_, err := c.Guilds.ModifyWidget(ctx, g.ID, &guildkit.GuildWidgetModifyParams{Enabled: guildkit.Some(true)})
		return err
	})
	_ = registerGuildLedger("Get Guild Widget", func(ctx context.Context, _ *guildkittest.Server, c *guildkit.Client, g guildkit.Guild) error {
		_, err := c.Guilds.GetWidget(ctx, g.ID)
		return err
	})
	_ = registerGuildLedger("Get Guild Widget Image", func(ctx context.Context, _ *guildkittest.Server, c *guildkit.Client, g guildkit.Guild) error {
		_, err := c.Guilds.GetWidgetImageBytes(ctx, g.ID, guildkit.WidgetStyleBanner1)
		return err
	})
	_ = registerGuildLedger("Get Guild Vanity URL", func(ctx context.Context, _ *guildkittest.Server, c *guildkit.Client, g guildkit.Guild) error {
		_, err := c.Guilds.GetVanityURL(ctx, g.ID)
		return err
	})
	_ = registerGuildLedger("Get Guild Welcome Screen", func(ctx context.Context, _ *guildkittest.Server, c *guildkit.Client, g guildkit.Guild) error {
		_, err := c.Guilds.GetWelcomeScreen(ctx, g.ID)
		return err
	})
	_ = registerGuildLedger("Modify Guild Welcome Screen", func(ctx context.Context, _ *guildkittest.Server, c *guildkit.Client, g guildkit.Guild) error {
		_, err := c.Guilds.ModifyWelcomeScreen(ctx, g.ID, &guildkit.GuildWelcomeScreenModifyParams{Description: guildkit.Some("hi")})
		return err
	})
	_ = registerGuildLedger("Get Guild Onboarding", func(ctx context.Context, _ *guildkittest.Server, c *guildkit.Client, g guildkit.Guild) error {
		_, err := c.Guilds.GetOnboarding(ctx, g.ID)
		return err
	})
	_ = registerGuildLedger("Modify Guild Onboarding", func(ctx context.Context, _ *guildkittest.Server, c *guildkit.Client, g guildkit.Guild) error {
		_, err := c.Guilds.ModifyOnboarding(ctx, g.ID, &guildkit.GuildOnboardingModifyParams{Mode: guildkit.Some(guildkit.OnboardingAdvanced)})
		return err
	})
	_ = registerGuildLedger("Modify Guild Incident Actions", func(ctx context.Context, _ *guildkittest.Server, c *guildkit.Client, g guildkit.Guild) error {
		_, err := c.Guilds.ModifyIncidentActions(ctx, g.ID, &guildkit.GuildIncidentActionsModifyParams{DMsDisabledUntil: guildkit.Null[time.Time]()})
		return err
	})
)

// TestOnboardingPromptIDs: Modify Guild Onboarding never sends a prompt or
// an option without an id (new ones get fresh, distinct snowflakes), leaves
// the caller's params as they were, and the in-memory server refuses a
// prompt without an id, as the service does.
func TestOnboardingPromptIDs(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	var sent struct {
		Prompts []struct {
			ID      *string `json:"id"`
			Options []struct {
				ID *string `json:"id"`
			} `json:"options"`
		} `json:"prompts"`
	}
	mux.HandleFunc("PUT /guilds/1/onboarding", func(w http.ResponseWriter, r *http.Request) {
		require.NoError(t, json.NewDecoder(r.Body).Decode(&sent))
		writeJSON(w, http.StatusOK, map[string]any{"guild_id": "1", "prompts": []any{}, "default_channel_ids": []any{}, "enabled": false, "mode": 0})
	})
	params := &guildkit.GuildOnboardingModifyParams{Prompts: guildkit.Some([]guildkit.OnboardingPromptParams{
		{Title: "Kept", ID: guildkit.Some[guildkit.Snowflake](42), Options: []guildkit.OnboardingPromptOptionParams{{Title: "a"}, {Title: "b", ID: guildkit.Some[guildkit.Snowflake](43)}}},
		{Title: "New", Options: []guildkit.OnboardingPromptOptionParams{{Title: "c"}}},
	})}
	_, err := c.Guilds.ModifyOnboarding(t.Context(), 1, params)
	require.NoError(t, err)
	require.Len(t, sent.Prompts, 2)
	seen := map[string]bool{}
	for i, p := range sent.Prompts {
		require.NotNil(t, p.ID, "prompt %d sent without an id", i)
		assert.False(t, seen[*p.ID], "ids are distinct")
		seen[*p.ID] = true
		for j, o := range p.Options {
			require.NotNil(t, o.ID, "prompt %d option %d sent without an id", i, j)
			assert.False(t, seen[*o.ID], "ids are distinct")
			seen[*o.ID] = true
		}
	}
	assert.Equal(t, "42", *sent.Prompts[0].ID, "a kept prompt keeps its id")
	assert.Equal(t, "43", *sent.Prompts[0].Options[1].ID)
	prompts, _ := params.Prompts.Get()
	assert.False(t, prompts[1].ID.IsSet(), "the caller's params are not changed")
	assert.False(t, prompts[0].Options[0].ID.IsSet())

	f := newFixture(t, guildkit.PermissionManageGuild|guildkit.PermissionManageRoles, guildkittest.DefaultEveryonePermissions)
	_, err = guildkit.ExportDo(f.c, t.Context(), "PUT", "/guilds/{guild.id}/onboarding",
		map[string]any{"prompts": []any{map[string]any{"type": 0, "title": "No id", "options": []any{map[string]any{"title": "x"}}}}}, nil, f.guild.ID)
	requireFormError(t, err, "prompts[0].id")
}
