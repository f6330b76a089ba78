package guildkit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/wire"
)

// WebhookService handles the operations on webhooks and webhook messages. Reach it through
// [Client].Webhooks.
//
// Operations addressed by webhook id alone (Create, ListChannel, ListGuild,
// Get, Modify, Delete) need the client's credential and the MANAGE_WEBHOOKS
// permission. Operations that take the webhook's token (GetWithToken,
// ModifyWithToken, DeleteWithToken, Execute, ExecuteChatCompat,
// ExecuteRepoCompat, GetMessage, EditMessage, DeleteMessage) send no
// Authorization header at all: the token in the path identifies the webhook,
// so they work on a client made with a nil credential (see also
// [NewWebhookClient]). The token never appears in an error or a log record.
type WebhookService service

// Webhook is a webhook: a way to post messages to a channel without a bot
// user.
type Webhook struct {
	ID   Snowflake   `json:"id"`
	Type WebhookType `json:"type"`
	// GuildID is the guild the webhook is for; absent or null for some
	// application webhooks.
	GuildID   Opt[Snowflake] `json:"guild_id,omitzero"`
	ChannelID *Snowflake     `json:"channel_id"`
	// User is who created the webhook; omitted when fetched with the token.
	User   *User   `json:"user,omitempty"`
	Name   *string `json:"name"`   // nil means the default name
	Avatar *string `json:"avatar"` // avatar hash; nil means the default avatar
	// Token is the webhook's secret, returned for incoming webhooks. It is
	// never printed by String or GoString.
	Token         string          `json:"token,omitempty"`
	ApplicationID *Snowflake      `json:"application_id"` // the creating application, if any
	SourceGuild   *PartialGuild   `json:"source_guild,omitempty"`
	SourceChannel *PartialChannel `json:"source_channel,omitempty"`
	// URL is returned by the webhooks OAuth2 flow. It holds the token.
	URL string `json:"url,omitempty"`
}

// String describes the webhook without its token or URL.
func (w Webhook) String() string {
	name := "<default>"
	if w.Name != nil {
		name = *w.Name
	}
	tok := ""
	if w.Token != "" || w.URL != "" {
		tok = ", token <redacted>"
	}
	return fmt.Sprintf("Webhook{%s %s %q%s}", w.ID, w.Type, name, tok)
}

// GoString is String, so that %#v does not print the token either.
func (w Webhook) GoString() string { return w.String() }

// ApplicationOwned reports whether an application owns the webhook (its
// application_id is set). Application-owned webhooks may send every kind of
// component; others only non-interactive ones.
func (w *Webhook) ApplicationOwned() bool { return w.ApplicationID != nil && *w.ApplicationID != 0 }

// WebhookType is the kind of a webhook.
type WebhookType int

// Webhook types.
const (
	WebhookTypeIncoming        WebhookType = 1 // posts with a token
	WebhookTypeChannelFollower WebhookType = 2 // posts followed announcement-channel messages
	WebhookTypeApplication     WebhookType = 3 // used with interactions
)

// String returns "INCOMING", "CHANNEL_FOLLOWER" or "APPLICATION".
func (t WebhookType) String() string {
	return enumString("WebhookType", []string{"", "INCOMING", "CHANNEL_FOLLOWER", "APPLICATION"}, int(t))
}

// WebhooksUpdateEvent is the payload of the WEBHOOKS_UPDATE event: the
// channel whose webhooks changed. The interface does not show the payload;
// this is the reference platform's.
type WebhooksUpdateEvent struct {
	GuildID   Snowflake `json:"guild_id"`
	ChannelID Snowflake `json:"channel_id"`
}

// MaxWebhookName is the longest webhook name, in characters.
const MaxWebhookName = 80

// defaultReservedWebhookNames are the reference platform's two reserved
// words: its own name and its bot's.
var defaultReservedWebhookNames = []string{"discord", "clyde"}

// WithReservedWebhookNames sets the words a webhook name (and an execution's
// username override) must not contain, compared case-insensitively. The
// interface reserves two words, the service's own name and one other; the
// default is the reference platform's "discord" and "clyde". Calling it with
// no words turns the client-side check off (the service still checks).
func WithReservedWebhookNames(words ...string) Option {
	return func(c *config) error {
		for _, w := range words {
			if strings.TrimSpace(w) == "" {
				return fmt.Errorf("WithReservedWebhookNames: empty word")
			}
		}
		c.reservedWebhookNames = append(make([]string, 0, len(words)), words...)
		return nil
	}
}

// validateWebhookName checks a webhook name or username override: 1-80
// characters, not blank, none of the reserved words.
func (c *Client) validateWebhookName(v *ValidationError, path, name string) {
	n := utf8.RuneCountInString(name)
	switch {
	case strings.TrimSpace(name) == "":
		v.Add(path, wire.CodeRequired, "1-%d characters, not blank", MaxWebhookName)
	case n > MaxWebhookName:
		v.Add(path, wire.CodeLength, "1-%d characters, got %d", MaxWebhookName, n)
	}
	words := c.reservedWebhookNames
	if words == nil {
		words = defaultReservedWebhookNames
	}
	lower := strings.ToLower(name)
	for _, w := range words {
		if strings.Contains(lower, strings.ToLower(w)) {
			v.Add(path, wire.CodeInvalid, "must not contain %q", w)
		}
	}
}

