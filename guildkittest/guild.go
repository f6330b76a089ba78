package guildkittest

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/seed012df1e9/guildkit"
)

// guildSettings is what the server keeps about a guild beyond the guild
// object: threads' members, integrations, the widget's invite, the welcome
// screen, onboarding and the vanity URL's uses.
type guildSettings struct {
	threadMembers map[guildkit.Snowflake]map[guildkit.Snowflake]guildkit.ThreadMember // thread → user → member
	integrations  map[guildkit.Snowflake]*guildkit.Integration
	widgetInvite  string // code of the invite the widget made
	welcome       guildkit.WelcomeScreen
	onboarding    guildkit.Onboarding
	vanityUses    int
}

func (s *Server) initGuildSettings(gs *guildState) {
	gs.settings = guildSettings{
		threadMembers: make(map[guildkit.Snowflake]map[guildkit.Snowflake]guildkit.ThreadMember),
		integrations:  make(map[guildkit.Snowflake]*guildkit.Integration),
		welcome:       guildkit.WelcomeScreen{WelcomeChannels: []guildkit.WelcomeChannel{}},
		onboarding: guildkit.Onboarding{
			GuildID: gs.guild.ID, Prompts: []guildkit.OnboardingPrompt{}, DefaultChannelIDs: []guildkit.Snowflake{},
		},
	}
}

func (s *Server) guildRoutes(reg registrar) {
	reg("GET /guilds/{guild_id}", authRequired, s.getGuild)
	reg("GET /guilds/{guild_id}/preview", authRequired, s.getGuildPreview)
	reg("PATCH /guilds/{guild_id}", authRequired, s.modifyGuild)
	reg("GET /guilds/{guild_id}/regions", authRequired, s.listVoiceRegions)
	reg("GET /guilds/{guild_id}/invites", authRequired, s.listGuildInvites)
	reg("GET /guilds/{guild_id}/integrations", authRequired, s.listIntegrations)
	reg("DELETE /guilds/{guild_id}/integrations/{integration_id}", authRequired, s.deleteIntegration)
	reg("GET /guilds/{guild_id}/widget", authRequired, s.getWidgetSettings)
	reg("PATCH /guilds/{guild_id}/widget", authRequired, s.modifyWidget)
	reg("GET /guilds/{guild_id}/widget.json", authNone, s.getWidget)
	reg("GET /guilds/{guild_id}/widget.png", authNone, s.getWidgetImage)
	reg("GET /guilds/{guild_id}/vanity-url", authRequired, s.getVanityURL)
	reg("GET /guilds/{guild_id}/welcome-screen", authRequired, s.getWelcomeScreen)
	reg("PATCH /guilds/{guild_id}/welcome-screen", authRequired, s.modifyWelcomeScreen)
	reg("GET /guilds/{guild_id}/onboarding", authRequired, s.getOnboarding)
	reg("PUT /guilds/{guild_id}/onboarding", authRequired, s.modifyOnboarding)
	reg("PUT /guilds/{guild_id}/incident-actions", authRequired, s.modifyIncidentActions)
}

// counts returns the guild's member count and online member count.
func (gs *guildState) counts() (members, online int) {
	for _, m := range gs.members {
		if m.online {
			online++
		}
	}
	return len(gs.members), online
}

// getGuild: Get Guild, with approximate counts when with_counts is true.
func (s *Server) getGuild(c *call) {
	gs, ok := c.guild()
	if !ok {
		return
	}
	g := s.guildJSON(gs)
	if c.r.URL.Query().Get("with_counts") == "true" {
		members, online := gs.counts()
		g.ApproximateMemberCount = &members
		g.ApproximatePresenceCount = &online
	}
	c.json(http.StatusOK, g)
}

// getGuildPreview: Get Guild Preview. A caller outside the guild sees only a
// DISCOVERABLE guild; any other answers 404 Unknown Guild, as the reference
// platform does.
func (s *Server) getGuildPreview(c *call) {
	id, ok := c.id("guild_id", guildkit.CodeUnknownGuild, "Guild")
	if !ok {
		return
	}
	gs, ok := s.guilds[id]
	if ok {
		_, member := gs.members[c.user]
		ok = member || gs.guild.HasFeature(guildkit.FeatureDiscoverable)
	}
	if !ok {
		c.error(http.StatusNotFound, guildkit.CodeUnknownGuild, "Unknown Guild")
		return
	}
	g := gs.guild
	members, online := gs.counts()
	stickers := slices.Clone(g.Stickers)
	if stickers == nil {
		stickers = []guildkit.Sticker{}
	}
	c.json(http.StatusOK, guildkit.GuildPreview{
		ID: g.ID, Name: g.Name, Icon: g.Icon, Splash: g.Splash, DiscoverySplash: g.DiscoverySplash,
		Emojis: slices.Clone(g.Emojis), Features: slices.Clone(g.Features), ApproximateMemberCount: members,
		ApproximatePresenceCount: online, Description: g.Description, Stickers: stickers,
	})
}

