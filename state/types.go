package state

import (
	"encoding/binary"
	"fmt"
	"iter"
	"slices"
	"time"

	"github.com/seed012df1e9/guildkit"
)

// Snowflake is the SDK's id type.
type Snowflake = guildkit.Snowflake

// The values below are what reads return: compact copies of what the cache
// holds, never pointers into it. A value a read returned never changes:
// its lists ([IDs], [List]) are views of storage the cache never writes
// again (an update stores a new list), and their contents can be read but
// not modified. Fields the platform sends as null are their zero value
// ("" for a null hash or nickname, 0 for a null id, the zero time).

// User is a user account, one copy per user however many guilds it is a
// member of.
type User struct {
	ID            Snowflake
	Username      string
	GlobalName    string // display name; "" when unset
	Discriminator string // "0" for users with a unique username
	Avatar        string // avatar hash; "" when none
	Banner        string // banner hash; "" when none or not sent
	AccentColor   int    // RGB; -1 when unset or not sent
	PublicFlags   int
	Bot           bool
	System        bool
	// AvatarDecoration is the decoration around the avatar; zero when none.
	AvatarDecoration AvatarDecoration
}

// DisplayName returns the global display name when set, else the username.
func (u *User) DisplayName() string {
	if u.GlobalName != "" {
		return u.GlobalName
	}
	return u.Username
}

// AvatarDecoration is the decoration drawn around an avatar.
type AvatarDecoration struct {
	Asset string
	SKUID Snowflake
}

// Member is a user's membership of a guild, with its user.
type Member struct {
	GuildID Snowflake
	User    User
	Nick    string // "" when none
	Avatar  string // guild avatar hash; "" when none
	Banner  string // guild banner hash; "" when none
	// Roles are the member's role ids, @everyone not included, in
	// ascending order.
	Roles        IDs
	JoinedAt     time.Time // zero for a guest in voice
	PremiumSince time.Time // zero when not boosting
	// CommunicationDisabledUntil is when a timeout ends; zero (or a past
	// time) when the member is not timed out. See [Member.TimedOut].
	CommunicationDisabledUntil time.Time
	Flags                      guildkit.MemberFlags
	Deaf                       bool
	Mute                       bool
	Pending                    bool // membership screening not passed yet
	AvatarDecoration           AvatarDecoration
}

// DisplayName returns the nickname when set, else the user's display name.
func (m *Member) DisplayName() string {
	if m.Nick != "" {
		return m.Nick
	}
	return m.User.DisplayName()
}

// TimedOut reports whether the member is timed out at now.
func (m *Member) TimedOut(now time.Time) bool {
	return !m.CommunicationDisabledUntil.IsZero() && m.CommunicationDisabledUntil.After(now)
}

// Guild is a guild's own fields (its channels, roles, members... are read
// by their own methods).
type Guild struct {
	ID      Snowflake
	Name    string
	OwnerID Snowflake
	// Unavailable is true during an outage: the other fields are the last
	// known ones. Reads under it report [ErrStale].
	Unavailable bool
	// Stale is true while what the cache holds under the guild may be out
	// of date: an outage, a rebuild after a new session that has not
	// reached the guild yet, a lost write to a shared store.
	Stale bool

	Icon                        string
	Splash                      string
	DiscoverySplash             string
	Banner                      string
	Description                 string
	VanityURLCode               string
	PreferredLocale             string
	Features                    List[guildkit.GuildFeature]
	AFKChannelID                Snowflake
	AFKTimeout                  int // seconds
	SystemChannelID             Snowflake
	SystemChannelFlags          guildkit.SystemChannelFlags
	RulesChannelID              Snowflake
	PublicUpdatesChannelID      Snowflake
	SafetyAlertsChannelID       Snowflake
	ApplicationID               Snowflake
	VerificationLevel           guildkit.VerificationLevel
	DefaultMessageNotifications guildkit.DefaultMessageNotificationLevel
	ExplicitContentFilter       guildkit.ExplicitContentFilterLevel
	MFALevel                    guildkit.MFALevel
	NSFWLevel                   guildkit.NSFWLevel
	PremiumTier                 guildkit.PremiumTier
	PremiumSubscriptionCount    int
	PremiumProgressBarEnabled   bool
	// JoinedAt, Large and MemberCount come from GUILD_CREATE; MemberCount
	// then follows member additions and removals.
	JoinedAt    time.Time
	Large       bool
	MemberCount int
}

// Channel is a guild channel or a thread.
type Channel struct {
	ID       Snowflake
	GuildID  Snowflake
	Type     guildkit.ChannelType
	Name     string
	Position int
	// ParentID is a channel's category, or a thread's channel; 0 for none.
	ParentID   Snowflake
	Overwrites List[guildkit.PermissionOverwrite]
	Topic      string
	NSFW       bool
	Bitrate    int
	UserLimit  int
	// RateLimitPerUser is the slow mode, in seconds.
	RateLimitPerUser int
	RTCRegion        string // "" for automatic
	Flags            int
	// LastPinTimestamp is when a message was last pinned; zero when never.
	LastPinTimestamp time.Time
	// Status is a voice channel's status (VOICE_CHANNEL_STATUS_UPDATE).
	Status string

	// Threads only.
	OwnerID             Snowflake
	MessageCount        int
	MemberCount         int
	Archived            bool
	Locked              bool
	Invitable           bool
	AutoArchiveDuration int // minutes
	ArchiveTimestamp    time.Time
	AppliedTags         IDs
}

