package guildkittest

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/seed012df1e9/guildkit"
)

// Edit, delete, bulk delete, forwards, reactions and typing (messages.md
// §2.3–§2.5).

// Events of the message routes guildkit's EventName constants do not name.
const (
	eventMessageDeleteBulk     guildkit.EventName = "MESSAGE_DELETE_BULK"
	eventMessageReactionAdd    guildkit.EventName = "MESSAGE_REACTION_ADD"
	eventMessageReactionRemove guildkit.EventName = "MESSAGE_REACTION_REMOVE"
	eventTypingStart           guildkit.EventName = "TYPING_START"
)

// editMessage: Edit Message.
func (s *Server) editMessage(c *call) {
	t, wm, cerr := s.callMessageLocked(c)
	if cerr != nil {
		cerr.answer(c)
		return
	}
	b, files, ok := c.readChatBody()
	if !ok {
		return
	}
	if cerr := s.editChatLocked(c.user, t, wm, &b, files); cerr != nil {
		cerr.answer(c)
		return
	}
	c.json(http.StatusOK, s.messageAnswerLocked(wm, c.user, false))
}

// editChatLocked applies an edit by editor (§2.4) and emits
// MESSAGE_UPDATE. The caller holds s.mu.
func (s *Server) editChatLocked(editor guildkit.Snowflake, t *chatTarget, wm *webhookMessage, b *chatBody, files []webhookFile) *chatError {
	author := wm.msg.Author != nil && wm.msg.Author.ID == editor && wm.msg.WebhookID == nil
	others := !b.Content.IsZero() || !b.Embeds.IsZero() || !b.Components.IsZero() || !b.Attachments.IsZero() ||
		len(files) > 0 || !b.AllowedMentions.IsZero() || !b.StickerIDs.IsZero() || !b.Poll.IsZero()
	if !author {
		if others {
			return &chatError{status: http.StatusForbidden, code: codeEditOthers, msg: "Cannot edit a message authored by another user"}
		}
		if t.dm != nil || !t.perms.Has(guildkit.PermissionManageMessages) {
			return errMissingPermissions()
		}
	}
	problems := map[string]string{}
	bodyProblems(problems, b, len(files))
	if len(problems) > 0 {
		return &chatError{status: http.StatusBadRequest, problems: problems}
	}
	m := copyWebhookMessage(wm.msg)
	if f, ok := b.Flags.Get(); ok {
		// Only SUPPRESS_EMBEDS changes both ways and IS_COMPONENTS_V2
		// only on; other changes are ignored.
		m.Flags = m.Flags&^guildkit.MessageFlagSuppressEmbeds | f&guildkit.MessageFlagSuppressEmbeds
		m.Flags |= f & guildkit.MessageFlagIsComponentsV2
	}
	v2 := m.Flags.Has(guildkit.MessageFlagIsComponentsV2)
	if !b.Content.IsZero() {
		m.Content = b.Content.Or("")
	}
	if !b.Embeds.IsZero() {
		embeds := b.Embeds.Or(nil)
		if !t.perms.Has(guildkit.PermissionEmbedLinks) {
			embeds = nil
		}
		m.Embeds = webhookRichEmbeds(embeds)
	}
	if raw, ok := b.Components.Get(); ok || b.Components.IsNull() {
		comps, cerr := chatComponents(raw, v2, m.Author != nil && m.Author.Bot)
		if cerr != nil {
			return cerr
		}
		m.Components = comps
	}
	if v2 {
		conflicts := map[string]string{}
		webhookV2Conflicts(conflicts, m.Content != "", len(m.Embeds) > 0, false, m.Poll != nil)
		if len(conflicts) > 0 {
			return &chatError{status: http.StatusBadRequest, problems: conflicts}
		}
	}
	if len(files) > 0 && !t.perms.Has(guildkit.PermissionAttachFiles) {
		return errMissingPermissions()
	}
	if entries, ok := b.Attachments.Get(); ok || len(files) > 0 {
		kept := m.Attachments
		if ok {
			kept = keptAttachments(m.Attachments, entries)
		}
		m.Attachments = s.newAttachments(m.ChannelID, kept, entries, files)
	}
	if m.Content == "" && len(m.Embeds) == 0 && len(m.Components) == 0 && len(m.Attachments) == 0 && m.Poll == nil &&
		(wm.chat == nil || wm.chat.snapshot == nil) {
		return &chatError{status: http.StatusBadRequest, code: codeWebhookEmptyMessage, msg: "Cannot send an empty message"}
	}
	if !b.Content.IsZero() || !b.Components.IsZero() {
		gs := t.gs
		if gs == nil {
			gs = &guildState{}
		}
		text := m.Content
		if v2 {
			text = webhookComponentText(m.Components)
		}
		m.Mentions, m.MentionRoles, m.MentionEveryone = s.chatMentionsLocked(t, gs, text, ptrOf(b.AllowedMentions))
	}
	if author {
		now := s.now().UTC()
		m.EditedTimestamp = &now
	}
	wm.msg = m
	s.emit(guildkit.EventMessageUpdate, t.guildID(), shaped(copyWebhookMessage(m)))
	return nil
}

