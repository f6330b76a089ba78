package guildkittest

import (
	"cmp"
	"encoding/json"
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

// Error codes the webhook routes answer with that the guildkit package has no
// constant for (the reference platform's).
const (
	codeWebhookEmptyMessage guildkit.ErrorCode = 50006 // Cannot send an empty message
)

// WebhookMessages returns the messages a webhook has sent and not deleted,
// oldest first.
func (s *Server) WebhookMessages(webhookID guildkit.Snowflake) []guildkit.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []guildkit.Message
	for _, m := range s.wh().messages {
		if m.webhookID == webhookID {
			out = append(out, copyWebhookMessage(m.msg))
		}
	}
	slices.SortFunc(out, func(a, b guildkit.Message) int { return cmp.Compare(a.ID, b.ID) })
	return shaped(out)
}

// WebhookMessage returns a webhook message by id.
func (s *Server) WebhookMessage(id guildkit.Snowflake) (guildkit.Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.wh().messages[id]
	if !ok {
		return guildkit.Message{}, false
	}
	return shaped(copyWebhookMessage(m.msg)), true
}

// ArchiveWebhookThread marks a thread (a channel added with AddChannel, of a
// thread type, whose ParentID is the webhook's channel) archived. Executing a
// webhook with its thread_id unarchives it. It panics on an unknown channel.
func (s *Server) ArchiveWebhookThread(threadID guildkit.Snowflake) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if gs, _ := s.webhookChannel(threadID); gs == nil {
		panic("guildkittest: ArchiveWebhookThread: unknown channel " + threadID.String())
	}
	s.webhookThread(threadID).Archived = true
}

// WebhookThread returns the webhook-related state of a thread: archived, and
// the forum tags applied when Execute Webhook made it.
func (s *Server) WebhookThread(threadID guildkit.Snowflake) (WebhookThreadState, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.wh().threads[threadID]
	if !ok {
		return WebhookThreadState{}, false
	}
	return WebhookThreadState{Archived: t.Archived, AppliedTags: slices.Clone(t.AppliedTags)}, true
}

// SetWebhookForumTags sets the tags available in a forum or media channel;
// Execute Webhook then refuses applied_tags outside them. Without it any tag
// is accepted.
func (s *Server) SetWebhookForumTags(channelID guildkit.Snowflake, tags ...guildkit.Snowflake) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.wh().forumTags[channelID] = slices.Clone(tags)
}

func (s *Server) webhookThread(id guildkit.Snowflake) *WebhookThreadState {
	t, ok := s.wh().threads[id]
	if !ok {
		t = &WebhookThreadState{}
		s.wh().threads[id] = t
	}
	return t
}

// webhookChannel finds a channel of any guild.
func (s *Server) webhookChannel(id guildkit.Snowflake) (*guildState, *guildkit.Channel) {
	for _, gs := range s.guilds {
		if ch, ok := gs.channels[id]; ok {
			return gs, ch
		}
	}
	return nil, nil
}

func copyWebhookMessage(m guildkit.Message) guildkit.Message {
	m.Mentions = slices.Clone(m.Mentions)
	m.MentionRoles = slices.Clone(m.MentionRoles)
	m.Attachments = slices.Clone(m.Attachments)
	m.Embeds = slices.Clone(m.Embeds)
	m.Components = slices.Clone(m.Components)
	return m
}

// webhookMessageBody is the body of Execute Webhook and Edit Webhook Message.
type webhookMessageBody struct {
	Content         wire.Opt[string]                       `json:"content"`
	Username        wire.Opt[string]                       `json:"username"`
	AvatarURL       wire.Opt[string]                       `json:"avatar_url"`
	TTS             wire.Opt[bool]                         `json:"tts"`
	Embeds          wire.Opt[[]guildkit.Embed]             `json:"embeds"`
	AllowedMentions wire.Opt[guildkit.AllowedMentions]     `json:"allowed_mentions"`
	Components      wire.Opt[json.RawMessage]              `json:"components"`
	Attachments     wire.Opt[[]guildkit.PartialAttachment] `json:"attachments"`
	Flags           wire.Opt[guildkit.MessageFlags]        `json:"flags"`
	ThreadName      wire.Opt[string]                       `json:"thread_name"`
	AppliedTags     wire.Opt[[]guildkit.Snowflake]         `json:"applied_tags"`
	Poll            wire.Opt[guildkit.PollCreate]          `json:"poll"`
}

