package guildkit

import (
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/seed012df1e9/guildkit/wire"
)

// GuildService handles the operations on a guild and its settings: the guild
// itself, voice regions, invites, integrations, the widget, the vanity URL,
// the welcome screen, onboarding and incident actions. Reach it through
// [Client].Guilds.
type GuildService service

// Guild is a guild: an isolated collection of users and channels, shown to
// people as a server.
//
// Fields that the interface marks both optional and nullable are [Opt]s, so
// that absent, null and a value stay apart; nullable fields are pointers.
type Guild struct {
	ID   Snowflake `json:"id"`
	Name string    `json:"name"` // 2-100 characters
	Icon *string   `json:"icon"` // icon hash; nil when null
	// IconHash is returned inside the template object. Zero Opt when absent, Null when null.
	IconHash        Opt[string] `json:"icon_hash,omitzero"`
	Splash          *string     `json:"splash"`           // nil when null
	DiscoverySplash *string     `json:"discovery_splash"` // only for DISCOVERABLE guilds; nil when null
	// Owner is whether the requesting user owns the guild; only from the
	// current user's guild list. Nil when absent.
	Owner   *bool     `json:"owner,omitempty"`
	OwnerID Snowflake `json:"owner_id"`
	// Permissions are the requesting user's permissions (overwrites and
	// implicit ones excluded); only from the current user's guild list. Nil when absent.
	Permissions *Permissions `json:"permissions,omitempty"`
	// Region is deprecated: channels carry rtc_region instead. Zero Opt when absent, Null when null.
	Region        Opt[string] `json:"region,omitzero"`
	AFKChannelID  *Snowflake  `json:"afk_channel_id"`           // nil when null
	AFKTimeout    int         `json:"afk_timeout"`              // seconds
	WidgetEnabled *bool       `json:"widget_enabled,omitempty"` // nil when absent
	// WidgetChannelID is the channel the widget makes invites to; Null means
	// no invite. Zero Opt when absent, Null when null.
	WidgetChannelID             Opt[Snowflake]                  `json:"widget_channel_id,omitzero"`
	VerificationLevel           VerificationLevel               `json:"verification_level"`
	DefaultMessageNotifications DefaultMessageNotificationLevel `json:"default_message_notifications"`
	ExplicitContentFilter       ExplicitContentFilterLevel      `json:"explicit_content_filter"`
	Roles                       []Role                          `json:"roles"`
	Emojis                      []Emoji                         `json:"emojis"`
	Features                    []GuildFeature                  `json:"features"`
	MFALevel                    MFALevel                        `json:"mfa_level"`
	ApplicationID               *Snowflake                      `json:"application_id"`    // creator application, if bot-created; nil when null
	SystemChannelID             *Snowflake                      `json:"system_channel_id"` // nil when null
	SystemChannelFlags          SystemChannelFlags              `json:"system_channel_flags"`
	RulesChannelID              *Snowflake                      `json:"rules_channel_id"` // nil when null
	// MaxPresences is null except for the very largest guilds. Zero Opt when absent, Null when null.
	MaxPresences              Opt[int]       `json:"max_presences,omitzero"`
	MaxMembers                *int           `json:"max_members,omitempty"` // nil when absent
	VanityURLCode             *string        `json:"vanity_url_code"`       // nil when null
	Description               *string        `json:"description"`           // nil when null
	Banner                    *string        `json:"banner"`                // nil when null
	PremiumTier               PremiumTier    `json:"premium_tier"`
	PremiumSubscriptionCount  *int           `json:"premium_subscription_count,omitempty"`    // nil when absent
	PreferredLocale           string         `json:"preferred_locale"`                        // defaults to en-US
	PublicUpdatesChannelID    *Snowflake     `json:"public_updates_channel_id"`               // nil when null
	MaxVideoChannelUsers      *int           `json:"max_video_channel_users,omitempty"`       // nil when absent
	MaxStageVideoChannelUsers *int           `json:"max_stage_video_channel_users,omitempty"` // nil when absent
	ApproximateMemberCount    *int           `json:"approximate_member_count,omitempty"`      // with GuildGetParams.WithCounts; nil when absent
	ApproximatePresenceCount  *int           `json:"approximate_presence_count,omitempty"`    // non-offline members; with WithCounts; nil when absent
	WelcomeScreen             *WelcomeScreen `json:"welcome_screen,omitempty"`                // inside an invite's guild; nil when absent
	NSFWLevel                 NSFWLevel      `json:"nsfw_level"`
	Stickers                  []Sticker      `json:"stickers,omitzero"`
	// NSFW says whether the guild is age-restricted as a whole (the
	// reference platform's field).
	NSFW bool `json:"nsfw"`
	// HomeHeader is the hash of the guild's home header image (the reference
	// platform's field); zero Opt when absent, Null when null.
	HomeHeader                Opt[string]    `json:"home_header,omitzero"`
	PremiumProgressBarEnabled bool           `json:"premium_progress_bar_enabled"`
	SafetyAlertsChannelID     *Snowflake     `json:"safety_alerts_channel_id"` // nil when null
	IncidentsData             *IncidentsData `json:"incidents_data"`           // nil when null
}

