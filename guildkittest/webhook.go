package guildkittest

import (
	"cmp"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"regexp"
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

// webhookStore is what the server keeps about webhooks, their messages and
// the thread state webhook execution needs.
type webhookStore struct {
	hooks     map[guildkit.Snowflake]*webhookEntry
	messages  map[guildkit.Snowflake]*webhookMessage
	threads   map[guildkit.Snowflake]*WebhookThreadState // by thread channel id
	forumTags map[guildkit.Snowflake][]guildkit.Snowflake
}

type webhookEntry struct {
	hook guildkit.Webhook // with token and user
}

type webhookMessage struct {
	msg       guildkit.Message
	webhookID guildkit.Snowflake
}

// WebhookThreadState is what the server tracks about a thread for webhook
// execution.
type WebhookThreadState struct {
	Archived    bool
	AppliedTags []guildkit.Snowflake // forum tags, for threads made by thread_name
}

func (s *Server) wh() *webhookStore {
	if s.webhooks == nil {
		s.webhooks = &webhookStore{
			hooks:     make(map[guildkit.Snowflake]*webhookEntry),
			messages:  make(map[guildkit.Snowflake]*webhookMessage),
			threads:   make(map[guildkit.Snowflake]*WebhookThreadState),
			forumTags: make(map[guildkit.Snowflake][]guildkit.Snowflake),
		}
	}
	return s.webhooks
}

func (s *Server) webhookRoutes(reg registrar) {
	reg("POST /channels/{channel_id}/webhooks", authRequired, s.createWebhook)
	reg("GET /channels/{channel_id}/webhooks", authRequired, s.listChannelWebhooks)
	reg("GET /guilds/{guild_id}/webhooks", authRequired, s.listGuildWebhooks)
	reg("GET /webhooks/{webhook_id}", authRequired, s.getWebhook)
	reg("PATCH /webhooks/{webhook_id}", authRequired, s.modifyWebhook)
	reg("DELETE /webhooks/{webhook_id}", authRequired, s.deleteWebhook)
	reg("GET /webhooks/{webhook_id}/{webhook_token}", authNone, s.getWebhookWithToken)
	reg("PATCH /webhooks/{webhook_id}/{webhook_token}", authNone, s.modifyWebhookWithToken)
	reg("DELETE /webhooks/{webhook_id}/{webhook_token}", authNone, s.deleteWebhookWithToken)
	reg("POST /webhooks/{webhook_id}/{webhook_token}", authNone, s.executeWebhook)
	reg("POST /webhooks/{webhook_id}/{webhook_token}/chatcompat", authNone, s.executeChatCompat)
	reg("POST /webhooks/{webhook_id}/{webhook_token}/repocompat", authNone, s.executeRepoCompat)
	reg("GET /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", authNone, s.getWebhookMessage)
	reg("PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", authNone, s.editWebhookMessage)
	reg("DELETE /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", authNone, s.deleteWebhookMessage)
}

// WebhookOption configures a webhook [Server.AddWebhook] seeds.
type WebhookOption func(*guildkit.Webhook)

// WebhookApplication makes the webhook owned by the application appID
// (application ids are bot user ids in this server: pass [Server.BotID] for
// the bot's own application). Application-owned webhooks may send every kind
// of component, and Get Webhook is allowed to their application without
// MANAGE_WEBHOOKS.
func WebhookApplication(appID guildkit.Snowflake) WebhookOption {
	return func(w *guildkit.Webhook) { w.ApplicationID = &appID }
}

// WebhookCreator sets the user who created the webhook (default: the bot).
func WebhookCreator(userID guildkit.Snowflake) WebhookOption {
	return func(w *guildkit.Webhook) { w.User = &guildkit.User{ID: userID} }
}

// WebhookOfType sets the webhook's type (default Incoming).
func WebhookOfType(t guildkit.WebhookType) WebhookOption {
	return func(w *guildkit.Webhook) { w.Type = t }
}

// AddWebhook adds a webhook named name to a channel and returns it with its
// token. It is not owned by an application unless [WebhookApplication] says
// so. It panics on an unknown channel.
func (s *Server) AddWebhook(channelID guildkit.Snowflake, name string, opts ...WebhookOption) guildkit.Webhook {
	s.mu.Lock()
	defer s.mu.Unlock()
	gs, _ := s.webhookChannel(channelID)
	if gs == nil {
		panic("guildkittest: AddWebhook: unknown channel " + channelID.String())
	}
	w := guildkit.Webhook{Type: guildkit.WebhookTypeIncoming, User: &guildkit.User{ID: s.bot}}
	for _, o := range opts {
		o(&w)
	}
	w.Name = &name
	return s.addWebhookLocked(gs, channelID, w)
}

func (s *Server) addWebhookLocked(gs *guildState, channelID guildkit.Snowflake, w guildkit.Webhook) guildkit.Webhook {
	w.ID = s.newID()
	w.GuildID = guildkit.Some(gs.guild.ID)
	w.ChannelID = &channelID
	if w.Type == 0 {
		w.Type = guildkit.WebhookTypeIncoming
	}
	if w.User != nil {
		if u, ok := s.users[w.User.ID]; ok {
			cp := *u
			w.User = &cp
		}
	}
	var b [24]byte
	_, _ = rand.Read(b[:])
	w.Token = base64.RawURLEncoding.EncodeToString(b[:])
	s.wh().hooks[w.ID] = &webhookEntry{hook: w}
	return s.webhookJSON(s.wh().hooks[w.ID], true)
}

// Webhook returns a webhook as the server holds it, with its token.
func (s *Server) Webhook(id guildkit.Snowflake) (guildkit.Webhook, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.wh().hooks[id]
	if !ok {
		return guildkit.Webhook{}, false
	}
	return s.webhookJSON(e, true), true
}

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
	return out
}

