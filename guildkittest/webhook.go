package guildkittest

import (
	"cmp"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/wire"
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
	// visibleTo is the only user who sees an ephemeral interaction
	// message; 0 when everyone does.
	visibleTo guildkit.Snowflake
	// chat is what an ordinary message (Create Message, Server.Post)
	// carries beyond msg; nil for webhook messages and interaction answers.
	chat *chatState
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
	reg("POST /channels/{channel_id}/webhooks", authRequired, s.createWebhook, bodyLimit(MaxImageBody))
	reg("GET /channels/{channel_id}/webhooks", authRequired, s.listChannelWebhooks)
	reg("GET /guilds/{guild_id}/webhooks", authRequired, s.listGuildWebhooks)
	reg("GET /webhooks/{webhook_id}", authRequired, s.getWebhook)
	reg("PATCH /webhooks/{webhook_id}", authRequired, s.modifyWebhook, bodyLimit(MaxImageBody))
	reg("DELETE /webhooks/{webhook_id}", authRequired, s.deleteWebhook)
	reg("GET /webhooks/{webhook_id}/{webhook_token}", authNone, s.getWebhookWithToken)
	reg("PATCH /webhooks/{webhook_id}/{webhook_token}", authNone, s.modifyWebhookWithToken, bodyLimit(MaxImageBody))
	reg("DELETE /webhooks/{webhook_id}/{webhook_token}", authNone, s.deleteWebhookWithToken)
	reg("POST /webhooks/{webhook_id}/{webhook_token}", authNone, s.executeWebhook, streamBody(MaxUploadBody, readMessageUpload))
	reg("POST /webhooks/{webhook_id}/{webhook_token}/chatcompat", authNone, s.executeChatCompat)
	reg("POST /webhooks/{webhook_id}/{webhook_token}/repocompat", authNone, s.executeRepoCompat)
	reg("GET /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", authNone, s.getWebhookMessage)
	reg("PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", authNone, s.editWebhookMessage, streamBody(MaxUploadBody, readMessageUpload))
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
	return shaped(s.webhookJSON(e, true)), true
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

// Webhooks returns every webhook the server holds, oldest first, with their
// tokens.
func (s *Server) Webhooks() []guildkit.Webhook {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []guildkit.Webhook{}
	for _, e := range sortedByID(s.wh().hooks) {
		out = append(out, s.webhookJSON(e, true))
	}
	return shaped(out)
}
