package guildkittest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/wire"
)

// The message routes of a channel and DMs (messages.md §2), checked as the
// platform checks them (§3, §4) and answered with its codes (§5).

func (s *Server) messageRoutes(reg registrar) {
	reg("GET /channels/{channel_id}", authRequired, s.getChannel)
	reg("GET /channels/{channel_id}/messages", authRequired, s.listMessages)
	reg("GET /channels/{channel_id}/messages/{message_id}", authRequired, s.getMessage)
	reg("POST /channels/{channel_id}/messages", authRequired, s.createMessage, streamBody(MaxUploadBody, readMessageUpload))
	reg("PATCH /channels/{channel_id}/messages/{message_id}", authRequired, s.editMessage, streamBody(MaxUploadBody, readMessageUpload))
	reg("DELETE /channels/{channel_id}/messages/{message_id}", authRequired, s.deleteMessage)
	reg("POST /channels/{channel_id}/messages/bulk-delete", authRequired, s.bulkDeleteMessages)
	reg("PUT /channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", authRequired, s.createReaction)
	reg("DELETE /channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", authRequired, s.deleteOwnReaction)
	reg("POST /channels/{channel_id}/typing", authRequired, s.triggerTyping)
	reg("POST /users/@me/channels", authRequired, s.createDM)
	reg("GET /users/{user_id}", authRequired, s.getUser)
}

// chatTarget is a channel a user acts in: a guild channel or thread (gs
// and ch), or a DM (dm); perms are the user's effective permissions there.
type chatTarget struct {
	gs    *guildState
	ch    *guildkit.Channel
	dm    *dmChannel
	perms guildkit.Permissions
}

func (t *chatTarget) id() guildkit.Snowflake {
	if t.dm != nil {
		return t.dm.id
	}
	return t.ch.ID
}

func (t *chatTarget) guildID() guildkit.Snowflake {
	if t.gs != nil {
		return t.gs.guild.ID
	}
	return 0
}

// dmPermissions are what anyone may do in a DM: no guild permission
// applies there; these are the ones the message routes check.
const dmPermissions = guildkit.PermissionViewChannel | guildkit.PermissionSendMessages |
	guildkit.PermissionReadMessageHistory | guildkit.PermissionEmbedLinks | guildkit.PermissionAttachFiles |
	guildkit.PermissionMentionEveryone | guildkit.PermissionAddReactions | guildkit.PermissionSendTTSMessages

// chatTargetLocked resolves channelID for userID: 404 10003 for no such
// channel; 403 50001 when userID is not in its guild or DM, or cannot see
// it. The caller holds s.mu.
func (s *Server) chatTargetLocked(channelID, userID guildkit.Snowflake) (*chatTarget, *chatError) {
	if dm, ok := s.chat().dms[channelID]; ok {
		if !dm.has(userID) {
			return nil, errMissingAccess()
		}
		return &chatTarget{dm: dm, perms: dmPermissions}, nil
	}
	gs, ch := s.webhookChannel(channelID)
	if gs == nil {
		return nil, errUnknownChannel()
	}
	if _, ok := gs.members[userID]; !ok {
		return nil, errMissingAccess()
	}
	perms := s.effectivePermissionsLocked(gs, ch, userID)
	if !perms.Has(guildkit.PermissionViewChannel) {
		return nil, errMissingAccess()
	}
	return &chatTarget{gs: gs, ch: ch, perms: perms}, nil
}

// effectivePermissionsLocked is what userID can do in ch (permissions.md
// §4–§7): the overwrites applied, then the implicit rules (nothing without
// VIEW_CHANNEL; without the right to send, no mentions of everyone, text to
// speech, files or embeds), then a timeout's (only VIEW_CHANNEL and
// READ_MESSAGE_HISTORY remain). The owner and administrators keep all.
func (s *Server) effectivePermissionsLocked(gs *guildState, ch *guildkit.Channel, userID guildkit.Snowflake) guildkit.Permissions {
	p := s.channelPermissionsLocked(gs, ch, userID)
	if p.Has(guildkit.PermissionAdministrator) {
		return p
	}
	if !p.Has(guildkit.PermissionViewChannel) {
		return 0
	}
	send := guildkit.PermissionSendMessages
	if ch.Type.IsThread() {
		send = guildkit.PermissionSendMessagesInThreads
	}
	if !p.Has(send) {
		p &^= guildkit.PermissionMentionEveryone | guildkit.PermissionSendTTSMessages |
			guildkit.PermissionAttachFiles | guildkit.PermissionEmbedLinks
	}
	if ms, ok := gs.members[userID]; ok && ms.member.TimedOut(s.now()) {
		p &= guildkit.PermissionViewChannel | guildkit.PermissionReadMessageHistory
	}
	return p
}

