package guildkittest

import (
	"mime"
	"net/http"
	"slices"
	"strings"

	"github.com/seed012df1e9/guildkit"
)

// The interaction routes, the reference platform's: the callback, and the
// original response and follow-ups under /webhooks/{application.id}/{interaction.token}.
// They take no Authorization (the token in the path is the credential), and
// the request log keeps their paths with the token replaced by
// "[redacted]".

const (
	routeCallback = "/interactions/{interaction.id}/{interaction.token}/callback"
	redactedToken = "[redacted]"
)

func (s *Server) interactionRoutes(reg registrar) {
	reg("POST /interactions/{interaction_id}/{interaction_token}/callback", authNone, s.interactionCallback, streamBody(MaxUploadBody, readInteractionUpload))
}

// applicationWebhookRoutes registers the routes whose path names the
// application where the webhook-token routes name a webhook.
func (s *Server) applicationWebhookRoutes(reg registrar) {
	upload := streamBody(MaxUploadBody, readInteractionUpload)
	reg("GET /webhooks/{application_id}/{interaction_token}/messages/@original", authNone, s.getOriginalResponse)
	reg("PATCH /webhooks/{application_id}/{interaction_token}/messages/@original", authNone, s.editOriginalResponse, upload)
	reg("DELETE /webhooks/{application_id}/{interaction_token}/messages/@original", authNone, s.deleteOriginalResponse)
	reg("POST /webhooks/{application_id}/{interaction_token}", authNone, s.createFollowup, upload)
	reg("GET /webhooks/{application_id}/{interaction_token}/messages/{message_id}", authNone, s.getFollowup)
	reg("PATCH /webhooks/{application_id}/{interaction_token}/messages/{message_id}", authNone, s.editFollowup, upload)
	reg("DELETE /webhooks/{application_id}/{interaction_token}/messages/{message_id}", authNone, s.deleteFollowup)
}

// isApplicationWebhookPath reports whether path is
// /webhooks/{application.id}/... with the application's id.
func (s *Server) isApplicationWebhookPath(path string) bool {
	rest, ok := strings.CutPrefix(path, "/webhooks/"+s.appID().String()+"/")
	return ok && rest != ""
}

// globalExempt reports whether a route is outside the global rate limit:
// the interaction routes, as on the reference platform.
func globalExempt(route string) bool {
	return strings.Contains(route, "{interaction.token}")
}

// redactPath replaces the token of a token route in a logged path:
// /webhooks/{id}/{token}/... (a webhook's token, or an interaction's under
// its application) and /interactions/{id}/{token}/... . The request log,
// the live feed and the control API all show paths this way.
func redactPath(path string) string {
	for _, prefix := range [...]string{"/webhooks/", "/interactions/"} {
		rest, ok := strings.CutPrefix(path, prefix)
		if !ok {
			continue
		}
		id, after, ok := strings.Cut(rest, "/")
		if !ok || after == "" {
			return path
		}
		out := prefix + id + "/" + redactedToken
		if _, tail, more := strings.Cut(after, "/"); more {
			out += "/" + tail
		}
		return out
	}
	return path
}

// interactionUpload is a callback or message body: its JSON payload and
// its files.
type interactionUpload struct {
	payload []byte
	files   []webhookFile
	bad     string
}

// readInteractionUpload reads a JSON or multipart body before the lock.
func readInteractionUpload(c *call) bool {
	up := &interactionUpload{}
	c.upload = up
	ct := c.r.Header.Get("Content-Type")
	if mt, _, _ := mime.ParseMediaType(ct); mt == "" {
		ct = "application/json"
	}
	up.payload, up.files, up.bad = readAnswerBody(ct, c.r.Body)
	if up.bad == answerTooLarge {
		c.error(http.StatusRequestEntityTooLarge, codeEntityTooLarge, "Request entity too large")
		return false
	}
	if up.bad == "" && len(up.payload) <= maxLoggedBody && len(up.files) == 0 {
		c.logBody = up.payload
	}
	return true
}

