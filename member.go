package guildkit

import "time"

// MemberService handles the operations on guild members and pruning. Reach
// it through [Client].Members.
type MemberService service

// Member is a user's membership of a guild.
type Member struct {
	// User is absent in members attached to message events.
	User         *User       `json:"user,omitempty"`
	Nick         *string     `json:"nick"`
	Avatar       *string     `json:"avatar"` // guild avatar hash
	Banner       *string     `json:"banner"` // guild banner hash
	Roles        []Snowflake `json:"roles"`
	JoinedAt     *time.Time  `json:"joined_at"` // nil for a guest in a voice state
	PremiumSince *time.Time  `json:"premium_since"`
	Deaf         bool        `json:"deaf"`
	Mute         bool        `json:"mute"`
	Flags        MemberFlags `json:"flags"`
	// Pending is true while membership screening is incomplete. It is
	// present only in guild-prefixed events and some answers.
	Pending *bool `json:"pending,omitempty"`
	// Permissions holds the member's channel permissions, only inside an
	// interaction.
	Permissions *Permissions `json:"permissions,omitempty"`
	// CommunicationDisabledUntil is when the member's timeout ends. nil or a
	// past time means the member is not timed out; see [Member.TimedOut].
	CommunicationDisabledUntil *time.Time            `json:"communication_disabled_until"`
	AvatarDecorationData       *AvatarDecorationData `json:"avatar_decoration_data"`
}

// TimedOut reports whether the member is timed out at time now.
func (m *Member) TimedOut(now time.Time) bool {
	return m.CommunicationDisabledUntil != nil && m.CommunicationDisabledUntil.After(now)
}

// MemberFlags is the bit set of a member's flags.
type MemberFlags int

// Member flags. Only MemberFlagBypassesVerification can be changed by a
// caller.
const (
	MemberFlagDidRejoin                    MemberFlags = 1 << 0
	MemberFlagCompletedOnboarding          MemberFlags = 1 << 1
	MemberFlagBypassesVerification         MemberFlags = 1 << 2 // editable
	MemberFlagStartedOnboarding            MemberFlags = 1 << 3
	MemberFlagIsGuest                      MemberFlags = 1 << 4
	MemberFlagStartedHomeActions           MemberFlags = 1 << 5
	MemberFlagCompletedHomeActions         MemberFlags = 1 << 6
	MemberFlagAutomodQuarantinedUsername   MemberFlags = 1 << 7
	MemberFlagDMSettingsUpsellAcknowledged MemberFlags = 1 << 9
	MemberFlagAutomodQuarantinedGuildTag   MemberFlags = 1 << 10
)

// MemberFlagsEditable are the flags a caller may set or clear.
const MemberFlagsEditable = MemberFlagBypassesVerification

var memberFlagNames = []string{
	0: "DID_REJOIN", 1: "COMPLETED_ONBOARDING", 2: "BYPASSES_VERIFICATION", 3: "STARTED_ONBOARDING",
	4: "IS_GUEST", 5: "STARTED_HOME_ACTIONS", 6: "COMPLETED_HOME_ACTIONS",
	7: "AUTOMOD_QUARANTINED_USERNAME", 9: "DM_SETTINGS_UPSELL_ACKNOWLEDGED",
	10: "AUTOMOD_QUARANTINED_GUILD_TAG",
}

// Has reports whether f holds every flag in g.
func (f MemberFlags) Has(g MemberFlags) bool { return f&g == g }

// String names the flags ("DID_REJOIN|IS_GUEST").
func (f MemberFlags) String() string { return flagString(memberFlagNames, uint64(f)) }