// HasFeature reports whether the guild has feature f enabled.
func (g *Guild) HasFeature(f GuildFeature) bool {
	for _, x := range g.Features {
		if x == f {
			return true
		}
	}
	return false
}

// UnavailableGuild is a guild that is offline or whose data has not arrived.
type UnavailableGuild struct {
	ID          Snowflake `json:"id"`
	Unavailable bool      `json:"unavailable"`
}

// Emoji is a custom emoji. The interface uses the emoji object without
// listing its fields; these are the reference platform's.
type Emoji struct {
	ID            *Snowflake  `json:"id"`   // nil when null
	Name          *string     `json:"name"` // nil when null
	Roles         []Snowflake `json:"roles,omitzero"`
	User          *User       `json:"user,omitempty"`           // nil when absent
	RequireColons *bool       `json:"require_colons,omitempty"` // nil when absent
	Managed       *bool       `json:"managed,omitempty"`        // nil when absent
	Animated      *bool       `json:"animated,omitempty"`       // nil when absent
	Available     *bool       `json:"available,omitempty"`      // nil when absent
}

// Sticker is a guild sticker; fields as the reference platform's.
type Sticker struct {
	ID          Snowflake  `json:"id"`
	PackID      *Snowflake `json:"pack_id,omitempty"` // nil when absent
	Name        string     `json:"name"`
	Description *string    `json:"description"` // nil when null
	Tags        string     `json:"tags"`
	Type        int        `json:"type"`
	FormatType  int        `json:"format_type"`
	Available   *bool      `json:"available,omitempty"`  // nil when absent
	GuildID     *Snowflake `json:"guild_id,omitempty"`   // nil when absent
	User        *User      `json:"user,omitempty"`       // nil when absent
	SortValue   *int       `json:"sort_value,omitempty"` // nil when absent
}

// DefaultMessageNotificationLevel says which messages notify members by default.
type DefaultMessageNotificationLevel int

// Default message notification levels.
const (
	NotifyAllMessages  DefaultMessageNotificationLevel = 0
	NotifyOnlyMentions DefaultMessageNotificationLevel = 1
)

func (l DefaultMessageNotificationLevel) String() string {
	return enumString("DefaultMessageNotificationLevel", []string{"ALL_MESSAGES", "ONLY_MENTIONS"}, int(l))
}

// ExplicitContentFilterLevel says whose media is scanned.
type ExplicitContentFilterLevel int

// Explicit content filter levels.
const (
	ExplicitContentFilterDisabled            ExplicitContentFilterLevel = 0 // no scanning
	ExplicitContentFilterMembersWithoutRoles ExplicitContentFilterLevel = 1 // media from members without roles
	ExplicitContentFilterAllMembers          ExplicitContentFilterLevel = 2 // every member's media
)

func (l ExplicitContentFilterLevel) String() string {
	return enumString("ExplicitContentFilterLevel", []string{"DISABLED", "MEMBERS_WITHOUT_ROLES", "ALL_MEMBERS"}, int(l))
}

