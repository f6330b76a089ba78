package guildkit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/internal/jsonenc"
	"github.com/seed012df1e9/guildkit/internal/jsonscan"
	"github.com/seed012df1e9/guildkit/wire"
)

// Message is a message in a channel, as webhook operations return it. The
// interface names the message object without listing its fields; these are
// the reference platform's, as far as webhook messages use them.
type Message struct {
	ID        Snowflake `json:"id"`
	ChannelID Snowflake `json:"channel_id"`
	// Author is the webhook for a webhook message: its id, its name (or the
	// execution's username override) and avatar, with Bot set. Nil when absent.
	Author          *User      `json:"author,omitempty"`
	Content         string     `json:"content"`
	Timestamp       time.Time  `json:"timestamp"`
	EditedTimestamp *time.Time `json:"edited_timestamp"` // nil until edited; nil when null
	TTS             bool       `json:"tts"`
	// MentionEveryone, Mentions and MentionRoles are built from the content
	// (from the Text Display components of a Components V2 message) under the
	// request's allowed mentions, and rebuilt on every edit of the content.
	MentionEveryone bool            `json:"mention_everyone"`
	Mentions        []User          `json:"mentions"`
	MentionRoles    []Snowflake     `json:"mention_roles"`
	Attachments     []Attachment    `json:"attachments"`
	Embeds          []Embed         `json:"embeds"`
	Pinned          bool            `json:"pinned"`
	WebhookID       *Snowflake      `json:"webhook_id,omitempty"` // nil when absent
	Type            MessageType     `json:"type"`
	ApplicationID   *Snowflake      `json:"application_id,omitempty"` // set for application-owned webhooks; nil when absent
	Flags           MessageFlags    `json:"flags"`
	Components      components.List `json:"components"`     // [] when none
	Poll            *Poll           `json:"poll,omitempty"` // nil when absent
	// Thread is the thread the message started, when Execute Webhook made
	// one (thread_name in a forum or media channel). Nil when absent.
	Thread *Channel `json:"thread,omitempty"`

	// MentionChannels are the channels a crossposted message mentions,
	// only those anyone in a public guild can see; nil when absent.
	MentionChannels []ChannelMention `json:"mention_channels,omitzero"`
	// Reactions are kept by the platform (read-only); nil when absent.
	Reactions []Reaction `json:"reactions,omitzero"`
	// Nonce is the sender's nonce, echoed in MESSAGE_CREATE; "" when
	// absent.
	Nonce Nonce `json:"nonce,omitzero"`
	// MessageReference is where a reply, forward, crosspost, pin notice or
	// thread notice points; nil when absent.
	MessageReference *MessageReference `json:"message_reference,omitempty"`
	// MessageSnapshots holds a forward's frozen copy of the message it
	// forwards (one; no author); nil when absent.
	MessageSnapshots []MessageSnapshot `json:"message_snapshots,omitzero"`
	// ReferencedMessage is the message a reply (type 19), thread starter
	// (21) or context-menu answer (23) points to: the zero Opt when absent
	// (the platform did not look it up), Null when it was deleted.
	ReferencedMessage Opt[*Message] `json:"referenced_message,omitzero"`
	// InteractionMetadata is set on messages an interaction made; nil
	// when absent.
	InteractionMetadata *MessageInteractionMetadata `json:"interaction_metadata,omitempty"`
	// StickerItems are the stickers sent; nil when absent.
	StickerItems []StickerItem `json:"sticker_items,omitzero"`
	// Position is a thread message's approximate, generally rising index;
	// nil when absent.
	Position *int `json:"position,omitempty"`
}

// ChannelMention is a channel a crossposted message mentions.
type ChannelMention struct {
	ID      Snowflake   `json:"id"`
	GuildID Snowflake   `json:"guild_id"`
	Type    ChannelType `json:"type"`
	Name    string      `json:"name"`
}

// Reaction is the count of one emoji's reactions to a message.
type Reaction struct {
	Count        int                  `json:"count"`
	CountDetails ReactionCountDetails `json:"count_details"`
	Me           bool                 `json:"me"`       // the current user reacted
	MeBurst      bool                 `json:"me_burst"` // the current user super-reacted
	Emoji        Emoji                `json:"emoji"`    // partial: id (zero for a Unicode emoji), name, animated
	BurstColors  []string             `json:"burst_colors,omitzero"`
}

