package guildkit

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"github.com/seed012df1e9/guildkit/wire"
)

// WebhookService handles the operations on webhooks and webhook messages. Reach it through
// [Client].Webhooks.
//
// Operations addressed by webhook id alone (Create, ListByChannel, ListByGuild,
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
	ChannelID *Snowflake     `json:"channel_id"` // nil when null
	// User is who created the webhook; omitted when fetched with the token. Nil when absent.
	User   *User   `json:"user,omitempty"`
	Name   *string `json:"name"`   // nil means the default name; nil when null
	Avatar *string `json:"avatar"` // avatar hash; nil means the default avatar; nil when null
	// Token is the webhook's secret, returned for incoming webhooks. It is
	// never printed by String or GoString.
	Token         string          `json:"token,omitempty"`
	ApplicationID *Snowflake      `json:"application_id"`           // the creating application, if any; nil when null
	SourceGuild   *PartialGuild   `json:"source_guild,omitempty"`   // nil when absent
	SourceChannel *PartialChannel `json:"source_channel,omitempty"` // nil when absent
	// URL is returned by the webhooks OAuth2 flow; where the answer leaves
	// it out, the client fills it from its base URL, the id and the token
	// (incoming webhooks). It holds the token.
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

// Format prints String for every verb (%d or %x of the struct would
// otherwise print its fields, the token among them).
func (w Webhook) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, w.String()) }

// LogValue logs String.
func (w Webhook) LogValue() slog.Value { return slog.StringValue(w.String()) }

// fillWebhookURL sets w.URL from the client's base URL when the answer
// carried a token but no URL.
func (c *Client) fillWebhookURL(w *Webhook) {
	if w.URL == "" && w.Token != "" && w.ID != 0 {
		w.URL = c.baseURL.String() + "/webhooks/" + w.ID.String() + "/" + url.PathEscape(w.Token)
	}
}

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

// WebhookCreateParams is the body of [WebhookService.Create].
type WebhookCreateParams struct {
	// Name is required: 1-80 characters, without the reserved words (see
	// [WithReservedWebhookNames]).
	Name string `json:"name"`
	// Avatar is the default avatar. Null or omitted: the default avatar.
	Avatar Opt[ImageData] `json:"avatar,omitzero"`
}

func (p *WebhookCreateParams) validate(vc validation) error {
	var v ValidationError
	if p == nil {
		v.Add("name", wire.CodeRequired, "params with a name are required")
		return v.Err()
	}
	vc.validateWebhookName(&v, "name", p.Name)
	validateImage(&v, "avatar", p.Avatar)
	return v.Err()
}

// Create makes an incoming webhook in a channel, owned by the client's
// application when a bot creates it. Requires MANAGE_WEBHOOKS. The name is
// checked before sending (1-80 characters, no reserved word). Supports
// WithReason. Emits WEBHOOKS_UPDATE.
//
// Spec: "Create Webhook" — POST /channels/{channel.id}/webhooks
func (s *WebhookService) Create(ctx context.Context, channelID Snowflake, params *WebhookCreateParams, opts ...RequestOption) (*Webhook, error) {
	if err := params.validate(s.c.validation()); err != nil {
		return nil, err
	}
	var w Webhook
	if _, err := s.c.do(ctx, &request{method: http.MethodPost, route: "/channels/{channel.id}/webhooks", path: []any{channelID},
		body: params, auditLog: true, opts: opts}, &w); err != nil {
		return nil, err
	}
	s.c.fillWebhookURL(&w)
	return &w, nil
}

// ListByChannel returns the webhooks of a channel. Requires MANAGE_WEBHOOKS.
//
// Spec: "Get Channel Webhooks" — GET /channels/{channel.id}/webhooks
func (s *WebhookService) ListByChannel(ctx context.Context, channelID Snowflake, opts ...RequestOption) ([]Webhook, error) {
	var out []Webhook
	if _, err := s.c.do(ctx, &request{method: http.MethodGet, route: "/channels/{channel.id}/webhooks", path: []any{channelID}, opts: opts}, &out); err != nil {
		return nil, err
	}
	for i := range out {
		s.c.fillWebhookURL(&out[i])
	}
	return out, nil
}