// MFALevel says whether moderation actions need two-factor authentication.
type MFALevel int

// MFA levels.
const (
	MFALevelNone     MFALevel = 0 // no 2FA requirement for moderation actions
	MFALevelElevated MFALevel = 1 // 2FA required for moderation actions
)

func (l MFALevel) String() string {
	return enumString("MFALevel", []string{"NONE", "ELEVATED"}, int(l))
}

// VerificationLevel is what members must meet before they can take part.
type VerificationLevel int

// Verification levels.
const (
	VerificationLevelNone     VerificationLevel = 0 // unrestricted
	VerificationLevelLow      VerificationLevel = 1 // verified e-mail on the account
	VerificationLevelMedium   VerificationLevel = 2 // registered longer than 5 minutes
	VerificationLevelHigh     VerificationLevel = 3 // member of the guild longer than 10 minutes
	VerificationLevelVeryHigh VerificationLevel = 4 // verified phone number
)

func (l VerificationLevel) String() string {
	return enumString("VerificationLevel", []string{"NONE", "LOW", "MEDIUM", "HIGH", "VERY_HIGH"}, int(l))
}

// NSFWLevel is the guild's age-restriction level.
type NSFWLevel int

// Guild age-restriction levels.
const (
	NSFWLevelDefault       NSFWLevel = 0
	NSFWLevelExplicit      NSFWLevel = 1
	NSFWLevelSafe          NSFWLevel = 2
	NSFWLevelAgeRestricted NSFWLevel = 3
)

func (l NSFWLevel) String() string {
	return enumString("NSFWLevel", []string{"DEFAULT", "EXPLICIT", "SAFE", "AGE_RESTRICTED"}, int(l))
}

// PremiumTier is the guild's boost level.
type PremiumTier int

// Premium tiers.
const (
	PremiumTierNone PremiumTier = 0
	PremiumTier1    PremiumTier = 1
	PremiumTier2    PremiumTier = 2
	PremiumTier3    PremiumTier = 3
)

func (t PremiumTier) String() string {
	return enumString("PremiumTier", []string{"NONE", "TIER_1", "TIER_2", "TIER_3"}, int(t))
}

// SystemChannelFlags is the bit set of notices the system channel leaves out.
type SystemChannelFlags int

// System channel flags.
const (
	SystemChannelSuppressJoinNotifications                           SystemChannelFlags = 1 << 0 // no join notices
	SystemChannelSuppressPremiumSubscriptions                        SystemChannelFlags = 1 << 1 // no boost notices
	SystemChannelSuppressGuildReminderNotifications                  SystemChannelFlags = 1 << 2 // no setup tips
	SystemChannelSuppressJoinNotificationReplies                     SystemChannelFlags = 1 << 3 // no sticker reply buttons on join notices
	SystemChannelSuppressRoleSubscriptionPurchaseNotifications       SystemChannelFlags = 1 << 4 // no role-subscription purchase notices
	SystemChannelSuppressRoleSubscriptionPurchaseNotificationReplies SystemChannelFlags = 1 << 5 // no sticker reply buttons on them
)

var systemChannelFlagNames = []string{
	"SUPPRESS_JOIN_NOTIFICATIONS", "SUPPRESS_PREMIUM_SUBSCRIPTIONS", "SUPPRESS_GUILD_REMINDER_NOTIFICATIONS",
	"SUPPRESS_JOIN_NOTIFICATION_REPLIES", "SUPPRESS_ROLE_SUBSCRIPTION_PURCHASE_NOTIFICATIONS",
	"SUPPRESS_ROLE_SUBSCRIPTION_PURCHASE_NOTIFICATION_REPLIES",
}

// Has reports whether f holds every flag in g.
func (f SystemChannelFlags) Has(g SystemChannelFlags) bool { return f&g == g }

func (f SystemChannelFlags) String() string { return flagString(systemChannelFlagNames, uint64(f)) }

// GuildFeature is a feature string of a guild.
type GuildFeature string