// ReactionCountDetails splits a reaction's count.
type ReactionCountDetails struct {
	Burst  int `json:"burst"`
	Normal int `json:"normal"`
}

// Nonce is a message's nonce: the platform takes an integer or a string
// of up to 25 characters, and echoes it in MESSAGE_CREATE. It decodes
// either (an integer as its decimal text) and encodes as a string.
type Nonce string

// UnmarshalJSON decodes a string or an integer.
func (n *Nonce) UnmarshalJSON(b []byte) error {
	switch {
	case len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"' && !bytes.ContainsAny(b[1:len(b)-1], "\\\"") &&
		utf8.Valid(b) && !bytes.ContainsFunc(b, func(r rune) bool { return r < 0x20 }):
		*n = Nonce(b[1 : len(b)-1]) // the usual nonce: no escapes
		return nil
	case string(b) == "null":
		*n = ""
		return nil
	case len(b) > 0 && b[0] != '"':
		var num json.Number
		if err := json.Unmarshal(b, &num); err != nil {
			return err
		}
		*n = Nonce(num)
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*n = Nonce(s)
	return nil
}

// MessageReferenceType is the kind of a [MessageReference].
type MessageReferenceType int

// Message reference types.
const (
	MessageReferenceDefault MessageReferenceType = 0 // a reply (or a crosspost, pin or thread notice)
	MessageReferenceForward MessageReferenceType = 1 // a forward: the message carries a snapshot
)

// String returns "DEFAULT" or "FORWARD".
func (t MessageReferenceType) String() string {
	return enumString("MessageReferenceType", []string{"DEFAULT", "FORWARD"}, int(t))
}

// MessageReference points a message at another: a reply or a forward
// when sending; on a received message also a crosspost, a pin notice or a
// thread notice.
type MessageReference struct {
	// Type is absent (DEFAULT) for a reply, FORWARD for a forward.
	Type      MessageReferenceType `json:"type,omitempty"`
	MessageID Snowflake            `json:"message_id,omitempty"`
	// ChannelID is optional for a reply, required for a forward, and
	// always present on a received message.
	ChannelID Snowflake `json:"channel_id,omitempty"`
	GuildID   Snowflake `json:"guild_id,omitempty"`
	// FailIfNotExists (sending only): when absent (the zero Opt: true) a
	// reply to a missing message fails with 10008; Some(false) sends it
	// as a plain message instead.
	FailIfNotExists Opt[bool] `json:"fail_if_not_exists,omitzero"`
}

// MessageSnapshot is a forward's frozen copy of the forwarded message:
// only its type, content, embeds, attachments, timestamps, flags,
// mentions, stickers and components are set.
type MessageSnapshot struct {
	Message Message `json:"message"`
}

// MessageInteractionMetadata describes the interaction that made a
// message.
type MessageInteractionMetadata struct {
	ID   Snowflake       `json:"id"`
	Type InteractionType `json:"type"`
	User User            `json:"user"`
	// OriginalResponseMessageID is set on follow-ups; nil when absent.
	OriginalResponseMessageID *Snowflake `json:"original_response_message_id,omitempty"`
	// TargetUser is a user command's target; nil when absent.
	TargetUser *User `json:"target_user,omitempty"`
	// TargetMessageID is a message command's target; nil when absent.
	TargetMessageID *Snowflake `json:"target_message_id,omitempty"`
	// InteractedMessageID is the message whose component was used; nil
	// when absent.
	InteractedMessageID *Snowflake `json:"interacted_message_id,omitempty"`
}

// StickerItem is a sticker sent with a message.
type StickerItem struct {
	ID         Snowflake `json:"id"`
	Name       string    `json:"name"`
	FormatType int       `json:"format_type"` // 1 PNG, 2 APNG, 3 LOTTIE, 4 GIF
}

// MessageType is the kind of a message. Webhook messages are
// [MessageTypeDefault]; a bot's reply is [MessageTypeReply].
type MessageType int

// Message types bots commonly see (messages.md §1.3).
const (
	MessageTypeDefault              MessageType = 0
	MessageTypeChannelPinnedMessage MessageType = 6  // notice that a message was pinned
	MessageTypeUserJoin             MessageType = 7  // welcome notice in the system channel
	MessageTypeGuildBoost           MessageType = 8  // 9-11: reaching a boost tier
	MessageTypeChannelFollowAdd     MessageType = 12 // an announcement channel was followed into this one
	MessageTypeThreadCreated        MessageType = 18 // content is the thread's name
	MessageTypeReply                MessageType = 19
	MessageTypeChatInputCommand     MessageType = 20 // answer to a slash command
	MessageTypeThreadStarterMessage MessageType = 21 // cannot be deleted
	MessageTypeContextMenuCommand   MessageType = 23
	MessageTypeAutoModerationAction MessageType = 24 // deletable only with MANAGE_MESSAGES
	MessageTypePollResult           MessageType = 46
)

