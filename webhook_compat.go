package guildkit

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"

	"github.com/seed012df1e9/guildkit/wire"
)

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