const (
	webhookExecuteFlags = guildkit.MessageFlagSuppressEmbeds | guildkit.MessageFlagSuppressNotifications | guildkit.MessageFlagIsComponentsV2
	webhookEditFlags    = guildkit.MessageFlagSuppressEmbeds | guildkit.MessageFlagIsComponentsV2
)

func isWebhookThreadType(t guildkit.ChannelType) bool {
	return t == guildkit.ChannelTypePublicThread || t == guildkit.ChannelTypePrivateThread || t == guildkit.ChannelTypeAnnouncementThread
}

func isWebhookForumType(t guildkit.ChannelType) bool {
	return t == guildkit.ChannelTypeGuildForum || t == guildkit.ChannelTypeGuildMedia
}

// queryThreadID reads the thread_id query parameter: 0 when absent; 400 on a
// malformed one.
func (c *call) queryThreadID() (guildkit.Snowflake, bool) {
	raw := c.r.URL.Query().Get("thread_id")
	if raw == "" {
		return 0, true
	}
	id, err := guildkit.ParseSnowflake(raw)
	if err != nil {
		c.formError(map[string]string{"thread_id": "Value is not snowflake."})
		return 0, false
	}
	return id, true
}

// messageComponents decides what a message's components become: honoured
// for application-owned webhooks, and for others only with with_components
// (then non-interactive only); otherwise ignored. A honoured tree is checked
// with components.Validate in the message's mode. It answers 400 and returns
// ok false on a problem.
func (c *call) messageComponents(e *webhookEntry, raw json.RawMessage, v2 bool) (list components.List, honoured, ok bool) {
	owned := e.hook.ApplicationOwned()
	if !owned && c.r.URL.Query().Get("with_components") != "true" {
		return nil, false, true
	}
	list, cerr := chatComponents(raw, v2, owned)
	if cerr != nil {
		cerr.answer(c)
		return nil, false, false
	}
	return list, true, true
}

func webhookHasComponents(list components.List) bool { return len(list) > 0 }

func (s *Server) executeWebhook(c *call) {
	e, ok := c.webhookByToken()
	if !ok {
		return
	}
	b, files, ok := c.readMessageBody()
	if !ok {
		return
	}
	threadID, ok := c.queryThreadID()
	if !ok {
		return
	}
	wait := c.r.URL.Query().Get("wait") == "true"
	s.postWebhookMessage(c, e, b, files, threadID, wait)
}