var messageTypeNames = map[MessageType]string{
	MessageTypeDefault: "DEFAULT", MessageTypeChannelPinnedMessage: "CHANNEL_PINNED_MESSAGE",
	MessageTypeUserJoin: "USER_JOIN", MessageTypeGuildBoost: "GUILD_BOOST", 9: "GUILD_BOOST_TIER_1",
	10: "GUILD_BOOST_TIER_2", 11: "GUILD_BOOST_TIER_3", MessageTypeChannelFollowAdd: "CHANNEL_FOLLOW_ADD",
	MessageTypeThreadCreated: "THREAD_CREATED", MessageTypeReply: "REPLY",
	MessageTypeChatInputCommand: "CHAT_INPUT_COMMAND", MessageTypeThreadStarterMessage: "THREAD_STARTER_MESSAGE",
	MessageTypeContextMenuCommand: "CONTEXT_MENU_COMMAND", MessageTypeAutoModerationAction: "AUTO_MODERATION_ACTION",
	MessageTypePollResult: "POLL_RESULT",
}

// String returns the type's name ("DEFAULT", "REPLY", ...), or
// "MessageType(n)" for one not listed.
func (t MessageType) String() string {
	if n, ok := messageTypeNames[t]; ok {
		return n
	}
	return enumString("MessageType", nil, int(t))
}

// MessageFlags is the bit set of a message's flags. Webhook executions may
// set only [MessageFlagSuppressEmbeds], [MessageFlagSuppressNotifications]
// and [MessageFlagIsComponentsV2]; edits only SuppressEmbeds and
// IsComponentsV2.
type MessageFlags int

// Message flags, the reference platform's.
const (
	MessageFlagCrossposted                      MessageFlags = 1 << 0
	MessageFlagIsCrosspost                      MessageFlags = 1 << 1
	MessageFlagSuppressEmbeds                   MessageFlags = 1 << 2 // no embeds shown for the message's links
	MessageFlagSourceMessageDeleted             MessageFlags = 1 << 3
	MessageFlagUrgent                           MessageFlags = 1 << 4
	MessageFlagHasThread                        MessageFlags = 1 << 5
	MessageFlagEphemeral                        MessageFlags = 1 << 6
	MessageFlagLoading                          MessageFlags = 1 << 7
	MessageFlagFailedToMentionSomeRolesInThread MessageFlags = 1 << 8
	MessageFlagSuppressNotifications            MessageFlags = 1 << 12 // no push or desktop notification
	MessageFlagIsVoiceMessage                   MessageFlags = 1 << 13
	MessageFlagHasSnapshot                      MessageFlags = 1 << 14
	// MessageFlagIsComponentsV2 (32768) makes the message hold only
	// components: no content, embeds, files or poll. Once set it cannot be
	// removed.
	MessageFlagIsComponentsV2 MessageFlags = 1 << 15
)

var messageFlagNames = []string{
	"CROSSPOSTED", "IS_CROSSPOST", "SUPPRESS_EMBEDS", "SOURCE_MESSAGE_DELETED", "URGENT",
	"HAS_THREAD", "EPHEMERAL", "LOADING", "FAILED_TO_MENTION_SOME_ROLES_IN_THREAD", "", "", "",
	"SUPPRESS_NOTIFICATIONS", "IS_VOICE_MESSAGE", "HAS_SNAPSHOT", "IS_COMPONENTS_V2",
}

// Has reports whether every flag of g is set in f.
func (f MessageFlags) Has(g MessageFlags) bool { return f&g == g }

// String names the set flags: "SUPPRESS_EMBEDS|IS_COMPONENTS_V2".
func (f MessageFlags) String() string { return flagString(messageFlagNames, uint64(uint32(f))) }

