package guildkittest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/wire"
)

// answerFailure is an answer the platform refuses: the error it answers on
// the callback route, and what the user is told.
type answerFailure struct {
	status   int
	code     guildkit.ErrorCode
	message  string
	problems map[string]string // Invalid Form Body's, when set
}

func (f *answerFailure) String() string {
	if len(f.problems) == 0 {
		return f.message
	}
	return f.message + ": " + joinProblems(f.problems)
}

// acceptHTTPAnswerLocked takes the HTTP answer to a delivery; it returns
// why the interaction failed, or "".
func (s *Server) acceptHTTPAnswerLocked(st *interactionState, contentType string, body []byte) string {
	if st.result != nil {
		// Answered through the callback route already; the HTTP answer is
		// a second answer, which the platform ignores.
		return ""
	}
	if s.now().Sub(st.deliveredAt) > answerWindow {
		return "the application did not answer within 3 seconds"
	}
	payload, files, bad := readAnswerBody(contentType, bytes.NewReader(body))
	if bad != "" {
		return "the answer is invalid: " + bad
	}
	var resp guildkit.InteractionResponse
	if p := decodeJSON(answerNullsRead(payload), &resp); p != nil {
		return "the answer is invalid: " + p.String()
	}
	if f := s.applyAnswerLocked(st, &resp, files, false); f != nil {
		return "the answer is invalid: " + f.String()
	}
	return ""
}

// answerTooLarge is readAnswerBody's word for a body over its limit.
const answerTooLarge = "the body is too large"

// readAnswerBody reads an answer body: JSON, or multipart/form-data with
// payload_json and files[n] (at most MaxMessageFiles). bad says what is
// wrong with it.
func readAnswerBody(contentType string, r io.Reader) (payload []byte, files []webhookFile, bad string) {
	broken := func(err error) string {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return answerTooLarge
		}
		return "Invalid multipart body"
	}
	mt, params, _ := mime.ParseMediaType(contentType)
	switch mt {
	case "application/json":
		b, err := readJSONPart(r)
		if err != nil {
			return nil, nil, broken(err)
		}
		return b, nil, ""
	case "multipart/form-data":
	default:
		return nil, nil, fmt.Sprintf("Content-Type %q is neither application/json nor multipart/form-data", contentType)
	}
	mr := multipart.NewReader(r, params["boundary"])
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, broken(err)
		}
		name := part.FormName()
		switch {
		case name == "payload_json":
			if payload, err = readJSONPart(part); err != nil {
				return nil, nil, broken(err)
			}
		case strings.HasPrefix(name, "files[") && strings.HasSuffix(name, "]"):
			n, err := strconv.Atoi(name[len("files[") : len(name)-1])
			if err != nil || n < 0 {
				return nil, nil, "invalid file field " + strconv.Quote(name)
			}
			if len(files) == MaxMessageFiles {
				return nil, nil, fmt.Sprintf("at most %d files", MaxMessageFiles)
			}
			var kept bytes.Buffer
			size, err := io.Copy(&kept, io.LimitReader(part, attachmentKeep+1))
			if err != nil {
				return nil, nil, broken(err)
			}
			data := kept.Bytes()
			if size > attachmentKeep {
				data = nil
				more, err := io.Copy(io.Discard, part)
				if err != nil {
					return nil, nil, broken(err)
				}
				size += more
			}
			files = append(files, webhookFile{index: n, filename: part.FileName(), contentType: part.Header.Get("Content-Type"), size: size, data: data})
		default:
			_, _ = io.Copy(io.Discard, part)
		}
		part.Close()
	}
	if payload == nil {
		return nil, nil, "a multipart answer needs a payload_json part"
	}
	return payload, files, ""
}