// deleteMessage: Delete Message. The author may delete its own message
// anywhere; another's needs MANAGE_MESSAGES in a guild channel and is
// refused in a DM (50003). A thread's starter message cannot be deleted
// (50021). Emits MESSAGE_DELETE.
func (s *Server) deleteMessage(c *call) {
	t, wm, cerr := s.callMessageLocked(c)
	if cerr == nil {
		cerr = s.deleteChatLocked(c.user, t, wm)
	}
	if cerr != nil {
		cerr.answer(c)
		return
	}
	c.noContent()
}

func (s *Server) deleteChatLocked(user guildkit.Snowflake, t *chatTarget, wm *webhookMessage) *chatError {
	own := wm.msg.Author != nil && wm.msg.Author.ID == user && wm.msg.WebhookID == nil
	switch {
	case wm.msg.Type == 21:
		return &chatError{status: http.StatusBadRequest, code: codeSystemMessage, msg: "Cannot execute action on a system message"}
	case own:
	case t.dm != nil:
		return &chatError{status: http.StatusForbidden, code: codeCannotDMChannel, msg: "Cannot execute action on a DM channel"}
	case !t.perms.Has(guildkit.PermissionManageMessages):
		return errMissingPermissions()
	}
	s.dropMessageLocked(wm)
	s.emit(guildkit.EventMessageDelete, t.guildID(), guildkit.Message{ID: wm.msg.ID, ChannelID: wm.msg.ChannelID})
	return nil
}

// dropMessageLocked removes a message from the table and its channel's
// list.
func (s *Server) dropMessageLocked(wm *webhookMessage) {
	delete(s.wh().messages, wm.msg.ID)
	s.forgetChatLocked(wm.msg.ChannelID, wm.msg.ID)
}

// bulkDeleteMessages: Bulk Delete Messages. MANAGE_MESSAGES, guild
// channels only; 2 to 100 ids (50016), none a duplicate (50035) or older
// than 14 days (50034). Unknown ids count but are skipped. Emits
// MESSAGE_DELETE_BULK with the ids deleted.
func (s *Server) bulkDeleteMessages(c *call) {
	t, ok := s.callTargetLocked(c)
	if !ok {
		return
	}
	if t.dm != nil {
		c.error(http.StatusForbidden, codeCannotDMChannel, "Cannot execute action on a DM channel")
		return
	}
	if !t.perms.Has(guildkit.PermissionManageMessages) {
		errMissingPermissions().answer(c)
		return
	}
	var body struct {
		Messages []guildkit.Snowflake `json:"messages"`
	}
	if !c.decode(&body) {
		return
	}
	if n := len(body.Messages); n < 2 || n > 100 {
		c.error(http.StatusBadRequest, codeBulkCount, "You can only bulk delete messages that are between 2 and 100 in number")
		return
	}
	oldest := s.now().Add(-14 * 24 * time.Hour)
	seen := map[guildkit.Snowflake]bool{}
	for i, mid := range body.Messages {
		if seen[mid] {
			c.formError(map[string]string{"messages." + strconv.Itoa(i): "Duplicate message id."})
			return
		}
		seen[mid] = true
		if mid.Time().Before(oldest) {
			c.error(http.StatusBadRequest, codeBulkTooOld, "You can only bulk delete messages that are under 14 days old.")
			return
		}
	}
	deleted := []guildkit.Snowflake{}
	for _, mid := range body.Messages {
		if wm, cerr := s.messageInLocked(t, mid, c.user); cerr == nil && wm.msg.Type != 21 {
			s.dropMessageLocked(wm)
			deleted = append(deleted, mid)
		}
	}
	if len(deleted) > 0 {
		s.emit(eventMessageDeleteBulk, t.guildID(), map[string]any{"ids": deleted, "channel_id": t.id(), "guild_id": t.guildID()})
	}
	c.noContent()
}

