package guildkit

import (
	"context"
	"iter"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/wire"
)

// MessageService handles the messages of channels and DMs: reading
// history, sending, editing, deleting, and the bot's own reactions. Reach
// it through [Client].Messages. A DM is a channel like any other: open it
// with [UserService.CreateDM] and send with [MessageService.Create] on its
// id.
//
// In a guild channel each operation needs the permissions its method
// names (permissions.md); in a DM no guild permission applies. Each
// channel's message routes have their own rate-limit bucket: sending to
// many channels at once waits on none of the others.
type MessageService service

// Limits of channel messages (messages.md §3.1).
const (
	MaxMessageNonce       = 25  // characters of a nonce
	MaxMessageStickers    = 3   // sticker_ids per message
	MaxMessageListLimit   = 100 // messages per Get Channel Messages page
	MinBulkDeleteMessages = 2
	MaxBulkDeleteMessages = 100
	// BulkDeleteMaxAge is how old a message Bulk Delete may still delete.
	BulkDeleteMaxAge = 14 * 24 * time.Hour
)

// MessageListParams is the query of [MessageService.List] and
// [MessageService.All]. At most one of Around, Before and After; Null is
// refused everywhere. A snowflake made from a time
// ([wire.SnowflakeFromTime]) works as a cursor.
type MessageListParams struct {
	// Around asks for the messages around that id (it included, when it
	// exists).
	Around Opt[Snowflake] `url:"around,omitempty"`
	// Before asks for messages older than that id.
	Before Opt[Snowflake] `url:"before,omitempty"`
	// After asks for messages newer than that id.
	After Opt[Snowflake] `url:"after,omitempty"`
	// Limit is the page size, 1-100; the platform's default is 50.
	Limit Opt[int] `url:"limit,omitempty"`
}

func (p *MessageListParams) validate(validation) error {
	if p == nil {
		return nil
	}
	var v ValidationError
	validateLimit(&v, "limit", p.Limit, 1, MaxMessageListLimit)
	notNull(&v, "around", p.Around)
	notNull(&v, "before", p.Before)
	notNull(&v, "after", p.After)
	cursors := 0
	for _, c := range []Opt[Snowflake]{p.Around, p.Before, p.After} {
		if !c.IsZero() {
			cursors++
		}
	}
	if cursors > 1 {
		v.Add("", wire.CodeConflict, "give at most one of around, before and after")
	}
	return v.Err()
}

// List returns one page of the channel's messages, newest first: at most
// params.Limit (default 50) around, before or after a message. Needs
// VIEW_CHANNEL (and CONNECT in a voice channel); without
// READ_MESSAGE_HISTORY the answer is an empty list, not an error. Without
// the MESSAGE_CONTENT intent enabled for the application, others' messages
// come with empty content, embeds, attachments and components (the bot's
// own, DMs and messages mentioning the bot excepted). params may be nil.
// [MessageService.All] walks the whole history.
//
// Spec: "Get Channel Messages" — GET /channels/{channel.id}/messages
func (s *MessageService) List(ctx context.Context, channelID Snowflake, params *MessageListParams, opts ...RequestOption) ([]Message, error) {
	if err := params.validate(s.c.validation()); err != nil {
		return nil, err
	}
	var ms []Message
	if _, err := s.c.do(ctx, &request{method: http.MethodGet, route: "/channels/{channel.id}/messages",
		path: []any{channelID}, query: params, opts: opts}, &ms); err != nil {
		return nil, err
	}
	return ms, nil
}