// Attachment is a file attached to a message.
type Attachment struct {
	ID          Snowflake `json:"id"`
	Filename    string    `json:"filename"`
	Title       string    `json:"title,omitempty"`
	Description string    `json:"description,omitempty"` // alt text, up to 1024 characters
	ContentType string    `json:"content_type,omitempty"`
	Size        int64     `json:"size"` // bytes
	URL         string    `json:"url"`
	ProxyURL    string    `json:"proxy_url"`
	Height      *int      `json:"height,omitempty"` // images only; nil when absent
	Width       *int      `json:"width,omitempty"`  // images only; nil when absent
	Ephemeral   bool      `json:"ephemeral,omitempty"`
	Flags       int       `json:"flags,omitempty"`
}

// PartialAttachment names an attachment in a request's attachments list.
//
// With files (Execute, Edit): an ID below the number of files refers to the
// file of that index (files[ID]) and gives its Filename and Description; the
// client adds an entry for every file the list does not describe. In an edit,
// other IDs are existing attachments of the message to keep; attachments not
// listed are removed.
type PartialAttachment struct {
	ID          Snowflake `json:"id"`
	Filename    string    `json:"filename,omitempty"`
	Title       string    `json:"title,omitempty"`
	Description string    `json:"description,omitempty"`
	// IsSpoiler hides the file until clicked (the attachment's IS_SPOILER
	// flag).
	IsSpoiler bool `json:"is_spoiler,omitempty"`
	// DurationSecs and Waveform (base64) describe the audio of a voice
	// message (IS_VOICE_MESSAGE).
	DurationSecs float64 `json:"duration_secs,omitempty"`
	Waveform     string  `json:"waveform,omitempty"`
}

// AllowedMentions controls which mentions in a message notify (ping). When a
// request carries none, every mention in the content notifies.
type AllowedMentions struct {
	// Parse lists the kinds of mention parsed from the content. An empty,
	// non-nil list parses none; nil leaves the key out (then only Users and
	// Roles notify).
	Parse []AllowedMentionType `json:"parse,omitzero"`
	// Roles and Users notify when mentioned, up to 100 each. Roles must not be
	// combined with Parse holding "roles", nor Users with "users".
	Roles       []Snowflake `json:"roles,omitzero"`
	Users       []Snowflake `json:"users,omitzero"`
	RepliedUser bool        `json:"replied_user,omitempty"` // for replies, whether the replied-to author is pinged
}

// AllowedMentionType is a kind of mention in [AllowedMentions].Parse.
type AllowedMentionType string

// Allowed mention types.
const (
	AllowedMentionRoles    AllowedMentionType = "roles"    // <@&id>
	AllowedMentionUsers    AllowedMentionType = "users"    // <@id>
	AllowedMentionEveryone AllowedMentionType = "everyone" // @everyone and @here
)

// maxAllowedMentionIDs is the platform's bound on AllowedMentions.Users and
// Roles.
const maxAllowedMentionIDs = 100

func validateAllowedMentions(v *ValidationError, path string, a AllowedMentions) {
	parses := map[AllowedMentionType]bool{}
	for i, p := range a.Parse {
		switch p {
		case AllowedMentionRoles, AllowedMentionUsers, AllowedMentionEveryone:
		default:
			v.Add(wire.JoinPath(path, "parse["+strconv.Itoa(i)+"]"), wire.CodeInvalid, "%q is not one of roles, users, everyone", p)
		}
		if parses[p] {
			v.Add(wire.JoinPath(path, "parse["+strconv.Itoa(i)+"]"), wire.CodeDuplicate, "%q is listed twice", p)
		}
		parses[p] = true
	}
	if parses[AllowedMentionUsers] && len(a.Users) > 0 {
		v.Add(wire.JoinPath(path, "users"), wire.CodeConflict, "cannot list users when parse holds \"users\"")
	}
	if parses[AllowedMentionRoles] && len(a.Roles) > 0 {
		v.Add(wire.JoinPath(path, "roles"), wire.CodeConflict, "cannot list roles when parse holds \"roles\"")
	}
	if len(a.Users) > maxAllowedMentionIDs {
		v.Add(wire.JoinPath(path, "users"), wire.CodeLength, "at most %d users, got %d", maxAllowedMentionIDs, len(a.Users))
	}
	if len(a.Roles) > maxAllowedMentionIDs {
		v.Add(wire.JoinPath(path, "roles"), wire.CodeLength, "at most %d roles, got %d", maxAllowedMentionIDs, len(a.Roles))
	}
}