// Guild features the interface documents.
const (
	FeatureAnimatedBanner                        GuildFeature = "ANIMATED_BANNER"
	FeatureAnimatedIcon                          GuildFeature = "ANIMATED_ICON"
	FeatureApplicationCommandPermissionsV2       GuildFeature = "APPLICATION_COMMAND_PERMISSIONS_V2"
	FeatureAutoModeration                        GuildFeature = "AUTO_MODERATION"
	FeatureBanner                                GuildFeature = "BANNER"
	FeatureCommunity                             GuildFeature = "COMMUNITY"
	FeatureCreatorMonetizableProvisional         GuildFeature = "CREATOR_MONETIZABLE_PROVISIONAL"
	FeatureCreatorStorePage                      GuildFeature = "CREATOR_STORE_PAGE"
	FeatureDeveloperSupportServer                GuildFeature = "DEVELOPER_SUPPORT_SERVER"
	FeatureDiscoverable                          GuildFeature = "DISCOVERABLE"
	FeatureFeaturable                            GuildFeature = "FEATURABLE"
	FeatureInvitesDisabled                       GuildFeature = "INVITES_DISABLED"
	FeatureInviteSplash                          GuildFeature = "INVITE_SPLASH"
	FeatureMemberVerificationGateEnabled         GuildFeature = "MEMBER_VERIFICATION_GATE_ENABLED"
	FeatureMoreSoundboard                        GuildFeature = "MORE_SOUNDBOARD"
	FeatureMoreStickers                          GuildFeature = "MORE_STICKERS"
	FeatureNews                                  GuildFeature = "NEWS"
	FeaturePartnered                             GuildFeature = "PARTNERED"
	FeaturePreviewEnabled                        GuildFeature = "PREVIEW_ENABLED"
	FeatureRaidAlertsDisabled                    GuildFeature = "RAID_ALERTS_DISABLED"
	FeatureRoleIcons                             GuildFeature = "ROLE_ICONS"
	FeatureRoleSubscriptionsAvailableForPurchase GuildFeature = "ROLE_SUBSCRIPTIONS_AVAILABLE_FOR_PURCHASE"
	FeatureRoleSubscriptionsEnabled              GuildFeature = "ROLE_SUBSCRIPTIONS_ENABLED"
	FeatureSoundboard                            GuildFeature = "SOUNDBOARD"
	FeatureTicketedEventsEnabled                 GuildFeature = "TICKETED_EVENTS_ENABLED"
	FeatureVanityURL                             GuildFeature = "VANITY_URL"
	FeatureVerified                              GuildFeature = "VERIFIED"
	FeatureVIPRegions                            GuildFeature = "VIP_REGIONS" // unlocks 384 kbps voice bitrate
	FeatureWelcomeScreenEnabled                  GuildFeature = "WELCOME_SCREEN_ENABLED"
	FeatureGuestsEnabled                         GuildFeature = "GUESTS_ENABLED"
	FeatureGuildTags                             GuildFeature = "GUILD_TAGS"
	FeatureEnhancedRoleColors                    GuildFeature = "ENHANCED_ROLE_COLORS" // gradient role colours
	FeatureCommerce                              GuildFeature = "COMMERCE"
	FeatureMoreEmoji                             GuildFeature = "MORE_EMOJI"
)

// GuildFeatures lists every feature the interface documents.
var GuildFeatures = []GuildFeature{
	FeatureAnimatedBanner, FeatureAnimatedIcon, FeatureApplicationCommandPermissionsV2,
	FeatureAutoModeration, FeatureBanner, FeatureCommunity, FeatureCreatorMonetizableProvisional,
	FeatureCreatorStorePage, FeatureDeveloperSupportServer, FeatureDiscoverable, FeatureFeaturable,
	FeatureInvitesDisabled, FeatureInviteSplash, FeatureMemberVerificationGateEnabled,
	FeatureMoreSoundboard, FeatureMoreStickers, FeatureNews, FeaturePartnered, FeaturePreviewEnabled,
	FeatureRaidAlertsDisabled, FeatureRoleIcons, FeatureRoleSubscriptionsAvailableForPurchase,
	FeatureRoleSubscriptionsEnabled, FeatureSoundboard, FeatureTicketedEventsEnabled,
	FeatureVanityURL, FeatureVerified, FeatureVIPRegions, FeatureWelcomeScreenEnabled,
	FeatureGuestsEnabled, FeatureGuildTags, FeatureEnhancedRoleColors, FeatureCommerce, FeatureMoreEmoji,
}

