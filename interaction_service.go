package guildkit

import (
	"context"
	"encoding/json"
	"net/http"
)

// InteractionService answers interactions over REST: the initial response
// through the callback route, then the original response and follow-up
// messages, for the token's 15 minutes. These routes take no bot token (the
// interaction's token in the path authenticates them, and is redacted from
// every error and log line like a webhook token), and the reference platform
// does not count them against the global rate limit: the client's global
// limiter does not hold them back (their route buckets still apply).
//
// To receive interactions over HTTP, see package interactions, which
// verifies, routes and answers them with this service.
type InteractionService service

// InteractionResponseParams is the query of [InteractionService.CreateResponse].
type InteractionResponseParams struct {
	// WithResponse makes the service answer 200 with the interaction
	// callback response (the interaction and the message it created or
	// updated) instead of 204.
	WithResponse Opt[bool] `url:"with_response,omitempty"`
}

// InteractionCallbackResponse is what the callback route answers with
// with_response: the interaction and the resource the answer made.
type InteractionCallbackResponse struct {
	Interaction InteractionCallback `json:"interaction"`
	// Resource is what the answer made: the message of a message answer or
	// an update, the activity instance of LAUNCH_ACTIVITY. Nil when absent.
	Resource *InteractionCallbackResource `json:"resource,omitempty"`
}

// InteractionCallback describes the answered interaction.
type InteractionCallback struct {
	ID   Snowflake       `json:"id"`
	Type InteractionType `json:"type"`
	// ActivityInstanceID is the launched activity's instance; zero Opt when absent.
	ActivityInstanceID Opt[string] `json:"activity_instance_id,omitzero"`
	// ResponseMessageID is the message the answer created or updated; zero Opt when absent.
	ResponseMessageID Opt[Snowflake] `json:"response_message_id,omitzero"`
	// ResponseMessageLoading is whether the message is in its loading
	// state (a deferral); zero Opt when absent.
	ResponseMessageLoading Opt[bool] `json:"response_message_loading,omitzero"`
	// ResponseMessageEphemeral is whether the message is ephemeral; zero Opt when absent.
	ResponseMessageEphemeral Opt[bool] `json:"response_message_ephemeral,omitzero"`
}

// InteractionCallbackResource is the resource an answer made.
type InteractionCallbackResource struct {
	Type InteractionResponseType `json:"type"`
	// ActivityInstance is the launched activity; nil when absent.
	ActivityInstance json.RawMessage `json:"activity_instance,omitempty"`
	// Message is the message created or updated; nil when absent.
	Message *Message `json:"message,omitempty"`
}

// CreateResponse sends the initial answer to an interaction. It must reach
// the platform within 3 seconds of the interaction, and only once: a second
// answer fails with code 40060 ([ErrInteractionAcknowledged]), an expired or
// unknown interaction with 10062 ([ErrUnknownInteraction]). The answer is
// checked before anything is sent ([InteractionResponse.Validate]); with
// files it goes as a streamed multipart body. Without WithResponse the
// service answers 204 and CreateResponse returns (nil, nil).
//
// Spec: "Create Interaction Response" — POST /interactions/{interaction.id}/{interaction.token}/callback
func (s *InteractionService) CreateResponse(ctx context.Context, interactionID Snowflake, token InteractionToken, resp *InteractionResponse, params *InteractionResponseParams, opts ...RequestOption) (*InteractionCallbackResponse, error) {
	if err := resp.Validate(); err != nil {
		return nil, err
	}
	r := &request{method: http.MethodPost, route: "/interactions/{interaction.id}/{interaction.token}/callback",
		path: []any{interactionID, string(token)}, query: params, auth: authNone, opts: opts, body: resp.payload()}
	if files := resp.Files(); len(files) > 0 {
		r.parts = messageFileParts(files)
	}
	var out InteractionCallbackResponse
	res, err := s.c.do(ctx, r, &out)
	if err != nil {
		return nil, err
	}
	if res.Status == http.StatusNoContent {
		return nil, nil
	}
	return &out, nil
}