// Poll is a poll attached to a message, as the service returns it.
type Poll struct {
	Question         PollMedia      `json:"question"`
	Answers          []PollAnswer   `json:"answers"`
	Expiry           *time.Time     `json:"expiry"` // nil when null
	AllowMultiselect bool           `json:"allow_multiselect"`
	LayoutType       PollLayoutType `json:"layout_type"`
	Results          *PollResults   `json:"results,omitempty"` // nil when absent
}

// PollCreate is the poll request object of Execute Webhook.
type PollCreate struct {
	Question PollMedia    `json:"question"` // Text required, up to 300 characters
	Answers  []PollAnswer `json:"answers"`  // 1-10; Text up to 55 characters
	// Duration is how long the poll is open, in hours: 1-768 (32 days);
	// absent (the zero Opt) means 24.
	Duration         Opt[int]       `json:"duration,omitzero"`
	AllowMultiselect bool           `json:"allow_multiselect,omitempty"`
	LayoutType       PollLayoutType `json:"layout_type,omitempty"`
}

// PollMedia is a poll's question or an answer's text and emoji.
type PollMedia struct {
	Text  string `json:"text,omitempty"`
	Emoji *Emoji `json:"emoji,omitempty"` // nil when absent
}

// PollAnswer is one answer of a poll. AnswerID is set by the service.
type PollAnswer struct {
	AnswerID  int       `json:"answer_id,omitempty"`
	PollMedia PollMedia `json:"poll_media"`
}

// PollResults are a poll's vote counts.
type PollResults struct {
	IsFinalized  bool              `json:"is_finalized"`
	AnswerCounts []PollAnswerCount `json:"answer_counts"`
}

// PollAnswerCount is the vote count of one answer.
type PollAnswerCount struct {
	ID      int  `json:"id"`
	Count   int  `json:"count"`
	MeVoted bool `json:"me_voted"`
}

// PollLayoutType is the layout of a poll; 1 is the default.
type PollLayoutType int

// Poll layouts.
const PollLayoutDefault PollLayoutType = 1

// Limits of messages, the interface's (content, embeds) and the reference
// platform's (embed texts, polls).
const (
	MaxMessageContent      = 2000 // characters of content
	MaxMessageEmbeds       = 10   // embeds per message
	MaxEmbedTitle          = 256
	MaxEmbedDescription    = 4096
	MaxEmbedFields         = 25
	MaxEmbedFieldName      = 256
	MaxEmbedFieldValue     = 1024
	MaxEmbedFooterText     = 2048
	MaxEmbedAuthorName     = 256
	MaxEmbedTotal          = 6000 // characters across all embeds of a message
	MaxPollQuestion        = 300
	MaxPollAnswers         = 10
	MaxPollAnswerText      = 55
	MaxPollDurationHours   = 768
	MaxAttachmentAltText   = 1024
	maxWebhookMessageFiles = 10
)

// validateMessagePoll checks a poll request against the reference platform's
// bounds.
func validateMessagePoll(v *ValidationError, path string, p PollCreate) {
	if p.Question.Text == "" {
		v.Add(path+".question.text", wire.CodeRequired, "the question text is required")
	}
	messageMaxLen(v, path+".question.text", p.Question.Text, MaxPollQuestion)
	if len(p.Answers) == 0 || len(p.Answers) > MaxPollAnswers {
		v.Add(path+".answers", wire.CodeLength, "1-%d answers, got %d", MaxPollAnswers, len(p.Answers))
	}
	for i, a := range p.Answers {
		ap := path + ".answers[" + strconv.Itoa(i) + "].poll_media.text"
		if a.PollMedia.Text == "" {
			v.Add(ap, wire.CodeRequired, "answer text is required")
		}
		messageMaxLen(v, ap, a.PollMedia.Text, MaxPollAnswerText)
	}
	if d, ok := p.Duration.Get(); ok && (d < 1 || d > MaxPollDurationHours) {
		v.Add(path+".duration", wire.CodeRange, "1-%d hours, got %d", MaxPollDurationHours, d)
	}
	notNull(v, path+".duration", p.Duration)
}

// messageMaxLen reports s longer than max characters at path, and returns its
// length in characters.
func messageMaxLen(v *ValidationError, path, s string, max int) int {
	n := utf8.RuneCountInString(s)
	if n > max {
		v.Add(path, wire.CodeLength, "at most %d characters, got %d", max, n)
	}
	return n
}