// postWebhookMessage validates an execution and stores its message; it
// answers the call.
func (s *Server) postWebhookMessage(c *call, e *webhookEntry, b webhookMessageBody, files []webhookFile, threadID guildkit.Snowflake, wait bool) {
	problems := map[string]string{}
	content, _ := b.Content.Get()
	if utf8.RuneCountInString(content) > guildkit.MaxMessageContent {
		problems["content"] = fmt.Sprintf("Must be %d or fewer in length.", guildkit.MaxMessageContent)
	}
	embeds, _ := b.Embeds.Get()
	if len(embeds) > guildkit.MaxMessageEmbeds {
		problems["embeds"] = fmt.Sprintf("Must be %d or fewer in length.", guildkit.MaxMessageEmbeds)
	}
	flags, _ := b.Flags.Get()
	if flags&^webhookExecuteFlags != 0 {
		problems["flags"] = "Only SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS and IS_COMPONENTS_V2 can be set."
	}
	poll, hasPoll := b.Poll.Get()
	v2 := flags.Has(guildkit.MessageFlagIsComponentsV2)
	if v2 {
		webhookV2Conflicts(problems, content != "", len(embeds) > 0, false, hasPoll)
	}
	if u, ok := b.Username.Get(); ok {
		if p := webhookNameProblem(u); p != "" {
			problems["username"] = p
		}
	}
	if len(problems) > 0 {
		c.formError(problems)
		return
	}
	raw, _ := b.Components.Get()
	comps, _, ok := c.messageComponents(e, raw, v2)
	if !ok {
		return
	}
	if v2 && !v2FilesReferenced(c, comps, files, b) {
		return
	}
	if content == "" && len(embeds) == 0 && !webhookHasComponents(comps) && len(files) == 0 && !hasPoll {
		c.error(http.StatusBadRequest, codeWebhookEmptyMessage, "Cannot send an empty message")
		return
	}

	gid, _ := e.hook.GuildID.Get()
	gs := s.guilds[gid]
	var ch *guildkit.Channel
	if gs != nil {
		ch = gs.channels[*e.hook.ChannelID]
	}
	if ch == nil {
		c.error(http.StatusNotFound, guildkit.CodeUnknownChannel, "Unknown Channel")
		return
	}
	threadName, hasThreadName := b.ThreadName.Get()
	tags, _ := b.AppliedTags.Get()
	target := ch.ID
	var created *guildkit.Channel
	switch {
	case threadID != 0:
		th, ok := gs.channels[threadID]
		if !ok || !isWebhookThreadType(th.Type) || th.ParentID != guildkit.Some(ch.ID) {
			c.error(http.StatusNotFound, guildkit.CodeUnknownChannel, "Unknown Channel")
			return
		}
		s.webhookThread(threadID).Archived = false
		target = threadID
	case isWebhookForumType(ch.Type) && !hasThreadName:
		c.error(http.StatusBadRequest, guildkit.CodeInvalidRequest, "Webhooks posted to forum channels must have a thread_name or thread_id")
		return
	case hasThreadName:
		if !isWebhookForumType(ch.Type) {
			c.error(http.StatusBadRequest, guildkit.CodeInvalidRequest, "Webhooks can only create threads in forum channels")
			return
		}
		if strings.TrimSpace(threadName) == "" || utf8.RuneCountInString(threadName) > 100 {
			c.formError(map[string]string{"thread_name": "Must be between 1 and 100 in length."})
			return
		}
		if avail, ok := s.wh().forumTags[ch.ID]; ok {
			for i, t := range tags {
				if !slices.Contains(avail, t) {
					c.formError(map[string]string{"applied_tags." + strconv.Itoa(i): "Unknown tag"})
					return
				}
			}
		}
		th := &guildkit.Channel{ID: s.newID(), Type: guildkit.ChannelTypePublicThread, GuildID: gs.guild.ID, Name: threadName,
			ParentID: guildkit.Some(ch.ID), PermissionOverwrites: []guildkit.PermissionOverwrite{}}
		forumThreadFields(th, ch, e.hook.ID, tags, s.now().UTC())
		gs.channels[th.ID] = th
		s.webhookThread(th.ID).AppliedTags = slices.Clone(tags)
		cp := *th
		md := *th.ThreadMetadata
		cp.ThreadMetadata = &md
		created = &cp
		target = th.ID
	}
	if len(tags) > 0 && created == nil {
		c.error(http.StatusBadRequest, guildkit.CodeInvalidRequest, "applied_tags can only be used when creating a thread in a forum channel")
		return
	}

	now := s.now().UTC()
	name := ""
	if e.hook.Name != nil {
		name = *e.hook.Name
	}
	if u, ok := b.Username.Get(); ok {
		name = u
	}
	author := &guildkit.User{ID: e.hook.ID, Username: name, Discriminator: "0000", Avatar: e.hook.Avatar, Bot: true}
	if a, ok := b.AvatarURL.Get(); ok && a != "" {
		author.Avatar = &a
	}
	atts, _ := b.Attachments.Get()
	m := guildkit.Message{
		ID: s.newID(), ChannelID: target, Author: author, Content: content, Timestamp: now,
		TTS: b.TTS.Or(false), Embeds: webhookRichEmbeds(embeds), Attachments: s.newAttachments(target, nil, atts, files),
		WebhookID: &e.hook.ID, ApplicationID: e.hook.ApplicationID, Flags: flags, Components: comps, Thread: created,
	}
	if hasPoll {
		m.Poll = webhookPoll(poll, now)
	}
	am := ptrOf(b.AllowedMentions)
	text := content
	if v2 {
		text = webhookComponentText(comps)
	}
	m.Mentions, m.MentionRoles, m.MentionEveryone = s.buildMentions(gs, text, am)
	if created != nil {
		// The thread's first message is the one just made.
		created.LastMessageID = guildkit.Some(m.ID)
		gs.channels[created.ID].LastMessageID = guildkit.Some(m.ID)
		m.Thread = created
	}
	s.wh().messages[m.ID] = &webhookMessage{msg: m, webhookID: e.hook.ID}
	// MESSAGE_CREATE is not in the documents' Events sections; the
	// reference platform sends it for every message, a webhook's included.
	msgGuild, _ := e.hook.GuildID.Get()
	s.emit(guildkit.EventMessageCreate, msgGuild, shaped(copyWebhookMessage(m)))
	if !wait {
		c.noContent()
		return
	}
	c.json(http.StatusOK, copyWebhookMessage(m))
}