// withFiles puts placeholders for the received files in the message's
// Files, in index order, so that validation sees them.
func withFiles(m *guildkit.InteractionMessageParams, files []webhookFile) {
	if m == nil || len(files) == 0 {
		return
	}
	sorted := slices.Clone(files)
	slices.SortFunc(sorted, func(a, b webhookFile) int { return a.index - b.index })
	m.Files = nil
	for _, f := range sorted {
		m.Files = append(m.Files, guildkit.File{Name: f.filename, ContentType: f.contentType, Reader: bytes.NewReader(f.data)})
	}
}

// validationProblems turns a validation error into Invalid Form Body's
// problems, keyed by dotted paths.
func validationProblems(err error) map[string]string {
	problems := map[string]string{}
	var ve *guildkit.ValidationError
	if !errors.As(err, &ve) {
		problems["_"] = err.Error()
		return problems
	}
	rep := strings.NewReplacer("[", ".", "]", "")
	for _, p := range ve.Problems {
		key := rep.Replace(p.Path)
		if key == "" {
			key = "_"
		}
		if prev, dup := problems[key]; dup {
			problems[key] = prev + "; " + p.Message
		} else {
			problems[key] = p.Message
		}
	}
	return problems
}

// applyAnswerLocked checks the initial answer as the platform does and
// carries out its effect; it returns nil when it was accepted.
func (s *Server) applyAnswerLocked(st *interactionState, resp *guildkit.InteractionResponse, files []webhookFile, callback bool) *answerFailure {
	now := s.now()
	switch {
	case st.failed != "" || now.Sub(st.deliveredAt) > answerWindow:
		if st.failed == "" && st.result == nil {
			st.failed = "the application did not answer within 3 seconds"
		}
		return &answerFailure{status: http.StatusNotFound, code: guildkit.CodeUnknownInteraction, message: "Unknown interaction"}
	case st.result != nil:
		return &answerFailure{status: http.StatusBadRequest, code: guildkit.CodeInteractionAcknowledged, message: "Interaction has already been acknowledged"}
	}
	formFail := func(problems map[string]string) *answerFailure {
		return &answerFailure{status: http.StatusBadRequest, code: guildkit.CodeInvalidFormBody, message: "Invalid Form Body", problems: problems}
	}
	if !resp.Type.Answers(st.it.Type) {
		return formFail(map[string]string{"type": fmt.Sprintf("%s cannot answer %s interactions", resp.Type, st.it.Type)})
	}
	if (resp.Type == guildkit.InteractionResponseUpdateMessage || resp.Type == guildkit.InteractionResponseDeferredUpdateMessage) && st.messageID == 0 {
		return formFail(map[string]string{"type": fmt.Sprintf("a %s answer needs a message to update: this modal was not opened from a component", resp.Type)})
	}
	withFiles(resp.Message, files)
	if err := resp.Validate(); err != nil {
		return formFail(validationProblems(err))
	}
	out := &Outcome{Response: resp}
	switch resp.Type {
	case guildkit.InteractionResponseChannelMessage:
		m := s.newInteractionMessageLocked(st, resp.Message, files)
		st.originalID = m.ID
		out.Kind, out.Message, out.Ephemeral = OutcomeMessage, &m, m.Flags.Has(guildkit.MessageFlagEphemeral)
	case guildkit.InteractionResponseDeferredChannelMessage:
		flags := guildkit.MessageFlagLoading
		if resp.Message != nil && resp.Message.Flags.Or(0).Has(guildkit.MessageFlagEphemeral) {
			flags |= guildkit.MessageFlagEphemeral
		}
		m := s.newInteractionMessageLocked(st, &guildkit.InteractionMessageParams{Flags: guildkit.Some(flags)}, nil)
		st.originalID = m.ID
		st.deferredPending = true
		out.Kind, out.Message, out.Ephemeral = OutcomeDeferred, &m, flags.Has(guildkit.MessageFlagEphemeral)
	case guildkit.InteractionResponseDeferredUpdateMessage:
		st.originalID = st.messageID
		out.Kind = OutcomeDeferred
		if wm, ok := s.wh().messages[st.messageID]; ok {
			m := shaped(copyWebhookMessage(wm.msg))
			out.Message, out.Ephemeral = &m, wm.visibleTo != 0
		}
	case guildkit.InteractionResponseUpdateMessage:
		wm, ok := s.wh().messages[st.messageID]
		if !ok {
			return &answerFailure{status: http.StatusNotFound, code: guildkit.CodeUnknownMessage, message: "Unknown Message"}
		}
		if f := s.editInteractionMessageLocked(wm, resp.Message, files); f != nil {
			return f
		}
		st.originalID = st.messageID
		m := shaped(copyWebhookMessage(wm.msg))
		out.Kind, out.Message, out.Ephemeral = OutcomeUpdated, &m, wm.visibleTo != 0
	case guildkit.InteractionResponseModal:
		modal := *resp.Modal
		components.AssignIDs(modal.Components...)
		it := st.it
		out.Kind = OutcomeModal
		out.Modal = &OpenModal{Modal: modal, Interaction: &it, userID: st.userID, guildID: st.guildID,
			channelID: st.channelID, messageID: st.messageID}
		s.inter().modals[it.ID] = out.Modal // for the control API: control_interactions.go
	case guildkit.InteractionResponseAutocompleteResult:
		out.Kind = OutcomeAutocomplete
	case guildkit.InteractionResponseLaunchActivity:
		out.Kind = OutcomeLaunchActivity
	}
	st.answer, st.result = resp, out
	close(st.answered)
	if d := st.delivery; d != nil {
		d.AnswerType, d.Answer, d.Callback, d.Duration = resp.Type, resp, callback, now.Sub(st.deliveredAt)
	}
	return nil
}