// All iterates over the channel's history, newest first, from
// params.Before when set (else from the newest message), fetching pages of
// params.Limit messages (100 when omitted) with [MessageService.List],
// each page before the oldest message seen. Around and After are refused
// (a [*ValidationError]): the walk goes back in time. Permissions as for
// List: without READ_MESSAGE_HISTORY the history is empty.
//
// All makes no request until the loop starts, and fetches a page only when
// the loop asks for an item from it, so breaking out of the loop stops
// fetching. When a request fails, the iterator yields the zero Message
// with the error once and then stops; invalid params are reported the
// same way.
func (s *MessageService) All(ctx context.Context, channelID Snowflake, params *MessageListParams, opts ...RequestOption) iter.Seq2[Message, error] {
	var base MessageListParams
	if params != nil {
		base = *params
	}
	limit := base.Limit.Or(MaxMessageListLimit)
	return pager[Message]{
		limit:    limit,
		backward: true,
		key:      func(m Message) Snowflake { return m.ID },
		fetch: func(ctx context.Context, cursor Snowflake, first bool) ([]Message, error) {
			var v ValidationError
			if !base.Around.IsZero() {
				v.Add("around", wire.CodeNotAllowed, "All walks back in time from before (or the newest message); around cannot be used")
			}
			if !base.After.IsZero() {
				v.Add("after", wire.CodeNotAllowed, "All walks back in time from before (or the newest message); after cannot be used")
			}
			if err := v.Err(); err != nil {
				return nil, err
			}
			p := base
			p.Limit = Some(limit)
			if !first {
				p.Before = Some(cursor)
			}
			page, err := s.List(ctx, channelID, &p, opts...)
			// The pager yields a backward walk's pages from their end: give
			// it the page oldest first, so the walk comes newest first.
			slices.Reverse(page)
			return page, err
		},
	}.all(ctx)
}