// v2FilesReferenced answers 400 unless every file of a Components V2
// message is referenced by an attachment:// URL of its components and
// every such reference names an uploaded file: the reference platform's
// reading of the document ("attachments are shown only if exposed through
// components").
func v2FilesReferenced(c *call, comps components.List, files []webhookFile, b webhookMessageBody) bool {
	refs := components.AttachmentRefs(comps...)
	atts, _ := b.Attachments.Get()
	problems := map[string]string{}
	var names []string
	for i, f := range files {
		name := f.filename
		for _, a := range atts {
			if int(a.ID) == f.index && a.Filename != "" {
				name = a.Filename
			}
		}
		names = append(names, name)
		if !slices.Contains(refs, name) {
			problems[fmt.Sprintf("files.%d", i)] = "Attachment is not referenced by any component of a message with the IS_COMPONENTS_V2 flag"
		}
	}
	for _, r := range refs {
		if !slices.Contains(names, r) {
			problems["components"] = "Unknown attachment: attachment://" + r
		}
	}
	if len(problems) > 0 {
		c.formError(problems)
		return false
	}
	return true
}

func webhookV2Conflicts(problems map[string]string, content, embeds, files, poll bool) {
	const msg = "Cannot be used with the IS_COMPONENTS_V2 flag"
	if content {
		problems["content"] = msg
	}
	if embeds {
		problems["embeds"] = msg
	}
	if files {
		problems["attachments"] = msg
	}
	if poll {
		problems["poll"] = msg
	}
}

func webhookRichEmbeds(in []guildkit.Embed) []guildkit.Embed {
	out := make([]guildkit.Embed, len(in))
	for i, e := range in {
		e = modelledEmbed(e)
		if e.Type == "" {
			e.Type = guildkit.EmbedTypeRich
		}
		out[i] = e
	}
	return out
}

func webhookPoll(p guildkit.PollCreate, now time.Time) *guildkit.Poll {
	exp := now.Add(time.Duration(p.Duration.Or(24)) * time.Hour)
	out := &guildkit.Poll{Question: p.Question, Expiry: &exp, AllowMultiselect: p.AllowMultiselect, LayoutType: p.LayoutType,
		Results: &guildkit.PollResults{AnswerCounts: []guildkit.PollAnswerCount{}}}
	if out.LayoutType == 0 {
		out.LayoutType = guildkit.PollLayoutDefault
	}
	for i, a := range p.Answers {
		a.AnswerID = i + 1
		out.Answers = append(out.Answers, a)
	}
	return out
}

