package guildkit

import (
	"context"
	"net/http"
	"strings"

	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/wire"
)

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

func (p *WebhookExecuteParams) validate(vc validation) error {
	if p == nil {
		p = &WebhookExecuteParams{}
	}
	var v ValidationError
	notNull(&v, "wait", p.Wait)
	notNull(&v, "thread_id", p.ThreadID)
	notNull(&v, "with_components", p.WithComponents)
	notNull(&v, "content", p.Content)
	notNull(&v, "username", p.Username)
	notNull(&v, "avatar_url", p.AvatarURL)
	notNull(&v, "tts", p.TTS)
	notNull(&v, "allowed_mentions", p.AllowedMentions)
	notNull(&v, "flags", p.Flags)
	notNull(&v, "thread_name", p.ThreadName)
	notNull(&v, "poll", p.Poll)
	if id, ok := p.ThreadID.Get(); ok && id == 0 {
		v.Add("thread_id", wire.CodeRequired, "thread_id cannot be zero")
	}
	if u, ok := p.Username.Get(); ok {
		vc.validateWebhookName(&v, "username", u)
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
	content, _ := p.Content.Get()
	body := messageBody{content: content, embeds: p.Embeds, allowedMentions: p.AllowedMentions, poll: p.Poll,
		files: p.Files, attachments: p.Attachments, comps: p.Components, v2: flags.Has(MessageFlagIsComponentsV2),
		appOwned: p.ApplicationOwned, newFiles: true}
	hasComponents, hasPoll := checkMessageBody(&v, body)
	if hasComponents && !p.ApplicationOwned && !p.WithComponents.Or(false) {
		// The service would take the message and drop the components (and
		// refuse it as empty when they were all it held).
		v.Add("with_components", wire.CodeRequired, "a webhook not owned by an application ignores components unless WithComponents is Some(true); set it, or set ApplicationOwned if an application owns the webhook")
	}
	body.requireSomething(&v, hasComponents, hasPoll)
	return v.Err()
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
	if err := params.validate(s.c.validation()); err != nil {
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
		path: []any{webhookID, token, messageID}, query: params, auth: authNone, opts: opts}, &m); err != nil {
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

func (p *WebhookMessageEditParams) validate(validation) error {
	if p == nil {
		return nil
	}
	var v ValidationError
	notNull(&v, "thread_id", p.ThreadID)
	notNull(&v, "with_components", p.WithComponents)
	content, _ := p.Content.Get()
	embeds, _ := p.Embeds.Get()
	atts, _ := p.Attachments.Get()
	// An edit's attachments name those to keep as well as new files.
	parts := messageBody{content: content, embeds: embeds, allowedMentions: p.AllowedMentions, poll: p.Poll,
		files: p.Files, attachments: atts}
	parts.checkParts(&v)
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
	if validateMessageComponents(&v, comps, v2, p.ApplicationOwned) && !p.ApplicationOwned && !p.WithComponents.Or(false) {
		v.Add("with_components", wire.CodeRequired, "a webhook not owned by an application ignores components unless WithComponents is Some(true); set it, or set ApplicationOwned if an application owns the webhook")
	}
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
	r, err := s.c.editMessageRequest("/webhooks/{webhook.id}/{webhook.token}/messages/{message.id}", []any{webhookID, token, messageID}, params, opts)
	if err != nil {
		return nil, err
	}
	var m Message
	if _, err := s.c.do(ctx, r, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// editMessageRequest checks params and builds the edit of a webhook's (or
// an interaction's) message on route.
func (c *Client) editMessageRequest(route string, path []any, params *WebhookMessageEditParams, opts []RequestOption) (*request, error) {
	if params == nil {
		params = &WebhookMessageEditParams{}
	}
	if err := params.validate(c.validation()); err != nil {
		return nil, err
	}
	r := &request{method: http.MethodPatch, route: route, path: path,
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
	return r, nil
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
		path: []any{webhookID, token, messageID}, query: params, auth: authNone, opts: opts}, nil)
	return err
}
