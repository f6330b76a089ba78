package guildkit

import (
	"context"
	"maps"
	"net/http"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/seed012df1e9/guildkit/wire"
)

// ChannelService handles the operations on channels and threads: the guild's
// channels, Get (a DM channel too) and the typing indicator. Reach it
// through [Client].Channels; their messages are [MessageService]'s.
type ChannelService service

// Channel is a guild channel or thread. The interface names the fields it
// uses (those of Create Guild Channel, the thread metadata and member, the
// overwrites, forum tags and default reaction); the rest are the reference
// platform's. Fields that only some channel types carry are omitted from the
// JSON when absent.
type Channel struct {
	ID                   Snowflake             `json:"id"`
	Type                 ChannelType           `json:"type"`
	GuildID              Snowflake             `json:"guild_id,omitempty"`
	Position             int                   `json:"position"` // ties are sorted by id
	PermissionOverwrites []PermissionOverwrite `json:"permission_overwrites,omitzero"`
	Name                 string                `json:"name"` // 1-100 characters
	// Topic is 0-1024 characters (text, announcement, forum, media); Null
	// when unset, absent (the zero Opt) for types that have none.
	Topic Opt[string] `json:"topic,omitzero"`
	NSFW  *bool       `json:"nsfw,omitempty"` // nil when absent
	// LastMessageID is the id of the last message sent (it may not exist). Zero Opt when absent, Null when null.
	LastMessageID Opt[Snowflake] `json:"last_message_id,omitzero"`
	Bitrate       *int           `json:"bitrate,omitempty"`    // bits per second (voice, stage); nil when absent
	UserLimit     *int           `json:"user_limit,omitempty"` // 0 means no limit (voice, stage); nil when absent
	// RateLimitPerUser is the slow mode, 0-21600 seconds; bots and holders of
	// MANAGE_MESSAGES or MANAGE_CHANNELS are not affected. Nil when absent.
	RateLimitPerUser *int `json:"rate_limit_per_user,omitempty"`
	// OwnerID is the creator of a thread.
	OwnerID Snowflake `json:"owner_id,omitempty"`
	// ParentID is the category of a channel, or the channel a thread was
	// created in.
	// ParentID is Null for a channel outside any category; the zero Opt when absent.
	ParentID         Opt[Snowflake] `json:"parent_id,omitzero"`
	LastPinTimestamp Opt[time.Time] `json:"last_pin_timestamp,omitzero"` // zero Opt when absent, Null when null
	// RTCRegion is the voice region id; Null means automatic (voice, stage); the zero Opt when absent.
	RTCRegion        Opt[string]      `json:"rtc_region,omitzero"`
	VideoQualityMode VideoQualityMode `json:"video_quality_mode,omitempty"`
	// MessageCount and MemberCount are a thread's approximate counts. Nil when absent.
	MessageCount   *int            `json:"message_count,omitempty"`
	MemberCount    *int            `json:"member_count,omitempty"`    // nil when absent
	ThreadMetadata *ThreadMetadata `json:"thread_metadata,omitempty"` // nil when absent
	// Member is the current user's thread member object, when they joined. Nil when absent.
	Member *ThreadMember `json:"member,omitempty"`
	// DefaultAutoArchiveDuration is in minutes: 60, 1440, 4320 or 10080.
	DefaultAutoArchiveDuration int          `json:"default_auto_archive_duration,omitempty"`
	Permissions                *Permissions `json:"permissions,omitempty"`        // nil when absent
	Flags                      *int         `json:"flags,omitempty"`              // a bit set; nil when absent
	TotalMessageSent           *int         `json:"total_message_sent,omitempty"` // nil when absent
	// AvailableTags are the tags a thread of a forum or media channel can
	// carry.
	AvailableTags []ForumTag `json:"available_tags,omitzero"`
	// AppliedTags are the ids of the tags of a forum or media thread.
	AppliedTags                   []Snowflake          `json:"applied_tags,omitzero"`
	DefaultReactionEmoji          Opt[DefaultReaction] `json:"default_reaction_emoji,omitzero"`              // zero Opt when absent, Null when null
	DefaultThreadRateLimitPerUser *int                 `json:"default_thread_rate_limit_per_user,omitempty"` // nil when absent
	DefaultSortOrder              Opt[SortOrderType]   `json:"default_sort_order,omitzero"`                  // zero Opt when absent, Null when null
	DefaultForumLayout            ForumLayoutType      `json:"default_forum_layout,omitempty"`
	// Recipients are the other users of a DM channel (type 1): the one
	// user the bot talks to. Nil when absent (guild channels).
	Recipients []User `json:"recipients,omitzero"`
}