// appAuthorLocked is the author of the application's interaction
// messages: its bot user.
func (s *Server) appAuthorLocked() *guildkit.User {
	u := s.userLocked(s.bot)
	u.Bot = true
	return u
}

// newInteractionMessageLocked stores a new message of the interaction
// (an answer or a follow-up) and emits MESSAGE_CREATE unless it is
// ephemeral. p has been validated.
func (s *Server) newInteractionMessageLocked(st *interactionState, p *guildkit.InteractionMessageParams, files []webhookFile) guildkit.Message {
	now := s.now().UTC()
	app := s.appID()
	flags := p.Flags.Or(0)
	m := guildkit.Message{
		ID: s.newID(), ChannelID: st.channelID, Author: s.appAuthorLocked(), Content: p.Content.Or(""), Timestamp: now,
		TTS: p.TTS.Or(false), Embeds: webhookRichEmbeds(p.Embeds), Attachments: s.newAttachments(st.channelID, nil, p.Attachments, files),
		WebhookID: &app, ApplicationID: &app, Flags: flags, Components: slices.Clone(p.Components),
	}
	if m.Components == nil {
		m.Components = components.List{}
	}
	components.AssignIDs(m.Components...)
	if poll, ok := p.Poll.Get(); ok {
		m.Poll = webhookPoll(poll, now)
	}
	if gs := s.guilds[st.guildID]; gs != nil {
		text := m.Content
		if flags.Has(guildkit.MessageFlagIsComponentsV2) {
			text = webhookComponentText(m.Components)
		}
		m.Mentions, m.MentionRoles, m.MentionEveryone = s.buildMentions(gs, text, ptrOf(wireOpt(p.AllowedMentions)))
	}
	wm := &webhookMessage{msg: m, webhookID: app}
	if flags.Has(guildkit.MessageFlagEphemeral) {
		wm.visibleTo = st.userID
	}
	s.wh().messages[m.ID] = wm
	if wm.visibleTo == 0 {
		s.emit(guildkit.EventMessageCreate, st.guildID, shaped(copyWebhookMessage(m)))
	}
	return shaped(copyWebhookMessage(m))
}

// wireOpt converts a guildkit.Opt to a wire.Opt (they are the same type).
func wireOpt[T any](o guildkit.Opt[T]) wire.Opt[T] { return o }

