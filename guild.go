package guildkit

import (
	"context"
	"io"
	"slices"
	"strings"
	"time"
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

// CodeWidgetDisabled is the error code of a widget request for a guild whose
// widget is disabled (the reference platform's code).
const CodeWidgetDisabled ErrorCode = 50004

// GuildPreview is the public preview of a guild: of a guild the caller is in,
// or of a DISCOVERABLE one.
type GuildPreview struct {
	ID                       Snowflake      `json:"id"`
	Name                     string         `json:"name"` // 2-100 characters
	Icon                     *string        `json:"icon"`
	Splash                   *string        `json:"splash"`
	DiscoverySplash          *string        `json:"discovery_splash"`
	Emojis                   []Emoji        `json:"emojis"`
	Features                 []GuildFeature `json:"features"`
	ApproximateMemberCount   int            `json:"approximate_member_count"`
	ApproximatePresenceCount int            `json:"approximate_presence_count"` // online members
	Description              *string        `json:"description"`
	Stickers                 []Sticker      `json:"stickers"`
}

// GuildWidgetSettings says whether the widget is on and which channel its
// invites lead to.
type GuildWidgetSettings struct {
	Enabled   bool       `json:"enabled"`
	ChannelID *Snowflake `json:"channel_id"` // nil: the widget makes no invite
}

// GuildWidget is the public widget of a guild (widget.json).
type GuildWidget struct {
	ID   Snowflake `json:"id"`
	Name string    `json:"name"`
	// InstantInvite is the invite URL to the widget's channel; nil when no
	// channel is set.
	InstantInvite *string         `json:"instant_invite"`
	Channels      []WidgetChannel `json:"channels"` // voice and stage channels visible to @everyone
	Members       []WidgetMember  `json:"members"`  // online members, at most 100, anonymised
	PresenceCount int             `json:"presence_count"`
}

// WidgetChannel is a partial channel in a [GuildWidget].
type WidgetChannel struct {
	ID       Snowflake `json:"id"`
	Name     string    `json:"name"`
	Position int       `json:"position"`
}

// WidgetMember is an anonymised partial user in a [GuildWidget]: ID is an
// index rather than the user's id, and Discriminator and Avatar are blanked.
type WidgetMember struct {
	ID            string  `json:"id"`
	Username      string  `json:"username"`
	Discriminator string  `json:"discriminator"`
	Avatar        *string `json:"avatar"`
	Status        string  `json:"status"` // online, idle or dnd
	AvatarURL     string  `json:"avatar_url"`
}

// WidgetStyle is the look of the widget image.
type WidgetStyle string

// Widget image styles.
const (
	WidgetStyleShield  WidgetStyle = "shield"  // a compact badge with the online count (the default)
	WidgetStyleBanner1 WidgetStyle = "banner1" // the banners: progressively different layouts
	WidgetStyleBanner2 WidgetStyle = "banner2" // with the guild's icon, name and online count
	WidgetStyleBanner3 WidgetStyle = "banner3"
	WidgetStyleBanner4 WidgetStyle = "banner4"
)

// WidgetStyles lists every widget image style.
var WidgetStyles = []WidgetStyle{WidgetStyleShield, WidgetStyleBanner1, WidgetStyleBanner2, WidgetStyleBanner3, WidgetStyleBanner4}

// GuildVanityURL is the partial invite of a guild's vanity URL.
type GuildVanityURL struct {
	Code *string `json:"code"` // nil when no vanity URL is set
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

// IntegrationType is the kind of an integration.
type IntegrationType string

// Integration types: two third-party streaming/video kinds, the platform's
// own bot kind and guild subscriptions. The interface does not name the
// first three; these are the reference platform's names.
const (
	IntegrationTypeTwitch            IntegrationType = "twitch"
	IntegrationTypeYouTube           IntegrationType = "youtube"
	IntegrationTypeBot               IntegrationType = "discord"
	IntegrationTypeGuildSubscription IntegrationType = "guild_subscription"
)

// IntegrationExpireBehavior is what happens to a subscriber whose
// subscription expires.
type IntegrationExpireBehavior int

// Integration expire behaviours.
const (
	IntegrationExpireRemoveRole IntegrationExpireBehavior = 0
	IntegrationExpireKick       IntegrationExpireBehavior = 1
)

func (b IntegrationExpireBehavior) String() string {
	return enumString("IntegrationExpireBehavior", []string{"REMOVE_ROLE", "KICK"}, int(b))
}

// Integration is a guild integration. The fields marked "not for bots" are
// absent for bot integrations.
type Integration struct {
	ID                Snowflake                  `json:"id"`
	Name              string                     `json:"name"`
	Type              IntegrationType            `json:"type"`
	Enabled           bool                       `json:"enabled"`
	Syncing           *bool                      `json:"syncing,omitempty"`             // not for bots
	RoleID            *Snowflake                 `json:"role_id,omitempty"`             // subscriber role; not for bots
	EnableEmoticons   *bool                      `json:"enable_emoticons,omitempty"`    // one streaming kind only
	ExpireBehavior    *IntegrationExpireBehavior `json:"expire_behavior,omitempty"`     // not for bots
	ExpireGracePeriod *int                       `json:"expire_grace_period,omitempty"` // days; not for bots
	User              *User                      `json:"user,omitempty"`                // some older integrations have none
	Account           IntegrationAccount         `json:"account"`
	SyncedAt          *time.Time                 `json:"synced_at,omitempty"`        // not for bots
	SubscriberCount   *int                       `json:"subscriber_count,omitempty"` // not for bots
	Revoked           *bool                      `json:"revoked,omitempty"`          // not for bots
	Application       *PartialApplication        `json:"application,omitempty"`
	Scopes            []string                   `json:"scopes,omitzero"` // OAuth2 scopes
}

// IntegrationAccount is the account an integration belongs to.
type IntegrationAccount struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// OnboardingMode says what counts toward the onboarding constraints.
type OnboardingMode int

// Onboarding modes.
const (
	OnboardingDefault  OnboardingMode = 0 // only default channels count
	OnboardingAdvanced OnboardingMode = 1 // default channels and questions count
)

func (m OnboardingMode) String() string {
	return enumString("OnboardingMode", []string{"ONBOARDING_DEFAULT", "ONBOARDING_ADVANCED"}, int(m))
}

// PromptType is how an onboarding question shows its options.
type PromptType int

// Prompt types.
const (
	PromptTypeMultipleChoice PromptType = 0
	PromptTypeDropdown       PromptType = 1
)

func (t PromptType) String() string {
	return enumString("PromptType", []string{"MULTIPLE_CHOICE", "DROPDOWN"}, int(t))
}

// Onboarding is a guild's onboarding flow.
type Onboarding struct {
	GuildID Snowflake          `json:"guild_id"`
	Prompts []OnboardingPrompt `json:"prompts"`
	// DefaultChannelIDs are the channels members are opted into.
	DefaultChannelIDs []Snowflake    `json:"default_channel_ids"`
	Enabled           bool           `json:"enabled"`
	Mode              OnboardingMode `json:"mode"`
}

// OnboardingPrompt is one question of the onboarding flow.
type OnboardingPrompt struct {
	ID           Snowflake                `json:"id"`
	Type         PromptType               `json:"type"`
	Options      []OnboardingPromptOption `json:"options"`
	Title        string                   `json:"title"`
	SingleSelect bool                     `json:"single_select"` // one option at most
	Required     bool                     `json:"required"`      // must be answered to finish onboarding
	InOnboarding bool                     `json:"in_onboarding"` // false: only in the channels-and-roles tab
}

// OnboardingPromptOption is one answer of an onboarding question. The
// service returns the emoji as Emoji; EmojiID, EmojiName and EmojiAnimated
// are the input form, present here so that nothing is lost in a round trip.
type OnboardingPromptOption struct {
	ID            Snowflake   `json:"id"`
	ChannelIDs    []Snowflake `json:"channel_ids"` // joined on selection
	RoleIDs       []Snowflake `json:"role_ids"`    // assigned on selection
	Emoji         *Emoji      `json:"emoji,omitempty"`
	EmojiID       *Snowflake  `json:"emoji_id,omitempty"`
	EmojiName     *string     `json:"emoji_name,omitempty"`
	EmojiAnimated *bool       `json:"emoji_animated,omitempty"`
	Title         string      `json:"title"`
	Description   *string     `json:"description,omitempty"`
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

func (p *GuildModifyParams) validate() error {
	var v ValidationError
	notNull := func(name string, null bool) {
		if null {
			v.Add(name, wire.CodeNotNull, "cannot be null")
		}
	}
	notNull("name", p.Name.IsNull())
	notNull("afk_timeout", p.AFKTimeout.IsNull())
	notNull("system_channel_flags", p.SystemChannelFlags.IsNull())
	notNull("features", p.Features.IsNull())
	notNull("premium_progress_bar_enabled", p.PremiumProgressBarEnabled.IsNull())
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
	if err := params.validate(); err != nil {
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

// ListIntegrations returns the guild's integrations: at most 50 (the rest
// cannot be reached). Requires MANAGE_GUILD.
//
// Spec: "Get Guild Integrations" — GET /guilds/{guild.id}/integrations
func (s *GuildService) ListIntegrations(ctx context.Context, guildID Snowflake, opts ...RequestOption) ([]Integration, error) {
	var out []Integration
	if _, err := s.c.do(ctx, &request{method: "GET", route: "/guilds/{guild.id}/integrations", path: []any{guildID}, opts: opts}, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// DeleteIntegration deletes an integration, its webhooks, and kicks its bot.
// Requires MANAGE_GUILD. Emits GUILD_INTEGRATIONS_UPDATE and
// INTEGRATION_DELETE. The service answers 204. Supports WithReason.
//
// Spec: "Delete Guild Integration" — DELETE /guilds/{guild.id}/integrations/{integration.id}
func (s *GuildService) DeleteIntegration(ctx context.Context, guildID, integrationID Snowflake, opts ...RequestOption) error {
	_, err := s.c.do(ctx, &request{method: "DELETE", route: "/guilds/{guild.id}/integrations/{integration.id}",
		path: []any{guildID, integrationID}, auditLog: true, opts: opts}, nil)
	return err
}

// GetWidgetSettings returns whether the widget is enabled and its invite
// channel. Requires MANAGE_GUILD.
//
// Spec: "Get Guild Widget Settings" — GET /guilds/{guild.id}/widget
func (s *GuildService) GetWidgetSettings(ctx context.Context, guildID Snowflake, opts ...RequestOption) (*GuildWidgetSettings, error) {
	var out GuildWidgetSettings
	if _, err := s.c.do(ctx, &request{method: "GET", route: "/guilds/{guild.id}/widget", path: []any{guildID}, opts: opts}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// GuildWidgetModifyParams is the body of [GuildService.ModifyWidget].
type GuildWidgetModifyParams struct {
	// Enabled turns the widget on or off; Null is refused.
	Enabled Opt[bool] `json:"enabled,omitzero"`
	// ChannelID is the channel the widget's invites lead to; Null means no
	// invite.
	ChannelID Opt[Snowflake] `json:"channel_id,omitzero"`
}

// ModifyWidget changes the widget settings and returns them. Requires
// MANAGE_GUILD. Emits GUILD_UPDATE. Supports WithReason.
//
// Spec: "Modify Guild Widget" — PATCH /guilds/{guild.id}/widget
func (s *GuildService) ModifyWidget(ctx context.Context, guildID Snowflake, params *GuildWidgetModifyParams, opts ...RequestOption) (*GuildWidgetSettings, error) {
	if params == nil {
		params = &GuildWidgetModifyParams{}
	}
	var v ValidationError
	if params.Enabled.IsNull() {
		v.Add("enabled", wire.CodeNotNull, "cannot be null")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	var out GuildWidgetSettings
	if _, err := s.c.do(ctx, &request{method: "PATCH", route: "/guilds/{guild.id}/widget", path: []any{guildID},
		body: params, auditLog: true, opts: opts}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// GetWidget returns the guild's public widget. The widget must be enabled
// (otherwise 403, [CodeWidgetDisabled]). When it has an invite channel and
// no invite exists yet, the service makes one and emits INVITE_CREATE.
//
// Spec: "Get Guild Widget" — GET /guilds/{guild.id}/widget.json
func (s *GuildService) GetWidget(ctx context.Context, guildID Snowflake, opts ...RequestOption) (*GuildWidget, error) {
	var out GuildWidget
	if _, err := s.c.do(ctx, &request{method: "GET", route: "/guilds/{guild.id}/widget.json", path: []any{guildID}, opts: opts}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// guildWidgetImageParams is the query of Get Guild Widget Image.
type guildWidgetImageParams struct {
	Style WidgetStyle `url:"style,omitempty"`
}

// GetWidgetImage returns the guild's widget as a PNG image, streamed: the
// caller reads and closes it. style is one of [WidgetStyles]; "" means the
// service's default, [WidgetStyleShield]. It needs no permission and sends
// no credential (a client made without one can call it). See also
// [GuildService.GetWidgetImageBytes].
//
// Spec: "Get Guild Widget Image" — GET /guilds/{guild.id}/widget.png
func (s *GuildService) GetWidgetImage(ctx context.Context, guildID Snowflake, style WidgetStyle, opts ...RequestOption) (io.ReadCloser, error) {
	if style != "" && !slices.Contains(WidgetStyles, style) {
		var v ValidationError
		v.Add("style", wire.CodeInvalid, "one of shield, banner1, banner2, banner3, banner4, got %q", style)
		return nil, &v
	}
	resp, err := s.c.send(ctx, &request{method: "GET", route: "/guilds/{guild.id}/widget.png", path: []any{guildID},
		query: guildWidgetImageParams{Style: style}, auth: authNone, opts: opts})
	if err != nil {
		return nil, err
	}
	return resp.Body, nil
}

// maxWidgetImage bounds what GetWidgetImageBytes reads.
const maxWidgetImage = 8 << 20

// GetWidgetImageBytes is [GuildService.GetWidgetImage] read whole (at most
// 8 MiB).
func (s *GuildService) GetWidgetImageBytes(ctx context.Context, guildID Snowflake, style WidgetStyle, opts ...RequestOption) ([]byte, error) {
	rc, err := s.GetWidgetImage(ctx, guildID, style, opts...)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	b, err := io.ReadAll(&limitedReader{r: rc, n: maxWidgetImage})
	if err != nil {
		return nil, &RequestError{Method: "GET", Route: "/guilds/{guild.id}/widget.png", Err: err}
	}
	return b, nil
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

// GetWelcomeScreen returns the guild's welcome screen. MANAGE_GUILD is
// needed while the welcome screen is not enabled.
//
// Spec: "Get Guild Welcome Screen" — GET /guilds/{guild.id}/welcome-screen
func (s *GuildService) GetWelcomeScreen(ctx context.Context, guildID Snowflake, opts ...RequestOption) (*WelcomeScreen, error) {
	var out WelcomeScreen
	if _, err := s.c.do(ctx, &request{method: "GET", route: "/guilds/{guild.id}/welcome-screen", path: []any{guildID}, opts: opts}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// GuildWelcomeScreenModifyParams is the body of
// [GuildService.ModifyWelcomeScreen]. Every field is optional and may be
// Null.
type GuildWelcomeScreenModifyParams struct {
	// Enabled turns the welcome screen on or off (the guild feature
	// WELCOME_SCREEN_ENABLED); Null turns it off.
	Enabled Opt[bool] `json:"enabled,omitzero"`
	// WelcomeChannels are up to 5 channels; Null empties the list.
	WelcomeChannels Opt[[]WelcomeChannel] `json:"welcome_channels,omitzero"`
	// Description is the server description shown; Null clears it.
	Description Opt[string] `json:"description,omitzero"`
}

// MaxWelcomeChannels is how many channels a welcome screen shows at most.
const MaxWelcomeChannels = 5

// ModifyWelcomeScreen changes the guild's welcome screen and returns it.
// Requires MANAGE_GUILD. At most 5 welcome channels, checked before
// sending. Emits GUILD_UPDATE when the screen is turned on or off.
// Supports WithReason.
//
// Spec: "Modify Guild Welcome Screen" — PATCH /guilds/{guild.id}/welcome-screen
func (s *GuildService) ModifyWelcomeScreen(ctx context.Context, guildID Snowflake, params *GuildWelcomeScreenModifyParams, opts ...RequestOption) (*WelcomeScreen, error) {
	if params == nil {
		params = &GuildWelcomeScreenModifyParams{}
	}
	var v ValidationError
	if chs, ok := params.WelcomeChannels.Get(); ok {
		if len(chs) > MaxWelcomeChannels {
			v.Add("welcome_channels", wire.CodeLength, "at most %d channels, got %d", MaxWelcomeChannels, len(chs))
		}
		for i, ch := range chs {
			if ch.ChannelID == 0 {
				v.Add("welcome_channels"+indexPath(i, "channel_id"), wire.CodeRequired, "required")
			}
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	var out WelcomeScreen
	if _, err := s.c.do(ctx, &request{method: "PATCH", route: "/guilds/{guild.id}/welcome-screen", path: []any{guildID},
		body: params, auditLog: true, opts: opts}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// GetOnboarding returns the guild's onboarding flow.
//
// Spec: "Get Guild Onboarding" — GET /guilds/{guild.id}/onboarding
func (s *GuildService) GetOnboarding(ctx context.Context, guildID Snowflake, opts ...RequestOption) (*Onboarding, error) {
	var out Onboarding
	if _, err := s.c.do(ctx, &request{method: "GET", route: "/guilds/{guild.id}/onboarding", path: []any{guildID}, opts: opts}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// GuildOnboardingModifyParams is the body of [GuildService.ModifyOnboarding].
// Every field is optional; none may be Null.
type GuildOnboardingModifyParams struct {
	// Prompts replace the onboarding questions.
	Prompts Opt[[]OnboardingPromptParams] `json:"prompts,omitzero"`
	// DefaultChannelIDs are the channels members are opted into.
	DefaultChannelIDs Opt[[]Snowflake] `json:"default_channel_ids,omitzero"`
	// Enabled turns onboarding on; that needs at least 7 default channels,
	// at least 5 of which @everyone can send messages in (in
	// [OnboardingAdvanced] mode the channels of the questions count too).
	Enabled Opt[bool]           `json:"enabled,omitzero"`
	Mode    Opt[OnboardingMode] `json:"mode,omitzero"`
}

// OnboardingPromptParams is a question in [GuildOnboardingModifyParams].
type OnboardingPromptParams struct {
	// ID is the prompt to keep; omitted for a new one.
	ID           Opt[Snowflake]                 `json:"id,omitzero"`
	Type         PromptType                     `json:"type"`
	Options      []OnboardingPromptOptionParams `json:"options"` // at least one
	Title        string                         `json:"title"`   // required
	SingleSelect Opt[bool]                      `json:"single_select,omitzero"`
	Required     Opt[bool]                      `json:"required,omitzero"`
	InOnboarding Opt[bool]                      `json:"in_onboarding,omitzero"`
}

// OnboardingPromptOptionParams is an option of an
// [OnboardingPromptParams]. The emoji is given through EmojiID (a custom
// emoji), EmojiName and EmojiAnimated; the service answers with an emoji
// object ([OnboardingPromptOption.Emoji]).
type OnboardingPromptOptionParams struct {
	// ID is the option to keep; omitted for a new one.
	ID            Opt[Snowflake]   `json:"id,omitzero"`
	ChannelIDs    Opt[[]Snowflake] `json:"channel_ids,omitzero"`
	RoleIDs       Opt[[]Snowflake] `json:"role_ids,omitzero"`
	EmojiID       Opt[Snowflake]   `json:"emoji_id,omitzero"`
	EmojiName     Opt[string]      `json:"emoji_name,omitzero"`
	EmojiAnimated Opt[bool]        `json:"emoji_animated,omitzero"`
	Title         string           `json:"title"` // required
	Description   Opt[string]      `json:"description,omitzero"`
}

func (p *GuildOnboardingModifyParams) validate() error {
	var v ValidationError
	for name, null := range map[string]bool{
		"prompts": p.Prompts.IsNull(), "default_channel_ids": p.DefaultChannelIDs.IsNull(),
		"enabled": p.Enabled.IsNull(), "mode": p.Mode.IsNull(),
	} {
		if null {
			v.Add(name, wire.CodeNotNull, "cannot be null")
		}
	}
	if m, ok := p.Mode.Get(); ok && m != OnboardingDefault && m != OnboardingAdvanced {
		v.Add("mode", wire.CodeInvalid, "0 or 1, got %d", m)
	}
	prompts, _ := p.Prompts.Get()
	for i, pr := range prompts {
		at := "prompts" + indexPath(i, "")
		if pr.Type != PromptTypeMultipleChoice && pr.Type != PromptTypeDropdown {
			v.Add(at+".type", wire.CodeInvalid, "0 or 1, got %d", pr.Type)
		}
		if strings.TrimSpace(pr.Title) == "" {
			v.Add(at+".title", wire.CodeRequired, "required")
		}
		if len(pr.Options) == 0 {
			v.Add(at+".options", wire.CodeRequired, "at least one option")
		}
		for j, o := range pr.Options {
			if strings.TrimSpace(o.Title) == "" {
				v.Add(at+".options"+indexPath(j, "title"), wire.CodeRequired, "required")
			}
		}
	}
	slices.SortFunc(v.Problems, func(a, b FieldError) int { return strings.Compare(a.Path, b.Path) })
	return v.Err()
}

// ModifyOnboarding changes the guild's onboarding flow and returns it.
// Requires MANAGE_GUILD and MANAGE_ROLES. Enabling it needs at least 7
// default channels, at least 5 of them writable by @everyone (counted per
// mode); the service answers 400 otherwise. Supports WithReason.
//
// Spec: "Modify Guild Onboarding" — PUT /guilds/{guild.id}/onboarding
func (s *GuildService) ModifyOnboarding(ctx context.Context, guildID Snowflake, params *GuildOnboardingModifyParams, opts ...RequestOption) (*Onboarding, error) {
	if params == nil {
		params = &GuildOnboardingModifyParams{}
	}
	if err := params.validate(); err != nil {
		return nil, err
	}
	var out Onboarding
	if _, err := s.c.do(ctx, &request{method: "PUT", route: "/guilds/{guild.id}/onboarding", path: []any{guildID},
		body: params, auditLog: true, opts: opts}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// GuildIncidentActionsModifyParams is the body of
// [GuildService.ModifyIncidentActions]. A time is at most 24 hours ahead;
// Null disables the action; an omitted field is left as it is.
type GuildIncidentActionsModifyParams struct {
	InvitesDisabledUntil Opt[time.Time] `json:"invites_disabled_until,omitzero"`
	DMsDisabledUntil     Opt[time.Time] `json:"dms_disabled_until,omitzero"`
}

// MaxIncidentActionDuration is how far ahead an incident action may end.
const MaxIncidentActionDuration = 24 * time.Hour

// ModifyIncidentActions pauses invites or direct messages until a time at
// most 24 hours ahead (checked before sending against the local clock), or
// lifts the pause with Null, and returns the guild's incidents data.
// Requires MANAGE_GUILD.
//
// Spec: "Modify Guild Incident Actions" — PUT /guilds/{guild.id}/incident-actions
func (s *GuildService) ModifyIncidentActions(ctx context.Context, guildID Snowflake, params *GuildIncidentActionsModifyParams, opts ...RequestOption) (*IncidentsData, error) {
	if params == nil {
		params = &GuildIncidentActionsModifyParams{}
	}
	var v ValidationError
	limit := time.Now().Add(MaxIncidentActionDuration)
	for _, f := range []struct {
		name string
		t    Opt[time.Time]
	}{{"invites_disabled_until", params.InvitesDisabledUntil}, {"dms_disabled_until", params.DMsDisabledUntil}} {
		if t, ok := f.t.Get(); ok && t.After(limit) {
			v.Add(f.name, wire.CodeRange, "at most 24 hours ahead, got %s", t.Format(time.RFC3339))
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	var out IncidentsData
	if _, err := s.c.do(ctx, &request{method: "PUT", route: "/guilds/{guild.id}/incident-actions", path: []any{guildID},
		body: params, opts: opts}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