// mutableFeatures are the features Modify Guild can turn on or off, and
// whether that needs ADMINISTRATOR.
var mutableFeatures = map[guildkit.GuildFeature]bool{
	guildkit.FeatureCommunity:          true,
	guildkit.FeatureDiscoverable:       true,
	guildkit.FeatureInvitesDisabled:    false,
	guildkit.FeatureRaidAlertsDisabled: false,
}

// imageHash stores an image upload as the platform does: a hash, "a_"
// prefixed for an animated one.
func imageHash(d guildkit.ImageData) string {
	sum := sha256.Sum256([]byte(d))
	h := hex.EncodeToString(sum[:16])
	if d.ContentType() == "image/gif" {
		h = "a_" + h
	}
	return h
}

// modifyGuild: Modify Guild. MANAGE_GUILD; COMMUNITY and DISCOVERABLE
// changes need ADMINISTRATOR; DISCOVERABLE needs COMMUNITY (the one
// discovery requirement the server checks). Features other than the four
// mutable ones are kept as they were, whatever the body says.
func (s *Server) modifyGuild(c *call) {
	gs, ok := c.guild()
	if !ok || !c.require(gs, guildkit.PermissionManageGuild) {
		return
	}
	var p guildkit.GuildModifyParams
	if !c.decode(&p) {
		return
	}
	g := gs.guild
	problems := map[string]string{}
	notNull := func(name string, null bool) {
		if null {
			problems[name] = "This field is required"
		}
	}
	notNull("name", p.Name.IsNull())
	notNull("afk_timeout", p.AFKTimeout.IsNull())
	notNull("system_channel_flags", p.SystemChannelFlags.IsNull())
	notNull("features", p.Features.IsNull())
	notNull("premium_progress_bar_enabled", p.PremiumProgressBarEnabled.IsNull())
	if name, ok := p.Name.Get(); ok {
		name = strings.TrimSpace(name)
		if n := utf8.RuneCountInString(name); n < 2 || n > 100 {
			problems["name"] = "Must be between 2 and 100 in length."
		}
		g.Name = name
	}
	if t, ok := p.AFKTimeout.Get(); ok {
		if !slices.Contains(guildkit.AFKTimeouts, t) {
			problems["afk_timeout"] = "Value must be one of {60, 300, 900, 1800, 3600}."
		}
		g.AFKTimeout = t
	}
	if !p.Region.IsZero() {
		g.Region = p.Region
	}
	if !p.VerificationLevel.IsZero() {
		g.VerificationLevel = p.VerificationLevel.Or(guildkit.VerificationLevelNone)
	}
	if !p.DefaultMessageNotifications.IsZero() {
		g.DefaultMessageNotifications = p.DefaultMessageNotifications.Or(guildkit.NotifyAllMessages)
	}
	if !p.ExplicitContentFilter.IsZero() {
		g.ExplicitContentFilter = p.ExplicitContentFilter.Or(guildkit.ExplicitContentFilterDisabled)
	}
	for _, f := range []struct {
		name string
		in   guildkit.Opt[guildkit.Snowflake]
		out  **guildkit.Snowflake
	}{
		{"afk_channel_id", p.AFKChannelID, &g.AFKChannelID},
		{"system_channel_id", p.SystemChannelID, &g.SystemChannelID},
		{"rules_channel_id", p.RulesChannelID, &g.RulesChannelID},
		{"public_updates_channel_id", p.PublicUpdatesChannelID, &g.PublicUpdatesChannelID},
		{"safety_alerts_channel_id", p.SafetyAlertsChannelID, &g.SafetyAlertsChannelID},
	} {
		if f.in.IsZero() {
			continue
		}
		*f.out = nil
		if id, ok := f.in.Get(); ok {
			if ch, ok := gs.channels[id]; !ok || ch.Type.IsThread() {
				problems[f.name] = "Unknown channel"
			}
			*f.out = &id
		}
	}
	if fl, ok := p.SystemChannelFlags.Get(); ok {
		g.SystemChannelFlags = fl
	}
	if !p.PreferredLocale.IsZero() {
		g.PreferredLocale = p.PreferredLocale.Or("en-US")
	}
	if !p.Description.IsZero() {
		g.Description = ptrOf(p.Description)
	}
	if b, ok := p.PremiumProgressBarEnabled.Get(); ok {
		g.PremiumProgressBarEnabled = b
	}
	if fs, ok := p.Features.Get(); ok {
		next := make([]guildkit.GuildFeature, 0, len(g.Features))
		for _, f := range g.Features {
			if _, mutable := mutableFeatures[f]; !mutable {
				next = append(next, f)
			}
		}
		for i, f := range fs {
			if !slices.Contains(guildkit.GuildFeatures, f) {
				problems[fmt.Sprintf("features.%d", i)] = "Unknown guild feature"
				continue
			}
			if _, mutable := mutableFeatures[f]; mutable && !slices.Contains(next, f) {
				next = append(next, f)
			}
		}
		for f, needsAdmin := range mutableFeatures {
			if needsAdmin && slices.Contains(g.Features, f) != slices.Contains(next, f) && !gs.isAdmin(c.user) {
				c.error(http.StatusForbidden, guildkit.CodeMissingPermissions, "Missing Permissions")
				return
			}
		}
		if slices.Contains(next, guildkit.FeatureDiscoverable) && !slices.Contains(next, guildkit.FeatureCommunity) {
			problems["features"] = "The guild does not meet the discovery requirements (COMMUNITY)"
		}
		g.Features = next
	}
	for _, img := range []struct {
		name    string
		in      guildkit.Opt[guildkit.ImageData]
		out     **string
		feature guildkit.GuildFeature
		types   []string
	}{
		{"icon", p.Icon, &g.Icon, "", []string{"image/png", "image/jpeg", "image/gif"}},
		{"splash", p.Splash, &g.Splash, guildkit.FeatureInviteSplash, []string{"image/png", "image/jpeg"}},
		{"discovery_splash", p.DiscoverySplash, &g.DiscoverySplash, guildkit.FeatureDiscoverable, []string{"image/png", "image/jpeg"}},
		{"banner", p.Banner, &g.Banner, guildkit.FeatureBanner, []string{"image/png", "image/jpeg", "image/gif"}},
	} {
		if img.in.IsZero() {
			continue
		}
		*img.out = nil
		d, ok := img.in.Get()
		if !ok {
			continue
		}
		ct := d.ContentType()
		switch {
		case !slices.Contains(img.types, ct):
			problems[img.name] = "Invalid image data"
		case img.feature != "" && !g.HasFeature(img.feature):
			problems[img.name] = "This guild lacks the " + string(img.feature) + " feature"
		case ct == "image/gif" && img.name == "icon" && !g.HasFeature(guildkit.FeatureAnimatedIcon):
			problems[img.name] = "An animated icon needs ANIMATED_ICON"
		case ct == "image/gif" && img.name == "banner" && !g.HasFeature(guildkit.FeatureAnimatedBanner):
			problems[img.name] = "An animated banner needs ANIMATED_BANNER"
		}
		h := imageHash(d)
		*img.out = &h
	}
	if len(problems) > 0 {
		c.formError(problems)
		return
	}
	gs.guild = g
	out := s.guildJSON(gs)
	s.emit(guildkit.EventGuildUpdate, g.ID, out)
	c.json(http.StatusOK, out)
}