// OverwriteType says whom a permission overwrite is for.
type OverwriteType int

// Overwrite types.
const (
	OverwriteTypeRole   OverwriteType = 0
	OverwriteTypeMember OverwriteType = 1
)

func (t OverwriteType) String() string {
	return enumString("OverwriteType", []string{"ROLE", "MEMBER"}, int(t))
}

// PermissionOverwrite allows or denies permissions in a channel for a role
// (Type 0; the @everyone role has the guild's id) or a member (Type 1).
type PermissionOverwrite struct {
	ID    Snowflake     `json:"id"`
	Type  OverwriteType `json:"type"`
	Allow Permissions   `json:"allow"`
	Deny  Permissions   `json:"deny"`
}

// VideoQualityMode is the camera video quality of a voice or stage channel.
type VideoQualityMode int

// Video quality modes. 0 means unset (the service's default, AUTO).
const (
	VideoQualityAuto VideoQualityMode = 1 // the service chooses
	VideoQualityFull VideoQualityMode = 2 // 720p
)

func (m VideoQualityMode) String() string {
	return enumString("VideoQualityMode", []string{"UNSET", "AUTO", "FULL"}, int(m))
}

// SortOrderType is how a forum or media channel sorts its posts.
type SortOrderType int

// Sort orders.
const (
	SortOrderLatestActivity SortOrderType = 0
	SortOrderCreationDate   SortOrderType = 1
)

func (t SortOrderType) String() string {
	return enumString("SortOrderType", []string{"LATEST_ACTIVITY", "CREATION_DATE"}, int(t))
}

// ForumLayoutType is how a forum channel shows its posts.
type ForumLayoutType int

// Forum layouts.
const (
	ForumLayoutNotSet  ForumLayoutType = 0
	ForumLayoutList    ForumLayoutType = 1
	ForumLayoutGallery ForumLayoutType = 2
)

func (t ForumLayoutType) String() string {
	return enumString("ForumLayoutType", []string{"NOT_SET", "LIST_VIEW", "GALLERY_VIEW"}, int(t))
}

// ThreadMetadata holds the thread-only fields of a thread channel.
type ThreadMetadata struct {
	Archived bool `json:"archived"`
	// AutoArchiveDuration is in minutes: 60, 1440, 4320 or 10080.
	AutoArchiveDuration int       `json:"auto_archive_duration"`
	ArchiveTimestamp    time.Time `json:"archive_timestamp"` // last change of Archived
	Locked              bool      `json:"locked"`
	// Invitable says whether non-moderators can add others to a private
	// thread. Nil when absent.
	Invitable       *bool      `json:"invitable,omitempty"`
	CreateTimestamp *time.Time `json:"create_timestamp,omitempty"` // nil when absent
}

// ThreadMember is a user's membership of a thread.
type ThreadMember struct {
	ID            *Snowflake `json:"id,omitempty"`      // the thread; absent in some events; nil when absent
	UserID        *Snowflake `json:"user_id,omitempty"` // absent in some events; nil when absent
	JoinTimestamp time.Time  `json:"join_timestamp"`
	Flags         int        `json:"flags"`
	Member        *Member    `json:"member,omitempty"` // nil when absent
}