// editInteractionMessageLocked edits a message of the application with p
// (an UPDATE_MESSAGE answer, or an edit of the original response or of a
// follow-up), emitting MESSAGE_UPDATE unless it is ephemeral. It returns
// the platform's refusal (Invalid Form Body, Cannot send an empty
// message), or nil. A loading message (a deferral)
// becomes the message: its LOADING flag goes, and it may take a poll.
func (s *Server) editInteractionMessageLocked(wm *webhookMessage, p *guildkit.InteractionMessageParams, files []webhookFile) *answerFailure {
	old := wm.msg
	m := copyWebhookMessage(old)
	loading := old.Flags.Has(guildkit.MessageFlagLoading)
	problems := map[string]string{}
	if f, ok := p.Flags.Get(); ok {
		m.Flags = old.Flags&^webhookEditFlags | f&webhookEditFlags
		if old.Flags.Has(guildkit.MessageFlagIsComponentsV2) && !m.Flags.Has(guildkit.MessageFlagIsComponentsV2) {
			problems["flags"] = "The IS_COMPONENTS_V2 flag cannot be removed"
		}
	}
	m.Flags &^= guildkit.MessageFlagLoading
	if !p.Content.IsZero() {
		m.Content = p.Content.Or("")
	}
	if p.Embeds != nil {
		m.Embeds = webhookRichEmbeds(p.Embeds)
	}
	if p.TTS.IsSet() && loading {
		m.TTS = p.TTS.Or(false)
	}
	if poll, ok := p.Poll.Get(); ok {
		if !loading {
			problems["poll"] = "Polls can only be added when editing a deferred interaction response"
		} else {
			m.Poll = webhookPoll(poll, s.now().UTC())
		}
	}
	if p.Attachments != nil {
		m.Attachments = s.newAttachments(m.ChannelID, keptAttachments(old.Attachments, p.Attachments), p.Attachments, files)
	} else {
		m.Attachments = s.newAttachments(m.ChannelID, old.Attachments, nil, files)
	}
	if p.Components != nil {
		m.Components = slices.Clone(p.Components)
		components.AssignIDs(m.Components...)
	}
	v2 := m.Flags.Has(guildkit.MessageFlagIsComponentsV2)
	if v2 {
		webhookV2Conflicts(problems, m.Content != "", len(m.Embeds) > 0, false, m.Poll != nil)
	}
	if len(m.Components) > 0 {
		target := components.LegacyMessage
		if v2 {
			target = components.V2Message
		}
		if err := components.Validate(target, m.Components...); err != nil {
			for k, v := range validationProblems(err) {
				problems[strings.TrimSuffix("components."+k, "._")] = v
			}
		}
	}
	if len(problems) > 0 {
		return &answerFailure{status: http.StatusBadRequest, code: guildkit.CodeInvalidFormBody, message: "Invalid Form Body", problems: problems}
	}
	if m.Content == "" && len(m.Embeds) == 0 && !webhookHasComponents(m.Components) && len(m.Attachments) == 0 && m.Poll == nil {
		return &answerFailure{status: http.StatusBadRequest, code: codeWebhookEmptyMessage, message: "Cannot send an empty message"}
	}
	if !p.Content.IsZero() || (v2 && p.Components != nil) {
		if gs, _ := s.webhookChannel(m.ChannelID); gs != nil {
			text := m.Content
			if v2 {
				text = webhookComponentText(m.Components)
			}
			m.Mentions, m.MentionRoles, m.MentionEveryone = s.buildMentions(gs, text, ptrOf(wireOpt(p.AllowedMentions)))
		}
	}
	if !loading {
		now := s.now().UTC()
		m.EditedTimestamp = &now
	}
	wm.msg = m
	if wm.visibleTo == 0 {
		gs, _ := s.webhookChannel(m.ChannelID)
		var gid guildkit.Snowflake
		if gs != nil {
			gid = gs.guild.ID
		}
		s.emit(guildkit.EventMessageUpdate, gid, shaped(copyWebhookMessage(m)))
	}
	return nil
}