// forwardSnapshot is a forwarded message frozen at forwarding time.
type forwardSnapshot struct {
	guildID guildkit.Snowflake
	raw     json.RawMessage
}

// forwardSnapshotLocked checks a forward of ref's message by author (it
// must see it and read its history, else 160014; only types 0, 19, 20 and
// 23 without a poll) and returns its snapshot.
func (s *Server) forwardSnapshotLocked(author guildkit.Snowflake, ref *chatReference) (*forwardSnapshot, *chatError) {
	src, cerr := s.chatTargetLocked(ref.ChannelID, author)
	if cerr != nil || !src.perms.Has(guildkit.PermissionReadMessageHistory) {
		return nil, &chatError{status: http.StatusForbidden, code: 160014, msg: "Cannot forward a message you cannot read"}
	}
	wm, cerr := s.messageInLocked(src, ref.MessageID, author)
	if cerr != nil {
		return nil, cerr
	}
	if !isReplyable(wm.msg.Type) || wm.msg.Poll != nil {
		return nil, &chatError{status: http.StatusBadRequest, code: codeSystemMessage, msg: "Cannot forward this message"}
	}
	m := shaped(copyWebhookMessage(wm.msg))
	snap := map[string]any{
		"type": m.Type, "content": m.Content, "embeds": m.Embeds, "attachments": m.Attachments, "timestamp": m.Timestamp,
		"edited_timestamp": m.EditedTimestamp, "flags": m.Flags, "mentions": m.Mentions, "mention_roles": m.MentionRoles,
		"components": m.Components, "sticker_items": []any{},
	}
	raw, _ := json.Marshal(snap)
	return &forwardSnapshot{guildID: src.guildID(), raw: raw}, nil
}

// maxUnicodeEmoji bounds what parseReactionEmoji takes for a Unicode
// emoji, in runes: the longest sequences (families joined with ZWJ, flags
// of subdivisions) have fewer, and a sender cannot make each reaction it
// stores as long as a header.
const maxUnicodeEmoji = 16

// parseReactionEmoji reads {emoji}: a Unicode emoji, or name:id of one of
// the guild's emoji, named as the guild names it (10014 otherwise).
func parseReactionEmoji(t *chatTarget, raw string) (reactionEmoji, *chatError) {
	bad := &chatError{status: http.StatusBadRequest, code: codeUnknownEmoji, msg: "Unknown Emoji"}
	v, err := url.PathUnescape(raw)
	if err != nil || v == "" {
		return reactionEmoji{}, bad
	}
	if _, idPart, ok := strings.Cut(v, ":"); ok {
		id, err := guildkit.ParseSnowflake(idPart)
		if err != nil || t.gs == nil {
			return reactionEmoji{}, bad
		}
		for _, e := range t.gs.guild.Emojis {
			if e.ID != nil && *e.ID == id {
				name := ""
				if e.Name != nil {
					name = *e.Name
				}
				return reactionEmoji{ID: id, Name: name}, nil
			}
		}
		return reactionEmoji{}, bad
	}
	if utf8.RuneCountInString(v) > maxUnicodeEmoji {
		return reactionEmoji{}, bad
	}
	for _, r := range v {
		if r > unicode.MaxASCII {
			return reactionEmoji{Name: v}, nil
		}
	}
	return reactionEmoji{}, bad
}

// callReactionLocked resolves {channel_id}, {message_id} and {emoji} for
// the caller, answering the refusal when there is one.
func (s *Server) callReactionLocked(c *call) (*chatTarget, *webhookMessage, reactionEmoji, bool) {
	t, wm, cerr := s.callMessageLocked(c)
	var e reactionEmoji
	if cerr == nil {
		e, cerr = parseReactionEmoji(t, c.r.PathValue("emoji"))
	}
	if cerr != nil {
		cerr.answer(c)
		return nil, nil, e, false
	}
	return t, wm, e, true
}

// reactionsJSON is a message's reactions as viewer sees them.
func reactionsJSON(rs []reactionState, viewer guildkit.Snowflake) []map[string]any {
	out := make([]map[string]any, 0, len(rs))
	for _, r := range rs {
		out = append(out, map[string]any{
			"emoji": r.emoji, "count": len(r.users), "count_details": map[string]int{"burst": 0, "normal": len(r.users)},
			"me": slices.Contains(r.users, viewer), "me_burst": false, "burst_colors": []string{},
		})
	}
	return out
}

