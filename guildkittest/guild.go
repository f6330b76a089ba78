package guildkittest

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"slices"
	"strings"
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
	reg("PATCH /guilds/{guild_id}", authRequired, s.modifyGuild, bodyLimit(MaxImageBody))
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
// DISCOVERABLE guild; any other answers 403 Missing Access, and a guild that
// does not exist 404 Unknown Guild, as the reference platform does.
func (s *Server) getGuildPreview(c *call) {
	id, ok := c.id("guild_id", guildkit.CodeUnknownGuild, "Guild")
	if !ok {
		return
	}
	gs, ok := s.guilds[id]
	if !ok {
		c.error(http.StatusNotFound, guildkit.CodeUnknownGuild, "Unknown Guild")
		return
	}
	if _, member := gs.members[c.user]; !member && !gs.guild.HasFeature(guildkit.FeatureDiscoverable) {
		c.error(http.StatusForbidden, guildkit.CodeMissingAccess, "Missing Access")
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
		HomeHeader: ptrOf(g.HomeHeader),
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