// messageInLocked finds message id in channel t, visible to userID: 404
// 10008 otherwise.
func (s *Server) messageInLocked(t *chatTarget, id, userID guildkit.Snowflake) (*webhookMessage, *chatError) {
	wm, ok := s.wh().messages[id]
	if !ok || wm.msg.ChannelID != t.id() || (wm.visibleTo != 0 && wm.visibleTo != userID) {
		return nil, errUnknownMessage()
	}
	return wm, nil
}

// chatBody is the body of Create Message and Edit Message (§2.3, §2.4).
type chatBody struct {
	Content          wire.Opt[string]                       `json:"content"`
	Nonce            json.RawMessage                        `json:"nonce"`
	EnforceNonce     bool                                   `json:"enforce_nonce"`
	TTS              bool                                   `json:"tts"`
	Embeds           wire.Opt[[]guildkit.Embed]             `json:"embeds"`
	AllowedMentions  wire.Opt[guildkit.AllowedMentions]     `json:"allowed_mentions"`
	MessageReference *chatReference                         `json:"message_reference"`
	Components       wire.Opt[json.RawMessage]              `json:"components"`
	StickerIDs       wire.Opt[[]guildkit.Snowflake]         `json:"sticker_ids"`
	Attachments      wire.Opt[[]guildkit.PartialAttachment] `json:"attachments"`
	Flags            wire.Opt[guildkit.MessageFlags]        `json:"flags"`
	Poll             wire.Opt[guildkit.PollCreate]          `json:"poll"`
}

// chatReference is a message_reference as a request sends it.
type chatReference struct {
	Type            int                `json:"type"`
	MessageID       guildkit.Snowflake `json:"message_id"`
	ChannelID       guildkit.Snowflake `json:"channel_id"`
	GuildID         guildkit.Snowflake `json:"guild_id"`
	FailIfNotExists *bool              `json:"fail_if_not_exists"`
}

// Flags a message may be created and edited with (messages.md §1.4).
const (
	chatCreateFlags = guildkit.MessageFlagSuppressEmbeds | guildkit.MessageFlagSuppressNotifications |
		guildkit.MessageFlagIsVoiceMessage | guildkit.MessageFlagIsComponentsV2
	chatEditFlags = guildkit.MessageFlagSuppressEmbeds | guildkit.MessageFlagIsComponentsV2
)

// maxNonce is the longest nonce, in characters.
const maxNonce = 25

// readChatBody returns the message body and files the streamed reader
// took, answering 400 on a bad body.
func (c *call) readChatBody() (chatBody, []webhookFile, bool) {
	_, files, ok := c.readMessageBody()
	if !ok {
		return chatBody{}, nil, false
	}
	var b chatBody
	if up, _ := c.upload.(*messageUpload); up != nil && len(up.raw) > 0 {
		if p := decodeJSON(up.raw, &b); p != nil {
			c.badBody(p)
			return chatBody{}, nil, false
		}
	}
	return b, files, true
}

