package guildkit

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/internal/jsondec"
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
}

// MessageType is the kind of a message. Webhook messages are
// [MessageTypeDefault].
type MessageType int

// Message types used by webhook messages.
const (
	MessageTypeDefault MessageType = 0
	MessageTypeReply   MessageType = 19
)

// String returns "DEFAULT" or "REPLY".
func (t MessageType) String() string {
	switch t {
	case MessageTypeDefault:
		return "DEFAULT"
	case MessageTypeReply:
		return "REPLY"
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
	Description string    `json:"description,omitempty"`
}

// Embed is rich content of a message, the reference platform's embed. In a
// request every field may be set except Type (always rich), Provider, Video,
// and the proxy URLs and sizes of images; the client refuses those.
type Embed struct {
	Title       string    `json:"title,omitempty"`       // up to 256 characters
	Type        EmbedType `json:"type,omitempty"`        // "rich" for embeds a webhook sends
	Description string    `json:"description,omitempty"` // up to 4096 characters
	URL         string    `json:"url,omitempty"`
	Timestamp   time.Time `json:"timestamp,omitzero"`
	// Color is the colour of the embed's left border, 0xRRGGBB; omitted means
	// the default. Zero Opt when absent, Null when null.
	Color     Opt[int]       `json:"color,omitzero"`
	Footer    *EmbedFooter   `json:"footer,omitempty"`    // nil when absent
	Image     *EmbedMedia    `json:"image,omitempty"`     // nil when absent
	Thumbnail *EmbedMedia    `json:"thumbnail,omitempty"` // nil when absent
	Video     *EmbedMedia    `json:"video,omitempty"`     // response only; nil when absent
	Provider  *EmbedProvider `json:"provider,omitempty"`  // response only; nil when absent
	Author    *EmbedAuthor   `json:"author,omitempty"`    // nil when absent
	Fields    []EmbedField   `json:"fields,omitzero"`     // up to 25

	kept jsonscan.Kept // members decoding would drop; see [Embed.UnmarshalJSON]
}

// EmbedType is the kind of an embed: "rich" for embeds sent by webhooks and
// bots, others for link previews.
type EmbedType string

// Embed types.
const (
	EmbedTypeRich    EmbedType = "rich"
	EmbedTypeImage   EmbedType = "image"
	EmbedTypeVideo   EmbedType = "video"
	EmbedTypeGIFV    EmbedType = "gifv"
	EmbedTypeArticle EmbedType = "article"
	EmbedTypeLink    EmbedType = "link"
)

// EmbedFooter is an embed's footer.
type EmbedFooter struct {
	Text         string `json:"text"` // up to 2048 characters
	IconURL      string `json:"icon_url,omitempty"`
	ProxyIconURL string `json:"proxy_icon_url,omitempty"` // response only

	kept jsonscan.Kept // members decoding would drop; see [Embed.UnmarshalJSON]
}

// EmbedMedia is an embed's image, thumbnail or video. Only URL may be set in a
// request.
type EmbedMedia struct {
	URL      string `json:"url"`
	ProxyURL string `json:"proxy_url,omitempty"`
	Height   int    `json:"height,omitempty"`
	Width    int    `json:"width,omitempty"`

	kept jsonscan.Kept // members decoding would drop; see [Embed.UnmarshalJSON]
}

// EmbedProvider is the site a link preview comes from (response only).
type EmbedProvider struct {
	Name string `json:"name,omitempty"`
	URL  string `json:"url,omitempty"`

	kept jsonscan.Kept // members decoding would drop; see [Embed.UnmarshalJSON]
}

// EmbedAuthor is an embed's author line.
type EmbedAuthor struct {
	Name         string `json:"name"` // up to 256 characters
	URL          string `json:"url,omitempty"`
	IconURL      string `json:"icon_url,omitempty"`
	ProxyIconURL string `json:"proxy_icon_url,omitempty"` // response only

	kept jsonscan.Kept // members decoding would drop; see [Embed.UnmarshalJSON]
}

// EmbedField is one name/value field of an embed.
type EmbedField struct {
	Name   string `json:"name"`  // up to 256 characters
	Value  string `json:"value"` // up to 1024 characters
	Inline bool   `json:"inline,omitempty"`

	kept jsonscan.Kept // members decoding would drop; see [Embed.UnmarshalJSON]
}

// UnmarshalJSON decodes an embed. Like every embed object (footer, media,
// provider, author, field), it keeps the members its Go fields would drop,
// members this package does not model and explicit zero values its
// omitempty fields leave out, and MarshalJSON writes them back after its
// own fields: an embed read from a message and sent again carries
// everything it came with. A field given a value after decoding wins over a
// kept member of the same name.
func (e *Embed) UnmarshalJSON(b []byte) error {
	type plain Embed
	return jsonscan.Decode(b, (*plain)(e), &e.kept, embedFields)
}

// MarshalJSON encodes e with the members its decoding kept.
func (e Embed) MarshalJSON() ([]byte, error) {
	type plain Embed
	return jsonscan.MarshalKept(plain(e), e.kept)
}

// UnmarshalJSON decodes v, keeping what its fields would drop (see
// [Embed.UnmarshalJSON]).
func (v *EmbedFooter) UnmarshalJSON(b []byte) error {
	type plain EmbedFooter
	return jsonscan.Decode(b, (*plain)(v), &v.kept, embedFooterFields)
}

// MarshalJSON encodes v with the members its decoding kept.
func (v EmbedFooter) MarshalJSON() ([]byte, error) {
	type plain EmbedFooter
	return jsonscan.MarshalKept(plain(v), v.kept)
}

// UnmarshalJSON decodes v, keeping what its fields would drop (see
// [Embed.UnmarshalJSON]).
func (v *EmbedMedia) UnmarshalJSON(b []byte) error {
	type plain EmbedMedia
	return jsonscan.Decode(b, (*plain)(v), &v.kept, embedMediaFields)
}

// MarshalJSON encodes v with the members its decoding kept.
func (v EmbedMedia) MarshalJSON() ([]byte, error) {
	type plain EmbedMedia
	return jsonscan.MarshalKept(plain(v), v.kept)
}

// UnmarshalJSON decodes v, keeping what its fields would drop (see
// [Embed.UnmarshalJSON]).
func (v *EmbedProvider) UnmarshalJSON(b []byte) error {
	type plain EmbedProvider
	return jsonscan.Decode(b, (*plain)(v), &v.kept, embedProviderFields)
}

// MarshalJSON encodes v with the members its decoding kept.
func (v EmbedProvider) MarshalJSON() ([]byte, error) {
	type plain EmbedProvider
	return jsonscan.MarshalKept(plain(v), v.kept)
}

// UnmarshalJSON decodes v, keeping what its fields would drop (see
// [Embed.UnmarshalJSON]).
func (v *EmbedAuthor) UnmarshalJSON(b []byte) error {
	type plain EmbedAuthor
	return jsonscan.Decode(b, (*plain)(v), &v.kept, embedAuthorFields)
}

// MarshalJSON encodes v with the members its decoding kept.
func (v EmbedAuthor) MarshalJSON() ([]byte, error) {
	type plain EmbedAuthor
	return jsonscan.MarshalKept(plain(v), v.kept)
}

// UnmarshalJSON decodes v, keeping what its fields would drop (see
// [Embed.UnmarshalJSON]).
func (v *EmbedField) UnmarshalJSON(b []byte) error {
	type plain EmbedField
	return jsonscan.Decode(b, (*plain)(v), &v.kept, embedFieldFields)
}

// MarshalJSON encodes v with the members its decoding kept.
func (v EmbedField) MarshalJSON() ([]byte, error) {
	type plain EmbedField
	return jsonscan.MarshalKept(plain(v), v.kept)
}

// Answers decode the embed objects without calling their UnmarshalJSON,
// which the decoder reproduces, kept members included.
func init() {
	for t, fs := range map[reflect.Type]*jsonscan.FieldSet{
		reflect.TypeFor[Embed]():         embedFields,
		reflect.TypeFor[EmbedFooter]():   embedFooterFields,
		reflect.TypeFor[EmbedMedia]():    embedMediaFields,
		reflect.TypeFor[EmbedProvider](): embedProviderFields,
		reflect.TypeFor[EmbedAuthor]():   embedAuthorFields,
		reflect.TypeFor[EmbedField]():    embedFieldFields,
	} {
		jsondec.DecodeKeeping(t, fs)
	}
}

// The members each embed object models, for [jsonscan.Kept.Collect].
var (
	embedFields         = jsonscan.FieldsOf[Embed]()
	embedFooterFields   = jsonscan.FieldsOf[EmbedFooter]()
	embedMediaFields    = jsonscan.FieldsOf[EmbedMedia]()
	embedProviderFields = jsonscan.FieldsOf[EmbedProvider]()
	embedAuthorFields   = jsonscan.FieldsOf[EmbedAuthor]()
	embedFieldFields    = jsonscan.FieldsOf[EmbedField]()
)

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

// validateMessageEmbeds checks embeds against the interface's rules (type rich;
// provider, video and the proxy URLs and sizes of images are not settable)
// and the reference platform's text limits.
func validateMessageEmbeds(v *ValidationError, path string, embeds []Embed) {
	if len(embeds) > MaxMessageEmbeds {
		v.Add(path, wire.CodeLength, "at most %d embeds, got %d", MaxMessageEmbeds, len(embeds))
	}
	total := 0
	for i, e := range embeds {
		p := path + "[" + strconv.Itoa(i) + "]"
		if e.Type != "" && e.Type != EmbedTypeRich {
			v.Add(p+".type", wire.CodeNotAllowed, "a sent embed is always rich, got %q", e.Type)
		}
		if e.Provider != nil {
			v.Add(p+".provider", wire.CodeNotAllowed, "provider cannot be set")
		}
		if e.Video != nil {
			v.Add(p+".video", wire.CodeNotAllowed, "video cannot be set")
		}
		for name, m := range map[string]*EmbedMedia{"image": e.Image, "thumbnail": e.Thumbnail} {
			if m == nil {
				continue
			}
			if m.URL == "" {
				v.Add(p+"."+name+".url", wire.CodeRequired, "url is required")
			}
			if m.ProxyURL != "" || m.Height != 0 || m.Width != 0 {
				v.Add(p+"."+name, wire.CodeNotAllowed, "proxy_url, height and width cannot be set")
			}
		}
		if c, ok := e.Color.Get(); ok && (c < 0 || c > 0xFFFFFF) {
			v.Add(p+".color", wire.CodeRange, "0x000000-0xFFFFFF, got %#x", c)
		}
		notNull(v, p+".color", e.Color)
		total += messageMaxLen(v, p+".title", e.Title, MaxEmbedTitle)
		total += messageMaxLen(v, p+".description", e.Description, MaxEmbedDescription)
		if e.Footer != nil {
			total += messageMaxLen(v, p+".footer.text", e.Footer.Text, MaxEmbedFooterText)
			if e.Footer.Text == "" {
				v.Add(p+".footer.text", wire.CodeRequired, "footer text is required")
			}
			if e.Footer.ProxyIconURL != "" {
				v.Add(p+".footer.proxy_icon_url", wire.CodeNotAllowed, "proxy_icon_url cannot be set")
			}
		}
		if e.Author != nil {
			total += messageMaxLen(v, p+".author.name", e.Author.Name, MaxEmbedAuthorName)
			if e.Author.Name == "" {
				v.Add(p+".author.name", wire.CodeRequired, "author name is required")
			}
			if e.Author.ProxyIconURL != "" {
				v.Add(p+".author.proxy_icon_url", wire.CodeNotAllowed, "proxy_icon_url cannot be set")
			}
		}
		if len(e.Fields) > MaxEmbedFields {
			v.Add(p+".fields", wire.CodeLength, "at most %d fields, got %d", MaxEmbedFields, len(e.Fields))
		}
		for j, f := range e.Fields {
			fp := p + ".fields[" + strconv.Itoa(j) + "]"
			if f.Name == "" {
				v.Add(fp+".name", wire.CodeRequired, "field name is required")
			}
			if f.Value == "" {
				v.Add(fp+".value", wire.CodeRequired, "field value is required")
			}
			total += messageMaxLen(v, fp+".name", f.Name, MaxEmbedFieldName)
			total += messageMaxLen(v, fp+".value", f.Value, MaxEmbedFieldValue)
		}
	}
	if total > MaxEmbedTotal {
		v.Add(path, wire.CodeLength, "at most %d characters across all embeds, got %d", MaxEmbedTotal, total)
	}
}

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