// ptrOf returns a pointer to o's value, or nil when o is Null or omitted.
func ptrOf[T any](o guildkit.Opt[T]) *T {
	if v, ok := o.Get(); ok {
		return &v
	}
	return nil
}

// voiceRegions is the server's list of voice regions; vip ones are listed
// only for guilds with VIP_REGIONS.
var voiceRegions = []struct {
	guildkit.VoiceRegion
	vip bool
}{
	{guildkit.VoiceRegion{ID: "us-east", Name: "US East", Optimal: true}, false},
	{guildkit.VoiceRegion{ID: "us-central", Name: "US Central"}, false},
	{guildkit.VoiceRegion{ID: "us-west", Name: "US West"}, false},
	{guildkit.VoiceRegion{ID: "rotterdam", Name: "Rotterdam"}, false},
	{guildkit.VoiceRegion{ID: "singapore", Name: "Singapore"}, false},
	{guildkit.VoiceRegion{ID: "brazil", Name: "Brazil"}, false},
	{guildkit.VoiceRegion{ID: "japan", Name: "Japan"}, false},
	{guildkit.VoiceRegion{ID: "hongkong", Name: "Hong Kong", Deprecated: true}, false},
	{guildkit.VoiceRegion{ID: "vip-us-east", Name: "VIP US East"}, true},
	{guildkit.VoiceRegion{ID: "vip-amsterdam", Name: "VIP Amsterdam"}, true},
}

// regionsFor returns the voice regions guild gs may use.
func regionsFor(gs *guildState) []guildkit.VoiceRegion {
	vip := gs.guild.HasFeature(guildkit.FeatureVIPRegions)
	out := []guildkit.VoiceRegion{}
	for _, r := range voiceRegions {
		if !r.vip || vip {
			out = append(out, r.VoiceRegion)
		}
	}
	return out
}

// listVoiceRegions: Get Guild Voice Regions. The server knows eight regions
// (one deprecated) and two VIP regions, listed for VIP_REGIONS guilds only.
func (s *Server) listVoiceRegions(c *call) {
	gs, ok := c.guild()
	if !ok {
		return
	}
	c.json(http.StatusOK, regionsFor(gs))
}

// listGuildInvites: Get Guild Invites, by creation time then code.
// MANAGE_GUILD or VIEW_AUDIT_LOG; the metadata only with MANAGE_GUILD.
func (s *Server) listGuildInvites(c *call) {
	gs, ok := c.guild()
	if !ok || !c.requireAny(gs, guildkit.PermissionManageGuild|guildkit.PermissionViewAuditLog) {
		return
	}
	withMeta := gs.permissions(c.user).Has(guildkit.PermissionManageGuild)
	var states []*inviteState
	for _, is := range s.invites {
		if is.guildID == gs.guild.ID {
			states = append(states, is)
		}
	}
	slices.SortFunc(states, func(a, b *inviteState) int {
		return cmp.Or(a.invite.CreatedAt.Compare(*b.invite.CreatedAt), strings.Compare(a.invite.Code, b.invite.Code))
	})
	out := make([]guildkit.Invite, 0, len(states))
	for _, is := range states {
		out = append(out, s.inviteJSON(is, withMeta))
	}
	c.json(http.StatusOK, out)
}