func validateMessageFiles(v *ValidationError, files []File) {
	if len(files) > maxWebhookMessageFiles {
		v.Add("files", wire.CodeLength, "at most %d files, got %d", maxWebhookMessageFiles, len(files))
	}
	for i, f := range files {
		if f.Name == "" {
			v.Add(fmt.Sprintf("files[%d].name", i), wire.CodeRequired, "a file needs a name")
		}
		if f.Reader == nil {
			v.Add(fmt.Sprintf("files[%d].reader", i), wire.CodeRequired, "a file needs a Reader")
		}
	}
}

// Request bodies write attachments without encoding/json: a message
// with files describes each of them on every send.
func init() { jsonenc.Register(appendPartialAttachment) }

// appendPartialAttachment writes what json.Marshal writes for *a, or
// reports false for a duration encoding/json refuses (NaN, infinities).
func appendPartialAttachment(b []byte, a *PartialAttachment) ([]byte, bool) {
	b = strconv.AppendUint(append(b, `{"id":"`...), uint64(a.ID), 10)
	b = append(b, '"')
	if a.Filename != "" {
		b = jsonscan.AppendString(append(b, `,"filename":`...), a.Filename)
	}
	if a.Title != "" {
		b = jsonscan.AppendString(append(b, `,"title":`...), a.Title)
	}
	if a.Description != "" {
		b = jsonscan.AppendString(append(b, `,"description":`...), a.Description)
	}
	if a.IsSpoiler {
		b = append(b, `,"is_spoiler":true`...)
	}
	if f := a.DurationSecs; f != 0 {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, false
		}
		// encoding/json's float64 form: ES6's, exponents without a
		// leading zero.
		format := byte('f')
		if abs := math.Abs(f); abs < 1e-6 || abs >= 1e21 {
			format = 'e'
		}
		b = strconv.AppendFloat(append(b, `,"duration_secs":`...), f, format, -1, 64)
		if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	if a.Waveform != "" {
		b = jsonscan.AppendString(append(b, `,"waveform":`...), a.Waveform)
	}
	return append(b, '}'), true
}

// messageFileAttachments returns the attachments list to send with files: the
// caller's entries (describing files by index, or naming attachments to
// keep) with an entry added for every file not described.
func messageFileAttachments(given []PartialAttachment, files []File) []PartialAttachment {
	out := slices.Clone(given)
	for i, f := range files {
		found := false
		for j, a := range out {
			if int(a.ID) == i && a.ID < Snowflake(len(files)) {
				if a.Filename == "" {
					out[j].Filename = f.Name
				}
				found = true
			}
		}
		if !found {
			out = append(out, PartialAttachment{ID: Snowflake(i), Filename: f.Name})
		}
	}
	return out
}

func messageFileParts(files []File) []formPart {
	parts := make([]formPart, len(files))
	for i, f := range files {
		var name string
		if i < len(fileFields) {
			name = fileFields[i]
		} else {
			name = "files[" + strconv.Itoa(i) + "]"
		}
		parts[i] = filePart(name, f)
	}
	return parts
}

// fileFields are the part names of the first files.
var fileFields = [...]string{"files[0]", "files[1]", "files[2]", "files[3]", "files[4]",
	"files[5]", "files[6]", "files[7]", "files[8]", "files[9]"}

// validateV2Files checks the files of a Components V2 message. The
// document says both that such a message shows attachments "only if
// exposed through components" (File, Thumbnail and Media Gallery items
// taking attachment://<filename>) and, in its error table, that the flag
// "together with … files[n]" is a 400; read together, and as the reference
// platform behaves, a V2 message may upload files when each is referenced by
// an attachment:// URL of its components, and refuses an unreferenced file
// or a reference to a file not uploaded.
func validateV2Files(v *ValidationError, files []File, entries []PartialAttachment, comps components.List) {
	refs := components.AttachmentRefs(comps...)
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.Name
		for _, e := range entries {
			if int(e.ID) == i && e.Filename != "" {
				names[i] = e.Filename // the entry renames the upload
			}
		}
		if !slices.Contains(refs, names[i]) {
			v.Add(fmt.Sprintf("files[%d]", i), wire.CodeConflict,
				"%q is not shown: a message with IS_COMPONENTS_V2 shows a file only through a component referring to attachment://%s", names[i], names[i])
		}
	}
	for _, r := range refs {
		if !slices.Contains(names, r) {
			v.Add("components", wire.CodeInvalid, "attachment://%s names no uploaded file", r)
		}
	}
}