// IsThread reports whether the channel is a thread.
func (c *Channel) IsThread() bool {
	switch c.Type {
	case guildkit.ChannelTypeAnnouncementThread, guildkit.ChannelTypePublicThread, guildkit.ChannelTypePrivateThread:
		return true
	}
	return false
}

// Role is a guild role. The @everyone role has the guild's id.
type Role struct {
	ID             Snowflake
	GuildID        Snowflake
	Name           string
	Color          int // the primary colour, RGB
	SecondaryColor int // -1 when unset
	TertiaryColor  int // -1 when unset
	Hoist          bool
	Managed        bool
	Mentionable    bool
	Icon           string // icon hash; "" when none
	UnicodeEmoji   string
	Position       int
	Permissions    guildkit.Permissions
	Flags          guildkit.RoleFlags
	// BotID and IntegrationID are a managed role's owner; 0 when none.
	BotID         Snowflake
	IntegrationID Snowflake
}

// Emoji is a guild's custom emoji.
type Emoji struct {
	ID            Snowflake
	GuildID       Snowflake
	Name          string
	Roles         IDs       // roles allowed to use it; empty for everyone
	UserID        Snowflake // who uploaded it, when the bot may see it
	RequireColons bool
	Managed       bool
	Animated      bool
	Available     bool
}

// Sticker is a guild's sticker.
type Sticker struct {
	ID          Snowflake
	GuildID     Snowflake
	Name        string
	Description string
	Tags        string
	Type        int
	FormatType  int
	Available   bool
	UserID      Snowflake
	SortValue   int
}

// Presence is a member's status in a guild (privileged GUILD_PRESENCES).
type Presence struct {
	GuildID      Snowflake
	UserID       Snowflake
	Status       guildkit.PresenceStatus
	ClientStatus guildkit.ClientStatus
	Activities   List[Activity]
}

// Activity is what a user is doing, as a presence shows it.
type Activity struct {
	Name          string
	Type          guildkit.ActivityType
	URL           string
	State         string
	Details       string
	ApplicationID Snowflake
	Start, End    int64 // Unix milliseconds; 0 when absent
	EmojiName     string
	EmojiID       Snowflake
}

// VoiceState is a member's connection to a voice channel of a guild.
type VoiceState struct {
	GuildID                 Snowflake
	UserID                  Snowflake
	ChannelID               Snowflake
	SessionID               string
	Deaf                    bool
	Mute                    bool
	SelfDeaf                bool
	SelfMute                bool
	SelfStream              bool
	SelfVideo               bool
	Suppress                bool
	RequestToSpeakTimestamp time.Time // zero when none
}

// IDs is an immutable list of ids in ascending order. Its zero value is
// empty. It is a view: copying it copies no ids.
type IDs struct{ b string } // 8 bytes per id, little endian

// NewIDs returns the ids, sorted, without duplicates or zeros.
func NewIDs(ids ...Snowflake) IDs {
	return IDs{b: packIDs(ids)}
}

// Len returns the number of ids.
func (l IDs) Len() int { return len(l.b) / 8 }

// At returns the i'th id.
func (l IDs) At(i int) Snowflake {
	b := l.b[i*8 : i*8+8]
	return Snowflake(uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56)
}

// Has reports whether id is in the list.
func (l IDs) Has(id Snowflake) bool {
	lo, hi := 0, l.Len()
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch v := l.At(m); {
		case v == id:
			return true
		case v < id:
			lo = m + 1
		default:
			hi = m
		}
	}
	return false
}

// All yields the ids in order.
func (l IDs) All() iter.Seq[Snowflake] {
	return func(yield func(Snowflake) bool) {
		for i := range l.Len() {
			if !yield(l.At(i)) {
				return
			}
		}
	}
}

// Slice returns a new slice of the ids, which the caller owns.
func (l IDs) Slice() []Snowflake {
	out := make([]Snowflake, l.Len())
	for i := range out {
		out[i] = l.At(i)
	}
	return out
}

// String formats the ids as fmt formats a slice of them: "[1 2 3]".
func (l IDs) String() string { return fmt.Sprint(l.Slice()) }

// Equal reports whether both lists hold the same ids.
func (l IDs) Equal(m IDs) bool { return l.b == m.b }

// List is an immutable list of values. Its zero value is empty; copying it
// copies no elements.
type List[T any] struct{ s []T }

// ListOf returns a List holding a copy of s.
func ListOf[T any](s ...T) List[T] {
	if len(s) == 0 {
		return List[T]{}
	}
	return List[T]{s: append([]T(nil), s...)}
}

// Len returns the number of elements.
func (l List[T]) Len() int { return len(l.s) }

// At returns a copy of the i'th element.
func (l List[T]) At(i int) T { return l.s[i] }

// All yields the elements in order.
func (l List[T]) All() iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		for i, v := range l.s {
			if !yield(i, v) {
				return
			}
		}
	}
}

// Slice returns a new slice of the elements, which the caller owns.
func (l List[T]) Slice() []T { return append([]T(nil), l.s...) }

// packIDs encodes ids sorted, without duplicates or zeros.
func packIDs(ids []Snowflake) string {
	if len(ids) == 0 {
		return ""
	}
	s := slices.Clone(ids)
	slices.Sort(s)
	s = slices.Compact(s)
	if s[0] == 0 {
		s = s[1:]
	}
	b := make([]byte, 0, 8*len(s))
	for _, id := range s {
		b = binary.LittleEndian.AppendUint64(b, uint64(id))
	}
	return string(b)
}

// Permissions is the SDK's permission bit set.
type Permissions = guildkit.Permissions

func memberFlags(f uint16) guildkit.MemberFlags { return guildkit.MemberFlags(f) }