func validateWebhookAvatar(v *ValidationError, path string, a Opt[ImageData]) {
	if d, ok := a.Get(); ok && !d.valid() {
		v.Add(path, wire.CodeInvalid, "not a base64 data URI of a png, jpeg, gif or webp image")
	}
}

// WebhookCreateParams is the body of [WebhookService.Create].
type WebhookCreateParams struct {
	// Name is required: 1-80 characters, without the reserved words (see
	// [WithReservedWebhookNames]).
	Name string `json:"name"`
	// Avatar is the default avatar. Null or omitted: the default avatar.
	Avatar Opt[ImageData] `json:"avatar,omitzero"`
}

// Create makes an incoming webhook in a channel, owned by the client's
// application when a bot creates it. Requires MANAGE_WEBHOOKS. The name is
// checked before sending (1-80 characters, no reserved word). Supports
// WithReason. Emits WEBHOOKS_UPDATE.
//
// Spec: "Create Webhook" — POST /channels/{channel.id}/webhooks
func (s *WebhookService) Create(ctx context.Context, channelID Snowflake, params *WebhookCreateParams, opts ...RequestOption) (*Webhook, error) {
	var v ValidationError
	if params == nil {
		v.Add("name", wire.CodeRequired, "params with a name are required")
		return nil, v.Err()
	}
	s.c.validateWebhookName(&v, "name", params.Name)
	validateWebhookAvatar(&v, "avatar", params.Avatar)
	if err := v.Err(); err != nil {
		return nil, err
	}
	var w Webhook
	if _, err := s.c.do(ctx, &request{method: http.MethodPost, route: "/channels/{channel.id}/webhooks", path: []any{channelID},
		body: params, auditLog: true, opts: opts}, &w); err != nil {
		return nil, err
	}
	return &w, nil
}