// GuildGetParams are the query parameters of [GuildService.Get].
type GuildGetParams struct {
	// WithCounts asks for ApproximateMemberCount and
	// ApproximatePresenceCount. Default false.
	WithCounts Opt[bool] `url:"with_counts,omitempty"`
}

// Get returns the guild. With params.WithCounts set to true, the answer
// carries the approximate member and presence counts. params may be nil.
//
// Spec: "Get Guild" — GET /guilds/{guild.id}
func (s *GuildService) Get(ctx context.Context, guildID Snowflake, params *GuildGetParams, opts ...RequestOption) (*Guild, error) {
	var g Guild
	_, err := s.c.do(ctx, &request{
		method: "GET", route: "/guilds/{guild.id}", path: []any{guildID},
		query: params, opts: opts,
	}, &g)
	if err != nil {
		return nil, err
	}
	return &g, nil
}

// GuildPreview is the public preview of a guild: of a guild the caller is in,
// or of a DISCOVERABLE one.
type GuildPreview struct {
	ID                       Snowflake      `json:"id"`
	Name                     string         `json:"name"`             // 2-100 characters
	Icon                     *string        `json:"icon"`             // nil when null
	Splash                   *string        `json:"splash"`           // nil when null
	DiscoverySplash          *string        `json:"discovery_splash"` // nil when null
	Emojis                   []Emoji        `json:"emojis"`
	Features                 []GuildFeature `json:"features"`
	ApproximateMemberCount   int            `json:"approximate_member_count"`
	ApproximatePresenceCount int            `json:"approximate_presence_count"` // online members
	Description              *string        `json:"description"`                // nil when null
	Stickers                 []Sticker      `json:"stickers"`
	// HomeHeader is the hash of the guild's home header image (the reference
	// platform's field, always sent); nil when null.
	HomeHeader *string `json:"home_header"`
}

// GuildVanityURL is the partial invite of a guild's vanity URL.
type GuildVanityURL struct {
	Code *string `json:"code"` // nil when no vanity URL is set; nil when null
	Uses int     `json:"uses"`
}

// VoiceRegion is a voice server location.
type VoiceRegion struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	Optimal    bool   `json:"optimal"` // the closest to the current user's client
	Deprecated bool   `json:"deprecated"`
	Custom     bool   `json:"custom"` // used for events and the like
}