// createReaction: Create Reaction. READ_MESSAGE_HISTORY; ADD_REACTIONS
// for an emoji nobody used on the message yet; at most 20 emoji (30010).
// Emits MESSAGE_REACTION_ADD.
func (s *Server) createReaction(c *call) {
	t, wm, e, ok := s.callReactionLocked(c)
	if !ok {
		return
	}
	if wm.chat == nil {
		wm.chat = &chatState{guildID: t.guildID()}
	}
	st := wm.chat
	i := slices.IndexFunc(st.reactions, func(r reactionState) bool { return r.emoji == e })
	switch {
	case !t.perms.Has(guildkit.PermissionReadMessageHistory):
		errMissingPermissions().answer(c)
		return
	case i < 0 && !t.perms.Has(guildkit.PermissionAddReactions):
		errMissingPermissions().answer(c)
		return
	case i < 0 && len(st.reactions) >= 20:
		c.error(http.StatusBadRequest, codeTooManyReactions, "Maximum number of reactions reached (20)")
		return
	case i < 0:
		st.reactions = append(st.reactions, reactionState{emoji: e})
		i = len(st.reactions) - 1
	}
	if !slices.Contains(st.reactions[i].users, c.user) {
		st.reactions[i].users = append(st.reactions[i].users, c.user)
		d := s.reactionEventLocked(t, wm, c.user, e)
		if wm.msg.Author != nil {
			d["message_author_id"] = wm.msg.Author.ID
		}
		if t.gs != nil {
			if ms, ok := t.gs.members[c.user]; ok {
				m := copyMember(ms.member)
				d["member"] = shaped(m)
			}
		}
		d["burst_colors"] = []string{}
		s.emit(eventMessageReactionAdd, t.guildID(), d)
	}
	c.noContent()
}

// reactionEventLocked is the part of MESSAGE_REACTION_ADD and _REMOVE they
// share.
func (s *Server) reactionEventLocked(t *chatTarget, wm *webhookMessage, user guildkit.Snowflake, e reactionEmoji) map[string]any {
	d := map[string]any{"user_id": user, "channel_id": t.id(), "message_id": wm.msg.ID, "emoji": e, "burst": false, "type": 0}
	if t.gs != nil {
		d["guild_id"] = t.guildID()
	}
	return d
}

// deleteOwnReaction: Delete Own Reaction. Emits MESSAGE_REACTION_REMOVE
// when the caller had reacted.
func (s *Server) deleteOwnReaction(c *call) {
	t, wm, e, ok := s.callReactionLocked(c)
	if !ok {
		return
	}
	if st := wm.chat; st != nil {
		if i := slices.IndexFunc(st.reactions, func(r reactionState) bool { return r.emoji == e }); i >= 0 {
			if j := slices.Index(st.reactions[i].users, c.user); j >= 0 {
				st.reactions[i].users = slices.Delete(st.reactions[i].users, j, j+1)
				if len(st.reactions[i].users) == 0 {
					st.reactions = slices.Delete(st.reactions, i, i+1)
				}
				s.emit(eventMessageReactionRemove, t.guildID(), s.reactionEventLocked(t, wm, c.user, e))
			}
		}
	}
	c.noContent()
}

// triggerTyping: Trigger Typing Indicator. VIEW_CHANNEL and the right to
// send (messages.md, "unsure"); emits TYPING_START (timestamp in Unix
// seconds).
func (s *Server) triggerTyping(c *call) {
	t, ok := s.callTargetLocked(c)
	if !ok {
		return
	}
	send := guildkit.PermissionSendMessages
	if t.ch != nil && t.ch.Type.IsThread() {
		send = guildkit.PermissionSendMessagesInThreads
	}
	if !t.perms.Has(send) {
		errMissingPermissions().answer(c)
		return
	}
	d := map[string]any{"channel_id": t.id(), "user_id": c.user, "timestamp": s.now().Unix()}
	if t.gs != nil {
		d["guild_id"] = t.guildID()
		if ms, ok := t.gs.members[c.user]; ok {
			d["member"] = shaped(copyMember(ms.member))
		}
	}
	s.emit(eventTypingStart, t.guildID(), d)
	c.noContent()
}