// GetOriginalResponse returns the initial response's message.
//
// Spec: "Get Original Interaction Response" — GET /webhooks/{application.id}/{interaction.token}/messages/@original
func (s *InteractionService) GetOriginalResponse(ctx context.Context, applicationID Snowflake, token InteractionToken, opts ...RequestOption) (*Message, error) {
	var m Message
	if _, err := s.c.do(ctx, &request{method: http.MethodGet, route: "/webhooks/{application.id}/{interaction.token}/messages/@original",
		path: []any{applicationID, string(token)}, auth: authNone, opts: opts}, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// EditOriginalResponse edits the initial response's message: after a
// deferral (DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE) it replaces the loading
// state with the message; after DEFERRED_UPDATE_MESSAGE it edits the message
// the component is on. The params are checked as in
// [WebhookService.EditMessage], interactive components allowed
// (ApplicationOwned is implied). Valid for the token's 15 minutes.
//
// Spec: "Edit Original Interaction Response" — PATCH /webhooks/{application.id}/{interaction.token}/messages/@original
func (s *InteractionService) EditOriginalResponse(ctx context.Context, applicationID Snowflake, token InteractionToken, params *WebhookMessageEditParams, opts ...RequestOption) (*Message, error) {
	return s.edit(ctx, "/webhooks/{application.id}/{interaction.token}/messages/@original", []any{applicationID, string(token)}, params, opts)
}

// DeleteOriginalResponse deletes the initial response's message. Answers 204.
//
// Spec: "Delete Original Interaction Response" — DELETE /webhooks/{application.id}/{interaction.token}/messages/@original
func (s *InteractionService) DeleteOriginalResponse(ctx context.Context, applicationID Snowflake, token InteractionToken, opts ...RequestOption) error {
	_, err := s.c.do(ctx, &request{method: http.MethodDelete, route: "/webhooks/{application.id}/{interaction.token}/messages/@original",
		path: []any{applicationID, string(token)}, auth: authNone, opts: opts}, nil)
	return err
}

// CreateFollowup sends a follow-up message, as Execute Webhook does (the
// service answers with the message). [MessageFlagEphemeral] makes it
// visible to the invoking user only. Right after a
// DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE the first follow-up edits the
// deferred message instead, as the reference platform does. Valid for the
// token's 15 minutes.
//
// Spec: "Create Followup Message" — POST /webhooks/{application.id}/{interaction.token}
func (s *InteractionService) CreateFollowup(ctx context.Context, applicationID Snowflake, token InteractionToken, msg *InteractionMessageParams, opts ...RequestOption) (*Message, error) {
	if msg == nil {
		msg = &InteractionMessageParams{}
	}
	var v ValidationError
	msg.collectProblems(&v, "", interactionMessageFlagSet, true)
	if err := v.Err(); err != nil {
		return nil, err
	}
	r := &request{method: http.MethodPost, route: "/webhooks/{application.id}/{interaction.token}",
		path: []any{applicationID, string(token)}, query: webhookQuery{Wait: Some(true)}, auth: authNone, opts: opts,
		body: msg.payload()}
	if len(msg.Files) > 0 {
		r.parts = messageFileParts(msg.Files)
	}
	return s.c.doMessage(ctx, r)
}

// GetFollowup returns a follow-up message.
//
// Spec: "Get Followup Message" — GET /webhooks/{application.id}/{interaction.token}/messages/{message.id}
func (s *InteractionService) GetFollowup(ctx context.Context, applicationID Snowflake, token InteractionToken, messageID Snowflake, opts ...RequestOption) (*Message, error) {
	var m Message
	if _, err := s.c.do(ctx, &request{method: http.MethodGet, route: "/webhooks/{application.id}/{interaction.token}/messages/{message.id}",
		path: []any{applicationID, string(token), messageID}, auth: authNone, opts: opts}, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// EditFollowup edits a follow-up message; the params are checked as in
// [InteractionService.EditOriginalResponse].
//
// Spec: "Edit Followup Message" — PATCH /webhooks/{application.id}/{interaction.token}/messages/{message.id}
func (s *InteractionService) EditFollowup(ctx context.Context, applicationID Snowflake, token InteractionToken, messageID Snowflake, params *WebhookMessageEditParams, opts ...RequestOption) (*Message, error) {
	return s.edit(ctx, "/webhooks/{application.id}/{interaction.token}/messages/{message.id}", []any{applicationID, string(token), messageID}, params, opts)
}

// DeleteFollowup deletes a follow-up message. Answers 204.
//
// Spec: "Delete Followup Message" — DELETE /webhooks/{application.id}/{interaction.token}/messages/{message.id}
func (s *InteractionService) DeleteFollowup(ctx context.Context, applicationID Snowflake, token InteractionToken, messageID Snowflake, opts ...RequestOption) error {
	_, err := s.c.do(ctx, &request{method: http.MethodDelete, route: "/webhooks/{application.id}/{interaction.token}/messages/{message.id}",
		path: []any{applicationID, string(token), messageID}, auth: authNone, opts: opts}, nil)
	return err
}

// edit sends an edit of an interaction's message on route: the webhook
// message edit, application-owned.
func (s *InteractionService) edit(ctx context.Context, route string, path []any, params *WebhookMessageEditParams, opts []RequestOption) (*Message, error) {
	p := WebhookMessageEditParams{}
	if params != nil {
		p = *params
	}
	p.ApplicationOwned = true
	r, err := s.c.editMessageRequest(route, path, &p, opts)
	if err != nil {
		return nil, err
	}
	var m Message
	if _, err := s.c.do(ctx, r, &m); err != nil {
		return nil, err
	}
	return &m, nil
}
