package guildkit

import "time"

// The objects below arrive only over the gateway (package gateway): the
// interface's documents do not show them, so their fields are the reference
// platform's (voice.mdx, gateway-events.mdx, stage-instance.mdx,
// soundboard.mdx).

// VoiceState is a member's connection to a voice channel. In a GUILD_CREATE
// the voice states come without GuildID.
type VoiceState struct {
	// GuildID is absent inside a GUILD_CREATE, whose guild it is. Nil when absent.
	GuildID   *Snowflake `json:"guild_id,omitempty"`
	ChannelID *Snowflake `json:"channel_id"` // nil when null: the user left voice
	UserID    Snowflake  `json:"user_id"`
	Member    *Member    `json:"member,omitempty"` // nil when absent
	SessionID string     `json:"session_id"`
	Deaf      bool       `json:"deaf"`      // deafened by the guild
	Mute      bool       `json:"mute"`      // muted by the guild
	SelfDeaf  bool       `json:"self_deaf"` // deafened by the user
	SelfMute  bool       `json:"self_mute"` // muted by the user
	// SelfStream is whether the user is streaming. Nil when absent.
	SelfStream *bool `json:"self_stream,omitempty"`
	SelfVideo  bool  `json:"self_video"`
	Suppress   bool  `json:"suppress"` // the user may not speak (a stage audience)
	// RequestToSpeakTimestamp is when the user asked to speak on a stage;
	// nil when null.
	RequestToSpeakTimestamp *time.Time `json:"request_to_speak_timestamp"`
}

// PresenceStatus is a user's status: "online", "idle", "dnd", "offline"
// (and "invisible" when a bot sets its own).
type PresenceStatus string

// Presence statuses.
const (
	StatusOnline    PresenceStatus = "online"
	StatusIdle      PresenceStatus = "idle"
	StatusDND       PresenceStatus = "dnd"
	StatusInvisible PresenceStatus = "invisible" // only sent by a client; others see it as offline
	StatusOffline   PresenceStatus = "offline"
)

// Presence is a user's status and activities in a guild. GUILD_CREATE and
// GUILD_MEMBERS_CHUNK carry partial presences: User holds only the id.
// Presences need the privileged GUILD_PRESENCES intent.
type Presence struct {
	User         User           `json:"user"`               // only the id is guaranteed
	GuildID      *Snowflake     `json:"guild_id,omitempty"` // absent inside a GUILD_CREATE; nil when absent
	Status       PresenceStatus `json:"status"`
	Activities   []Activity     `json:"activities"`
	ClientStatus ClientStatus   `json:"client_status"`
}

// ClientStatus is a user's status on each kind of client; a field is empty
// where the user is not signed in.
type ClientStatus struct {
	Desktop PresenceStatus `json:"desktop,omitempty"`
	Mobile  PresenceStatus `json:"mobile,omitempty"`
	Web     PresenceStatus `json:"web,omitempty"`
}

// ActivityType is the kind of an activity.
type ActivityType int

// Activity types.
const (
	ActivityTypePlaying   ActivityType = 0
	ActivityTypeStreaming ActivityType = 1
	ActivityTypeListening ActivityType = 2
	ActivityTypeWatching  ActivityType = 3
	ActivityTypeCustom    ActivityType = 4
	ActivityTypeCompeting ActivityType = 5
)

var activityTypeNames = []string{"PLAYING", "STREAMING", "LISTENING", "WATCHING", "CUSTOM", "COMPETING"}

// String names the activity type ("PLAYING").
func (t ActivityType) String() string { return enumString("ActivityType", activityTypeNames, int(t)) }

// Activity is something a user is doing: a game, a stream, a custom status.
// A bot may set only Name, State, Type and URL (Update Presence).
type Activity struct {
	Name string       `json:"name"`
	Type ActivityType `json:"type"`
	// URL is a Streaming activity's stream URL; zero Opt when absent, Null when null.
	URL Opt[string] `json:"url,omitzero"`
	// CreatedAt is when the activity was added, in Unix milliseconds; 0 when absent.
	CreatedAt     int64               `json:"created_at,omitempty"`
	Timestamps    *ActivityTimestamps `json:"timestamps,omitempty"`     // nil when absent
	ApplicationID *Snowflake          `json:"application_id,omitempty"` // nil when absent
	Details       Opt[string]         `json:"details,omitzero"`         // zero Opt when absent, Null when null
	State         Opt[string]         `json:"state,omitzero"`           // a custom status's text; zero Opt when absent, Null when null
	Emoji         Opt[ActivityEmoji]  `json:"emoji,omitzero"`           // zero Opt when absent, Null when null
	Party         *ActivityParty      `json:"party,omitempty"`          // nil when absent
	Assets        *ActivityAssets     `json:"assets,omitempty"`         // nil when absent
	Secrets       *ActivitySecrets    `json:"secrets,omitempty"`        // nil when absent
	Instance      *bool               `json:"instance,omitempty"`       // nil when absent
	Flags         *int                `json:"flags,omitempty"`          // a bit set; nil when absent
	// Buttons are the labels of the activity's buttons: their URLs are not
	// shared with other users.
	Buttons []string `json:"buttons,omitzero"`
}

// ActivityTimestamps are an activity's start and end, in Unix milliseconds; 0 when absent.
type ActivityTimestamps struct {
	Start int64 `json:"start,omitempty"`
	End   int64 `json:"end,omitempty"`
}

// ActivityEmoji is a custom status's emoji.
type ActivityEmoji struct {
	Name     string     `json:"name"`
	ID       *Snowflake `json:"id,omitempty"`       // nil when absent
	Animated *bool      `json:"animated,omitempty"` // nil when absent
}

// ActivityParty is the party of an activity.
type ActivityParty struct {
	ID   string `json:"id,omitempty"`
	Size []int  `json:"size,omitzero"` // [current, max]
}

// ActivityAssets are an activity's images and their hover texts.
type ActivityAssets struct {
	LargeImage string `json:"large_image,omitempty"`
	LargeText  string `json:"large_text,omitempty"`
	SmallImage string `json:"small_image,omitempty"`
	SmallText  string `json:"small_text,omitempty"`
}

// ActivitySecrets are an activity's join and spectate secrets.
type ActivitySecrets struct {
	Join     string `json:"join,omitempty"`
	Spectate string `json:"spectate,omitempty"`
	Match    string `json:"match,omitempty"`
}

// StageInstance is a live stage: a stage channel's current topic.
type StageInstance struct {
	ID                    Snowflake  `json:"id"`
	GuildID               Snowflake  `json:"guild_id"`
	ChannelID             Snowflake  `json:"channel_id"`
	Topic                 string     `json:"topic"`
	PrivacyLevel          int        `json:"privacy_level"` // 2: guild only
	DiscoverableDisabled  bool       `json:"discoverable_disabled"`
	GuildScheduledEventID *Snowflake `json:"guild_scheduled_event_id"` // nil when null
}

// SoundboardSound is a sound of a guild's soundboard.
type SoundboardSound struct {
	Name      string     `json:"name"`
	SoundID   Snowflake  `json:"sound_id"`
	Volume    float64    `json:"volume"`             // 0 to 1
	EmojiID   *Snowflake `json:"emoji_id"`           // nil when null
	EmojiName *string    `json:"emoji_name"`         // nil when null
	GuildID   *Snowflake `json:"guild_id,omitempty"` // nil when absent
	Available bool       `json:"available"`
	User      *User      `json:"user,omitempty"` // who uploaded it; nil when absent
}