// bodyProblems checks the fields both routes share (§3.4), adding to
// problems by path.
func bodyProblems(problems map[string]string, b *chatBody, files int) {
	if content, _ := b.Content.Get(); utf8.RuneCountInString(content) > guildkit.MaxMessageContent {
		problems["content"] = fmt.Sprintf("Must be %d or fewer in length.", guildkit.MaxMessageContent)
	}
	embeds, _ := b.Embeds.Get()
	embedProblems(problems, embeds)
	if am, ok := b.AllowedMentions.Get(); ok {
		if slices.Contains(am.Parse, guildkit.AllowedMentionUsers) && len(am.Users) > 0 {
			problems["allowed_mentions"] = "parse:[\"users\"] and users: [ids...] are mutually exclusive."
		}
		if slices.Contains(am.Parse, guildkit.AllowedMentionRoles) && len(am.Roles) > 0 {
			problems["allowed_mentions"] = "parse:[\"roles\"] and roles: [ids...] are mutually exclusive."
		}
		if len(am.Users) > 100 {
			problems["allowed_mentions.users"] = "Must be 100 or fewer in length."
		}
		if len(am.Roles) > 100 {
			problems["allowed_mentions.roles"] = "Must be 100 or fewer in length."
		}
		for i, p := range am.Parse {
			switch p {
			case guildkit.AllowedMentionUsers, guildkit.AllowedMentionRoles, guildkit.AllowedMentionEveryone:
			default:
				problems["allowed_mentions.parse."+strconv.Itoa(i)] = "Value must be one of ('roles', 'users', 'everyone')."
			}
		}
	}
	if atts, _ := b.Attachments.Get(); len(atts)+files > MaxMessageFiles && files > 0 {
		problems["attachments"] = fmt.Sprintf("Must be %d or fewer in length.", MaxMessageFiles)
	}
	for i, a := range func() []guildkit.PartialAttachment { a, _ := b.Attachments.Get(); return a }() {
		if utf8.RuneCountInString(a.Description) > guildkit.MaxAttachmentAltText {
			problems[fmt.Sprintf("attachments.%d.description", i)] = "Must be 1024 or fewer in length."
		}
	}
}

// embedProblems checks embeds against the platform's limits (§3.2): the
// count, each text's length after trimming, 25 fields, 6000 characters in
// all, http(s) or attachment:// image links.
func embedProblems(problems map[string]string, embeds []guildkit.Embed) {
	if len(embeds) > guildkit.MaxMessageEmbeds {
		problems["embeds"] = fmt.Sprintf("Must be %d or fewer in length.", guildkit.MaxMessageEmbeds)
	}
	total := 0
	text := func(path, v string, limit int) {
		n := utf8.RuneCountInString(strings.TrimSpace(v))
		total += n
		if n > limit {
			problems[path] = fmt.Sprintf("Must be %d or fewer in length.", limit)
		}
	}
	link := func(path, v string) {
		if v != "" && !strings.HasPrefix(v, "http://") && !strings.HasPrefix(v, "https://") && !strings.HasPrefix(v, "attachment://") {
			problems[path] = "Scheme \"" + strings.SplitN(v, ":", 2)[0] + "\" is not supported. Scheme must be one of ('http', 'https')."
		}
	}
	for i, e := range embeds {
		p := "embeds." + strconv.Itoa(i)
		text(p+".title", e.Title, guildkit.MaxEmbedTitle)
		text(p+".description", e.Description, guildkit.MaxEmbedDescription)
		if e.Footer != nil {
			text(p+".footer.text", e.Footer.Text, guildkit.MaxEmbedFooterText)
			link(p+".footer.icon_url", e.Footer.IconURL)
		}
		if e.Author != nil {
			text(p+".author.name", e.Author.Name, guildkit.MaxEmbedAuthorName)
			link(p+".author.icon_url", e.Author.IconURL)
		}
		if e.Image != nil {
			link(p+".image.url", e.Image.URL)
		}
		if e.Thumbnail != nil {
			link(p+".thumbnail.url", e.Thumbnail.URL)
		}
		if len(e.Fields) > guildkit.MaxEmbedFields {
			problems[p+".fields"] = fmt.Sprintf("Must be %d or fewer in length.", guildkit.MaxEmbedFields)
		}
		for j, f := range e.Fields {
			fp := p + ".fields." + strconv.Itoa(j)
			if strings.TrimSpace(f.Name) == "" {
				problems[fp+".name"] = "This field is required"
			}
			if strings.TrimSpace(f.Value) == "" {
				problems[fp+".value"] = "This field is required"
			}
			text(fp+".name", f.Name, guildkit.MaxEmbedFieldName)
			text(fp+".value", f.Value, guildkit.MaxEmbedFieldValue)
		}
	}
	if total > guildkit.MaxEmbedTotal {
		problems["embeds"] = fmt.Sprintf("Embed size exceeds maximum size of %d", guildkit.MaxEmbedTotal)
	}
}