// ListChannel returns the webhooks of a channel. Requires MANAGE_WEBHOOKS.
//
// Spec: "Get Channel Webhooks" — GET /channels/{channel.id}/webhooks
func (s *WebhookService) ListChannel(ctx context.Context, channelID Snowflake, opts ...RequestOption) ([]Webhook, error) {
	var out []Webhook
	if _, err := s.c.do(ctx, &request{method: http.MethodGet, route: "/channels/{channel.id}/webhooks", path: []any{channelID}, opts: opts}, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// ListGuild returns the webhooks of every channel of a guild. Requires
// MANAGE_WEBHOOKS.
//
// Spec: "Get Guild Webhooks" — GET /guilds/{guild.id}/webhooks
func (s *WebhookService) ListGuild(ctx context.Context, guildID Snowflake, opts ...RequestOption) ([]Webhook, error) {
	var out []Webhook
	if _, err := s.c.do(ctx, &request{method: http.MethodGet, route: "/guilds/{guild.id}/webhooks", path: []any{guildID}, opts: opts}, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// Get returns a webhook. Requires MANAGE_WEBHOOKS, unless the client's
// application owns the webhook. 404 (Unknown Webhook) when there is none.
//
// Spec: "Get Webhook" — GET /webhooks/{webhook.id}
func (s *WebhookService) Get(ctx context.Context, webhookID Snowflake, opts ...RequestOption) (*Webhook, error) {
	var w Webhook
	if _, err := s.c.do(ctx, &request{method: http.MethodGet, route: "/webhooks/{webhook.id}", path: []any{webhookID}, opts: opts}, &w); err != nil {
		return nil, err
	}
	return &w, nil
}

// GetWithToken returns a webhook by its token, without its user. It sends no
// credential. An invalid token is 401 (Invalid Webhook Token).
//
// Spec: "Get Webhook with Token" — GET /webhooks/{webhook.id}/{webhook.token}
func (s *WebhookService) GetWithToken(ctx context.Context, webhookID Snowflake, token string, opts ...RequestOption) (*Webhook, error) {
	var w Webhook
	if _, err := s.c.do(ctx, &request{method: http.MethodGet, route: "/webhooks/{webhook.id}/{webhook.token}", path: []any{webhookID, token},
		auth: authNone, opts: opts}, &w); err != nil {
		return nil, err
	}
	return &w, nil
}

// WebhookModifyParams is the body of [WebhookService.Modify]. Every field is
// optional; omitted fields keep their value.
type WebhookModifyParams struct {
	// Name is 1-80 characters without the reserved words. Null is refused.
	Name Opt[string] `json:"name,omitzero"`
	// Avatar replaces the default avatar; Null resets it.
	Avatar Opt[ImageData] `json:"avatar,omitzero"`
	// ChannelID moves the webhook to another channel of the same guild. Null
	// is refused.
	ChannelID Opt[Snowflake] `json:"channel_id,omitzero"`
}

// Modify changes a webhook's name or avatar, or moves it to another channel.
// Requires MANAGE_WEBHOOKS. Supports WithReason. Emits WEBHOOKS_UPDATE (for
// both channels on a move).
//
// Spec: "Modify Webhook" — PATCH /webhooks/{webhook.id}
func (s *WebhookService) Modify(ctx context.Context, webhookID Snowflake, params *WebhookModifyParams, opts ...RequestOption) (*Webhook, error) {
	if params == nil {
		params = &WebhookModifyParams{}
	}
	var v ValidationError
	s.c.validateModifyName(&v, params.Name)
	validateWebhookAvatar(&v, "avatar", params.Avatar)
	if params.ChannelID.IsNull() {
		v.Add("channel_id", wire.CodeNotNull, "channel_id cannot be null")
	} else if id, ok := params.ChannelID.Get(); ok && id == 0 {
		v.Add("channel_id", wire.CodeRequired, "channel_id cannot be zero")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	var w Webhook
	if _, err := s.c.do(ctx, &request{method: http.MethodPatch, route: "/webhooks/{webhook.id}", path: []any{webhookID},
		body: params, auditLog: true, opts: opts}, &w); err != nil {
		return nil, err
	}
	return &w, nil
}

func (c *Client) validateModifyName(v *ValidationError, name Opt[string]) {
	if name.IsNull() {
		v.Add("name", wire.CodeNotNull, "name cannot be null")
	} else if n, ok := name.Get(); ok {
		c.validateWebhookName(v, "name", n)
	}
}

// WebhookModifyWithTokenParams is the body of
// [WebhookService.ModifyWithToken]: as [WebhookModifyParams] without the
// channel move.
type WebhookModifyWithTokenParams struct {
	// Name is 1-80 characters without the reserved words. Null is refused.
	Name Opt[string] `json:"name,omitzero"`
	// Avatar replaces the default avatar; Null resets it.
	Avatar Opt[ImageData] `json:"avatar,omitzero"`
}

// ModifyWithToken changes a webhook's name or avatar by its token, sending no
// credential; the answer has no user. Emits WEBHOOKS_UPDATE.
//
// Spec: "Modify Webhook with Token" — PATCH /webhooks/{webhook.id}/{webhook.token}
func (s *WebhookService) ModifyWithToken(ctx context.Context, webhookID Snowflake, token string, params *WebhookModifyWithTokenParams, opts ...RequestOption) (*Webhook, error) {
	if params == nil {
		params = &WebhookModifyWithTokenParams{}
	}
	var v ValidationError
	s.c.validateModifyName(&v, params.Name)
	validateWebhookAvatar(&v, "avatar", params.Avatar)
	if err := v.Err(); err != nil {
		return nil, err
	}
	var w Webhook
	if _, err := s.c.do(ctx, &request{method: http.MethodPatch, route: "/webhooks/{webhook.id}/{webhook.token}", path: []any{webhookID, token},
		body: params, auth: authNone, opts: opts}, &w); err != nil {
		return nil, err
	}
	return &w, nil
}

// Delete deletes a webhook. Requires MANAGE_WEBHOOKS. Supports WithReason.
// Answers 204. Emits WEBHOOKS_UPDATE.
//
// Spec: "Delete Webhook" — DELETE /webhooks/{webhook.id}
func (s *WebhookService) Delete(ctx context.Context, webhookID Snowflake, opts ...RequestOption) error {
	_, err := s.c.do(ctx, &request{method: http.MethodDelete, route: "/webhooks/{webhook.id}", path: []any{webhookID}, auditLog: true, opts: opts}, nil)
	return err
}

// DeleteWithToken deletes a webhook by its token, sending no credential.
// Answers 204. Emits WEBHOOKS_UPDATE.
//
// Spec: "Delete Webhook with Token" — DELETE /webhooks/{webhook.id}/{webhook.token}
func (s *WebhookService) DeleteWithToken(ctx context.Context, webhookID Snowflake, token string, opts ...RequestOption) error {
	_, err := s.c.do(ctx, &request{method: http.MethodDelete, route: "/webhooks/{webhook.id}/{webhook.token}", path: []any{webhookID, token},
		auth: authNone, opts: opts}, nil)
	return err
}

// webhookQuery is the query of the execute and message operations.
type webhookQuery struct {
	Wait           Opt[bool]      `url:"wait,omitempty"`
	ThreadID       Opt[Snowflake] `url:"thread_id,omitempty"`
	WithComponents Opt[bool]      `url:"with_components,omitempty"`
}

// WebhookExecuteParams is the query and body of [WebhookService.Execute].
// At least one of Content, Embeds, Components, Files and Poll is required.
// Null is refused everywhere.
type WebhookExecuteParams struct {
	// Wait (query) makes the service answer with the created message; by
	// default (false) it answers 204 and Execute returns a nil message, and a
	// message that fails to save gives no error.
	Wait Opt[bool] `json:"-"`
	// ThreadID (query) posts into that thread of the webhook's channel,
	// unarchiving it.
	ThreadID Opt[Snowflake] `json:"-"`
	// WithComponents (query) makes a webhook not owned by an application
	// honour Components (non-interactive ones only); without it they are
	// ignored. Application-owned webhooks always honour them.
	WithComponents Opt[bool] `json:"-"`
	// ApplicationOwned is not sent: it tells the client's check that the
	// webhook is owned by an application, so interactive components
	// (buttons with a custom_id, selects) are allowed. By default only
	// non-interactive components pass.
	ApplicationOwned bool `json:"-"`

	Content   Opt[string] `json:"content,omitzero"`    // up to 2000 characters
	Username  Opt[string] `json:"username,omitzero"`   // overrides the webhook's name; rules of a webhook name
	AvatarURL Opt[string] `json:"avatar_url,omitzero"` // overrides the webhook's avatar
	TTS       Opt[bool]   `json:"tts,omitzero"`
	Embeds    []Embed     `json:"embeds,omitzero"` // up to 10
	// AllowedMentions controls which mentions notify; omitted: all do.
	AllowedMentions Opt[AllowedMentions] `json:"allowed_mentions,omitzero"`
	// Components are checked before sending with [components.Validate]:
	// V2 rules with IS_COMPONENTS_V2, legacy rules otherwise, and
	// non-interactive components only unless ApplicationOwned.
	Components components.List `json:"components,omitzero"`
	// Files are uploaded as files[n] of a multipart body, streamed. With
	// IS_COMPONENTS_V2 they are refused.
	Files []File `json:"-"`
	// Attachments describes Files by index (ID n is Files[n]); the client
	// adds an entry for every file not described.
	Attachments []PartialAttachment `json:"attachments,omitzero"`
	// Flags may hold only SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS and
	// IS_COMPONENTS_V2. With IS_COMPONENTS_V2 the message may hold only
	// components.
	Flags Opt[MessageFlags] `json:"flags,omitzero"`
	// ThreadName creates a thread of that name in a forum or media channel
	// and posts the message in it.
	ThreadName Opt[string] `json:"thread_name,omitzero"`
	// AppliedTags are the forum tags of the thread ThreadName creates.
	AppliedTags []Snowflake     `json:"applied_tags,omitzero"`
	Poll        Opt[PollCreate] `json:"poll,omitzero"`
}

// webhookExecuteFlagSet are the flags Execute Webhook accepts; webhookEditFlagSet those Edit
// Webhook Message accepts.
const (
	webhookExecuteFlagSet = MessageFlagSuppressEmbeds | MessageFlagSuppressNotifications | MessageFlagIsComponentsV2
	webhookEditFlagSet    = MessageFlagSuppressEmbeds | MessageFlagIsComponentsV2
)

func webhookNotNull[T any](v *ValidationError, path string, o Opt[T]) {
	if o.IsNull() {
		v.Add(path, wire.CodeNotNull, "%s cannot be null", path)
	}
}

func (c *Client) validateExecute(p *WebhookExecuteParams) error {
	var v ValidationError
	webhookNotNull(&v, "wait", p.Wait)
	webhookNotNull(&v, "thread_id", p.ThreadID)
	webhookNotNull(&v, "with_components", p.WithComponents)
	webhookNotNull(&v, "content", p.Content)
	webhookNotNull(&v, "username", p.Username)
	webhookNotNull(&v, "avatar_url", p.AvatarURL)
	webhookNotNull(&v, "tts", p.TTS)
	webhookNotNull(&v, "allowed_mentions", p.AllowedMentions)
	webhookNotNull(&v, "flags", p.Flags)
	webhookNotNull(&v, "thread_name", p.ThreadName)
	webhookNotNull(&v, "poll", p.Poll)
	if id, ok := p.ThreadID.Get(); ok && id == 0 {
		v.Add("thread_id", wire.CodeRequired, "thread_id cannot be zero")
	}
	content, _ := p.Content.Get()
	messageMaxLen(&v, "content", content, MaxMessageContent)
	if u, ok := p.Username.Get(); ok {
		c.validateWebhookName(&v, "username", u)
	}
	validateMessageEmbeds(&v, "embeds", p.Embeds)
	if am, ok := p.AllowedMentions.Get(); ok {
		am.validate(&v, "allowed_mentions")
	}
	poll, hasPoll := p.Poll.Get()
	if hasPoll {
		validateMessagePoll(&v, "poll", poll)
	}
	validateMessageFiles(&v, p.Files)
	for i, a := range p.Attachments {
		if int(a.ID) >= len(p.Files) {
			v.Add(fmt.Sprintf("attachments[%d].id", i), wire.CodeInvalid, "names files[%d], but there are %d files", a.ID, len(p.Files))
		}
		messageMaxLen(&v, fmt.Sprintf("attachments[%d].description", i), a.Description, MaxAttachmentAltText)
	}
	if name, ok := p.ThreadName.Get(); ok {
		if strings.TrimSpace(name) == "" {
			v.Add("thread_name", wire.CodeRequired, "thread_name cannot be blank")
		}
		messageMaxLen(&v, "thread_name", name, 100)
		if p.ThreadID.IsSet() {
			v.Add("thread_name", wire.CodeConflict, "thread_name creates a thread; it cannot be combined with thread_id")
		}
	}
	flags, _ := p.Flags.Get()
	if extra := flags &^ webhookExecuteFlagSet; extra != 0 {
		v.Add("flags", wire.CodeNotAllowed, "only SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS and IS_COMPONENTS_V2 may be set, got %s", extra)
	}
	v2 := flags.Has(MessageFlagIsComponentsV2)
	if v2 {
		if content != "" {
			v.Add("content", wire.CodeConflict, "a message with IS_COMPONENTS_V2 holds only components: no content")
		}
		if len(p.Embeds) > 0 {
			v.Add("embeds", wire.CodeConflict, "a message with IS_COMPONENTS_V2 holds only components: no embeds")
		}
		if len(p.Files) > 0 {
			v.Add("files", wire.CodeConflict, "a message with IS_COMPONENTS_V2 holds only components: no files")
		}
		if hasPoll {
			v.Add("poll", wire.CodeConflict, "a message with IS_COMPONENTS_V2 holds only components: no poll")
		}
	}
	hasComponents := validateMessageComponents(&v, p.Components, v2, p.ApplicationOwned)
	if content == "" && len(p.Embeds) == 0 && !hasComponents && len(p.Files) == 0 && !hasPoll {
		v.Add("", wire.CodeRequired, "at least one of content, embeds, components, files and poll is required")
	}
	return v.Err()
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
		parts[i] = filePart(fmt.Sprintf("files[%d]", i), f)
	}
	return parts
}

// Execute posts a message through the webhook, sending no credential. With
// Files the body is a streamed multipart form (payload_json and files[n],
// with attachments whose ids match the parts). The client checks before
// sending: content up to 2000 characters, up to 10 embeds, at least one of
// content, embeds, components, files and poll, only SUPPRESS_EMBEDS,
// SUPPRESS_NOTIFICATIONS and IS_COMPONENTS_V2 in flags, nothing but
// components with IS_COMPONENTS_V2, and the components themselves (V2 or
// legacy rules by the flag; non-interactive only unless ApplicationOwned).
//
// Without Wait the service answers 204 and Execute returns (nil, nil). In a
// forum or media channel ThreadID or ThreadName is required (else 400);
// ThreadID unarchives an archived thread.
//
// Spec: "Execute Webhook" — POST /webhooks/{webhook.id}/{webhook.token}
func (s *WebhookService) Execute(ctx context.Context, webhookID Snowflake, token string, params *WebhookExecuteParams, opts ...RequestOption) (*Message, error) {
	if params == nil {
		params = &WebhookExecuteParams{}
	}
	if err := s.c.validateExecute(params); err != nil {
		return nil, err
	}
	r := &request{method: http.MethodPost, route: "/webhooks/{webhook.id}/{webhook.token}", path: []any{webhookID, token},
		query: webhookQuery{Wait: params.Wait, ThreadID: params.ThreadID, WithComponents: params.WithComponents},
		auth:  authNone, opts: opts}
	if len(params.Files) > 0 {
		r.body = struct {
			*WebhookExecuteParams
			Attachments []PartialAttachment `json:"attachments,omitzero"`
		}{params, messageFileAttachments(params.Attachments, params.Files)}
		r.parts = messageFileParts(params.Files)
	} else {
		r.body = params
	}
	return s.c.doMessage(ctx, r)
}

// doMessage sends r and returns the message, or nil for a 204 answer.
func (c *Client) doMessage(ctx context.Context, r *request) (*Message, error) {
	var m Message
	res, err := c.do(ctx, r, &m)
	if err != nil {
		return nil, err
	}
	if res.Status == http.StatusNoContent {
		return nil, nil
	}
	return &m, nil
}

// WebhookMessageGetParams is the query of [WebhookService.GetMessage].
type WebhookMessageGetParams struct {
	// ThreadID names the thread the message is in.
	ThreadID Opt[Snowflake] `url:"thread_id,omitempty"`
}

// GetMessage returns a message the webhook sent, sending no credential. 404
// (Unknown Message) for a message the webhook did not send.
//
// Spec: "Get Webhook Message" — GET /webhooks/{webhook.id}/{webhook.token}/messages/{message.id}
func (s *WebhookService) GetMessage(ctx context.Context, webhookID Snowflake, token string, messageID Snowflake, params *WebhookMessageGetParams, opts ...RequestOption) (*Message, error) {
	var m Message
	if _, err := s.c.do(ctx, &request{method: http.MethodGet, route: "/webhooks/{webhook.id}/{webhook.token}/messages/{message.id}",
		path: []any{webhookID, token, messageID}, query: queryOf(params), auth: authNone, opts: opts}, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// WebhookMessageEditParams is the query and body of
// [WebhookService.EditMessage]. Every body field is optional and nullable:
// omitted keeps the value, Null clears it.
type WebhookMessageEditParams struct {
	ThreadID       Opt[Snowflake] `json:"-"` // query: the thread the message is in
	WithComponents Opt[bool]      `json:"-"` // query: as in [WebhookExecuteParams]
	// ApplicationOwned is not sent; as in [WebhookExecuteParams].
	ApplicationOwned bool `json:"-"`

	Content         Opt[string]          `json:"content,omitzero"` // up to 2000 characters
	Embeds          Opt[[]Embed]         `json:"embeds,omitzero"`  // up to 10
	Flags           Opt[MessageFlags]    `json:"flags,omitzero"`   // only SUPPRESS_EMBEDS and IS_COMPONENTS_V2
	AllowedMentions Opt[AllowedMentions] `json:"allowed_mentions,omitzero"`
	// Components replaces the message's components; checked as in
	// [WebhookExecuteParams] (V2 rules when Flags holds IS_COMPONENTS_V2;
	// without Flags, V2 rules when a top-level component is not an action
	// row). Null removes them.
	Components Opt[components.List] `json:"components,omitzero"`
	// Files are appended to the message's attachments.
	Files []File `json:"-"`
	// Attachments lists the attachments to keep (others are removed) and
	// describes new Files by index; Null removes every attachment. Omitted
	// keeps them all.
	Attachments Opt[[]PartialAttachment] `json:"attachments,omitzero"`
	// Poll can only be added when editing a deferred interaction response.
	Poll Opt[PollCreate] `json:"poll,omitzero"`
}

func validateWebhookEdit(p *WebhookMessageEditParams) error {
	var v ValidationError
	webhookNotNull(&v, "thread_id", p.ThreadID)
	webhookNotNull(&v, "with_components", p.WithComponents)
	content, _ := p.Content.Get()
	messageMaxLen(&v, "content", content, MaxMessageContent)
	embeds, _ := p.Embeds.Get()
	validateMessageEmbeds(&v, "embeds", embeds)
	if am, ok := p.AllowedMentions.Get(); ok {
		am.validate(&v, "allowed_mentions")
	}
	poll, hasPoll := p.Poll.Get()
	if hasPoll {
		validateMessagePoll(&v, "poll", poll)
	}
	validateMessageFiles(&v, p.Files)
	atts, _ := p.Attachments.Get()
	for i, a := range atts {
		messageMaxLen(&v, fmt.Sprintf("attachments[%d].description", i), a.Description, MaxAttachmentAltText)
	}
	flags, hasFlags := p.Flags.Get()
	if extra := flags &^ webhookEditFlagSet; extra != 0 {
		v.Add("flags", wire.CodeNotAllowed, "only SUPPRESS_EMBEDS and IS_COMPONENTS_V2 may be set in an edit, got %s", extra)
	}
	v2 := flags.Has(MessageFlagIsComponentsV2)
	if v2 {
		// Setting the flag needs the original's content, embeds, files and
		// poll nulled. The client cannot see the original, so it asks for
		// the nulls explicitly (harmless on a message that is V2 already;
		// omit Flags to keep the flag without them).
		if !p.Content.IsNull() {
			v.Add("content", wire.CodeConflict, "setting IS_COMPONENTS_V2 needs content set to Null")
		}
		if !p.Embeds.IsNull() {
			v.Add("embeds", wire.CodeConflict, "setting IS_COMPONENTS_V2 needs embeds set to Null")
		}
		if !p.Attachments.IsNull() || len(p.Files) > 0 {
			v.Add("attachments", wire.CodeConflict, "setting IS_COMPONENTS_V2 needs attachments set to Null and no files")
		}
		if !p.Poll.IsNull() {
			v.Add("poll", wire.CodeConflict, "setting IS_COMPONENTS_V2 needs poll set to Null")
		}
	}
	comps, _ := p.Components.Get()
	if !hasFlags {
		// The original's flag is unknown: a tree that is not action rows at
		// the top can only be a V2 message's.
		v2 = messageLooksV2(comps)
	}
	validateMessageComponents(&v, comps, v2, p.ApplicationOwned)
	return v.Err()
}

// EditMessage edits a message the webhook sent, sending no credential.
// Files are appended (streamed multipart); Attachments lists those to keep.
// Editing content rebuilds the message's mentions from the new content under
// the request's allowed mentions (or the defaults).
//
// Components V2: setting IS_COMPONENTS_V2 needs the original's content,
// embeds, files and poll nulled (else 400), and the flag cannot be removed
// from a V2 message (400). The client checks what it can: with the flag in
// Flags, Content, Embeds, Attachments and Poll must be [Null] and Files
// empty (send them even when the message is V2 already, or omit Flags:
// the flag stays anyway); Flags may hold only SUPPRESS_EMBEDS and
// IS_COMPONENTS_V2; components are checked in the message's mode. Removal
// of the flag only the service can see.
//
// Spec: "Edit Webhook Message" — PATCH /webhooks/{webhook.id}/{webhook.token}/messages/{message.id}
func (s *WebhookService) EditMessage(ctx context.Context, webhookID Snowflake, token string, messageID Snowflake, params *WebhookMessageEditParams, opts ...RequestOption) (*Message, error) {
	if params == nil {
		params = &WebhookMessageEditParams{}
	}
	if err := validateWebhookEdit(params); err != nil {
		return nil, err
	}
	r := &request{method: http.MethodPatch, route: "/webhooks/{webhook.id}/{webhook.token}/messages/{message.id}",
		path:  []any{webhookID, token, messageID},
		query: webhookQuery{ThreadID: params.ThreadID, WithComponents: params.WithComponents},
		auth:  authNone, opts: opts}
	r.body = params
	if len(params.Files) > 0 {
		atts := params.Attachments
		if !atts.IsZero() {
			given, _ := atts.Get()
			atts = Some(messageFileAttachments(given, params.Files))
		}
		r.body = struct {
			*WebhookMessageEditParams
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

// WebhookMessageDeleteParams is the query of [WebhookService.DeleteMessage].
type WebhookMessageDeleteParams struct {
	// ThreadID names the thread the message is in.
	ThreadID Opt[Snowflake] `url:"thread_id,omitempty"`
}

// DeleteMessage deletes a message the webhook sent, sending no credential.
// Answers 204; 404 (Unknown Message) for a message the webhook did not send.
//
// Spec: "Delete Webhook Message" — DELETE /webhooks/{webhook.id}/{webhook.token}/messages/{message.id}
func (s *WebhookService) DeleteMessage(ctx context.Context, webhookID Snowflake, token string, messageID Snowflake, params *WebhookMessageDeleteParams, opts ...RequestOption) error {
	_, err := s.c.do(ctx, &request{method: http.MethodDelete, route: "/webhooks/{webhook.id}/{webhook.token}/messages/{message.id}",
		path: []any{webhookID, token, messageID}, query: queryOf(params), auth: authNone, opts: opts}, nil)
	return err
}

// WebhookCompatParams is the query of the compatibility endpoints,
// [WebhookService.ExecuteChatCompat] and [WebhookService.ExecuteRepoCompat].
type WebhookCompatParams struct {
	// Wait defaults to true here: the service answers with the message.
	// Some(false) makes it answer 204, and the methods return nil.
	Wait     Opt[bool]      `url:"wait,omitempty"`
	ThreadID Opt[Snowflake] `url:"thread_id,omitempty"` // post into that thread
}

// ChatCompatPayload is a message in the external chat service's
// incoming-webhook format (the reference platform's "Slack-compatible"
// endpoint). It is that service's format, not one of this package's
// ...Params, so its fields are plain. Extra carries any other top-level
// property as raw JSON; the unsupported properties channel, icon_emoji,
// mrkdwn and mrkdwn_in are refused before sending.
type ChatCompatPayload struct {
	Text        string                 `json:"text,omitempty"`
	Username    string                 `json:"username,omitempty"`
	IconURL     string                 `json:"icon_url,omitempty"`
	Attachments []ChatCompatAttachment `json:"attachments,omitempty"`
	// Blocks are layout blocks in the external service's format, as raw JSON.
	Blocks []json.RawMessage `json:"blocks,omitempty"`
	// Extra holds other top-level properties; it must not repeat a field
	// above.
	Extra map[string]json.RawMessage `json:"-"`
}

// ChatCompatAttachment is an attachment of the external chat service's
// format; the service turns each into an embed.
type ChatCompatAttachment struct {
	Fallback   string            `json:"fallback,omitempty"`
	Color      string            `json:"color,omitempty"` // "#36a64f"
	Pretext    string            `json:"pretext,omitempty"`
	AuthorName string            `json:"author_name,omitempty"`
	AuthorLink string            `json:"author_link,omitempty"`
	AuthorIcon string            `json:"author_icon,omitempty"`
	Title      string            `json:"title,omitempty"`
	TitleLink  string            `json:"title_link,omitempty"`
	Text       string            `json:"text,omitempty"`
	Fields     []ChatCompatField `json:"fields,omitempty"`
	ImageURL   string            `json:"image_url,omitempty"`
	ThumbURL   string            `json:"thumb_url,omitempty"`
	Footer     string            `json:"footer,omitempty"`
	FooterIcon string            `json:"footer_icon,omitempty"`
	TS         json.Number       `json:"ts,omitempty"` // seconds since the epoch
	// Extra holds other properties; mrkdwn_in is refused.
	Extra map[string]json.RawMessage `json:"-"`
}

// ChatCompatField is a field of a [ChatCompatAttachment].
type ChatCompatField struct {
	Title string `json:"title"`
	Value string `json:"value"`
	Short bool   `json:"short,omitempty"`
}

// chatCompatUnsupported are the properties the interface says it does not
// support.
var chatCompatUnsupported = []string{"channel", "icon_emoji", "mrkdwn", "mrkdwn_in"}

// MarshalJSON encodes the payload with Extra merged in.
func (p ChatCompatPayload) MarshalJSON() ([]byte, error) {
	type plain ChatCompatPayload
	return chatCompatMerge(plain(p), p.Extra)
}

// MarshalJSON encodes the attachment with Extra merged in.
func (a ChatCompatAttachment) MarshalJSON() ([]byte, error) {
	type plain ChatCompatAttachment
	return chatCompatMerge(plain(a), a.Extra)
}

func chatCompatMerge(v any, extra map[string]json.RawMessage) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil || len(extra) == 0 {
		return b, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	for k, raw := range extra {
		m[k] = raw
	}
	return json.Marshal(m)
}

func chatCompatValidateExtra(v *ValidationError, path string, typed any, extra map[string]json.RawMessage, unsupported []string) {
	b, _ := json.Marshal(typed)
	var fields map[string]json.RawMessage
	_ = json.Unmarshal(b, &fields)
	for _, k := range sortedKeys(extra) {
		p := wire.JoinPath(path, k)
		switch {
		case slices.Contains(unsupported, k):
			v.Add(p, wire.CodeNotAllowed, "the chat-service-compatible endpoint does not support %q", k)
		case fields[k] != nil:
			v.Add(p, wire.CodeDuplicate, "%q is also set by its typed field", k)
		case !json.Valid(extra[k]):
			v.Add(p, wire.CodeInvalid, "not valid JSON")
		}
	}
}

func validateChatCompat(p *ChatCompatPayload) error {
	var v ValidationError
	type plain ChatCompatPayload
	chatCompatValidateExtra(&v, "", plain(*p), p.Extra, chatCompatUnsupported)
	for i, a := range p.Attachments {
		type plainA ChatCompatAttachment
		chatCompatValidateExtra(&v, fmt.Sprintf("attachments[%d]", i), plainA(a), a.Extra, []string{"mrkdwn_in"})
	}
	for i, b := range p.Blocks {
		if !json.Valid(b) {
			v.Add(fmt.Sprintf("blocks[%d]", i), wire.CodeInvalid, "not valid JSON")
		}
	}
	messageMaxLen(&v, "text", p.Text, MaxMessageContent)
	if p.Text == "" && len(p.Attachments) == 0 && len(p.Blocks) == 0 {
		v.Add("", wire.CodeRequired, "at least one of text, attachments and blocks is required")
	}
	return v.Err()
}

// ExecuteChatCompat posts a message in the external chat service's
// incoming-webhook format, sending no credential. The unsupported properties
// (channel, icon_emoji, mrkdwn, mrkdwn_in) are refused before sending. Wait
// defaults to true: the answer is the message; with Wait Some(false) it is
// 204 and the message is nil.
//
// Spec: "Execute chat-service-compatible Webhook" — POST /webhooks/{webhook.id}/{webhook.token}/chatcompat
func (s *WebhookService) ExecuteChatCompat(ctx context.Context, webhookID Snowflake, token string, payload *ChatCompatPayload, params *WebhookCompatParams, opts ...RequestOption) (*Message, error) {
	if payload == nil {
		payload = &ChatCompatPayload{}
	}
	if err := validateChatCompat(payload); err != nil {
		return nil, err
	}
	return s.c.doMessage(ctx, &request{method: http.MethodPost, route: "/webhooks/{webhook.id}/{webhook.token}/chatcompat",
		path: []any{webhookID, token}, query: webhookCompatQuery(params), body: payload, auth: authNone, opts: opts})
}

func webhookCompatQuery(p *WebhookCompatParams) WebhookCompatParams {
	q := WebhookCompatParams{Wait: Some(true)}
	if p != nil {
		if !p.Wait.IsZero() {
			q.Wait = p.Wait
		}
		q.ThreadID = p.ThreadID
	}
	return q
}

// RepoEvent is an event name of the code-hosting service, sent in its event
// header (X-GitHub-Event) to the repository-compatible endpoint.
type RepoEvent string

// The event names the repository-compatible endpoint supports.
const (
	RepoEventCommitComment            RepoEvent = "commit_comment"
	RepoEventCreate                   RepoEvent = "create"
	RepoEventDelete                   RepoEvent = "delete"
	RepoEventFork                     RepoEvent = "fork"
	RepoEventIssueComment             RepoEvent = "issue_comment"
	RepoEventIssues                   RepoEvent = "issues"
	RepoEventMember                   RepoEvent = "member"
	RepoEventPublic                   RepoEvent = "public"
	RepoEventPullRequest              RepoEvent = "pull_request"
	RepoEventPullRequestReview        RepoEvent = "pull_request_review"
	RepoEventPullRequestReviewComment RepoEvent = "pull_request_review_comment"
	RepoEventPush                     RepoEvent = "push"
	RepoEventRelease                  RepoEvent = "release"
	RepoEventWatch                    RepoEvent = "watch"
	RepoEventCheckRun                 RepoEvent = "check_run"
	RepoEventCheckSuite               RepoEvent = "check_suite"
	RepoEventDiscussion               RepoEvent = "discussion"
	RepoEventDiscussionComment        RepoEvent = "discussion_comment"
)

// RepoEvents lists every supported event name.
var RepoEvents = []RepoEvent{
	RepoEventCommitComment, RepoEventCreate, RepoEventDelete, RepoEventFork, RepoEventIssueComment,
	RepoEventIssues, RepoEventMember, RepoEventPublic, RepoEventPullRequest, RepoEventPullRequestReview,
	RepoEventPullRequestReviewComment, RepoEventPush, RepoEventRelease, RepoEventWatch, RepoEventCheckRun,
	RepoEventCheckSuite, RepoEventDiscussion, RepoEventDiscussionComment,
}

// String returns the event name.
func (e RepoEvent) String() string { return string(e) }

// RepoEventHeader is the header the code-hosting service names its event in.
const RepoEventHeader = "X-GitHub-Event"

// ExecuteRepoCompat posts a code-hosting service's webhook payload (raw
// JSON, as that service would deliver it to its payload URL), sending no
// credential. event must be one of [RepoEvents]; it is sent in the
// X-GitHub-Event header. Wait defaults to true: the answer is the message;
// with Wait Some(false) it is 204 and the message is nil.
//
// Spec: "Execute repository-compatible Webhook" — POST /webhooks/{webhook.id}/{webhook.token}/repocompat
func (s *WebhookService) ExecuteRepoCompat(ctx context.Context, webhookID Snowflake, token string, event RepoEvent, payload json.RawMessage, params *WebhookCompatParams, opts ...RequestOption) (*Message, error) {
	var v ValidationError
	if !slices.Contains(RepoEvents, event) {
		v.Add("event", wire.CodeInvalid, "%q is not a supported event", event)
	}
	if len(payload) == 0 {
		v.Add("payload", wire.CodeRequired, "the payload is required")
	} else if !json.Valid(payload) {
		v.Add("payload", wire.CodeInvalid, "the payload is not valid JSON")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	return s.c.doMessage(ctx, &request{method: http.MethodPost, route: "/webhooks/{webhook.id}/{webhook.token}/repocompat",
		path: []any{webhookID, token}, query: webhookCompatQuery(params), body: payload, auth: authNone,
		opts: slices.Concat(opts, []RequestOption{WithHeader(RepoEventHeader, string(event))})})
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