// messageBody is what a new message, an interaction's answer or an update
// carries, for the checks they share.
type messageBody struct {
	content         string
	embeds          []Embed
	allowedMentions Opt[AllowedMentions]
	poll            Opt[PollCreate]
	files           []File
	attachments     []PartialAttachment
	comps           components.List
	v2              bool // IS_COMPONENTS_V2 is set, or the message is V2
	appOwned        bool // interactive components are allowed
	// newFiles: attachments entries describe files by index, so their ids
	// are below len(files); an update's may name attachments to keep.
	newFiles bool
}

// checkMessageBody checks b: its parts ([messageBody.checkParts]), what a
// Components V2 message cannot hold, and the components in the message's
// mode. It reports whether there is a component tree and whether there is
// a poll.
func checkMessageBody(v *ValidationError, b messageBody) (hasComponents, hasPoll bool) {
	hasPoll = b.checkParts(v)
	if b.v2 {
		if b.content != "" {
			v.Add("content", wire.CodeConflict, "a message with IS_COMPONENTS_V2 holds only components: no content")
		}
		if len(b.embeds) > 0 {
			v.Add("embeds", wire.CodeConflict, "a message with IS_COMPONENTS_V2 holds only components: no embeds")
		}
		validateV2Files(v, b.files, b.attachments, b.comps)
		if hasPoll {
			v.Add("poll", wire.CodeConflict, "a message with IS_COMPONENTS_V2 holds only components: no poll")
		}
	}
	return validateMessageComponents(v, b.comps, b.v2, b.appOwned), hasPoll
}

// checkParts checks what every message body, an edit's included, checks
// alike: content length, embeds, allowed mentions, poll, files and the
// attachments entries. It reports whether there is a poll.
func (b *messageBody) checkParts(v *ValidationError) (hasPoll bool) {
	messageMaxLen(v, "content", b.content, MaxMessageContent)
	validateMessageEmbeds(v, "embeds", b.embeds)
	if am, ok := b.allowedMentions.Get(); ok {
		validateAllowedMentions(v, "allowed_mentions", am)
	}
	poll, hasPoll := b.poll.Get()
	if hasPoll {
		validateMessagePoll(v, "poll", poll)
	}
	validateMessageFiles(v, b.files)
	for i, a := range b.attachments {
		if b.newFiles && int(a.ID) >= len(b.files) {
			v.Add(fmt.Sprintf("attachments[%d].id", i), wire.CodeInvalid, "names files[%d], but there are %d files", a.ID, len(b.files))
		}
		messageMaxLen(v, fmt.Sprintf("attachments[%d].description", i), a.Description, MaxAttachmentAltText)
	}
	return hasPoll
}

// requireSomething reports a new message that would show nothing.
func (b *messageBody) requireSomething(v *ValidationError, hasComponents, hasPoll bool) {
	if b.content == "" && len(b.embeds) == 0 && !hasComponents && len(b.files) == 0 && !hasPoll {
		v.Add("", wire.CodeRequired, "at least one of content, embeds, components, files and poll is required")
	}
}

// validateMessageComponents checks a message's component tree with
// [components.Validate] in the matching mode (V2 or legacy; non-interactive
// only unless the webhook is application-owned), merging the problems under
// "components", and reports whether there is a tree.
func validateMessageComponents(v *ValidationError, comps components.List, v2, appOwned bool) bool {
	if len(comps) == 0 {
		return false
	}
	target := components.LegacyMessage
	if v2 {
		target = components.V2Message
	}
	if !appOwned {
		target |= components.NonInteractive
	}
	if err := components.Validate(target, comps...); err != nil {
		var ve *ValidationError
		if errors.As(err, &ve) {
			if !appOwned {
				for i := range ve.Problems {
					if ve.Problems[i].Code == wire.CodeNotAllowed && strings.Contains(ve.Problems[i].Message, "not owned by an application") {
						ve.Problems[i].Message += " (set the params' ApplicationOwned if an application owns the webhook)"
					}
				}
			}
			v.Merge("components", ve)
		} else {
			v.Add("components", wire.CodeInvalid, "%v", err)
		}
	}
	return true
}

// messageLooksV2 reports whether a tree can only be a Components V2
// message's: a top-level component that is not an action row.
func messageLooksV2(comps components.List) bool {
	for _, c := range comps {
		if c != nil && c.Type() != components.TypeActionRow {
			return true
		}
	}
	return false
}