// ownMessage resolves {message_id} to a message the webhook sent, in the
// thread named by thread_id (or in the webhook's channel): 404 Unknown
// Message otherwise.
func (c *call) ownMessage(e *webhookEntry) (*webhookMessage, bool) {
	id, ok := c.id("message_id", guildkit.CodeUnknownMessage, "Message")
	if !ok {
		return nil, false
	}
	threadID, ok := c.queryThreadID()
	if !ok {
		return nil, false
	}
	m, ok := c.s.wh().messages[id]
	want := *e.hook.ChannelID
	if threadID != 0 {
		want = threadID
	}
	if !ok || m.webhookID != e.hook.ID || m.msg.ChannelID != want {
		c.error(http.StatusNotFound, guildkit.CodeUnknownMessage, "Unknown Message")
		return nil, false
	}
	return m, true
}

func (s *Server) getWebhookMessage(c *call) {
	e, ok := c.webhookByToken()
	if !ok {
		return
	}
	m, ok := c.ownMessage(e)
	if !ok {
		return
	}
	c.json(http.StatusOK, copyWebhookMessage(m.msg))
}

func (s *Server) deleteWebhookMessage(c *call) {
	e, ok := c.webhookByToken()
	if !ok {
		return
	}
	m, ok := c.ownMessage(e)
	if !ok {
		return
	}
	delete(s.wh().messages, m.msg.ID)
	gid, _ := e.hook.GuildID.Get()
	s.emit(guildkit.EventMessageDelete, gid, guildkit.Message{ID: m.msg.ID, ChannelID: m.msg.ChannelID})
	c.noContent()
}

func (s *Server) editWebhookMessage(c *call) {
	e, ok := c.webhookByToken()
	if !ok {
		return
	}
	wm, ok := c.ownMessage(e)
	if !ok {
		return
	}
	b, files, ok := c.readMessageBody()
	if !ok {
		return
	}
	old := wm.msg
	m := copyWebhookMessage(old)
	problems := map[string]string{}
	if f, ok := b.Flags.Get(); ok && f&^webhookEditFlags != 0 {
		problems["flags"] = "Only SUPPRESS_EMBEDS and IS_COMPONENTS_V2 can be set."
	}
	if !b.Flags.IsZero() {
		f, _ := b.Flags.Get()
		m.Flags = old.Flags&^webhookEditFlags | f&webhookEditFlags
		if old.Flags.Has(guildkit.MessageFlagIsComponentsV2) && !m.Flags.Has(guildkit.MessageFlagIsComponentsV2) {
			problems["flags"] = "The IS_COMPONENTS_V2 flag cannot be removed"
		}
	}
	if !b.Content.IsZero() {
		m.Content, _ = b.Content.Get()
		if utf8.RuneCountInString(m.Content) > guildkit.MaxMessageContent {
			problems["content"] = fmt.Sprintf("Must be %d or fewer in length.", guildkit.MaxMessageContent)
		}
	}
	if !b.Embeds.IsZero() {
		embeds, _ := b.Embeds.Get()
		if len(embeds) > guildkit.MaxMessageEmbeds {
			problems["embeds"] = fmt.Sprintf("Must be %d or fewer in length.", guildkit.MaxMessageEmbeds)
		}
		m.Embeds = webhookRichEmbeds(embeds)
	}
	if b.Poll.IsSet() {
		problems["poll"] = "Polls can only be added when editing a deferred interaction response"
	} else if b.Poll.IsNull() {
		m.Poll = nil
	}
	if !b.Attachments.IsZero() {
		entries, _ := b.Attachments.Get()
		m.Attachments = s.newAttachments(m.ChannelID, keptAttachments(old.Attachments, entries), entries, files)
	} else {
		m.Attachments = s.newAttachments(m.ChannelID, old.Attachments, nil, files)
	}
	v2 := m.Flags.Has(guildkit.MessageFlagIsComponentsV2)
	if v2 {
		// Setting the flag needs the original's content, embeds, files and
		// poll nulled; a V2 message never holds them.
		webhookV2Conflicts(problems, m.Content != "", len(m.Embeds) > 0, len(m.Attachments) > 0, m.Poll != nil)
	}
	if len(problems) > 0 {
		c.formError(problems)
		return
	}
	if !b.Components.IsZero() {
		raw, _ := b.Components.Get()
		comps, honoured, ok := c.messageComponents(e, raw, v2)
		if !ok {
			return
		}
		if honoured {
			m.Components = comps
		}
	}
	if m.Content == "" && len(m.Embeds) == 0 && !webhookHasComponents(m.Components) && len(m.Attachments) == 0 && m.Poll == nil {
		c.error(http.StatusBadRequest, codeWebhookEmptyMessage, "Cannot send an empty message")
		return
	}
	// Mentions are rebuilt from scratch when the text they come from changes.
	if !b.Content.IsZero() || (v2 && !b.Components.IsZero()) {
		gid, _ := e.hook.GuildID.Get()
		text := m.Content
		if v2 {
			text = webhookComponentText(m.Components)
		}
		if gs := s.guilds[gid]; gs != nil {
			m.Mentions, m.MentionRoles, m.MentionEveryone = s.buildMentions(gs, text, ptrOf(b.AllowedMentions))
		}
	}
	now := s.now().UTC()
	m.EditedTimestamp = &now
	wm.msg = m
	gid, _ := e.hook.GuildID.Get()
	s.emit(guildkit.EventMessageUpdate, gid, shaped(copyWebhookMessage(m)))
	c.json(http.StatusOK, copyWebhookMessage(m))
}