// chatComponents decodes and checks a message's components, in the
// message's mode: interactive ones only when interactive is set (a bot
// author, an application-owned webhook; users' clients send none).
func chatComponents(raw json.RawMessage, v2, interactive bool) (components.List, *chatError) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var list components.List
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, &chatError{status: http.StatusBadRequest, problems: map[string]string{"components": "Invalid components: " + err.Error()}}
	}
	target := components.LegacyMessage
	if v2 {
		target = components.V2Message
	}
	if !interactive {
		target |= components.NonInteractive
	}
	if err := components.Validate(target, list...); err != nil {
		problems := map[string]string{}
		var ve *guildkit.ValidationError
		if errors.As(err, &ve) {
			for _, p := range ve.Problems {
				key := strings.NewReplacer("[", ".", "]", "").Replace(wire.JoinPath("components", p.Path))
				if prev, dup := problems[key]; dup {
					problems[key] = prev + "; " + p.Message
				} else {
					problems[key] = p.Message
				}
			}
		} else {
			problems["components"] = err.Error()
		}
		return nil, &chatError{status: http.StatusBadRequest, problems: problems}
	}
	return list, nil
}

// createMessage: Create Message.
func (s *Server) createMessage(c *call) {
	id, ok := c.id("channel_id", guildkit.CodeUnknownChannel, "Channel")
	if !ok {
		return
	}
	b, files, ok := c.readChatBody()
	if !ok {
		return
	}
	wm, cerr := s.createChatLocked(c.user, id, &b, files)
	if cerr != nil {
		cerr.answer(c)
		return
	}
	c.json(http.StatusOK, s.messageAnswerLocked(wm, c.user, true))
}