// WebhookMessage returns a webhook message by id.
func (s *Server) WebhookMessage(id guildkit.Snowflake) (guildkit.Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.wh().messages[id]
	if !ok {
		return guildkit.Message{}, false
	}
	return copyWebhookMessage(m.msg), true
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

// webhookJSON returns the webhook as the interface shows it; withUser false
// leaves the user out (token-based fetches).
func (s *Server) webhookJSON(e *webhookEntry, withUser bool) guildkit.Webhook {
	w := e.hook
	if w.Name != nil {
		n := *w.Name
		w.Name = &n
	}
	if w.Avatar != nil {
		a := *w.Avatar
		w.Avatar = &a
	}
	if w.ChannelID != nil {
		c := *w.ChannelID
		w.ChannelID = &c
	}
	if w.ApplicationID != nil {
		a := *w.ApplicationID
		w.ApplicationID = &a
	}
	if withUser && w.User != nil {
		u := *w.User
		w.User = &u
	} else {
		w.User = nil
	}
	return w
}

func copyWebhookMessage(m guildkit.Message) guildkit.Message {
	m.Mentions = slices.Clone(m.Mentions)
	m.MentionRoles = slices.Clone(m.MentionRoles)
	m.Attachments = slices.Clone(m.Attachments)
	m.Embeds = slices.Clone(m.Embeds)
	m.Components = slices.Clone(m.Components)
	return m
}

// reservedWebhookWords are the reference platform's reserved words.
var reservedWebhookWords = []string{"discord", "clyde"}

// webhookNameProblem returns why name is not a valid webhook name, or "".
func webhookNameProblem(name string) string {
	n := utf8.RuneCountInString(name)
	if strings.TrimSpace(name) == "" || n > guildkit.MaxWebhookName {
		return fmt.Sprintf("Must be between 1 and %d in length.", guildkit.MaxWebhookName)
	}
	lower := strings.ToLower(name)
	for _, w := range reservedWebhookWords {
		if strings.Contains(lower, w) {
			return fmt.Sprintf("Username cannot contain \"%s\"", w)
		}
	}
	return ""
}

func webhookAvatarHash(data string) (string, bool) {
	d := guildkit.ImageData(data)
	ct := d.ContentType()
	if !strings.HasPrefix(ct, "image/") || !strings.HasPrefix(data, "data:"+ct+";base64,") {
		return "", false
	}
	sum := sha256.Sum256([]byte(data))
	return hex.EncodeToString(sum[:16]), true
}

// webhookBody is the body of Create and Modify Webhook (and its token form).
type webhookBody struct {
	Name      wire.Opt[string]             `json:"name"`
	Avatar    wire.Opt[string]             `json:"avatar"`
	ChannelID wire.Opt[guildkit.Snowflake] `json:"channel_id"`
}

// applyWebhookBody validates and applies name and avatar; it answers 400 and
// returns false on a problem.
func (c *call) applyWebhookBody(w *guildkit.Webhook, b webhookBody, nameRequired bool) bool {
	problems := map[string]string{}
	name, hasName := b.Name.Get()
	switch {
	case b.Name.IsNull() || (nameRequired && !hasName):
		problems["name"] = "This field is required"
	case hasName:
		if p := webhookNameProblem(name); p != "" {
			problems["name"] = p
		}
	}
	var hash *string
	if a, ok := b.Avatar.Get(); ok {
		h, valid := webhookAvatarHash(a)
		if !valid {
			problems["avatar"] = "Invalid image data"
		}
		hash = &h
	}
	if len(problems) > 0 {
		c.formError(problems)
		return false
	}
	if hasName {
		w.Name = &name
	}
	if !b.Avatar.IsZero() {
		w.Avatar = hash
	}
	return true
}

func (s *Server) emitWebhooksUpdate(guildID, channelID guildkit.Snowflake) {
	s.emit(guildkit.EventWebhooksUpdate, guildID, guildkit.WebhooksUpdateEvent{GuildID: guildID, ChannelID: channelID})
}

// channelForWebhooks resolves {channel_id} for the by-id routes: 404 Unknown
// Channel, 403 Missing Access for a non-member, 403 without MANAGE_WEBHOOKS.
func (c *call) channelForWebhooks() (*guildState, *guildkit.Channel, bool) {
	id, ok := c.id("channel_id", guildkit.CodeUnknownChannel, "Channel")
	if !ok {
		return nil, nil, false
	}
	gs, ch := c.s.webhookChannel(id)
	if gs == nil {
		c.error(http.StatusNotFound, guildkit.CodeUnknownChannel, "Unknown Channel")
		return nil, nil, false
	}
	if !c.callerIsMember(gs) || !c.require(gs, guildkit.PermissionManageWebhooks) {
		return nil, nil, false
	}
	return gs, ch, true
}

func (s *Server) createWebhook(c *call) {
	gs, ch, ok := c.channelForWebhooks()
	if !ok {
		return
	}
	var b webhookBody
	if !c.decode(&b) {
		return
	}
	w := guildkit.Webhook{Type: guildkit.WebhookTypeIncoming, User: &guildkit.User{ID: c.user}}
	if u, ok := s.users[c.user]; ok && u.Bot {
		app := c.user
		w.ApplicationID = &app
	}
	if !c.applyWebhookBody(&w, b, true) {
		return
	}
	out := s.addWebhookLocked(gs, ch.ID, w)
	s.emitWebhooksUpdate(gs.guild.ID, ch.ID)
	c.json(http.StatusOK, out)
}

func (s *Server) sortedWebhooks(keep func(*webhookEntry) bool) []guildkit.Webhook {
	out := []guildkit.Webhook{}
	for _, e := range s.wh().hooks {
		if keep(e) {
			out = append(out, s.webhookJSON(e, true))
		}
	}
	slices.SortFunc(out, func(a, b guildkit.Webhook) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

func (s *Server) listChannelWebhooks(c *call) {
	_, ch, ok := c.channelForWebhooks()
	if !ok {
		return
	}
	c.json(http.StatusOK, s.sortedWebhooks(func(e *webhookEntry) bool { return *e.hook.ChannelID == ch.ID }))
}

func (s *Server) listGuildWebhooks(c *call) {
	gs, ok := c.guild()
	if !ok || !c.require(gs, guildkit.PermissionManageWebhooks) {
		return
	}
	c.json(http.StatusOK, s.sortedWebhooks(func(e *webhookEntry) bool {
		g, _ := e.hook.GuildID.Get()
		return g == gs.guild.ID
	}))
}

// webhookByID resolves {webhook_id} for the by-id routes: 404 Unknown
// Webhook; then 403 unless the caller holds MANAGE_WEBHOOKS in its guild, or
// (when ownerMay) its application owns the webhook.
func (c *call) webhookByID(ownerMay bool) (*webhookEntry, *guildState, bool) {
	id, ok := c.id("webhook_id", guildkit.CodeUnknownWebhook, "Webhook")
	if !ok {
		return nil, nil, false
	}
	e, ok := c.s.wh().hooks[id]
	if !ok {
		c.error(http.StatusNotFound, guildkit.CodeUnknownWebhook, "Unknown Webhook")
		return nil, nil, false
	}
	gid, _ := e.hook.GuildID.Get()
	gs := c.s.guilds[gid]
	if ownerMay && e.hook.ApplicationID != nil && *e.hook.ApplicationID == c.user {
		return e, gs, true
	}
	if gs == nil {
		c.error(http.StatusNotFound, guildkit.CodeUnknownWebhook, "Unknown Webhook")
		return nil, nil, false
	}
	if !c.callerIsMember(gs) || !c.require(gs, guildkit.PermissionManageWebhooks) {
		return nil, nil, false
	}
	return e, gs, true
}

// webhookByToken resolves {webhook_id} and {webhook_token}: 404 Unknown
// Webhook, 401 Invalid Webhook Token (50027).
func (c *call) webhookByToken() (*webhookEntry, bool) {
	id, ok := c.id("webhook_id", guildkit.CodeUnknownWebhook, "Webhook")
	if !ok {
		return nil, false
	}
	e, ok := c.s.wh().hooks[id]
	if !ok {
		c.error(http.StatusNotFound, guildkit.CodeUnknownWebhook, "Unknown Webhook")
		return nil, false
	}
	if e.hook.Token == "" || c.r.PathValue("webhook_token") != e.hook.Token {
		c.error(http.StatusUnauthorized, guildkit.CodeInvalidWebhookToken, "Invalid Webhook Token")
		return nil, false
	}
	return e, true
}

func (s *Server) getWebhook(c *call) {
	e, _, ok := c.webhookByID(true)
	if !ok {
		return
	}
	c.json(http.StatusOK, s.webhookJSON(e, true))
}

func (s *Server) getWebhookWithToken(c *call) {
	e, ok := c.webhookByToken()
	if !ok {
		return
	}
	c.json(http.StatusOK, s.webhookJSON(e, false))
}

func (s *Server) modifyWebhook(c *call) {
	e, gs, ok := c.webhookByID(false)
	if !ok {
		return
	}
	var b webhookBody
	if !c.decode(&b) {
		return
	}
	w := e.hook
	oldChannel := *w.ChannelID
	if b.ChannelID.IsNull() {
		c.formError(map[string]string{"channel_id": "This field cannot be null"})
		return
	}
	if to, ok := b.ChannelID.Get(); ok {
		if _, exists := gs.channels[to]; !exists {
			c.formError(map[string]string{"channel_id": "Unknown channel or not in this guild"})
			return
		}
		w.ChannelID = &to
	}
	if !c.applyWebhookBody(&w, b, false) {
		return
	}
	e.hook = w
	s.emitWebhooksUpdate(gs.guild.ID, oldChannel)
	if *w.ChannelID != oldChannel {
		s.emitWebhooksUpdate(gs.guild.ID, *w.ChannelID)
	}
	c.json(http.StatusOK, s.webhookJSON(e, true))
}

func (s *Server) modifyWebhookWithToken(c *call) {
	e, ok := c.webhookByToken()
	if !ok {
		return
	}
	var b webhookBody
	if !c.decode(&b) {
		return
	}
	b.ChannelID = wire.Opt[guildkit.Snowflake]{} // not movable with the token
	w := e.hook
	if !c.applyWebhookBody(&w, b, false) {
		return
	}
	e.hook = w
	gid, _ := w.GuildID.Get()
	s.emitWebhooksUpdate(gid, *w.ChannelID)
	c.json(http.StatusOK, s.webhookJSON(e, false))
}

func (s *Server) deleteWebhook(c *call) {
	e, gs, ok := c.webhookByID(false)
	if !ok {
		return
	}
	delete(s.wh().hooks, e.hook.ID)
	s.emitWebhooksUpdate(gs.guild.ID, *e.hook.ChannelID)
	c.noContent()
}

// deleteApplicationWebhooksLocked removes the webhooks of guild gid owned by
// application appID, as Delete Guild Integration does, emitting
// WEBHOOKS_UPDATE for each channel that lost one. The caller holds s.mu.
func (s *Server) deleteApplicationWebhooksLocked(gid, appID guildkit.Snowflake) {
	if s.webhooks == nil {
		return
	}
	channels := map[guildkit.Snowflake]bool{}
	for id, e := range s.webhooks.hooks {
		g, _ := e.hook.GuildID.Get()
		if g == gid && e.hook.ApplicationID != nil && *e.hook.ApplicationID == appID {
			delete(s.webhooks.hooks, id)
			if e.hook.ChannelID != nil {
				channels[*e.hook.ChannelID] = true
			}
		}
	}
	for ch := range channels {
		s.emitWebhooksUpdate(gid, ch)
	}
}

func (s *Server) deleteWebhookWithToken(c *call) {
	e, ok := c.webhookByToken()
	if !ok {
		return
	}
	delete(s.wh().hooks, e.hook.ID)
	gid, _ := e.hook.GuildID.Get()
	s.emitWebhooksUpdate(gid, *e.hook.ChannelID)
	c.noContent()
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

// webhookFile is a files[n] part: its name, type and size. Its content is
// counted and dropped, never held in memory.
type webhookFile struct {
	index       int
	filename    string
	contentType string
	size        int64
}

// readMessageBody reads a JSON body, or a multipart one (payload_json and
// files[n], streamed: file parts are counted and dropped). It answers 400
// and returns false on a bad body. While it reads a multipart body it
// releases s.mu, so that a large upload does not hold up other requests;
// callers look their state up again afterwards.
func (c *call) readMessageBody() (webhookMessageBody, []webhookFile, bool) {
	var b webhookMessageBody
	mt, _, _ := mime.ParseMediaType(c.r.Header.Get("Content-Type"))
	if mt != "multipart/form-data" {
		return b, nil, c.decode(&b)
	}
	c.s.mu.Unlock()
	files, bad, problem := readWebhookMultipart(c.r, &b)
	c.s.mu.Lock()
	switch {
	case bad != "":
		c.error(http.StatusBadRequest, guildkit.CodeInvalidFormBody, bad)
		return b, nil, false
	case problem != nil:
		c.formError(problem)
		return b, nil, false
	}
	return b, files, true
}

// readWebhookMultipart reads payload_json into b and counts the files[n]
// parts. It touches no server state.
func readWebhookMultipart(r *http.Request, b *webhookMessageBody) (files []webhookFile, bad string, problem map[string]string) {
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, "Invalid multipart body", nil
	}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return files, "", nil
		}
		if err != nil {
			return nil, "Invalid multipart body", nil
		}
		name := part.FormName()
		switch {
		case name == "payload_json":
			if err := json.NewDecoder(io.LimitReader(part, 1<<20)).Decode(b); err != nil {
				return nil, "The payload_json part is not valid JSON.", nil
			}
		case strings.HasPrefix(name, "files[") && strings.HasSuffix(name, "]"):
			n, err := strconv.Atoi(name[len("files[") : len(name)-1])
			if err != nil || n < 0 {
				return nil, "", map[string]string{name: "Invalid file field"}
			}
			size, err := io.Copy(io.Discard, part)
			if err != nil {
				return nil, "Invalid multipart body", nil
			}
			files = append(files, webhookFile{index: n, filename: part.FileName(), contentType: part.Header.Get("Content-Type"), size: size})
		default:
			_, _ = io.Copy(io.Discard, part)
		}
		part.Close()
	}
}

var webhookMentionRE = regexp.MustCompile(`<@(!|&)?(\d+)>|@everyone|@here`)

// buildMentions parses user, role and everyone mentions from text under the
// allowed mentions (nil: all allowed).
func (s *Server) buildMentions(gs *guildState, text string, am *guildkit.AllowedMentions) (users []guildkit.User, roles []guildkit.Snowflake, everyone bool) {
	users, roles = []guildkit.User{}, []guildkit.Snowflake{}
	allow := func(kind guildkit.AllowedMentionType, id guildkit.Snowflake) bool {
		if am == nil {
			return true
		}
		if slices.Contains(am.Parse, kind) {
			return true
		}
		switch kind {
		case guildkit.AllowedMentionUsers:
			return slices.Contains(am.Users, id)
		case guildkit.AllowedMentionRoles:
			return slices.Contains(am.Roles, id)
		}
		return false
	}
	for _, m := range webhookMentionRE.FindAllStringSubmatch(text, -1) {
		if m[2] == "" {
			everyone = everyone || allow(guildkit.AllowedMentionEveryone, 0)
			continue
		}
		id, err := guildkit.ParseSnowflake(m[2])
		if err != nil {
			continue
		}
		if m[1] == "&" {
			if _, ok := gs.roles[id]; ok && allow(guildkit.AllowedMentionRoles, id) && !slices.Contains(roles, id) {
				roles = append(roles, id)
			}
			continue
		}
		if u, ok := s.users[id]; ok && allow(guildkit.AllowedMentionUsers, id) &&
			!slices.ContainsFunc(users, func(x guildkit.User) bool { return x.ID == id }) {
			users = append(users, *u)
		}
	}
	return users, roles, everyone
}

// webhookComponentText gathers the content of every Text Display (type 10) in a
// component tree, for mentions of a Components V2 message.
func webhookComponentText(list components.List) string {
	raw, err := json.Marshal(list)
	if err != nil {
		return ""
	}
	var tree any
	if json.Unmarshal(raw, &tree) != nil {
		return ""
	}
	var b strings.Builder
	var walk func(any)
	walk = func(n any) {
		switch x := n.(type) {
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			if t, _ := x["type"].(float64); t == 10 {
				if s, ok := x["content"].(string); ok {
					b.WriteString(s)
					b.WriteByte('\n')
				}
			}
			for _, v := range x {
				walk(v)
			}
		}
	}
	walk(tree)
	return b.String()
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
	if len(raw) == 0 || string(raw) == "null" {
		return nil, true, true
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		c.formError(map[string]string{"components": "Invalid components: " + err.Error()})
		return nil, false, false
	}
	target := components.LegacyMessage
	if v2 {
		target = components.V2Message
	}
	if !owned {
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
		c.formError(problems)
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
	if s.wh().hooks[e.hook.ID] != e { // deleted while the body was read
		c.error(http.StatusNotFound, guildkit.CodeUnknownWebhook, "Unknown Webhook")
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
		webhookV2Conflicts(problems, content != "", len(embeds) > 0, len(files) > 0, hasPoll)
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
		gs.channels[th.ID] = th
		s.webhookThread(th.ID).AppliedTags = slices.Clone(tags)
		cp := *th
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
	am := webhookOptPtr(b.AllowedMentions)
	text := content
	if v2 {
		text = webhookComponentText(comps)
	}
	m.Mentions, m.MentionRoles, m.MentionEveryone = s.buildMentions(gs, text, am)
	s.wh().messages[m.ID] = &webhookMessage{msg: m, webhookID: e.hook.ID}
	if !wait {
		c.noContent()
		return
	}
	c.json(http.StatusOK, copyWebhookMessage(m))
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

func webhookOptPtr[T any](o wire.Opt[T]) *T {
	if v, ok := o.Get(); ok {
		return &v
	}
	return nil
}

func webhookRichEmbeds(in []guildkit.Embed) []guildkit.Embed {
	out := make([]guildkit.Embed, len(in))
	for i, e := range in {
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

// newAttachments returns kept followed by one attachment per received file,
// named and described by the attachments entry whose id is the file's index.
func (s *Server) newAttachments(channelID guildkit.Snowflake, kept []guildkit.Attachment, entries []guildkit.PartialAttachment, files []webhookFile) []guildkit.Attachment {
	out := append([]guildkit.Attachment{}, kept...)
	for _, f := range files {
		a := guildkit.Attachment{ID: s.newID(), Filename: f.filename, ContentType: f.contentType, Size: f.size}
		for _, e := range entries {
			if int(e.ID) == f.index {
				if e.Filename != "" {
					a.Filename = e.Filename
				}
				a.Description = e.Description
			}
		}
		a.URL = fmt.Sprintf("%s/attachments/%s/%s/%s", s.URL, channelID, a.ID, a.Filename)
		a.ProxyURL = a.URL
		out = append(out, a)
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
	if s.wh().hooks[e.hook.ID] != e || s.wh().messages[wm.msg.ID] != wm { // changed while the body was read
		c.error(http.StatusNotFound, guildkit.CodeUnknownMessage, "Unknown Message")
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
		var kept []guildkit.Attachment
		for _, a := range old.Attachments {
			for _, en := range entries {
				if en.ID == a.ID {
					if en.Description != "" {
						a.Description = en.Description
					}
					kept = append(kept, a)
					break
				}
			}
		}
		m.Attachments = s.newAttachments(m.ChannelID, kept, entries, files)
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
			m.Mentions, m.MentionRoles, m.MentionEveryone = s.buildMentions(gs, text, webhookOptPtr(b.AllowedMentions))
		}
	}
	now := s.now().UTC()
	m.EditedTimestamp = &now
	wm.msg = m
	c.json(http.StatusOK, copyWebhookMessage(m))
}

// compatWait reads wait for the compatibility routes, where it defaults to
// true.
func (c *call) compatWait() bool { return c.r.URL.Query().Get("wait") != "false" }

func (s *Server) executeChatCompat(c *call) {
	e, ok := c.webhookByToken()
	if !ok {
		return
	}
	var p guildkit.ChatCompatPayload
	if !c.decode(&p) {
		return
	}
	threadID, ok := c.queryThreadID()
	if !ok {
		return
	}
	var b webhookMessageBody
	content := p.Text
	if content == "" {
		content = chatCompatBlocksText(p.Blocks)
	}
	var embeds []guildkit.Embed
	for _, a := range p.Attachments {
		if a.Pretext != "" {
			content = strings.TrimSpace(content + "\n" + a.Pretext)
		}
		em := guildkit.Embed{Title: a.Title, URL: a.TitleLink, Description: a.Text}
		if a.Color != "" {
			if v, err := strconv.ParseUint(strings.TrimPrefix(a.Color, "#"), 16, 32); err == nil {
				em.Color = guildkit.Some(int(v) & 0xFFFFFF)
			}
		}
		if a.AuthorName != "" {
			em.Author = &guildkit.EmbedAuthor{Name: a.AuthorName, URL: a.AuthorLink, IconURL: a.AuthorIcon}
		}
		for _, f := range a.Fields {
			em.Fields = append(em.Fields, guildkit.EmbedField{Name: f.Title, Value: f.Value, Inline: f.Short})
		}
		if a.ImageURL != "" {
			em.Image = &guildkit.EmbedMedia{URL: a.ImageURL}
		}
		if a.ThumbURL != "" {
			em.Thumbnail = &guildkit.EmbedMedia{URL: a.ThumbURL}
		}
		if a.Footer != "" {
			em.Footer = &guildkit.EmbedFooter{Text: a.Footer, IconURL: a.FooterIcon}
		}
		if ts, err := a.TS.Float64(); err == nil && ts > 0 {
			em.Timestamp = time.Unix(int64(ts), 0).UTC()
		}
		if em.Description == "" && em.Title == "" && a.Fallback != "" {
			em.Description = a.Fallback
		}
		embeds = append(embeds, em)
	}
	if content != "" {
		b.Content = wire.Some(content)
	}
	if len(embeds) > 0 {
		b.Embeds = wire.Some(embeds)
	}
	if p.Username != "" {
		b.Username = wire.Some(p.Username)
	}
	if p.IconURL != "" {
		b.AvatarURL = wire.Some(p.IconURL)
	}
	s.postWebhookMessage(c, e, b, nil, threadID, c.compatWait())
}

// chatCompatBlocksText takes the text of section and header blocks.
func chatCompatBlocksText(blocks []json.RawMessage) string {
	var lines []string
	for _, raw := range blocks {
		var blk struct {
			Text *struct {
				Text string `json:"text"`
			} `json:"text"`
		}
		if json.Unmarshal(raw, &blk) == nil && blk.Text != nil && blk.Text.Text != "" {
			lines = append(lines, blk.Text.Text)
		}
	}
	return strings.Join(lines, "\n")
}

func (s *Server) executeRepoCompat(c *call) {
	e, ok := c.webhookByToken()
	if !ok {
		return
	}
	event := guildkit.RepoEvent(c.r.Header.Get(guildkit.RepoEventHeader))
	if event == "" {
		c.error(http.StatusBadRequest, guildkit.CodeInvalidRequest, "Missing the "+guildkit.RepoEventHeader+" header")
		return
	}
	var payload map[string]any
	if !c.decode(&payload) {
		return
	}
	threadID, ok := c.queryThreadID()
	if !ok {
		return
	}
	if !slices.Contains(guildkit.RepoEvents, event) {
		c.noContent() // unsupported events are accepted and dropped
		return
	}
	b := webhookMessageBody{Content: wire.Some(repoCompatSummary(event, payload)), Username: wire.Some("GitHub")}
	s.postWebhookMessage(c, e, b, nil, threadID, c.compatWait())
}

// repoCompatSummary is the short message a repository event becomes.
func repoCompatSummary(event guildkit.RepoEvent, p map[string]any) string {
	str := func(path ...string) string {
		var cur any = p
		for _, k := range path {
			m, ok := cur.(map[string]any)
			if !ok {
				return ""
			}
			cur = m[k]
		}
		switch v := cur.(type) {
		case string:
			return v
		case float64:
			return strconv.FormatFloat(v, 'f', -1, 64)
		}
		return ""
	}
	repo := cmp.Or(str("repository", "full_name"), str("repository", "name"), "repository")
	action := str("action")
	switch event {
	case guildkit.RepoEventPush:
		commits, _ := p["commits"].([]any)
		branch := strings.TrimPrefix(str("ref"), "refs/heads/")
		word := "commits"
		if len(commits) == 1 {
			word = "commit"
		}
		return fmt.Sprintf("[%s:%s] %d new %s", repo, branch, len(commits), word)
	case guildkit.RepoEventIssues:
		return fmt.Sprintf("[%s] Issue %s: #%s %s", repo, action, str("issue", "number"), str("issue", "title"))
	case guildkit.RepoEventPullRequest:
		return fmt.Sprintf("[%s] Pull request %s: #%s %s", repo, action, str("pull_request", "number"), str("pull_request", "title"))
	case guildkit.RepoEventRelease:
		return fmt.Sprintf("[%s] Release %s: %s", repo, action, str("release", "tag_name"))
	case guildkit.RepoEventWatch:
		return fmt.Sprintf("[%s] New star added", repo)
	case guildkit.RepoEventFork:
		return fmt.Sprintf("[%s] Fork created: %s", repo, str("forkee", "full_name"))
	}
	if action != "" {
		return fmt.Sprintf("[%s] %s %s", repo, event, action)
	}
	return fmt.Sprintf("[%s] %s", repo, event)
}
