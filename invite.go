package guildkit

import "time"

// InviteService handles the operations on invites and their target users.
// Reach it through [Client].Invites.
type InviteService service

// Invite is an invitation to a guild, a group DM or a friendship. The fields
// of the invite metadata (Uses, MaxUses, MaxAge, Temporary, CreatedAt) are
// present only where the interface includes the metadata (Get Guild Invites
// with MANAGE_GUILD); see [Invite.HasMetadata].
type Invite struct {
	Type    InviteType      `json:"type"`
	Code    string          `json:"code"`
	Guild   *PartialGuild   `json:"guild,omitempty"`
	Channel *PartialChannel `json:"channel,omitempty"`
	Inviter *User           `json:"inviter,omitempty"`
	// TargetType says what a voice-channel invite points at.
	TargetType        InviteTargetType    `json:"target_type,omitempty"`
	TargetUser        *User               `json:"target_user,omitempty"` // the stream's user
	TargetApplication *PartialApplication `json:"target_application,omitempty"`
	// ApproximatePresenceCount and ApproximateMemberCount come with
	// InviteGetParams.WithCounts.
	ApproximatePresenceCount *int `json:"approximate_presence_count,omitempty"`
	ApproximateMemberCount   *int `json:"approximate_member_count,omitempty"`
	// ExpiresAt is when the invite expires; Null for an invite that never does.
	ExpiresAt Opt[time.Time] `json:"expires_at,omitzero"`
	// GuildScheduledEvent is present when the request named a valid event.
	GuildScheduledEvent *GuildScheduledEvent `json:"guild_scheduled_event,omitempty"`
	Flags               InviteFlags          `json:"flags,omitempty"`
	// Roles are the roles given on acceptance.
	Roles []InviteRole `json:"roles,omitzero"`
	// StageInstance is deprecated by the interface.
	StageInstance *InviteStageInstance `json:"stage_instance,omitempty"`

	// Metadata.
	Uses      *int       `json:"uses,omitempty"`
	MaxUses   *int       `json:"max_uses,omitempty"`
	MaxAge    *int       `json:"max_age,omitempty"` // seconds; 0 means never
	Temporary *bool      `json:"temporary,omitempty"`
	CreatedAt *time.Time `json:"created_at,omitempty"`
}

// HasMetadata reports whether the invite carries its metadata.
func (i *Invite) HasMetadata() bool { return i.Uses != nil || i.CreatedAt != nil }

// InviteType is the kind of an invite.
type InviteType int

// Invite types.
const (
	InviteTypeGuild   InviteType = 0
	InviteTypeGroupDM InviteType = 1
	InviteTypeFriend  InviteType = 2
)

func (t InviteType) String() string {
	return enumString("InviteType", []string{"GUILD", "GROUP_DM", "FRIEND"}, int(t))
}

// InviteTargetType says what a voice-channel invite points at.
type InviteTargetType int

// Invite target types. 0 means none.
const (
	InviteTargetStream              InviteTargetType = 1
	InviteTargetEmbeddedApplication InviteTargetType = 2
)

func (t InviteTargetType) String() string {
	return enumString("InviteTargetType", []string{"NONE", "STREAM", "EMBEDDED_APPLICATION"}, int(t))
}

// InviteFlags is the bit set of a guild invite's flags.
type InviteFlags int

// Invite flags.
const (
	// InviteFlagIsGuestInvite marks a guest invite to a voice channel.
	InviteFlagIsGuestInvite InviteFlags = 1 << 0
)

// Has reports whether f holds every flag in g.
func (f InviteFlags) Has(g InviteFlags) bool { return f&g == g }

func (f InviteFlags) String() string { return flagString([]string{"IS_GUEST_INVITE"}, uint64(f)) }

// InviteRole is a role given on accepting an invite: a partial role.
type InviteRole struct {
	ID           Snowflake  `json:"id"`
	Name         string     `json:"name"`
	Position     int        `json:"position"`
	Color        int        `json:"color"`
	Colors       RoleColors `json:"colors"`
	Icon         *string    `json:"icon"`
	UnicodeEmoji *string    `json:"unicode_emoji"`
}

// InviteStageInstance is the deprecated stage instance of an invite.
type InviteStageInstance struct {
	Members          []Member `json:"members"`
	ParticipantCount int      `json:"participant_count"`
	SpeakerCount     int      `json:"speaker_count"`
	Topic            string   `json:"topic"` // 1-120 characters
}

// PartialGuild is the part of a guild an invite or a webhook shows.
type PartialGuild struct {
	ID                       Snowflake         `json:"id"`
	Name                     string            `json:"name"`
	Icon                     *string           `json:"icon,omitempty"`
	Splash                   *string           `json:"splash,omitempty"`
	Banner                   *string           `json:"banner,omitempty"`
	Description              *string           `json:"description,omitempty"`
	Features                 []GuildFeature    `json:"features,omitzero"`
	VerificationLevel        VerificationLevel `json:"verification_level,omitempty"`
	VanityURLCode            *string           `json:"vanity_url_code,omitempty"`
	NSFWLevel                NSFWLevel         `json:"nsfw_level,omitempty"`
	PremiumSubscriptionCount *int              `json:"premium_subscription_count,omitempty"`
	WelcomeScreen            *WelcomeScreen    `json:"welcome_screen,omitempty"`
}

// PartialChannel is the part of a channel an invite or a webhook shows.
type PartialChannel struct {
	ID   Snowflake   `json:"id"`
	Name string      `json:"name"`
	Type ChannelType `json:"type"`
}

// PartialApplication is the part of an application an invite or an
// integration shows.
type PartialApplication struct {
	ID          Snowflake `json:"id"`
	Name        string    `json:"name"`
	Icon        *string   `json:"icon"`
	Description string    `json:"description"`
	Bot         *User     `json:"bot,omitempty"`
}

// GuildScheduledEvent is a scheduled event of a guild. The interface uses
// the object without listing its fields; these are the reference platform's.
type GuildScheduledEvent struct {
	ID                 Snowflake  `json:"id"`
	GuildID            Snowflake  `json:"guild_id"`
	ChannelID          *Snowflake `json:"channel_id"`
	CreatorID          *Snowflake `json:"creator_id,omitempty"`
	Name               string     `json:"name"`
	Description        *string    `json:"description,omitempty"`
	ScheduledStartTime time.Time  `json:"scheduled_start_time"`
	ScheduledEndTime   *time.Time `json:"scheduled_end_time"`
	PrivacyLevel       int        `json:"privacy_level"`
	Status             int        `json:"status"`
	EntityType         int        `json:"entity_type"`
	EntityID           *Snowflake `json:"entity_id"`
	UserCount          *int       `json:"user_count,omitempty"`
	Image              *string    `json:"image,omitempty"`
}