// createChatLocked makes a message of author in channelID from b and
// files, as Create Message does (§2.3, §4.1), and emits MESSAGE_CREATE. The
// caller holds s.mu.
func (s *Server) createChatLocked(author, channelID guildkit.Snowflake, b *chatBody, files []webhookFile) (*webhookMessage, *chatError) {
	t, cerr := s.chatTargetLocked(channelID, author)
	if cerr != nil {
		return nil, cerr
	}
	if t.ch != nil {
		switch {
		case t.ch.Type == guildkit.ChannelTypeGuildCategory:
			return nil, &chatError{status: http.StatusBadRequest, code: codeNoTextInChannel, msg: "Cannot send messages in a non-text channel"}
		case isWebhookForumType(t.ch.Type):
			return nil, &chatError{status: http.StatusBadRequest, code: codeForumChannel, msg: "Cannot send messages in a forum channel"}
		}
		send := guildkit.PermissionSendMessages
		if t.ch.Type.IsThread() {
			send = guildkit.PermissionSendMessagesInThreads
			md := t.ch.ThreadMetadata
			if md != nil && md.Locked && !t.perms.Has(guildkit.PermissionManageThreads) {
				return nil, &chatError{status: http.StatusBadRequest, code: 160005, msg: "Thread is locked"}
			}
		}
		if !t.perms.Has(send) {
			return nil, errMissingPermissions()
		}
	}

	problems := map[string]string{}
	bodyProblems(problems, b, len(files))
	content, _ := b.Content.Get()
	embeds, _ := b.Embeds.Get()
	flags, _ := b.Flags.Get()
	stickers, _ := b.StickerIDs.Get()
	poll, hasPoll := b.Poll.Get()
	if flags&^chatCreateFlags != 0 {
		problems["flags"] = "Only SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS, IS_VOICE_MESSAGE and IS_COMPONENTS_V2 can be set."
	}
	if len(stickers) > 3 {
		problems["sticker_ids"] = "Must be 3 or fewer in length."
	}
	if n := nonceProblem(b.Nonce); n != "" {
		problems["nonce"] = n
	}
	v2 := flags.Has(guildkit.MessageFlagIsComponentsV2)
	if v2 {
		webhookV2Conflicts(problems, content != "", len(embeds) > 0, false, hasPoll)
		if len(stickers) > 0 {
			problems["sticker_ids"] = "Cannot be used with the IS_COMPONENTS_V2 flag"
		}
	}
	ref := b.MessageReference
	forward := ref != nil && ref.Type == 1
	if ref != nil {
		switch {
		case ref.Type != 0 && ref.Type != 1:
			problems["message_reference.type"] = "Value must be one of (0, 1)."
		case ref.MessageID == 0:
			problems["message_reference.message_id"] = "This field is required"
		case forward && ref.ChannelID == 0:
			problems["message_reference.channel_id"] = "This field is required"
		}
	}
	if len(problems) > 0 {
		return nil, &chatError{status: http.StatusBadRequest, problems: problems}
	}
	authorUser := s.userLocked(author)
	raw, _ := b.Components.Get()
	comps, cerr := chatComponents(raw, v2, authorUser.Bot)
	if cerr != nil {
		return nil, cerr
	}
	if b.TTS && !t.perms.Has(guildkit.PermissionSendTTSMessages) {
		return nil, errMissingPermissions()
	}
	if len(files) > 0 && !t.perms.Has(guildkit.PermissionAttachFiles) {
		return nil, errMissingPermissions()
	}
	if !t.perms.Has(guildkit.PermissionEmbedLinks) {
		embeds = nil // dropped, as the platform drops them (messages.md, "unsure")
	}
	if !forward && content == "" && len(embeds) == 0 && len(comps) == 0 && len(files) == 0 && len(stickers) == 0 && !hasPoll {
		return nil, &chatError{status: http.StatusBadRequest, code: codeWebhookEmptyMessage, msg: "Cannot send an empty message"}
	}
	if t.dm != nil {
		other := t.dm.other(author)
		switch u := s.userLocked(other); {
		case (u.Bot && authorUser.Bot) || s.chat().dmsClosed[other]:
			return nil, &chatError{status: http.StatusForbidden, code: codeCannotSendToUser, msg: "Cannot send messages to this user"}
		case !s.sharesGuildLocked(author, other):
			return nil, &chatError{status: http.StatusForbidden, code: codeNoMutualGuild, msg: "You need to share a server with this user to send them a direct message"}
		}
	}
	if b.EnforceNonce && len(b.Nonce) > 0 {
		if prev := s.sameNonceLocked(t.id(), author, b.Nonce); prev != nil {
			return prev, nil
		}
	}

	now := s.now().UTC()
	st := &chatState{guildID: t.guildID()}
	if len(b.Nonce) > 0 && string(b.Nonce) != "null" {
		st.nonce = slices.Clone(b.Nonce)
	}
	m := guildkit.Message{
		ID: s.newID(), ChannelID: t.id(), Author: authorUser, Content: content, Timestamp: now, TTS: b.TTS,
		Embeds: webhookRichEmbeds(embeds), Flags: flags, Components: comps, Type: guildkit.MessageTypeDefault,
	}
	var replied *webhookMessage
	switch {
	case forward:
		snap, cerr := s.forwardSnapshotLocked(author, ref)
		if cerr != nil {
			return nil, cerr
		}
		st.ref = &messageReference{Type: 1, MessageID: ref.MessageID, ChannelID: ref.ChannelID, GuildID: snap.guildID}
		st.snapshot = snap.raw
		m.Flags |= guildkit.MessageFlagHasSnapshot
	case ref != nil:
		if !t.perms.Has(guildkit.PermissionReadMessageHistory) {
			return nil, &chatError{status: http.StatusForbidden, code: codeReplyWithoutHistory, msg: "Cannot reply without permission to read message history"}
		}
		target, ok := s.wh().messages[ref.MessageID]
		if ok && (target.msg.ChannelID != t.id() || target.visibleTo != 0) {
			ok = false
		}
		switch {
		case !ok && (ref.FailIfNotExists == nil || *ref.FailIfNotExists):
			return nil, &chatError{status: http.StatusBadRequest, code: guildkit.CodeUnknownMessage, msg: "Unknown message"}
		case !ok:
			// Sent as a plain message.
		case !isReplyable(target.msg.Type):
			return nil, &chatError{status: http.StatusBadRequest, code: codeSystemMessage, msg: "Cannot execute action on a system message"}
		default:
			replied = target
			m.Type = guildkit.MessageTypeReply
			st.ref = &messageReference{MessageID: target.msg.ID, ChannelID: t.id(), GuildID: t.guildID()}
		}
	}
	gs := t.gs
	if gs == nil {
		gs = &guildState{}
	}
	am := ptrOf(b.AllowedMentions)
	text := content
	if v2 {
		text = webhookComponentText(comps)
	}
	m.Mentions, m.MentionRoles, m.MentionEveryone = s.chatMentionsLocked(t, gs, text, am)
	if replied != nil && am != nil && am.RepliedUser && replied.msg.Author != nil && replied.msg.WebhookID == nil &&
		!slices.ContainsFunc(m.Mentions, func(u guildkit.User) bool { return u.ID == replied.msg.Author.ID }) {
		m.Mentions = append(m.Mentions, *s.userLocked(replied.msg.Author.ID))
	}
	atts, _ := b.Attachments.Get()
	m.Attachments = s.newAttachments(t.id(), nil, atts, files)
	if hasPoll {
		m.Poll = webhookPoll(poll, now)
	}
	if st.ref != nil {
		m.MessageReference = &guildkit.MessageReference{Type: guildkit.MessageReferenceType(st.ref.Type),
			MessageID: st.ref.MessageID, ChannelID: st.ref.ChannelID, GuildID: st.ref.GuildID}
	}
	wm := s.storeChatLocked(m, st)
	s.noteLastMessageLocked(t, m.ID)
	s.emit(guildkit.EventMessageCreate, t.guildID(), shaped(copyWebhookMessage(m)))
	return wm, nil
}

