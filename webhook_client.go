package guildkit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"slices"
	"strings"
)

// WebhookClient posts and manages messages of one webhook, known by its URL
// ("https://chat.example.com/api/v10/webhooks/{id}/{token}"). It needs no
// bot credential: every call is a token operation of [WebhookService], sent
// without an Authorization header. Its String and every error it returns
// hide the token. Make one with [NewWebhookClient]; it is safe for
// concurrent use.
type WebhookClient struct {
	id       Snowflake
	token    *secret // behind a pointer, out of fmt's reach
	c        *Client
	appOwned bool // known owned by an application: made from such a *Webhook
}

// NewWebhookClient parses a webhook URL and returns a client for that
// webhook. The URL may be on any host and may or may not carry a versioned
// API prefix: ".../webhooks/{id}/{token}" and
// ".../api/v10/webhooks/{id}/{token}" both work; everything before
// "/webhooks/" becomes the client's base URL. opts configure the underlying
// [Client] as for [New] (its base URL always comes from webhookURL).
//
// It fails, without printing the token, when the URL is not an absolute http
// or https URL, carries user info, a query or a fragment, or does not end in
// /webhooks/{id}/{token} with a valid id and a non-empty token.
func NewWebhookClient(webhookURL string, opts ...Option) (*WebhookClient, error) {
	id, token, base, err := parseWebhookURL(webhookURL)
	if err != nil {
		return nil, err
	}
	c, err := New(nil, slices.Concat(opts, []Option{WithBaseURL(base)})...)
	if err != nil {
		return nil, redactErr(err, []string{token})
	}
	return &WebhookClient{id: id, token: newSecret(token), c: c}, nil
}

// NewWebhookClientFromID returns a client for the webhook id with token, as
// [Webhook] objects and the interface's answers give them. opts configure
// the underlying [Client] as for [New], and must name the interface's
// address with [WithBaseURL].
func NewWebhookClientFromID(id Snowflake, token string, opts ...Option) (*WebhookClient, error) {
	if id == 0 {
		return nil, errors.New("guildkit: NewWebhookClientFromID: the webhook id is zero")
	}
	if strings.TrimSpace(token) == "" {
		return nil, errors.New("guildkit: NewWebhookClientFromID: the token is empty")
	}
	c, err := New(nil, opts...)
	if err != nil {
		return nil, redactErr(err, []string{token})
	}
	return &WebhookClient{id: id, token: newSecret(token), c: c}, nil
}

// WebhookClient returns a client for w, a webhook this client created or
// fetched, sharing this client's transport (its rate limits and retries).
// When w is owned by an application ([Webhook.ApplicationOwned]), the
// messages it sends may hold interactive components without setting
// ApplicationOwned in their params. w must carry its token (incoming
// webhooks, as Create and the lists answer them).
func (c *Client) WebhookClient(w *Webhook) (*WebhookClient, error) {
	switch {
	case w == nil:
		return nil, errors.New("guildkit: Client.WebhookClient: nil webhook")
	case w.ID == 0:
		return nil, errors.New("guildkit: Client.WebhookClient: the webhook has no id")
	case w.Token == "":
		return nil, fmt.Errorf("guildkit: Client.WebhookClient: webhook %s has no token (only incoming webhooks have one, and only their creator sees it)", w.ID)
	}
	return &WebhookClient{id: w.ID, token: newSecret(w.Token), c: c, appOwned: w.ApplicationOwned()}, nil
}

func parseWebhookURL(raw string) (id Snowflake, token, base string, err error) {
	fail := func(why string) (Snowflake, string, string, error) {
		return 0, "", "", errors.New("guildkit: NewWebhookClient: " + why)
	}
	u, perr := url.Parse(strings.TrimSpace(raw))
	if perr != nil {
		// url.Error's text holds the URL, and so the token.
		return fail("the webhook URL does not parse")
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fail("the webhook URL must be an absolute http or https URL")
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return fail("the webhook URL must not carry user info, a query or a fragment")
	}
	p := strings.TrimSuffix(u.EscapedPath(), "/")
	i := strings.LastIndex(p, "/webhooks/")
	if i < 0 {
		return fail("the webhook URL's path must end in /webhooks/{id}/{token}")
	}
	rest := strings.Split(p[i+len("/webhooks/"):], "/")
	if len(rest) != 2 {
		return fail("the webhook URL's path must end in /webhooks/{id}/{token}")
	}
	id, perr = ParseSnowflake(rest[0])
	if perr != nil || id == 0 {
		// The segment is not echoed: with id and token swapped, it is the
		// token.
		return fail(fmt.Sprintf("the segment after /webhooks/ (%d characters) is not a snowflake id; the URL must end in /webhooks/{id}/{token}", len(rest[0])))
	}
	token, perr = url.PathUnescape(rest[1])
	if perr != nil || strings.TrimSpace(token) == "" {
		return fail("the webhook URL has no token")
	}
	b := *u
	b.RawPath = ""
	b.Path, _ = url.PathUnescape(p[:i])
	return id, token, b.String(), nil
}

