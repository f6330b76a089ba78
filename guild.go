package guildkit

import (
	"context"
	"time"
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
	Icon *string   `json:"icon"` // icon hash
	// IconHash is returned inside the template object.
	IconHash        Opt[string] `json:"icon_hash,omitzero"`
	Splash          *string     `json:"splash"`
	DiscoverySplash *string     `json:"discovery_splash"` // only for DISCOVERABLE guilds
	// Owner is whether the requesting user owns the guild; only from the
	// current user's guild list.
	Owner   *bool     `json:"owner,omitempty"`
	OwnerID Snowflake `json:"owner_id"`
	// Permissions are the requesting user's permissions (overwrites and
	// implicit ones excluded); only from the current user's guild list.
	Permissions *Permissions `json:"permissions,omitempty"`
	// Region is deprecated: channels carry rtc_region instead.
	Region        Opt[string] `json:"region,omitzero"`
	AFKChannelID  *Snowflake  `json:"afk_channel_id"`
	AFKTimeout    int         `json:"afk_timeout"` // seconds
	WidgetEnabled *bool       `json:"widget_enabled,omitempty"`
	// WidgetChannelID is the channel the widget makes invites to; Null means
	// no invite.
	WidgetChannelID             Opt[Snowflake]                  `json:"widget_channel_id,omitzero"`
	VerificationLevel           VerificationLevel               `json:"verification_level"`
	DefaultMessageNotifications DefaultMessageNotificationLevel `json:"default_message_notifications"`
	ExplicitContentFilter       ExplicitContentFilterLevel      `json:"explicit_content_filter"`
	Roles                       []Role                          `json:"roles"`
	Emojis                      []Emoji                         `json:"emojis"`
	Features                    []GuildFeature                  `json:"features"`
	MFALevel                    MFALevel                        `json:"mfa_level"`
	ApplicationID               *Snowflake                      `json:"application_id"` // creator application, if bot-created
	SystemChannelID             *Snowflake                      `json:"system_channel_id"`
	SystemChannelFlags          SystemChannelFlags              `json:"system_channel_flags"`
	RulesChannelID              *Snowflake                      `json:"rules_channel_id"`
	// MaxPresences is null except for the very largest guilds.
	MaxPresences              Opt[int]       `json:"max_presences,omitzero"`
	MaxMembers                *int           `json:"max_members,omitempty"`
	VanityURLCode             *string        `json:"vanity_url_code"`
	Description               *string        `json:"description"`
	Banner                    *string        `json:"banner"`
	PremiumTier               PremiumTier    `json:"premium_tier"`
	PremiumSubscriptionCount  *int           `json:"premium_subscription_count,omitempty"`
	PreferredLocale           string         `json:"preferred_locale"` // defaults to en-US
	PublicUpdatesChannelID    *Snowflake     `json:"public_updates_channel_id"`
	MaxVideoChannelUsers      *int           `json:"max_video_channel_users,omitempty"`
	MaxStageVideoChannelUsers *int           `json:"max_stage_video_channel_users,omitempty"`
	ApproximateMemberCount    *int           `json:"approximate_member_count,omitempty"`   // with GuildGetParams.WithCounts
	ApproximatePresenceCount  *int           `json:"approximate_presence_count,omitempty"` // non-offline members; with WithCounts
	WelcomeScreen             *WelcomeScreen `json:"welcome_screen,omitempty"`             // inside an invite's guild
	NSFWLevel                 NSFWLevel      `json:"nsfw_level"`
	Stickers                  []Sticker      `json:"stickers,omitzero"`
	PremiumProgressBarEnabled bool           `json:"premium_progress_bar_enabled"`
	SafetyAlertsChannelID     *Snowflake     `json:"safety_alerts_channel_id"`
	IncidentsData             *IncidentsData `json:"incidents_data"`
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
	ID            *Snowflake  `json:"id"`
	Name          *string     `json:"name"`
	Roles         []Snowflake `json:"roles,omitzero"`
	User          *User       `json:"user,omitempty"`
	RequireColons *bool       `json:"require_colons,omitempty"`
	Managed       *bool       `json:"managed,omitempty"`
	Animated      *bool       `json:"animated,omitempty"`
	Available     *bool       `json:"available,omitempty"`
}

// Sticker is a guild sticker; fields as the reference platform's.
type Sticker struct {
	ID          Snowflake  `json:"id"`
	PackID      *Snowflake `json:"pack_id,omitempty"`
	Name        string     `json:"name"`
	Description *string    `json:"description"`
	Tags        string     `json:"tags"`
	Type        int        `json:"type"`
	FormatType  int        `json:"format_type"`
	Available   *bool      `json:"available,omitempty"`
	GuildID     *Snowflake `json:"guild_id,omitempty"`
	User        *User      `json:"user,omitempty"`
	SortValue   *int       `json:"sort_value,omitempty"`
}

// WelcomeScreen is what new members see in a Community guild.
type WelcomeScreen struct {
	Description     *string          `json:"description"`
	WelcomeChannels []WelcomeChannel `json:"welcome_channels"` // up to 5
}

// WelcomeChannel is one channel shown on the welcome screen.
type WelcomeChannel struct {
	ChannelID   Snowflake  `json:"channel_id"`
	Description string     `json:"description"`
	EmojiID     *Snowflake `json:"emoji_id"`   // custom emoji only
	EmojiName   *string    `json:"emoji_name"` // custom name, or the character of a standard emoji
}

// IncidentsData holds the guild's temporary incident actions.
type IncidentsData struct {
	InvitesDisabledUntil *time.Time `json:"invites_disabled_until"` // when invites resume
	DMsDisabledUntil     *time.Time `json:"dms_disabled_until"`     // when direct messages resume
	DMSpamDetectedAt     *time.Time `json:"dm_spam_detected_at"`
	RaidDetectedAt       *time.Time `json:"raid_detected_at"`
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
		query: queryOf(params), opts: opts,
	}, &g)
	if err != nil {
		return nil, err
	}
	return &g, nil
}