// Get returns one message of the channel. Needs VIEW_CHANNEL and
// READ_MESSAGE_HISTORY (and CONNECT in a voice channel). A missing message
// gives an [*APIError] matching [ErrUnknownMessage] (10008); a missing or
// unseen channel one matching [ErrUnknownChannel] (10003).
//
// Spec: "Get Channel Message" — GET /channels/{channel.id}/messages/{message.id}
func (s *MessageService) Get(ctx context.Context, channelID, messageID Snowflake, opts ...RequestOption) (*Message, error) {
	var m Message
	if _, err := s.c.do(ctx, &request{method: http.MethodGet, route: "/channels/{channel.id}/messages/{message.id}",
		path: []any{channelID, messageID}, opts: opts}, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// MessageCreateParams is the body of [MessageService.Create]. At least one
// of Content, Embeds, StickerIDs, Components, Files and Poll is required,
// unless the message is a forward. Null is refused everywhere.
type MessageCreateParams struct {
	Content Opt[string] `json:"content,omitzero"` // up to 2000 characters
	// Nonce, up to 25 characters, is echoed in MESSAGE_CREATE. With
	// EnforceNonce Some(true), a second message with the same nonce from
	// the same author within a few minutes is not created: the first is
	// returned instead, which makes a retried Create safe.
	Nonce        Opt[string] `json:"nonce,omitzero"`
	EnforceNonce Opt[bool]   `json:"enforce_nonce,omitzero"` // needs Nonce
	TTS          Opt[bool]   `json:"tts,omitzero"`           // needs SEND_TTS_MESSAGES
	// Embeds, up to 10, 6000 characters in all; each checked as
	// [Embed.Validate] does. In a guild channel they need EMBED_LINKS.
	Embeds []Embed `json:"embeds,omitzero"`
	// AllowedMentions controls which mentions notify; omitted, every
	// mention in the content does (as far as the bot's permissions go).
	AllowedMentions Opt[AllowedMentions] `json:"allowed_mentions,omitzero"`
	// MessageReference makes the message a reply (MessageID; needs
	// READ_MESSAGE_HISTORY) or a forward (Type FORWARD, MessageID and
	// ChannelID).
	MessageReference Opt[MessageReference] `json:"message_reference,omitzero"`
	// Components are checked before sending with [components.Validate]:
	// V2 rules with IS_COMPONENTS_V2, legacy rules (5 action rows)
	// otherwise. A bot's message may carry interactive components.
	Components components.List `json:"components,omitzero"`
	// StickerIDs are up to 3 stickers of the guild.
	StickerIDs []Snowflake `json:"sticker_ids,omitzero"`
	// Files are uploaded as files[n] of a multipart body, streamed; a
	// seekable source is sent again if the request is retried. Up to 10;
	// in a guild channel they need ATTACH_FILES.
	Files []File `json:"-"`
	// Attachments describes Files by index (ID n is Files[n]); the client
	// adds an entry for every file not described.
	Attachments []PartialAttachment `json:"attachments,omitzero"`
	// Flags may hold only SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS,
	// IS_VOICE_MESSAGE and IS_COMPONENTS_V2. With IS_COMPONENTS_V2 the
	// message holds only components (and the files they show).
	Flags Opt[MessageFlags] `json:"flags,omitzero"`
	Poll  Opt[PollCreate]   `json:"poll,omitzero"` // needs SEND_POLLS
}

// messageCreateFlagSet are the flags Create Message accepts.
const messageCreateFlagSet = MessageFlagSuppressEmbeds | MessageFlagSuppressNotifications |
	MessageFlagIsVoiceMessage | MessageFlagIsComponentsV2

func (p *MessageCreateParams) validate(validation) error {
	if p == nil {
		p = &MessageCreateParams{}
	}
	var v ValidationError
	notNull(&v, "content", p.Content)
	notNull(&v, "nonce", p.Nonce)
	notNull(&v, "enforce_nonce", p.EnforceNonce)
	notNull(&v, "tts", p.TTS)
	notNull(&v, "allowed_mentions", p.AllowedMentions)
	notNull(&v, "message_reference", p.MessageReference)
	notNull(&v, "flags", p.Flags)
	notNull(&v, "poll", p.Poll)
	nonce, hasNonce := p.Nonce.Get()
	if hasNonce {
		if nonce == "" {
			v.Add("nonce", wire.CodeRequired, "a nonce cannot be empty")
		}
		messageMaxLen(&v, "nonce", nonce, MaxMessageNonce)
	}
	if p.EnforceNonce.Or(false) && !hasNonce {
		v.Add("enforce_nonce", wire.CodeRequired, "enforce_nonce needs a nonce")
	}
	if len(p.StickerIDs) > MaxMessageStickers {
		v.Add("sticker_ids", wire.CodeLength, "at most %d stickers, got %d", MaxMessageStickers, len(p.StickerIDs))
	}
	validateIDs(&v, "sticker_ids", "", "sticker", p.StickerIDs)
	forward := false
	if ref, ok := p.MessageReference.Get(); ok {
		forward = validateMessageReference(&v, ref)
	}
	flags, _ := p.Flags.Get()
	if extra := flags &^ messageCreateFlagSet; extra != 0 {
		v.Add("flags", wire.CodeNotAllowed, "only SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS, IS_VOICE_MESSAGE and IS_COMPONENTS_V2 may be set, got %s", extra)
	}
	content, _ := p.Content.Get()
	body := messageBody{content: content, embeds: p.Embeds, allowedMentions: p.AllowedMentions, poll: p.Poll,
		files: p.Files, attachments: p.Attachments, comps: p.Components, v2: flags.Has(MessageFlagIsComponentsV2),
		appOwned: true, newFiles: true}
	hasComponents, hasPoll := checkMessageBody(&v, body)
	if body.v2 && len(p.StickerIDs) > 0 {
		v.Add("sticker_ids", wire.CodeConflict, "a message with IS_COMPONENTS_V2 holds only components: no stickers")
	}
	if flags.Has(MessageFlagIsVoiceMessage) && (len(p.Files) != 1 || content != "" || len(p.Embeds) > 0 ||
		hasComponents || hasPoll || len(p.StickerIDs) > 0) {
		v.Add("flags", wire.CodeConflict, "a voice message is exactly one audio file and nothing else")
	}
	if flags.Has(MessageFlagIsVoiceMessage) && !slices.ContainsFunc(p.Attachments, func(a PartialAttachment) bool {
		return a.ID == 0 && a.DurationSecs > 0 && a.Waveform != ""
	}) {
		v.Add("attachments", wire.CodeRequired, "a voice message describes its file (attachments id 0) with duration_secs and waveform")
	}
	if !forward && content == "" && len(p.Embeds) == 0 && len(p.StickerIDs) == 0 && !hasComponents &&
		len(p.Files) == 0 && !hasPoll {
		v.Add("", wire.CodeRequired, "at least one of content, embeds, sticker_ids, components, files and poll is required (the platform answers 50006)")
	}
	if len(v.Problems) == 0 {
		return nil // v stays off the heap: this runs on every send
	}
	e := v
	return &e
}

// validateMessageReference checks a reply's or a forward's reference and
// reports whether it is a forward.
func validateMessageReference(v *ValidationError, ref MessageReference) (forward bool) {
	notNull(v, "message_reference.fail_if_not_exists", ref.FailIfNotExists)
	if ref.MessageID == 0 {
		v.Add("message_reference.message_id", wire.CodeRequired, "a reply or forward names the message it points to")
	}
	switch ref.Type {
	case MessageReferenceDefault:
	case MessageReferenceForward:
		if ref.ChannelID == 0 {
			v.Add("message_reference.channel_id", wire.CodeRequired, "a forward names the channel of the message it forwards")
		}
		return true
	default:
		v.Add("message_reference.type", wire.CodeInvalid, "0 (a reply) or 1 (a forward), got %d", ref.Type)
	}
	return false
}

// Create sends a message to a channel or a DM and returns it. With Files
// the body is a streamed multipart form (payload_json and files[n], with
// attachments whose ids match the parts), as webhooks send theirs. The
// client checks every rule of messages.md §3.4 before sending and reports
// all problems in one [*ValidationError]: something to show, content up
// to 2000 characters, embeds (10, 6000 characters in all, each field's
// limit), allowed-mentions conflicts and counts, a nonce up to 25
// characters, the flags a message may set, nothing but components with
// IS_COMPONENTS_V2, up to 3 stickers, the reply or forward reference's
// shape, and the components.
//
// In a guild channel it needs VIEW_CHANNEL and SEND_MESSAGES
// (SEND_MESSAGES_IN_THREADS in a thread), plus READ_MESSAGE_HISTORY for a
// reply, SEND_TTS_MESSAGES for TTS, EMBED_LINKS for embeds, ATTACH_FILES
// for files, MENTION_EVERYONE for @everyone and roles that are not
// mentionable to notify, SEND_POLLS for a poll; missing ones give an
// [*APIError] matching [ErrMissingPermissions] (50013). In a DM the user
// may refuse: [ErrCannotSendToUser] (50007). A reply to a missing message
// fails with [ErrUnknownMessage] unless FailIfNotExists is Some(false).
// Emits MESSAGE_CREATE.
//
// Spec: "Create Message" — POST /channels/{channel.id}/messages
func (s *MessageService) Create(ctx context.Context, channelID Snowflake, params *MessageCreateParams, opts ...RequestOption) (*Message, error) {
	if params == nil {
		params = &MessageCreateParams{}
	}
	if err := params.validate(s.c.validation()); err != nil {
		return nil, err
	}
	r := &request{method: http.MethodPost, route: "/channels/{channel.id}/messages", path: []any{channelID}, opts: opts}
	if len(params.Files) > 0 {
		r.body = struct {
			*MessageCreateParams
			Attachments []PartialAttachment `json:"attachments,omitzero"`
		}{params, messageFileAttachments(params.Attachments, params.Files)}
		r.parts = messageFileParts(params.Files)
	} else {
		r.body = params
	}
	var m Message
	if _, err := s.c.do(ctx, r, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// MessageEditParams is the body of [MessageService.Edit]. Every field is
// optional: omitted keeps the value, Null clears it.
type MessageEditParams struct {
	Content Opt[string]  `json:"content,omitzero"` // up to 2000 characters
	Embeds  Opt[[]Embed] `json:"embeds,omitzero"`  // up to 10
	// Flags replaces the flags: send every flag already set plus the
	// change. Only SUPPRESS_EMBEDS (set or clear) and IS_COMPONENTS_V2
	// (set only) may be given; setting IS_COMPONENTS_V2 needs Content,
	// Embeds and Attachments set to Null and no Files.
	Flags Opt[MessageFlags] `json:"flags,omitzero"`
	// AllowedMentions applies to the new content; omitted, the default
	// (every mention notifies), whatever the message was sent with.
	AllowedMentions Opt[AllowedMentions] `json:"allowed_mentions,omitzero"`
	// Components replaces the message's components; checked in the
	// message's mode (V2 when Flags holds IS_COMPONENTS_V2; without Flags,
	// V2 when a top-level component is not an action row). Null removes
	// them.
	Components Opt[components.List] `json:"components,omitzero"`
	// Files are appended to the message's attachments.
	Files []File `json:"-"`
	// Attachments lists every attachment to keep, old and new (others are
	// removed), and describes new Files by index; Null removes them all.
	// Omitted keeps them all.
	Attachments Opt[[]PartialAttachment] `json:"attachments,omitzero"`
}

func (p *MessageEditParams) validate(vc validation) error {
	if p == nil {
		return nil
	}
	// The rules are those of an application's webhook message edit, which
	// has a poll only when the params carry one.
	w := WebhookMessageEditParams{ApplicationOwned: true, Content: p.Content, Embeds: p.Embeds, Flags: p.Flags,
		AllowedMentions: p.AllowedMentions, Components: p.Components, Files: p.Files, Attachments: p.Attachments,
		Poll: Null[PollCreate]()}
	return w.validate(vc)
}

// Edit changes a message and returns it. The bot may change its own
// messages' content, embeds, flags, components and attachments; of
// another's only the flags (SUPPRESS_EMBEDS), with MANAGE_MESSAGES, and
// any other field gives 50005. Editing content rebuilds the message's
// mentions from the new text under the edit's allowed mentions (or the
// defaults). Files are appended (streamed multipart); Attachments lists
// those to keep. Checked before sending as Create's body is, with the
// edit's rules for IS_COMPONENTS_V2 (see [MessageEditParams]). Emits
// MESSAGE_UPDATE.
//
// Spec: "Edit Message" — PATCH /channels/{channel.id}/messages/{message.id}
func (s *MessageService) Edit(ctx context.Context, channelID, messageID Snowflake, params *MessageEditParams, opts ...RequestOption) (*Message, error) {
	if params == nil {
		params = &MessageEditParams{}
	}
	if err := params.validate(s.c.validation()); err != nil {
		return nil, err
	}
	r := &request{method: http.MethodPatch, route: "/channels/{channel.id}/messages/{message.id}",
		path: []any{channelID, messageID}, body: params, opts: opts}
	if len(params.Files) > 0 {
		atts := params.Attachments
		if given, ok := atts.Get(); ok {
			atts = Some(messageFileAttachments(given, params.Files))
		}
		r.body = struct {
			*MessageEditParams
			Attachments Opt[[]PartialAttachment] `json:"attachments,omitzero"`
		}{params, atts}
		r.parts = messageFileParts(params.Files)
	}
	var m Message
	if _, err := s.c.do(ctx, r, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// Delete deletes a message. The bot may delete its own messages anywhere;
// in a guild channel another's needs MANAGE_MESSAGES, and in a DM it may
// delete only its own. A thread's starter message cannot be deleted (50021).
// Answers 204. Emits MESSAGE_DELETE. Supports WithReason.
//
// Spec: "Delete Message" — DELETE /channels/{channel.id}/messages/{message.id}
func (s *MessageService) Delete(ctx context.Context, channelID, messageID Snowflake, opts ...RequestOption) error {
	_, err := s.c.do(ctx, &request{method: http.MethodDelete, route: "/channels/{channel.id}/messages/{message.id}",
		path: []any{channelID, messageID}, auditLog: true, opts: opts}, nil)
	return err
}

// messageBulkDelete is the body of Bulk Delete Messages.
type messageBulkDelete struct {
	Messages []Snowflake `json:"messages"`
}

func (b messageBulkDelete) validate(vc validation) error {
	var v ValidationError
	if n := len(b.Messages); n < MinBulkDeleteMessages || n > MaxBulkDeleteMessages {
		v.Add("messages", wire.CodeLength, "%d-%d message ids, got %d (delete one message with Delete)", MinBulkDeleteMessages, MaxBulkDeleteMessages, n)
	}
	validateIDs(&v, "messages", "", "message", b.Messages)
	oldest := vc.now.Add(-BulkDeleteMaxAge)
	for i, id := range b.Messages {
		if id != 0 && id.Time().Before(oldest) {
			v.Add("messages["+strconv.Itoa(i)+"]", wire.CodeRange, "message %s is older than 14 days (sent %s); the platform refuses the whole request (50034)",
				id, id.Time().UTC().Format(time.RFC3339))
		}
	}
	return v.Err()
}

// BulkDelete deletes 2 to 100 messages of a guild channel at once. Needs
// MANAGE_MESSAGES; not in DMs. The client refuses before sending fewer
// than 2 or more than 100 ids, a zero or repeated id, and any id whose
// snowflake says it is older than 14 days (the platform would refuse the
// whole request with 50034, [ErrMessageTooOld]). Ids of missing messages
// count toward the bounds but delete nothing. Answers 204. Emits
// MESSAGE_DELETE_BULK. Supports WithReason.
//
// Spec: "Bulk Delete Messages" — POST /channels/{channel.id}/messages/bulk-delete
func (s *MessageService) BulkDelete(ctx context.Context, channelID Snowflake, messageIDs []Snowflake, opts ...RequestOption) error {
	body := messageBulkDelete{Messages: messageIDs}
	if err := body.validate(s.c.validation()); err != nil {
		return err
	}
	_, err := s.c.do(ctx, &request{method: http.MethodPost, route: "/channels/{channel.id}/messages/bulk-delete",
		path: []any{channelID}, body: body, auditLog: true, opts: opts}, nil)
	return err
}

// reactionEmoji returns the emoji as the reaction routes name it: a
// Unicode emoji as it is, a custom one as "name:id". The markup of a custom
// emoji ("<:name:id>", "<a:name:id>", as [MentionEmoji] writes it) is
// taken too.
func reactionEmoji(emoji string) (string, error) {
	var v ValidationError
	if strings.HasPrefix(emoji, "<") {
		m, err := ParseMention(emoji)
		if err != nil || m.Kind != MentionKindEmoji {
			v.Add("emoji", wire.CodeInvalid, "%q is not a custom emoji's markup (<:name:id>)", emoji)
			return "", v.Err()
		}
		return m.Name + ":" + m.ID.String(), nil
	}
	switch {
	case strings.TrimSpace(emoji) == "":
		v.Add("emoji", wire.CodeRequired, "a Unicode emoji or a custom emoji's name:id")
	case !utf8.ValidString(emoji):
		v.Add("emoji", wire.CodeInvalid, "not valid UTF-8")
	case strings.Contains(emoji, ":"):
		name, id, _ := cutLast(emoji)
		if _, ok := parseDecimalID(id); !ok || !validEmojiName(name) {
			v.Add("emoji", wire.CodeInvalid, "a custom emoji is name:id, got %q", emoji)
		}
	}
	return emoji, v.Err()
}

// React adds the bot's reaction to a message. emoji is a Unicode emoji
// ("👍") or a custom one as "name:id" (or its markup "<:name:id>"); the
// client URL-encodes it. Needs READ_MESSAGE_HISTORY, and ADD_REACTIONS
// when nobody has reacted with that emoji yet. An unknown emoji gives
// 10014; a message holds at most 20 distinct emoji (30010). Answers 204.
// Emits MESSAGE_REACTION_ADD.
//
// Spec: "Create Reaction" — PUT /channels/{channel.id}/messages/{message.id}/reactions/{emoji}/@me
func (s *MessageService) React(ctx context.Context, channelID, messageID Snowflake, emoji string, opts ...RequestOption) error {
	return s.reaction(ctx, http.MethodPut, channelID, messageID, emoji, opts)
}

// Unreact removes the bot's own reaction with emoji (as in
// [MessageService.React]) from a message. Answers 204. Emits
// MESSAGE_REACTION_REMOVE.
//
// Spec: "Delete Own Reaction" — DELETE /channels/{channel.id}/messages/{message.id}/reactions/{emoji}/@me
func (s *MessageService) Unreact(ctx context.Context, channelID, messageID Snowflake, emoji string, opts ...RequestOption) error {
	return s.reaction(ctx, http.MethodDelete, channelID, messageID, emoji, opts)
}

func (s *MessageService) reaction(ctx context.Context, method string, channelID, messageID Snowflake, emoji string, opts []RequestOption) error {
	e, err := reactionEmoji(emoji)
	if err != nil {
		return err
	}
	_, err = s.c.do(ctx, &request{method: method, route: "/channels/{channel.id}/messages/{message.id}/reactions/{emoji}/@me",
		path: []any{channelID, messageID, e}, opts: opts}, nil)
	return err
}