// uploaded returns the body, answering 400 when it was bad.
func (c *call) uploaded() (*interactionUpload, bool) {
	up, _ := c.upload.(*interactionUpload)
	if up == nil || up.bad != "" {
		msg := "Invalid body"
		if up != nil {
			msg = up.bad
		}
		c.error(http.StatusBadRequest, guildkit.CodeInvalidFormBody, msg)
		return nil, false
	}
	return up, true
}

func (c *call) answerFailure(f *answerFailure) {
	if len(f.problems) > 0 {
		c.formError(f.problems)
		return
	}
	c.error(f.status, f.code, f.message)
}

// interactionCallback is Create Interaction Response: 404 Unknown
// interaction (10062) for an unknown interaction, a wrong token or after
// the 3 seconds; 400 (40060) for a second answer; 400 Invalid Form Body for
// an answer the platform refuses; then 204, or 200 with the interaction
// callback response when with_response is true.
func (s *Server) interactionCallback(c *call) {
	id, err := guildkit.ParseSnowflake(c.r.PathValue("interaction_id"))
	st := s.inter().byToken[c.r.PathValue("interaction_token")]
	if err != nil || st == nil || st.it.ID != id {
		c.error(http.StatusNotFound, guildkit.CodeUnknownInteraction, "Unknown interaction")
		return
	}
	up, ok := c.uploaded()
	if !ok {
		return
	}
	var resp guildkit.InteractionResponse
	if p := decodeJSON(answerNullsRead(up.payload), &resp); p != nil {
		c.badBody(p)
		return
	}
	if f := s.applyAnswerLocked(st, &resp, up.files, true); f != nil {
		c.answerFailure(f)
		return
	}
	if c.r.URL.Query().Get("with_response") != "true" {
		c.noContent()
		return
	}
	out := st.result
	cb := guildkit.InteractionCallback{ID: st.it.ID, Type: st.it.Type}
	res := &guildkit.InteractionCallbackResource{Type: resp.Type}
	if out.Message != nil && (resp.Type != guildkit.InteractionResponseDeferredUpdateMessage) {
		cb.ResponseMessageID = guildkit.Some(out.Message.ID)
		cb.ResponseMessageLoading = guildkit.Some(out.Message.Flags.Has(guildkit.MessageFlagLoading))
		cb.ResponseMessageEphemeral = guildkit.Some(out.Ephemeral)
		m := *out.Message
		res.Message = &m
	}
	c.json(http.StatusOK, guildkit.InteractionCallbackResponse{Interaction: cb, Resource: res})
}

// byInteractionToken resolves {application_id} and {interaction_token} for
// the original response and follow-ups, answering as the reference
// platform does: 404 Unknown Webhook (10015) for an unknown token, an
// interaction not answered yet or one that failed; 401 Invalid Webhook
// Token (50027) once the token's 15 minutes are over.
func (c *call) byInteractionToken() (*interactionState, bool) {
	st := c.s.inter().byToken[c.r.PathValue("interaction_token")]
	switch {
	case st == nil || c.r.PathValue("application_id") != c.s.appID().String():
	case c.s.now().Sub(st.deliveredAt) > tokenLife:
		c.error(http.StatusUnauthorized, guildkit.CodeInvalidWebhookToken, "Invalid Webhook Token")
		return nil, false
	case st.result != nil:
		return st, true
	}
	c.error(http.StatusNotFound, guildkit.CodeUnknownWebhook, "Unknown Webhook")
	return nil, false
}

// interactionMessage resolves the interaction by its token
// ([call.byInteractionToken]) and one of its messages: the original
// response (original true) or one of its follow-ups: 404 Unknown Message.
func (c *call) interactionMessage(original bool) (*interactionState, *webhookMessage, bool) {
	st, ok := c.byInteractionToken()
	if !ok {
		return nil, nil, false
	}
	id := st.originalID
	if !original {
		if id, ok = c.id("message_id", guildkit.CodeUnknownMessage, "Message"); !ok {
			return nil, nil, false
		}
		if id != st.originalID && !slices.Contains(st.followups, id) {
			id = 0
		}
	}
	wm, ok := c.s.wh().messages[id]
	if id == 0 || !ok {
		c.error(http.StatusNotFound, guildkit.CodeUnknownMessage, "Unknown Message")
		return nil, nil, false
	}
	return st, wm, true
}