// isReplyable reports whether a message of type t may be replied to or
// forwarded: not a system message.
func isReplyable(t guildkit.MessageType) bool {
	switch t {
	case guildkit.MessageTypeDefault, guildkit.MessageTypeReply, 20, 23:
		return true
	}
	return false
}

// nonceProblem checks a nonce: an integer or a string of at most 25
// characters.
func nonceProblem(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var str string
	if json.Unmarshal(raw, &str) == nil {
		if utf8.RuneCountInString(str) > maxNonce {
			return "Must be 25 or fewer in length."
		}
		return ""
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		if _, err := n.Int64(); err == nil && len(n.String()) <= maxNonce {
			return ""
		}
	}
	return "Value must be an integer or a string of 25 or fewer characters."
}

// sameNonceLocked returns author's message in channelID of the last five
// minutes with nonce, or nil (enforce_nonce).
func (s *Server) sameNonceLocked(channelID, author guildkit.Snowflake, nonce json.RawMessage) *webhookMessage {
	since := s.now().Add(-5 * time.Minute)
	for _, id := range s.chat().byChannel[channelID] {
		wm := s.wh().messages[id]
		if wm != nil && wm.chat != nil && wm.msg.Author != nil && wm.msg.Author.ID == author &&
			string(wm.chat.nonce) == string(nonce) && wm.msg.Timestamp.After(since) {
			return wm
		}
	}
	return nil
}

// chatMentionsLocked resolves the mentions of text under am as the
// platform does (§3.3): then @everyone/@here and roles that are not
// mentionable ping only with MENTION_EVERYONE.
func (s *Server) chatMentionsLocked(t *chatTarget, gs *guildState, text string, am *guildkit.AllowedMentions) ([]guildkit.User, []guildkit.Snowflake, bool) {
	users, roles, everyone := s.buildMentions(gs, text, am)
	can := t.perms.Has(guildkit.PermissionMentionEveryone)
	if t.dm != nil {
		roles = []guildkit.Snowflake{}
		everyone = false
	}
	if !can {
		everyone = false
		roles = slices.DeleteFunc(roles, func(id guildkit.Snowflake) bool {
			r, ok := gs.roles[id]
			return !ok || !r.Mentionable
		})
	}
	return users, roles, everyone
}