// GetPreview returns the guild's preview. A caller that is not in the guild
// can only preview a DISCOVERABLE guild; otherwise the service answers 404.
//
// Spec: "Get Guild Preview" — GET /guilds/{guild.id}/preview
func (s *GuildService) GetPreview(ctx context.Context, guildID Snowflake, opts ...RequestOption) (*GuildPreview, error) {
	var p GuildPreview
	if _, err := s.c.do(ctx, &request{method: "GET", route: "/guilds/{guild.id}/preview", path: []any{guildID}, opts: opts}, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

// GuildModifyParams is the body of [GuildService.Modify]. Every field is
// optional; Null clears a nullable field and is refused for Name,
// AFKTimeout, SystemChannelFlags, Features and PremiumProgressBarEnabled.
type GuildModifyParams struct {
	// Name is 2-100 characters, leading and trailing whitespace excluded.
	Name Opt[string] `json:"name,omitzero"`
	// Region is deprecated: channels carry rtc_region instead.
	Region                      Opt[string]                          `json:"region,omitzero"`
	VerificationLevel           Opt[VerificationLevel]               `json:"verification_level,omitzero"`
	DefaultMessageNotifications Opt[DefaultMessageNotificationLevel] `json:"default_message_notifications,omitzero"`
	ExplicitContentFilter       Opt[ExplicitContentFilterLevel]      `json:"explicit_content_filter,omitzero"`
	AFKChannelID                Opt[Snowflake]                       `json:"afk_channel_id,omitzero"`
	// AFKTimeout is in seconds: 60, 300, 900, 1800 or 3600.
	AFKTimeout Opt[int] `json:"afk_timeout,omitzero"`
	// Icon is a 1024x1024 PNG, JPEG or GIF; an animated GIF needs
	// ANIMATED_ICON. Null removes it.
	Icon Opt[ImageData] `json:"icon,omitzero"`
	// Splash is a 16:9 PNG or JPEG and needs INVITE_SPLASH.
	Splash Opt[ImageData] `json:"splash,omitzero"`
	// DiscoverySplash is a 16:9 PNG or JPEG and needs DISCOVERABLE.
	DiscoverySplash Opt[ImageData] `json:"discovery_splash,omitzero"`
	// Banner is a 16:9 PNG or JPEG and needs BANNER; an animated GIF needs
	// ANIMATED_BANNER.
	Banner                 Opt[ImageData]          `json:"banner,omitzero"`
	SystemChannelID        Opt[Snowflake]          `json:"system_channel_id,omitzero"`
	SystemChannelFlags     Opt[SystemChannelFlags] `json:"system_channel_flags,omitzero"`
	RulesChannelID         Opt[Snowflake]          `json:"rules_channel_id,omitzero"`
	PublicUpdatesChannelID Opt[Snowflake]          `json:"public_updates_channel_id,omitzero"`
	// PreferredLocale defaults to en-US; Null resets it.
	PreferredLocale Opt[string] `json:"preferred_locale,omitzero"`
	// Features is the whole list of enabled features, each one of
	// [GuildFeatures]. Only COMMUNITY and DISCOVERABLE (ADMINISTRATOR) and
	// INVITES_DISABLED and RAID_ALERTS_DISABLED (MANAGE_GUILD) can be turned
	// on or off.
	Features                  Opt[[]GuildFeature] `json:"features,omitzero"`
	Description               Opt[string]         `json:"description,omitzero"`
	PremiumProgressBarEnabled Opt[bool]           `json:"premium_progress_bar_enabled,omitzero"`
	SafetyAlertsChannelID     Opt[Snowflake]      `json:"safety_alerts_channel_id,omitzero"`
}

// AFKTimeouts are the allowed values of a guild's afk_timeout, in seconds.
var AFKTimeouts = []int{60, 300, 900, 1800, 3600}

func (p *GuildModifyParams) validate(validation) error {
	if p == nil {
		return nil
	}
	var v ValidationError
	notNull(&v, "name", p.Name)
	notNull(&v, "afk_timeout", p.AFKTimeout)
	notNull(&v, "system_channel_flags", p.SystemChannelFlags)
	notNull(&v, "features", p.Features)
	notNull(&v, "premium_progress_bar_enabled", p.PremiumProgressBarEnabled)
	if name, ok := p.Name.Get(); ok {
		if n := utf8.RuneCountInString(strings.TrimSpace(name)); n < 2 || n > 100 {
			v.Add("name", wire.CodeLength, "2-100 characters (whitespace trimmed), got %d", n)
		}
	}
	if t, ok := p.AFKTimeout.Get(); ok && !slices.Contains(AFKTimeouts, t) {
		v.Add("afk_timeout", wire.CodeInvalid, "one of 60, 300, 900, 1800, 3600 seconds, got %d", t)
	}
	if l, ok := p.VerificationLevel.Get(); ok && (l < VerificationLevelNone || l > VerificationLevelVeryHigh) {
		v.Add("verification_level", wire.CodeInvalid, "0-4, got %d", l)
	}
	if l, ok := p.DefaultMessageNotifications.Get(); ok && l != NotifyAllMessages && l != NotifyOnlyMentions {
		v.Add("default_message_notifications", wire.CodeInvalid, "0 or 1, got %d", l)
	}
	if l, ok := p.ExplicitContentFilter.Get(); ok && (l < ExplicitContentFilterDisabled || l > ExplicitContentFilterAllMembers) {
		v.Add("explicit_content_filter", wire.CodeInvalid, "0-2, got %d", l)
	}
	for _, img := range []struct {
		name  string
		data  Opt[ImageData]
		types []string
	}{
		{"icon", p.Icon, []string{"image/png", "image/jpeg", "image/gif"}},
		{"splash", p.Splash, []string{"image/png", "image/jpeg"}},
		{"discovery_splash", p.DiscoverySplash, []string{"image/png", "image/jpeg"}},
		{"banner", p.Banner, []string{"image/png", "image/jpeg", "image/gif"}},
	} {
		if d, ok := img.data.Get(); ok && (!d.valid() || !slices.Contains(img.types, d.ContentType())) {
			v.Add(img.name, wire.CodeInvalid, "a base64 data URI of type %s, got %q", strings.Join(img.types, ", "), d.ContentType())
		}
	}
	if fs, ok := p.Features.Get(); ok {
		seen := map[GuildFeature]bool{}
		for i, f := range fs {
			path := "features" + indexPath(i, "")
			switch {
			case !slices.Contains(GuildFeatures, f):
				v.Add(path, wire.CodeInvalid, "unknown guild feature %q", f)
			case seen[f]:
				v.Add(path, wire.CodeDuplicate, "%s listed twice", f)
			}
			seen[f] = true
		}
	}
	return v.Err()
}

// Modify changes the guild's settings and returns the updated guild.
// Requires MANAGE_GUILD; adding or removing COMMUNITY or DISCOVERABLE needs
// ADMINISTRATOR. params is checked before sending (name length, afk_timeout,
// known features, image types, Null where the interface forbids it). Emits
// GUILD_UPDATE. Supports WithReason.
//
// Spec: "Modify Guild" — PATCH /guilds/{guild.id}
func (s *GuildService) Modify(ctx context.Context, guildID Snowflake, params *GuildModifyParams, opts ...RequestOption) (*Guild, error) {
	if params == nil {
		params = &GuildModifyParams{}
	}
	if err := params.validate(s.c.validation()); err != nil {
		return nil, err
	}
	var g Guild
	if _, err := s.c.do(ctx, &request{method: "PATCH", route: "/guilds/{guild.id}", path: []any{guildID},
		body: params, auditLog: true, opts: opts}, &g); err != nil {
		return nil, err
	}
	return &g, nil
}

// ListVoiceRegions returns the voice regions the guild can use, VIP regions
// included when the guild has VIP_REGIONS.
//
// Spec: "Get Guild Voice Regions" — GET /guilds/{guild.id}/regions
func (s *GuildService) ListVoiceRegions(ctx context.Context, guildID Snowflake, opts ...RequestOption) ([]VoiceRegion, error) {
	var out []VoiceRegion
	if _, err := s.c.do(ctx, &request{method: "GET", route: "/guilds/{guild.id}/regions", path: []any{guildID}, opts: opts}, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// ListInvites returns the guild's invites. Requires MANAGE_GUILD or
// VIEW_AUDIT_LOG; the invites carry their metadata only for MANAGE_GUILD
// holders (see [Invite.HasMetadata]).
//
// Spec: "Get Guild Invites" — GET /guilds/{guild.id}/invites
func (s *GuildService) ListInvites(ctx context.Context, guildID Snowflake, opts ...RequestOption) ([]Invite, error) {
	var out []Invite
	if _, err := s.c.do(ctx, &request{method: "GET", route: "/guilds/{guild.id}/invites", path: []any{guildID}, opts: opts}, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// GetVanityURL returns the guild's vanity invite code (nil when none is
// set) and its uses. Requires MANAGE_GUILD.
//
// Spec: "Get Guild Vanity URL" — GET /guilds/{guild.id}/vanity-url
func (s *GuildService) GetVanityURL(ctx context.Context, guildID Snowflake, opts ...RequestOption) (*GuildVanityURL, error) {
	var out GuildVanityURL
	if _, err := s.c.do(ctx, &request{method: "GET", route: "/guilds/{guild.id}/vanity-url", path: []any{guildID}, opts: opts}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