// MaxIntegrations is how many integrations Get Guild Integrations returns;
// the rest cannot be reached.
const MaxIntegrations = 50

// AddIntegration adds an integration to a guild and returns it. A zero ID
// gets a fresh one; an empty Account gets the integration's id and name.
// A guild can hold more than [MaxIntegrations]; only that many are listed.
func (s *Server) AddIntegration(guildID guildkit.Snowflake, in guildkit.Integration) guildkit.Integration {
	s.mu.Lock()
	defer s.mu.Unlock()
	gs := s.mustGuild(guildID)
	if in.ID == 0 {
		in.ID = s.newID()
	}
	if in.Type == "" {
		in.Type = guildkit.IntegrationTypeBot
	}
	if in.Account == (guildkit.IntegrationAccount{}) {
		in.Account = guildkit.IntegrationAccount{ID: in.ID.String(), Name: in.Name}
	}
	cp := copyIntegration(in)
	gs.settings.integrations[in.ID] = &cp
	return copyIntegration(in)
}

// Integrations returns a guild's integrations by id, all of them.
func (s *Server) Integrations(guildID guildkit.Snowflake) []guildkit.Integration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return sortedIntegrations(s.mustGuild(guildID))
}

func sortedIntegrations(gs *guildState) []guildkit.Integration {
	out := make([]guildkit.Integration, 0, len(gs.settings.integrations))
	for _, in := range gs.settings.integrations {
		out = append(out, copyIntegration(*in))
	}
	slices.SortFunc(out, func(a, b guildkit.Integration) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

func copyIntegration(in guildkit.Integration) guildkit.Integration {
	in.Scopes = slices.Clone(in.Scopes)
	if in.Application != nil {
		a := *in.Application
		in.Application = &a
	}
	if in.User != nil {
		u := *in.User
		in.User = &u
	}
	return in
}

// listIntegrations: Get Guild Integrations, the first 50 by id.
func (s *Server) listIntegrations(c *call) {
	gs, ok := c.guild()
	if !ok || !c.require(gs, guildkit.PermissionManageGuild) {
		return
	}
	out := sortedIntegrations(gs)
	c.json(http.StatusOK, out[:min(len(out), MaxIntegrations)])
}

// GuildIntegrationsUpdate is the data of a GUILD_INTEGRATIONS_UPDATE event.
type GuildIntegrationsUpdate struct {
	GuildID guildkit.Snowflake `json:"guild_id"`
}

// IntegrationDelete is the data of an INTEGRATION_DELETE event.
type IntegrationDelete struct {
	ID            guildkit.Snowflake  `json:"id"`
	GuildID       guildkit.Snowflake  `json:"guild_id"`
	ApplicationID *guildkit.Snowflake `json:"application_id,omitempty"`
}

// deleteIntegration: Delete Guild Integration. It kicks the integration's
// bot (emitting GUILD_MEMBER_REMOVE with the member) and emits
// GUILD_INTEGRATIONS_UPDATE and INTEGRATION_DELETE. The integration's
// webhooks are not tracked by this server.
func (s *Server) deleteIntegration(c *call) {
	gs, ok := c.guild()
	if !ok || !c.require(gs, guildkit.PermissionManageGuild) {
		return
	}
	id, ok := c.id("integration_id", guildkit.CodeUnknownIntegration, "Integration")
	if !ok {
		return
	}
	in, ok := gs.settings.integrations[id]
	if !ok {
		c.error(http.StatusNotFound, guildkit.CodeUnknownIntegration, "Unknown Integration")
		return
	}
	delete(gs.settings.integrations, id)
	gid := gs.guild.ID
	var appID *guildkit.Snowflake
	if in.Application != nil {
		app := in.Application.ID
		appID = &app
		if bot := in.Application.Bot; bot != nil && bot.ID != gs.guild.OwnerID {
			if ms, ok := gs.members[bot.ID]; ok {
				delete(gs.members, bot.ID)
				s.emit(guildkit.EventGuildMemberRemove, gid, copyMember(ms.member))
			}
		}
	}
	if appID != nil {
		s.deleteApplicationWebhooksLocked(gid, *appID)
	}
	s.emit(guildkit.EventGuildIntegrationsUpdate, gid, GuildIntegrationsUpdate{GuildID: gid})
	s.emit(guildkit.EventIntegrationDelete, gid, IntegrationDelete{ID: id, GuildID: gid, ApplicationID: appID})
	c.noContent()
}

func widgetSettings(g *guildkit.Guild) guildkit.GuildWidgetSettings {
	ws := guildkit.GuildWidgetSettings{Enabled: g.WidgetEnabled != nil && *g.WidgetEnabled}
	if id, ok := g.WidgetChannelID.Get(); ok {
		ws.ChannelID = &id
	}
	return ws
}

// getWidgetSettings: Get Guild Widget Settings.
func (s *Server) getWidgetSettings(c *call) {
	gs, ok := c.guild()
	if !ok || !c.require(gs, guildkit.PermissionManageGuild) {
		return
	}
	c.json(http.StatusOK, widgetSettings(&gs.guild))
}

// modifyWidget: Modify Guild Widget; emits GUILD_UPDATE.
func (s *Server) modifyWidget(c *call) {
	gs, ok := c.guild()
	if !ok || !c.require(gs, guildkit.PermissionManageGuild) {
		return
	}
	var p guildkit.GuildWidgetModifyParams
	if !c.decode(&p) {
		return
	}
	problems := map[string]string{}
	if p.Enabled.IsNull() {
		problems["enabled"] = "This field is required"
	}
	if id, ok := p.ChannelID.Get(); ok {
		if ch, ok := gs.channels[id]; !ok || ch.Type.IsThread() {
			problems["channel_id"] = "Unknown channel"
		}
	}
	if len(problems) > 0 {
		c.formError(problems)
		return
	}
	if e, ok := p.Enabled.Get(); ok {
		gs.guild.WidgetEnabled = &e
	}
	if !p.ChannelID.IsZero() {
		gs.guild.WidgetChannelID = p.ChannelID
	}
	s.emit(guildkit.EventGuildUpdate, gs.guild.ID, s.guildJSON(gs))
	c.json(http.StatusOK, widgetSettings(&gs.guild))
}

// widgetGuild resolves the guild of a widget route, which needs no
// membership: 404 for an unknown guild, 403 Widget Disabled when the widget
// is off.
func (c *call) widgetGuild() (*guildState, bool) {
	gs, ok := c.guild()
	if !ok {
		return nil, false
	}
	if gs.guild.WidgetEnabled == nil || !*gs.guild.WidgetEnabled {
		c.error(http.StatusForbidden, guildkit.CodeWidgetDisabled, "Widget Disabled")
		return nil, false
	}
	return gs, true
}

// MaxWidgetMembers is how many members the widget lists at most.
const MaxWidgetMembers = 100

// getWidget: Get Guild Widget. It needs no authentication. The channels are
// the voice and stage channels @everyone can view; the members are the
// online ones, by user id, anonymised (id is the index, discriminator
// "0000", no avatar). With a widget channel, the widget's invite is made
// when it does not exist (INVITE_CREATE) and its URL is
// URL + "/invite/" + code.
func (s *Server) getWidget(c *call) {
	gs, ok := c.widgetGuild()
	if !ok {
		return
	}
	g := &gs.guild
	w := guildkit.GuildWidget{ID: g.ID, Name: g.Name, Channels: []guildkit.WidgetChannel{}, Members: []guildkit.WidgetMember{}}
	for _, ch := range gs.sortedChannels() {
		if (ch.Type == guildkit.ChannelTypeGuildVoice || ch.Type == guildkit.ChannelTypeGuildStageVoice) &&
			gs.everyoneCan(&ch, guildkit.PermissionViewChannel) {
			w.Channels = append(w.Channels, guildkit.WidgetChannel{ID: ch.ID, Name: ch.Name, Position: ch.Position})
		}
	}
	var online []*memberState
	for _, ms := range gs.members {
		if ms.online {
			online = append(online, ms)
		}
	}
	slices.SortFunc(online, func(a, b *memberState) int { return cmp.Compare(a.member.User.ID, b.member.User.ID) })
	w.PresenceCount = len(online)
	for i, ms := range online[:min(len(online), MaxWidgetMembers)] {
		name := ms.member.User.Username
		if ms.member.Nick != nil {
			name = *ms.member.Nick
		}
		w.Members = append(w.Members, guildkit.WidgetMember{
			ID: fmt.Sprint(i), Username: name, Discriminator: "0000", Status: "online",
			AvatarURL: fmt.Sprintf("%s/widget-avatars/%d.png", s.URL, i),
		})
	}
	if chID, ok := g.WidgetChannelID.Get(); ok {
		if _, exists := gs.channels[chID]; exists {
			is, ok := s.invites[gs.settings.widgetInvite]
			if !ok || is.channelID != chID {
				inv := s.addInviteLocked(gs, chID, 0, guildkit.Invite{})
				gs.settings.widgetInvite = inv.Code
				s.emit(guildkit.EventInviteCreate, g.ID, inv)
			}
			url := s.URL + "/invite/" + gs.settings.widgetInvite
			w.InstantInvite = &url
		}
	}
	c.json(http.StatusOK, w)
}

// getVanityURL: Get Guild Vanity URL.
func (s *Server) getVanityURL(c *call) {
	gs, ok := c.guild()
	if !ok || !c.require(gs, guildkit.PermissionManageGuild) {
		return
	}
	c.json(http.StatusOK, guildkit.GuildVanityURL{Code: gs.guild.VanityURLCode, Uses: gs.settings.vanityUses})
}

// SetVanityURL sets a guild's vanity invite code ("" removes it) and how
// many times it was used.
func (s *Server) SetVanityURL(guildID guildkit.Snowflake, code string, uses int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	gs := s.mustGuild(guildID)
	gs.guild.VanityURLCode = nil
	if code != "" {
		gs.guild.VanityURLCode = &code
	}
	gs.settings.vanityUses = uses
}

func copyWelcome(w guildkit.WelcomeScreen) guildkit.WelcomeScreen {
	w.WelcomeChannels = slices.Clone(w.WelcomeChannels)
	return w
}

// WelcomeScreen returns a guild's welcome screen and whether it is enabled
// (the WELCOME_SCREEN_ENABLED feature).
func (s *Server) WelcomeScreen(guildID guildkit.Snowflake) (guildkit.WelcomeScreen, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	gs := s.mustGuild(guildID)
	return copyWelcome(gs.settings.welcome), gs.guild.HasFeature(guildkit.FeatureWelcomeScreenEnabled)
}

// getWelcomeScreen: Get Guild Welcome Screen; MANAGE_GUILD while it is not
// enabled.
func (s *Server) getWelcomeScreen(c *call) {
	gs, ok := c.guild()
	if !ok {
		return
	}
	if !gs.guild.HasFeature(guildkit.FeatureWelcomeScreenEnabled) && !c.require(gs, guildkit.PermissionManageGuild) {
		return
	}
	c.json(http.StatusOK, copyWelcome(gs.settings.welcome))
}

// modifyWelcomeScreen: Modify Guild Welcome Screen. enabled toggles the
// WELCOME_SCREEN_ENABLED feature; when it changes, GUILD_UPDATE is emitted.
func (s *Server) modifyWelcomeScreen(c *call) {
	gs, ok := c.guild()
	if !ok || !c.require(gs, guildkit.PermissionManageGuild) {
		return
	}
	var p guildkit.GuildWelcomeScreenModifyParams
	if !c.decode(&p) {
		return
	}
	problems := map[string]string{}
	w := copyWelcome(gs.settings.welcome)
	if !p.WelcomeChannels.IsZero() {
		chs, _ := p.WelcomeChannels.Get()
		if len(chs) > guildkit.MaxWelcomeChannels {
			problems["welcome_channels"] = "Must be 5 or fewer in length."
		}
		for i, wc := range chs {
			if ch, ok := gs.channels[wc.ChannelID]; !ok || ch.Type.IsThread() {
				problems[fmt.Sprintf("welcome_channels.%d.channel_id", i)] = "Unknown channel"
			}
		}
		w.WelcomeChannels = append([]guildkit.WelcomeChannel{}, chs...)
	}
	if !p.Description.IsZero() {
		w.Description = ptrOf(p.Description)
	}
	if len(problems) > 0 {
		c.formError(problems)
		return
	}
	gs.settings.welcome = w
	if !p.Enabled.IsZero() {
		on := p.Enabled.Or(false)
		if on != gs.guild.HasFeature(guildkit.FeatureWelcomeScreenEnabled) {
			if on {
				gs.guild.Features = append(gs.guild.Features, guildkit.FeatureWelcomeScreenEnabled)
			} else {
				gs.guild.Features = slices.DeleteFunc(slices.Clone(gs.guild.Features), func(f guildkit.GuildFeature) bool {
					return f == guildkit.FeatureWelcomeScreenEnabled
				})
			}
			s.emit(guildkit.EventGuildUpdate, gs.guild.ID, s.guildJSON(gs))
		}
	}
	c.json(http.StatusOK, copyWelcome(w))
}

func copyOnboarding(o guildkit.Onboarding) guildkit.Onboarding {
	o.DefaultChannelIDs = slices.Clone(o.DefaultChannelIDs)
	o.Prompts = slices.Clone(o.Prompts)
	for i := range o.Prompts {
		o.Prompts[i].Options = slices.Clone(o.Prompts[i].Options)
	}
	return o
}

// Onboarding returns a guild's onboarding as the server holds it.
func (s *Server) Onboarding(guildID guildkit.Snowflake) guildkit.Onboarding {
	s.mu.Lock()
	defer s.mu.Unlock()
	return copyOnboarding(s.mustGuild(guildID).settings.onboarding)
}

// getOnboarding: Get Guild Onboarding.
func (s *Server) getOnboarding(c *call) {
	gs, ok := c.guild()
	if !ok {
		return
	}
	c.json(http.StatusOK, copyOnboarding(gs.settings.onboarding))
}

// Onboarding limits: enabling needs MinOnboardingDefaultChannels default
// channels of which MinOnboardingWritableChannels let @everyone send
// messages.
const (
	MinOnboardingDefaultChannels  = 7
	MinOnboardingWritableChannels = 5
)

// modifyOnboarding: Modify Guild Onboarding. Prompts and options without an
// id get one; the input emoji fields become an emoji object. With enabled
// true, the channels that count (the default channels; in advanced mode also
// the channels of the prompts' options) must be at least 7, and at least 5
// of them must let @everyone send messages (role permissions and the
// channel's @everyone overwrite).
func (s *Server) modifyOnboarding(c *call) {
	gs, ok := c.guild()
	if !ok || !c.require(gs, guildkit.PermissionManageGuild|guildkit.PermissionManageRoles) {
		return
	}
	var p guildkit.GuildOnboardingModifyParams
	if !c.decode(&p) {
		return
	}
	problems := map[string]string{}
	for name, null := range map[string]bool{
		"prompts": p.Prompts.IsNull(), "default_channel_ids": p.DefaultChannelIDs.IsNull(),
		"enabled": p.Enabled.IsNull(), "mode": p.Mode.IsNull(),
	} {
		if null {
			problems[name] = "This field is required"
		}
	}
	o := copyOnboarding(gs.settings.onboarding)
	checkChannels := func(path string, ids []guildkit.Snowflake) {
		for i, id := range ids {
			if ch, ok := gs.channels[id]; !ok || ch.Type.IsThread() {
				problems[fmt.Sprintf("%s.%d", path, i)] = "Unknown channel"
			}
		}
	}
	if ids, ok := p.DefaultChannelIDs.Get(); ok {
		checkChannels("default_channel_ids", ids)
		o.DefaultChannelIDs = append([]guildkit.Snowflake{}, ids...)
	}
	if m, ok := p.Mode.Get(); ok {
		if m != guildkit.OnboardingDefault && m != guildkit.OnboardingAdvanced {
			problems["mode"] = "Value must be one of {0, 1}."
		}
		o.Mode = m
	}
	if e, ok := p.Enabled.Get(); ok {
		o.Enabled = e
	}
	if prompts, ok := p.Prompts.Get(); ok {
		o.Prompts = make([]guildkit.OnboardingPrompt, 0, len(prompts))
		for i, pp := range prompts {
			at := fmt.Sprintf("prompts.%d", i)
			if strings.TrimSpace(pp.Title) == "" {
				problems[at+".title"] = "This field is required"
			}
			if len(pp.Options) == 0 {
				problems[at+".options"] = "Must be at least 1 in length."
			}
			pr := guildkit.OnboardingPrompt{
				ID: pp.ID.Or(0), Type: pp.Type, Title: pp.Title, SingleSelect: pp.SingleSelect.Or(false),
				Required: pp.Required.Or(false), InOnboarding: pp.InOnboarding.Or(true),
				Options: make([]guildkit.OnboardingPromptOption, 0, len(pp.Options)),
			}
			if pr.ID == 0 {
				pr.ID = s.newID()
			}
			for j, po := range pp.Options {
				oat := fmt.Sprintf("%s.options.%d", at, j)
				opt := guildkit.OnboardingPromptOption{
					ID: po.ID.Or(0), ChannelIDs: po.ChannelIDs.Or([]guildkit.Snowflake{}),
					RoleIDs: po.RoleIDs.Or([]guildkit.Snowflake{}), Title: po.Title, Description: ptrOf(po.Description),
				}
				if opt.ID == 0 {
					opt.ID = s.newID()
				}
				checkChannels(oat+".channel_ids", opt.ChannelIDs)
				for k, r := range opt.RoleIDs {
					if _, ok := gs.roles[r]; !ok {
						problems[fmt.Sprintf("%s.role_ids.%d", oat, k)] = "Unknown role"
					}
				}
				if po.EmojiID.IsSet() || po.EmojiName.IsSet() {
					opt.Emoji = &guildkit.Emoji{ID: ptrOf(po.EmojiID), Name: ptrOf(po.EmojiName), Animated: ptrOf(po.EmojiAnimated)}
				}
				pr.Options = append(pr.Options, opt)
			}
			o.Prompts = append(o.Prompts, pr)
		}
	}
	if len(problems) == 0 && o.Enabled {
		total, writable := gs.onboardingChannels(&o)
		if total < MinOnboardingDefaultChannels || writable < MinOnboardingWritableChannels {
			problems["default_channel_ids"] = fmt.Sprintf(
				"Onboarding needs at least %d default channels, %d of them writable by @everyone; got %d, %d writable",
				MinOnboardingDefaultChannels, MinOnboardingWritableChannels, total, writable)
		}
	}
	if len(problems) > 0 {
		c.formError(problems)
		return
	}
	gs.settings.onboarding = o
	c.json(http.StatusOK, copyOnboarding(o))
}

// onboardingChannels counts the distinct channels that count toward the
// onboarding constraints in o's mode, and those @everyone can send
// messages in.
func (gs *guildState) onboardingChannels(o *guildkit.Onboarding) (total, writable int) {
	ids := slices.Clone(o.DefaultChannelIDs)
	if o.Mode == guildkit.OnboardingAdvanced {
		for _, p := range o.Prompts {
			for _, opt := range p.Options {
				ids = append(ids, opt.ChannelIDs...)
			}
		}
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	for _, id := range ids {
		if ch, ok := gs.channels[id]; ok {
			total++
			if gs.everyoneCan(ch, guildkit.PermissionSendMessages) {
				writable++
			}
		}
	}
	return total, writable
}

// everyoneCan reports whether @everyone holds perm in ch: the @everyone
// role's permissions with the channel's @everyone overwrite applied.
func (gs *guildState) everyoneCan(ch *guildkit.Channel, perm guildkit.Permissions) bool {
	p := gs.roles[gs.guild.ID].Permissions
	if p.Has(guildkit.PermissionAdministrator) {
		return true
	}
	for _, ow := range ch.PermissionOverwrites {
		if ow.Type == guildkit.OverwriteTypeRole && ow.ID == gs.guild.ID {
			p = p&^ow.Deny | ow.Allow
		}
	}
	return p.Has(perm)
}

// modifyIncidentActions: Modify Guild Incident Actions. A time more than 24
// hours after the server's clock is refused; null lifts the action; an
// omitted field is left as it is.
func (s *Server) modifyIncidentActions(c *call) {
	gs, ok := c.guild()
	if !ok || !c.require(gs, guildkit.PermissionManageGuild) {
		return
	}
	var p guildkit.GuildIncidentActionsModifyParams
	if !c.decode(&p) {
		return
	}
	var data guildkit.IncidentsData
	if gs.guild.IncidentsData != nil {
		data = *gs.guild.IncidentsData
	}
	limit := s.now().Add(guildkit.MaxIncidentActionDuration)
	problems := map[string]string{}
	for _, f := range []struct {
		name string
		in   guildkit.Opt[time.Time]
		out  **time.Time
	}{
		{"invites_disabled_until", p.InvitesDisabledUntil, &data.InvitesDisabledUntil},
		{"dms_disabled_until", p.DMsDisabledUntil, &data.DMsDisabledUntil},
	} {
		if f.in.IsZero() {
			continue
		}
		if t, ok := f.in.Get(); ok && t.After(limit) {
			problems[f.name] = "Must be at most 24 hours in the future"
		}
		*f.out = ptrOf(f.in)
	}
	if len(problems) > 0 {
		c.formError(problems)
		return
	}
	gs.guild.IncidentsData = &data
	c.json(http.StatusOK, data)
}

// widgetImageStyle is how the server draws one widget image style: its
// size and colours.
type widgetImageStyle struct {
	w, h       int
	background color.RGBA
	accent     color.RGBA
	icon       bool // draws a square for the guild icon
}

var widgetImageStyles = map[guildkit.WidgetStyle]widgetImageStyle{
	guildkit.WidgetStyleShield:  {w: 120, h: 20, background: color.RGBA{0x55, 0x55, 0x55, 0xff}, accent: color.RGBA{0x72, 0x89, 0xda, 0xff}},
	guildkit.WidgetStyleBanner1: {w: 320, h: 76, background: color.RGBA{0x72, 0x89, 0xda, 0xff}, accent: color.RGBA{0xff, 0xff, 0xff, 0xff}, icon: true},
	guildkit.WidgetStyleBanner2: {w: 320, h: 82, background: color.RGBA{0x2c, 0x2f, 0x33, 0xff}, accent: color.RGBA{0x72, 0x89, 0xda, 0xff}, icon: true},
	guildkit.WidgetStyleBanner3: {w: 320, h: 100, background: color.RGBA{0x23, 0x27, 0x2a, 0xff}, accent: color.RGBA{0x43, 0xb5, 0x81, 0xff}, icon: true},
	guildkit.WidgetStyleBanner4: {w: 320, h: 160, background: color.RGBA{0x99, 0xaa, 0xb5, 0xff}, accent: color.RGBA{0x2c, 0x2f, 0x33, 0xff}, icon: true},
}

// getWidgetImage: Get Guild Widget Image, with no authentication. It draws
// a PNG whose size and colours depend on the style (shield 120x20, banner1
// 320x76, banner2 320x82, banner3 320x100, banner4 320x160), with one small
// block per online member (up to 20) and, on banners, a square for the
// icon.
func (s *Server) getWidgetImage(c *call) {
	gs, ok := c.widgetGuild()
	if !ok {
		return
	}
	style := guildkit.WidgetStyle(c.r.URL.Query().Get("style"))
	if style == "" {
		style = guildkit.WidgetStyleShield
	}
	st, ok := widgetImageStyles[style]
	if !ok {
		c.formError(map[string]string{"style": "Value must be one of ('shield', 'banner1', 'banner2', 'banner3', 'banner4')."})
		return
	}
	_, online := gs.counts()
	img := image.NewRGBA(image.Rect(0, 0, st.w, st.h))
	draw.Draw(img, img.Bounds(), &image.Uniform{st.background}, image.Point{}, draw.Src)
	x := 4
	if st.icon {
		side := st.h - 8
		draw.Draw(img, image.Rect(4, 4, 4+side, 4+side), &image.Uniform{st.accent}, image.Point{}, draw.Src)
		x += side + 4
	}
	for i := range min(online, 20) {
		bx := x + i*6
		draw.Draw(img, image.Rect(bx, st.h-8, bx+4, st.h-4), &image.Uniform{st.accent}, image.Point{}, draw.Src)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		c.error(http.StatusInternalServerError, guildkit.CodeGeneral, err.Error())
		return
	}
	c.status = http.StatusOK
	c.w.Header().Set("Content-Type", "image/png")
	c.w.Header().Set("Content-Length", fmt.Sprint(buf.Len()))
	c.w.WriteHeader(http.StatusOK)
	_, _ = c.w.Write(buf.Bytes())
}