// noteLastMessageLocked sets the channel's last_message_id (and a thread's
// counts), which the platform updates without an event.
func (s *Server) noteLastMessageLocked(t *chatTarget, id guildkit.Snowflake) {
	if t.dm != nil {
		t.dm.lastMessageID = id
		return
	}
	t.ch.LastMessageID = guildkit.Some(id)
	if t.ch.Type.IsThread() {
		n := 1
		if t.ch.MessageCount != nil {
			n = *t.ch.MessageCount + 1
		}
		t.ch.MessageCount = &n
		total := n
		if t.ch.TotalMessageSent != nil {
			total = *t.ch.TotalMessageSent + 1
		}
		t.ch.TotalMessageSent = &total
		if md := t.ch.ThreadMetadata; md != nil && md.Archived && !md.Locked {
			md.Archived = false
		}
	}
}

// messageAnswerLocked is a message as the platform answers it to viewer:
// with its reply reference and replied-to message, its reactions (me:
// viewer's), its nonce on Create Message's answer; without content for a
// bot whose application lacks MESSAGE_CONTENT (§7.3).
func (s *Server) messageAnswerLocked(wm *webhookMessage, viewer guildkit.Snowflake, withNonce bool) json.RawMessage {
	m := copyWebhookMessage(wm.msg)
	extra := map[string]any{}
	if st := wm.chat; st != nil {
		s.referenceExtrasLocked(st, extra)
		if len(st.reactions) > 0 {
			extra["reactions"] = reactionsJSON(st.reactions, viewer)
		}
		if withNonce && st.nonce != nil {
			extra["nonce"] = st.nonce
		}
	}
	if viewer == s.bot && !s.contentVisibleLocked(&m) {
		blankContent(&m)
		extra["components"] = []any{}
	}
	return objectWith(m, extra, nil)
}

// blankContent empties what MESSAGE_CONTENT gates.
func blankContent(m *guildkit.Message) {
	m.Content = ""
	m.Embeds = []guildkit.Embed{}
	m.Attachments = []guildkit.Attachment{}
	m.Components = nil
	m.Poll = nil
}

// contentVisibleLocked reports whether the bot reads m's content over REST:
// its application has MESSAGE_CONTENT, or the message is its own, in a DM,
// or mentions it (§7.3).
func (s *Server) contentVisibleLocked(m *guildkit.Message) bool {
	s.gw.mu.Lock()
	approved := s.gw.approvedLocked()
	s.gw.mu.Unlock()
	if approved&intentMessageContent != 0 {
		return true
	}
	return s.contentExemptLocked(m)
}

// contentExemptLocked reports whether m keeps its content for the bot
// without MESSAGE_CONTENT: the bot's own message or its application's, one
// in a DM, one that mentions the bot.
func (s *Server) contentExemptLocked(m *guildkit.Message) bool {
	if (m.Author != nil && m.Author.ID == s.bot) || (m.ApplicationID != nil && *m.ApplicationID == s.appID()) {
		return true
	}
	if _, dm := s.chat().dms[m.ChannelID]; dm {
		return true
	}
	return slices.ContainsFunc(m.Mentions, func(u guildkit.User) bool { return u.ID == s.bot })
}

// getMessage: Get Channel Message. VIEW_CHANNEL and READ_MESSAGE_HISTORY.
func (s *Server) getMessage(c *call) {
	t, wm, cerr := s.callMessageLocked(c)
	if cerr != nil {
		cerr.answer(c)
		return
	}
	if !t.perms.Has(guildkit.PermissionReadMessageHistory) {
		errMissingPermissions().answer(c)
		return
	}
	c.json(http.StatusOK, s.messageAnswerLocked(wm, c.user, false))
}

// callTargetLocked resolves {channel_id} for the caller, answering the
// refusal when there is one.
func (s *Server) callTargetLocked(c *call) (*chatTarget, bool) {
	id, ok := c.id("channel_id", guildkit.CodeUnknownChannel, "Channel")
	if !ok {
		return nil, false
	}
	t, cerr := s.chatTargetLocked(id, c.user)
	if cerr != nil {
		cerr.answer(c)
		return nil, false
	}
	return t, true
}