// ForumTag is a tag a forum or media thread can carry. At most one of
// EmojiID and EmojiName is set.
type ForumTag struct {
	ID        Snowflake  `json:"id,omitempty"` // absent when creating
	Name      string     `json:"name"`         // 0-20 characters
	Moderated bool       `json:"moderated"`    // only MANAGE_THREADS holders may apply it
	EmojiID   *Snowflake `json:"emoji_id"`     // nil when null
	EmojiName *string    `json:"emoji_name"`   // nil when null
}

// DefaultReaction is the emoji shown on the add-reaction button of a forum
// post: a custom emoji's id or a standard emoji's character.
type DefaultReaction struct {
	EmojiID   *Snowflake `json:"emoji_id"`   // nil when null
	EmojiName *string    `json:"emoji_name"` // nil when null
}

// ActiveThreads is the answer of [ChannelService.ListActiveThreads].
type ActiveThreads struct {
	// Threads are the active threads, public and private, by id descending.
	Threads []Channel `json:"threads"`
	// Members are the caller's thread member objects for the threads it
	// joined.
	Members []ThreadMember `json:"members"`
	// HasMore says whether there are more active threads than answered
	// (the reference platform's field; the interface answers all).
	HasMore bool `json:"has_more"`
}

// List returns the guild's channels, threads excluded.
//
// Spec: "Get Guild Channels" — GET /guilds/{guild.id}/channels
func (s *ChannelService) List(ctx context.Context, guildID Snowflake, opts ...RequestOption) ([]Channel, error) {
	var out []Channel
	if _, err := s.c.do(ctx, &request{method: "GET", route: "/guilds/{guild.id}/channels", path: []any{guildID}, opts: opts}, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// ChannelCreateParams is the body of [ChannelService.Create]. Every field but
// Name is optional and may be Null (which means the default); fields apply
// only to the channel types named beside them, and a value for another type
// is refused before sending.
type ChannelCreateParams struct {
	Name string `json:"name"` // 1-100 characters (all)
	// Type is the kind of channel; the default is a text channel (all).
	Type Opt[ChannelType] `json:"type,omitzero"`
	// Topic is 0-1024 characters (text, announcement, forum, media).
	Topic Opt[string] `json:"topic,omitzero"`
	// Bitrate is in bits per second, at least 8000; the maximum depends on
	// the guild's premium tier (voice, stage).
	Bitrate   Opt[int] `json:"bitrate,omitzero"`
	UserLimit Opt[int] `json:"user_limit,omitzero"` // (voice, stage)
	// RateLimitPerUser is the slow mode, 0-21600 seconds (text, voice,
	// stage, forum, media).
	RateLimitPerUser Opt[int] `json:"rate_limit_per_user,omitzero"`
	// Position sorts the channel; ties are sorted by id (all).
	Position Opt[int] `json:"position,omitzero"`
	// PermissionOverwrites may only allow or deny permissions the caller
	// holds; MANAGE_ROLES is reserved to administrators (all).
	PermissionOverwrites Opt[[]PermissionOverwriteParams] `json:"permission_overwrites,omitzero"`
	// ParentID is the category (text, voice, announcement, stage, forum,
	// media).
	ParentID Opt[Snowflake] `json:"parent_id,omitzero"`
	NSFW     Opt[bool]      `json:"nsfw,omitzero"` // (text, voice, announcement, stage, forum)
	// RTCRegion is a voice region id; Null means automatic (voice, stage).
	RTCRegion        Opt[string]           `json:"rtc_region,omitzero"`
	VideoQualityMode Opt[VideoQualityMode] `json:"video_quality_mode,omitzero"` // (voice, stage)
	// DefaultAutoArchiveDuration is in minutes (text, announcement, forum,
	// media).
	DefaultAutoArchiveDuration Opt[int]             `json:"default_auto_archive_duration,omitzero"`
	DefaultReactionEmoji       Opt[DefaultReaction] `json:"default_reaction_emoji,omitzero"` // (forum, media)
	AvailableTags              Opt[[]ForumTag]      `json:"available_tags,omitzero"`         // (forum, media)
	DefaultSortOrder           Opt[SortOrderType]   `json:"default_sort_order,omitzero"`     // (forum, media)
	DefaultForumLayout         Opt[ForumLayoutType] `json:"default_forum_layout,omitzero"`   // (forum)
	// DefaultThreadRateLimitPerUser is copied to a thread when it is
	// created (text, announcement, forum, media).
	DefaultThreadRateLimitPerUser Opt[int] `json:"default_thread_rate_limit_per_user,omitzero"`
}

// PermissionOverwriteParams is a partial overwrite for
// [ChannelCreateParams]: Allow and Deny may be omitted or Null, and then
// default to no permission.
type PermissionOverwriteParams struct {
	ID    Snowflake        `json:"id"`
	Type  OverwriteType    `json:"type"`
	Allow Opt[Permissions] `json:"allow,omitzero"`
	Deny  Opt[Permissions] `json:"deny,omitzero"`
}

// Channel types a guild channel can be created with, and the groups the
// interface names in Create Guild Channel.
var (
	creatableChannelTypes = []ChannelType{ChannelTypeGuildText, ChannelTypeGuildVoice, ChannelTypeGuildCategory,
		ChannelTypeGuildAnnouncement, ChannelTypeGuildStageVoice, ChannelTypeGuildForum, ChannelTypeGuildMedia}
	voiceTypes      = []ChannelType{ChannelTypeGuildVoice, ChannelTypeGuildStageVoice}
	topicTypes      = []ChannelType{ChannelTypeGuildText, ChannelTypeGuildAnnouncement, ChannelTypeGuildForum, ChannelTypeGuildMedia}
	slowModeTypes   = []ChannelType{ChannelTypeGuildText, ChannelTypeGuildVoice, ChannelTypeGuildStageVoice, ChannelTypeGuildForum, ChannelTypeGuildMedia}
	parentableTypes = []ChannelType{ChannelTypeGuildText, ChannelTypeGuildVoice, ChannelTypeGuildAnnouncement, ChannelTypeGuildStageVoice, ChannelTypeGuildForum, ChannelTypeGuildMedia}
	nsfwTypes       = []ChannelType{ChannelTypeGuildText, ChannelTypeGuildVoice, ChannelTypeGuildAnnouncement, ChannelTypeGuildStageVoice, ChannelTypeGuildForum}
	forumTypes      = []ChannelType{ChannelTypeGuildForum, ChannelTypeGuildMedia}
)

// ChannelFieldApplies reports whether the Create Guild Channel field named
// by its JSON name applies to channel type t, per the interface's list.
// Fields it does not know apply to every type.
func ChannelFieldApplies(field string, t ChannelType) bool {
	var types []ChannelType
	switch field {
	case "topic", "default_auto_archive_duration", "default_thread_rate_limit_per_user":
		types = topicTypes
	case "bitrate", "user_limit", "rtc_region", "video_quality_mode":
		types = voiceTypes
	case "rate_limit_per_user":
		types = slowModeTypes
	case "parent_id":
		types = parentableTypes
	case "nsfw":
		types = nsfwTypes
	case "default_reaction_emoji", "available_tags", "default_sort_order":
		types = forumTypes
	case "default_forum_layout":
		types = []ChannelType{ChannelTypeGuildForum}
	default:
		return true
	}
	return slices.Contains(types, t)
}

// InapplicableFields returns the JSON names, sorted, of the fields p gives a
// value (Some) that do not apply to the channel type p asks for (text when
// Type is omitted or Null); see [ChannelFieldApplies].
func (p *ChannelCreateParams) InapplicableFields() []string {
	typ := p.Type.Or(ChannelTypeGuildText)
	set := map[string]bool{
		"topic": p.Topic.IsSet(), "bitrate": p.Bitrate.IsSet(), "user_limit": p.UserLimit.IsSet(),
		"rate_limit_per_user": p.RateLimitPerUser.IsSet(), "parent_id": p.ParentID.IsSet(), "nsfw": p.NSFW.IsSet(),
		"rtc_region": p.RTCRegion.IsSet(), "video_quality_mode": p.VideoQualityMode.IsSet(),
		"default_auto_archive_duration": p.DefaultAutoArchiveDuration.IsSet(),
		"default_reaction_emoji":        p.DefaultReactionEmoji.IsSet(), "available_tags": p.AvailableTags.IsSet(),
		"default_sort_order": p.DefaultSortOrder.IsSet(), "default_forum_layout": p.DefaultForumLayout.IsSet(),
		"default_thread_rate_limit_per_user": p.DefaultThreadRateLimitPerUser.IsSet(),
	}
	var out []string
	for _, field := range slices.Sorted(maps.Keys(set)) {
		if set[field] && !ChannelFieldApplies(field, typ) {
			out = append(out, field)
		}
	}
	return out
}

func (p *ChannelCreateParams) validate(validation) error {
	if p == nil {
		p = &ChannelCreateParams{}
	}
	var v ValidationError
	if n := utf8.RuneCountInString(p.Name); n < 1 || n > 100 {
		v.Add("name", wire.CodeLength, "1-100 characters, got %d", n)
	}
	typ := p.Type.Or(ChannelTypeGuildText)
	if !slices.Contains(creatableChannelTypes, typ) {
		v.Add("type", wire.CodeInvalid, "%v cannot be created as a guild channel", typ)
	}
	for _, field := range p.InapplicableFields() {
		v.Add(field, wire.CodeNotAllowed, "does not apply to a %v channel", typ)
	}
	if t, ok := p.Topic.Get(); ok {
		if n := utf8.RuneCountInString(t); n > 1024 {
			v.Add("topic", wire.CodeLength, "0-1024 characters, got %d", n)
		}
	}
	if b, ok := p.Bitrate.Get(); ok && b < 8000 {
		v.Add("bitrate", wire.CodeRange, "at least 8000, got %d", b)
	}
	if u, ok := p.UserLimit.Get(); ok && u < 0 {
		v.Add("user_limit", wire.CodeRange, "at least 0, got %d", u)
	}
	if r, ok := p.RateLimitPerUser.Get(); ok && (r < 0 || r > 21600) {
		v.Add("rate_limit_per_user", wire.CodeRange, "0-21600 seconds, got %d", r)
	}
	if r, ok := p.DefaultThreadRateLimitPerUser.Get(); ok && (r < 0 || r > 21600) {
		v.Add("default_thread_rate_limit_per_user", wire.CodeRange, "0-21600 seconds, got %d", r)
	}
	if ows, ok := p.PermissionOverwrites.Get(); ok {
		for i, ow := range ows {
			if ow.ID == 0 {
				v.Add(wire.JoinPath("permission_overwrites", indexPath(i, "id")), wire.CodeRequired, "required")
			}
			if ow.Type != OverwriteTypeRole && ow.Type != OverwriteTypeMember {
				v.Add(wire.JoinPath("permission_overwrites", indexPath(i, "type")), wire.CodeInvalid, "0 (role) or 1 (member), got %d", ow.Type)
			}
		}
	}
	return v.Err()
}

// Create creates a channel in the guild and returns it. Requires
// MANAGE_CHANNELS; overwrites may only grant or deny permissions the caller
// holds, and MANAGE_ROLES in them needs ADMINISTRATOR. The parameters are
// checked before sending: name 1-100 characters, topic 0-1024, slow mode
// 0-21600 seconds, bitrate at least 8000, and no field that does not apply
// to the requested type. Emits CHANNEL_CREATE. Supports WithReason.
//
// Spec: "Create Guild Channel" — POST /guilds/{guild.id}/channels
func (s *ChannelService) Create(ctx context.Context, guildID Snowflake, params *ChannelCreateParams, opts ...RequestOption) (*Channel, error) {
	if params == nil {
		params = &ChannelCreateParams{}
	}
	if err := params.validate(s.c.validation()); err != nil {
		return nil, err
	}
	var ch Channel
	if _, err := s.c.do(ctx, &request{method: "POST", route: "/guilds/{guild.id}/channels", path: []any{guildID},
		body: params, auditLog: true, opts: opts}, &ch); err != nil {
		return nil, err
	}
	return &ch, nil
}

// ChannelPositionParams moves one channel in [ChannelService.ModifyPositions].
type ChannelPositionParams struct {
	ID Snowflake `json:"id"`
	// Position is the new position; ties are sorted by id. Null leaves it.
	Position Opt[int] `json:"position,omitzero"`
	// LockPermissions syncs the channel's overwrites with its new parent
	// when it moves to another category.
	LockPermissions Opt[bool] `json:"lock_permissions,omitzero"`
	// ParentID is the new category; Null takes the channel out of its
	// category.
	ParentID Opt[Snowflake] `json:"parent_id,omitzero"`
}

// channelPositions is the body of [ChannelService.ModifyPositions].
type channelPositions []ChannelPositionParams

func (ps channelPositions) validate(validation) error {
	var v ValidationError
	validatePositionItems(&v, "channel", ps, func(p ChannelPositionParams) Snowflake { return p.ID })
	return v.Err()
}

// ModifyPositions moves channels: only the channels to change need be
// listed. Requires MANAGE_CHANNELS. Emits one CHANNEL_UPDATE per channel
// moved. The service answers 204.
//
// Spec: "Modify Guild Channel Positions" — PATCH /guilds/{guild.id}/channels
func (s *ChannelService) ModifyPositions(ctx context.Context, guildID Snowflake, positions []ChannelPositionParams, opts ...RequestOption) error {
	if err := channelPositions(positions).validate(s.c.validation()); err != nil {
		return err
	}
	_, err := s.c.do(ctx, &request{method: "PATCH", route: "/guilds/{guild.id}/channels", path: []any{guildID},
		body: positions, opts: opts}, nil)
	return err
}

// ListActiveThreads returns the guild's active threads, public and private,
// by id descending, with the caller's thread member objects for those it
// joined.
//
// Spec: "List Active Guild Threads" — GET /guilds/{guild.id}/threads/active
func (s *ChannelService) ListActiveThreads(ctx context.Context, guildID Snowflake, opts ...RequestOption) (*ActiveThreads, error) {
	var out ActiveThreads
	if _, err := s.c.do(ctx, &request{method: "GET", route: "/guilds/{guild.id}/threads/active", path: []any{guildID}, opts: opts}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Get returns a channel: a guild channel, a thread, or a DM channel (type
// 1, with its recipient and no guild, name or position). A missing channel,
// or one the bot cannot see, gives an [*APIError] matching
// [ErrUnknownChannel] (10003).
//
// Spec: "Get Channel" — GET /channels/{channel.id}
func (s *ChannelService) Get(ctx context.Context, channelID Snowflake, opts ...RequestOption) (*Channel, error) {
	var ch Channel
	if _, err := s.c.do(ctx, &request{method: http.MethodGet, route: "/channels/{channel.id}", path: []any{channelID}, opts: opts}, &ch); err != nil {
		return nil, err
	}
	return &ch, nil
}

// TriggerTyping shows the bot as typing in a channel for 10 seconds, or
// until it sends a message there. Trigger it only before a reply that
// takes a while. The platform names no permission; the in-memory server
// asks for VIEW_CHANNEL and SEND_MESSAGES. Answers 204. Emits TYPING_START.
//
// Spec: "Trigger Typing Indicator" — POST /channels/{channel.id}/typing
func (s *ChannelService) TriggerTyping(ctx context.Context, channelID Snowflake, opts ...RequestOption) error {
	_, err := s.c.do(ctx, &request{method: http.MethodPost, route: "/channels/{channel.id}/typing", path: []any{channelID}, opts: opts}, nil)
	return err
}