// ID returns the webhook's id.
func (w *WebhookClient) ID() Snowflake { return w.id }

// Client returns the underlying client (no credential), for other token
// operations.
func (w *WebhookClient) Client() *Client { return w.c }

// String returns the webhook URL with the token replaced by "<redacted>".
func (w *WebhookClient) String() string {
	return w.c.BaseURL() + "/webhooks/" + w.id.String() + "/<redacted>"
}

// GoString is String, so that %#v does not print the token either.
func (w *WebhookClient) GoString() string { return "guildkit.WebhookClient{" + w.String() + "}" }

// Format prints String for every verb.
func (w *WebhookClient) Format(f fmt.State, verb rune) {
	if verb == 'v' && f.Flag('#') {
		_, _ = io.WriteString(f, w.GoString())
		return
	}
	_, _ = io.WriteString(f, w.String())
}

// LogValue logs String.
func (w *WebhookClient) LogValue() slog.Value { return slog.StringValue(w.String()) }

// Execute posts a message; see [WebhookService.Execute].
func (w *WebhookClient) Execute(ctx context.Context, params *WebhookExecuteParams, opts ...RequestOption) (*Message, error) {
	if w.appOwned && params != nil && !params.ApplicationOwned {
		cp := *params // the caller's params are not changed
		cp.ApplicationOwned = true
		params = &cp
	}
	return w.c.Webhooks.Execute(ctx, w.id, w.token.value(), params, opts...)
}

// ExecuteChatCompat posts a message in the external chat service's format;
// see [WebhookService.ExecuteChatCompat].
func (w *WebhookClient) ExecuteChatCompat(ctx context.Context, payload *ChatCompatPayload, params *WebhookCompatParams, opts ...RequestOption) (*Message, error) {
	return w.c.Webhooks.ExecuteChatCompat(ctx, w.id, w.token.value(), payload, params, opts...)
}

// ExecuteRepoCompat posts a code-hosting service's event; see
// [WebhookService.ExecuteRepoCompat].
func (w *WebhookClient) ExecuteRepoCompat(ctx context.Context, event RepoEvent, payload json.RawMessage, params *WebhookCompatParams, opts ...RequestOption) (*Message, error) {
	return w.c.Webhooks.ExecuteRepoCompat(ctx, w.id, w.token.value(), event, payload, params, opts...)
}

// GetMessage returns a message the webhook sent; see
// [WebhookService.GetMessage].
func (w *WebhookClient) GetMessage(ctx context.Context, messageID Snowflake, params *WebhookMessageGetParams, opts ...RequestOption) (*Message, error) {
	return w.c.Webhooks.GetMessage(ctx, w.id, w.token.value(), messageID, params, opts...)
}

// EditMessage edits a message the webhook sent; see
// [WebhookService.EditMessage].
func (w *WebhookClient) EditMessage(ctx context.Context, messageID Snowflake, params *WebhookMessageEditParams, opts ...RequestOption) (*Message, error) {
	if w.appOwned && params != nil && !params.ApplicationOwned {
		cp := *params
		cp.ApplicationOwned = true
		params = &cp
	}
	return w.c.Webhooks.EditMessage(ctx, w.id, w.token.value(), messageID, params, opts...)
}

// DeleteMessage deletes a message the webhook sent; see
// [WebhookService.DeleteMessage].
func (w *WebhookClient) DeleteMessage(ctx context.Context, messageID Snowflake, params *WebhookMessageDeleteParams, opts ...RequestOption) error {
	return w.c.Webhooks.DeleteMessage(ctx, w.id, w.token.value(), messageID, params, opts...)
}

// Get returns the webhook, without its user; see
// [WebhookService.GetWithToken].
func (w *WebhookClient) Get(ctx context.Context, opts ...RequestOption) (*Webhook, error) {
	return w.c.Webhooks.GetWithToken(ctx, w.id, w.token.value(), opts...)
}

// Modify changes the webhook's name or avatar; see
// [WebhookService.ModifyWithToken].
func (w *WebhookClient) Modify(ctx context.Context, params *WebhookModifyWithTokenParams, opts ...RequestOption) (*Webhook, error) {
	return w.c.Webhooks.ModifyWithToken(ctx, w.id, w.token.value(), params, opts...)
}

// Delete deletes the webhook; see [WebhookService.DeleteWithToken].
func (w *WebhookClient) Delete(ctx context.Context, opts ...RequestOption) error {
	return w.c.Webhooks.DeleteWithToken(ctx, w.id, w.token.value(), opts...)
}