// referenceExtrasLocked adds a reply's message_reference and
// referenced_message (null when deleted), and a forward's reference and
// snapshot, to extra.
func (s *Server) referenceExtrasLocked(st *chatState, extra map[string]any) {
	if st.ref != nil {
		extra["message_reference"] = st.ref
		if st.ref.Type == 0 {
			if target, ok := s.wh().messages[st.ref.MessageID]; ok {
				extra["referenced_message"] = json.RawMessage(objectWith(copyWebhookMessage(target.msg), nil, nil))
			} else {
				extra["referenced_message"] = nil
			}
		}
	}
	if st.snapshot != nil {
		extra["message_snapshots"] = []any{map[string]any{"message": st.snapshot}}
	}
}

// callMessageLocked resolves {channel_id} and {message_id} for the caller.
// It answers nothing: the caller answers the refusal it returns.
func (s *Server) callMessageLocked(c *call) (*chatTarget, *webhookMessage, *chatError) {
	chID, err := guildkit.ParseSnowflake(c.r.PathValue("channel_id"))
	if err != nil {
		return nil, nil, &chatError{status: http.StatusNotFound, code: guildkit.CodeUnknownChannel, msg: "Unknown Channel"}
	}
	t, cerr := s.chatTargetLocked(chID, c.user)
	if cerr != nil {
		return nil, nil, cerr
	}
	id, err := guildkit.ParseSnowflake(c.r.PathValue("message_id"))
	if err != nil {
		return t, nil, errUnknownMessage()
	}
	wm, cerr := s.messageInLocked(t, id, c.user)
	return t, wm, cerr
}

// listMessages: Get Channel Messages. VIEW_CHANNEL; without
// READ_MESSAGE_HISTORY the answer is []. around, before and after (at most
// one), limit 1–100 (default 50); newest first.
func (s *Server) listMessages(c *call) {
	t, ok := s.callTargetLocked(c)
	if !ok {
		return
	}
	q := c.r.URL.Query()
	problems := map[string]string{}
	limit := 50
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			problems["limit"] = "Must be between 1 and 100."
		}
		limit = n
	}
	var cursor string
	var at guildkit.Snowflake
	for _, name := range []string{"around", "before", "after"} {
		v := q.Get(name)
		if v == "" {
			continue
		}
		if cursor != "" {
			problems[name] = "Only one of around, before and after may be given."
			continue
		}
		sf, err := guildkit.ParseSnowflake(v)
		if err != nil {
			problems[name] = "Value \"" + v + "\" is not snowflake."
			continue
		}
		cursor, at = name, sf
	}
	if len(problems) > 0 {
		c.formError(problems)
		return
	}
	out := []json.RawMessage{}
	if !t.perms.Has(guildkit.PermissionReadMessageHistory) {
		c.json(http.StatusOK, out)
		return
	}
	for _, wm := range pageOf(s.channelHistoryLocked(t.id(), 0), cursor, at, limit) {
		out = append(out, s.messageAnswerLocked(wm, c.user, false))
	}
	c.json(http.StatusOK, out)
}

// pageOf picks a page of history (oldest first) for a cursor, newest
// first.
func pageOf(history []*webhookMessage, cursor string, at guildkit.Snowflake, limit int) []*webhookMessage {
	pos, _ := slices.BinarySearchFunc(history, at, func(wm *webhookMessage, id guildkit.Snowflake) int { return cmpSnowflake(wm.msg.ID, id) })
	var page []*webhookMessage
	switch cursor {
	case "before":
		page = history[max(0, pos-limit):pos]
	case "after":
		if pos < len(history) && history[pos].msg.ID == at {
			pos++
		}
		page = history[pos:min(len(history), pos+limit)]
	case "around":
		start := max(0, pos-limit/2)
		page = history[start:min(len(history), start+limit)]
	default:
		page = history[max(0, len(history)-limit):]
	}
	out := slices.Clone(page)
	slices.Reverse(out)
	return out
}