// keptAttachments returns the attachments of an edited message that its
// attachments entries keep, with the descriptions the entries give (the
// first entry for an id wins); the others are removed.
func keptAttachments(old []guildkit.Attachment, entries []guildkit.PartialAttachment) []guildkit.Attachment {
	byID := make(map[guildkit.Snowflake]guildkit.PartialAttachment, len(entries))
	for i := len(entries) - 1; i >= 0; i-- {
		byID[entries[i].ID] = entries[i]
	}
	var kept []guildkit.Attachment
	for _, a := range old {
		if en, ok := byID[a.ID]; ok {
			if en.Description != "" {
				a.Description = en.Description
			}
			kept = append(kept, a)
		}
	}
	return kept
}

// forumThreadFields gives a thread Execute Webhook creates in forum the
// fields the reference platform's thread always carries: its owner (the
// webhook, the author of its first message), its metadata (open, unlocked,
// archiving after the forum's default duration, 3 days when it has none),
// its counts (the first message is not counted in message_count) and its
// applied tags.
func forumThreadFields(th, forum *guildkit.Channel, owner guildkit.Snowflake, tags []guildkit.Snowflake, now time.Time) {
	zero, one := 0, 1
	th.OwnerID = owner
	archive := forum.DefaultAutoArchiveDuration
	if archive == 0 {
		archive = 4320
	}
	created := now
	th.ThreadMetadata = &guildkit.ThreadMetadata{AutoArchiveDuration: archive, ArchiveTimestamp: now, CreateTimestamp: &created}
	th.MessageCount, th.TotalMessageSent, th.MemberCount = &zero, &one, &zero
	th.RateLimitPerUser = &zero
	if forum.DefaultThreadRateLimitPerUser != nil {
		rl := *forum.DefaultThreadRateLimitPerUser
		th.RateLimitPerUser = &rl
	}
	th.AppliedTags = append([]guildkit.Snowflake{}, tags...)
}