func (s *Server) getOriginalResponse(c *call) { s.getInteractionMessage(c, true) }
func (s *Server) getFollowup(c *call)         { s.getInteractionMessage(c, false) }

func (s *Server) getInteractionMessage(c *call, original bool) {
	_, wm, ok := c.interactionMessage(original)
	if !ok {
		return
	}
	c.json(http.StatusOK, copyWebhookMessage(wm.msg))
}

func (s *Server) deleteOriginalResponse(c *call) { s.deleteInteractionMessage(c, true) }
func (s *Server) deleteFollowup(c *call)         { s.deleteInteractionMessage(c, false) }

func (s *Server) deleteInteractionMessage(c *call, original bool) {
	st, wm, ok := c.interactionMessage(original)
	if !ok {
		return
	}
	delete(s.wh().messages, wm.msg.ID)
	if wm.visibleTo == 0 {
		s.emit(guildkit.EventMessageDelete, st.guildID, guildkit.Message{ID: wm.msg.ID, ChannelID: wm.msg.ChannelID})
	}
	c.noContent()
}

// decodeMessageParams decodes a message body and checks it as the platform
// checks a new message (isNew) or an edit; it answers 400 and returns
// false on a problem.
func (c *call) decodeMessageParams(up *interactionUpload, isNew bool) (*guildkit.InteractionMessageParams, bool) {
	var p guildkit.InteractionMessageParams
	if bp := decodeJSON(nullsRead(up.payload, !isNew), &p); bp != nil {
		c.badBody(bp)
		return nil, false
	}
	withFiles(&p, up.files)
	t := guildkit.InteractionResponseUpdateMessage
	if isNew {
		t = guildkit.InteractionResponseChannelMessage
	}
	if err := (&guildkit.InteractionResponse{Type: t, Message: &p}).Validate(); err != nil {
		problems := map[string]string{}
		for k, v := range validationProblems(err) {
			problems[strings.TrimPrefix(k, "data.")] = v
		}
		c.formError(problems)
		return nil, false
	}
	return &p, true
}

func (s *Server) editOriginalResponse(c *call) { s.editInteractionMessage(c, true) }
func (s *Server) editFollowup(c *call)         { s.editInteractionMessage(c, false) }

func (s *Server) editInteractionMessage(c *call, original bool) {
	st, wm, ok := c.interactionMessage(original)
	if !ok {
		return
	}
	up, ok := c.uploaded()
	if !ok {
		return
	}
	p, ok := c.decodeMessageParams(up, false)
	if !ok {
		return
	}
	if f := s.editInteractionMessageLocked(wm, p, up.files); f != nil {
		c.answerFailure(f)
		return
	}
	if original {
		st.deferredPending = false
	}
	c.json(http.StatusOK, copyWebhookMessage(wm.msg))
}

// createFollowup is Create Followup Message: a new message of the
// interaction (ephemeral with flag 64), or, right after a
// DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE, the edit of the loading message,
// as the reference platform does.
func (s *Server) createFollowup(c *call) {
	st, ok := c.byInteractionToken()
	if !ok {
		return
	}
	up, ok := c.uploaded()
	if !ok {
		return
	}
	p, ok := c.decodeMessageParams(up, true)
	if !ok {
		return
	}
	if st.deferredPending {
		if wm, exists := s.wh().messages[st.originalID]; exists {
			edit := *p
			edit.Flags = guildkit.Opt[guildkit.MessageFlags]{}
			if f, ok := p.Flags.Get(); ok {
				edit.Flags = guildkit.Some(f & webhookEditFlags)
			}
			if f := s.editInteractionMessageLocked(wm, &edit, up.files); f != nil {
				c.answerFailure(f)
				return
			}
			st.deferredPending = false
			c.json(http.StatusOK, copyWebhookMessage(wm.msg))
			return
		}
	}
	m := s.newInteractionMessageLocked(st, p, up.files)
	st.followups = append(st.followups, m.ID)
	c.json(http.StatusOK, m)
}