// ListByGuild returns the webhooks of every channel of a guild. Requires
// MANAGE_WEBHOOKS.
//
// Spec: "Get Guild Webhooks" — GET /guilds/{guild.id}/webhooks
func (s *WebhookService) ListByGuild(ctx context.Context, guildID Snowflake, opts ...RequestOption) ([]Webhook, error) {
	var out []Webhook
	if _, err := s.c.do(ctx, &request{method: http.MethodGet, route: "/guilds/{guild.id}/webhooks", path: []any{guildID}, opts: opts}, &out); err != nil {
		return nil, err
	}
	for i := range out {
		s.c.fillWebhookURL(&out[i])
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
	s.c.fillWebhookURL(&w)
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
	s.c.fillWebhookURL(&w)
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

func (p *WebhookModifyParams) validate(vc validation) error {
	if p == nil {
		return nil
	}
	var v ValidationError
	vc.validateModifyName(&v, p.Name)
	validateImage(&v, "avatar", p.Avatar)
	notNull(&v, "channel_id", p.ChannelID)
	if id, ok := p.ChannelID.Get(); ok && id == 0 {
		v.Add("channel_id", wire.CodeRequired, "channel_id cannot be zero")
	}
	return v.Err()
}

// Modify changes a webhook's name or avatar, or moves it to another channel.
// Requires MANAGE_WEBHOOKS. Supports WithReason. Emits WEBHOOKS_UPDATE (for
// both channels on a move).
//
// Spec: "Modify Webhook" — PATCH /webhooks/{webhook.id}
func (s *WebhookService) Modify(ctx context.Context, webhookID Snowflake, params *WebhookModifyParams, opts ...RequestOption) (*Webhook, error) {
	if err := params.validate(s.c.validation()); err != nil {
		return nil, err
	}
	if params == nil {
		params = &WebhookModifyParams{}
	}
	var w Webhook
	if _, err := s.c.do(ctx, &request{method: http.MethodPatch, route: "/webhooks/{webhook.id}", path: []any{webhookID},
		body: params, auditLog: true, opts: opts}, &w); err != nil {
		return nil, err
	}
	s.c.fillWebhookURL(&w)
	return &w, nil
}

// validateModifyName checks the optional name of a webhook modification:
// Null is refused.
func (vc validation) validateModifyName(v *ValidationError, name Opt[string]) {
	notNull(v, "name", name)
	if n, ok := name.Get(); ok {
		vc.validateWebhookName(v, "name", n)
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

func (p *WebhookModifyWithTokenParams) validate(vc validation) error {
	if p == nil {
		return nil
	}
	var v ValidationError
	vc.validateModifyName(&v, p.Name)
	validateImage(&v, "avatar", p.Avatar)
	return v.Err()
}

// ModifyWithToken changes a webhook's name or avatar by its token, sending no
// credential; the answer has no user. Emits WEBHOOKS_UPDATE.
//
// Spec: "Modify Webhook with Token" — PATCH /webhooks/{webhook.id}/{webhook.token}
func (s *WebhookService) ModifyWithToken(ctx context.Context, webhookID Snowflake, token string, params *WebhookModifyWithTokenParams, opts ...RequestOption) (*Webhook, error) {
	if err := params.validate(s.c.validation()); err != nil {
		return nil, err
	}
	if params == nil {
		params = &WebhookModifyWithTokenParams{}
	}
	var w Webhook
	if _, err := s.c.do(ctx, &request{method: http.MethodPatch, route: "/webhooks/{webhook.id}/{webhook.token}", path: []any{webhookID, token},
		body: params, auth: authNone, opts: opts}, &w); err != nil {
		return nil, err
	}
	s.c.fillWebhookURL(&w)
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
