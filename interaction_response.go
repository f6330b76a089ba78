package guildkit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/wire"
)

// InteractionResponseType is the kind of an answer to an interaction (the
// reference platform's interaction callback type).
type InteractionResponseType int

// Interaction response types, the reference platform's. Which answers which
// interaction:
//
//	PONG                                  PING only
//	CHANNEL_MESSAGE_WITH_SOURCE (4)       commands, components, modal submits
//	DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE  commands, components, modal submits
//	DEFERRED_UPDATE_MESSAGE (6)           components, modal submits
//	UPDATE_MESSAGE (7)                    components, modal submits
//	APPLICATION_COMMAND_AUTOCOMPLETE_RESULT autocomplete only
//	MODAL (9)                             commands, components
//	LAUNCH_ACTIVITY (12)                  commands, components
const (
	InteractionResponsePong InteractionResponseType = 1
	// InteractionResponseChannelMessage answers with a new message.
	InteractionResponseChannelMessage InteractionResponseType = 4
	// InteractionResponseDeferredChannelMessage acknowledges; the user sees
	// a loading state until the original response is edited.
	InteractionResponseDeferredChannelMessage InteractionResponseType = 5
	// InteractionResponseDeferredUpdateMessage acknowledges a component or a
	// modal submission; the message is edited later, and the user sees no
	// loading state.
	InteractionResponseDeferredUpdateMessage InteractionResponseType = 6
	// InteractionResponseUpdateMessage edits the message the component is on.
	InteractionResponseUpdateMessage InteractionResponseType = 7
	// InteractionResponseAutocompleteResult offers up to 25 choices.
	InteractionResponseAutocompleteResult InteractionResponseType = 8
	// InteractionResponseModal shows a modal.
	InteractionResponseModal InteractionResponseType = 9
	// InteractionResponseLaunchActivity launches the application's activity.
	InteractionResponseLaunchActivity InteractionResponseType = 12
)

var interactionResponseTypeNames = []string{"", "PONG", "", "", "CHANNEL_MESSAGE_WITH_SOURCE",
	"DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE", "DEFERRED_UPDATE_MESSAGE", "UPDATE_MESSAGE",
	"APPLICATION_COMMAND_AUTOCOMPLETE_RESULT", "MODAL", "", "", "LAUNCH_ACTIVITY"}

// String returns the type's name, such as "UPDATE_MESSAGE".
func (t InteractionResponseType) String() string {
	return enumString("InteractionResponseType", interactionResponseTypeNames, int(t))
}

// Answers reports whether a response of type t may answer an interaction
// of type it, as the reference platform allows.
func (t InteractionResponseType) Answers(it InteractionType) bool {
	switch t {
	case InteractionResponsePong:
		return it == InteractionTypePing
	case InteractionResponseChannelMessage, InteractionResponseDeferredChannelMessage:
		return it == InteractionTypeApplicationCommand || it == InteractionTypeMessageComponent || it == InteractionTypeModalSubmit
	case InteractionResponseDeferredUpdateMessage, InteractionResponseUpdateMessage:
		return it == InteractionTypeMessageComponent || it == InteractionTypeModalSubmit
	case InteractionResponseAutocompleteResult:
		return it == InteractionTypeAutocomplete
	case InteractionResponseModal, InteractionResponseLaunchActivity:
		return it == InteractionTypeApplicationCommand || it == InteractionTypeMessageComponent
	}
	return false
}

// InteractionResponse is an answer to an interaction: its Type and the data
// that type takes, in Message (4 and 7, and 5 for its flags), Modal (9) or
// Choices (8). Build one with [MessageResponse], [UpdateResponse],
// [DeferredMessageResponse], [DeferredUpdateResponse], [ModalResponse],
// [AutocompleteResponse] or [LaunchActivityResponse], or as a literal.
type InteractionResponse struct {
	Type    InteractionResponseType
	Message *InteractionMessageParams
	Modal   *Modal
	Choices []CommandOptionChoice
}

// InteractionMessageParams is the message of an answer (CHANNEL_MESSAGE_WITH_SOURCE
// and UPDATE_MESSAGE) or of a follow-up. At least one of Content, Embeds,
// Components, Files and Poll is required in a new message; in an update,
// what is omitted stays as it is (send an empty, non-nil Components to
// remove the components).
type InteractionMessageParams struct {
	TTS             Opt[bool]            `json:"tts,omitzero"`
	Content         Opt[string]          `json:"content,omitzero"` // up to 2000 characters
	Embeds          []Embed              `json:"embeds,omitzero"`  // up to 10
	AllowedMentions Opt[AllowedMentions] `json:"allowed_mentions,omitzero"`
	// Flags may hold SUPPRESS_EMBEDS, EPHEMERAL (only the invoking user
	// sees the message), SUPPRESS_NOTIFICATIONS and IS_COMPONENTS_V2 in a
	// new message; SUPPRESS_EMBEDS and IS_COMPONENTS_V2 in an update.
	Flags Opt[MessageFlags] `json:"flags,omitzero"`
	// Components are checked before sending in the message's mode (V2 with
	// IS_COMPONENTS_V2, legacy otherwise); interactive ones are allowed,
	// the message being the application's.
	Components components.List `json:"components,omitzero"`
	// Attachments describes Files by index (ID n is Files[n]); the client
	// adds an entry for every file not described.
	Attachments []PartialAttachment `json:"attachments,omitzero"`
	// Files are uploaded as files[n] of a multipart body, streamed.
	Files []File          `json:"-"`
	Poll  Opt[PollCreate] `json:"poll,omitzero"`
}

// Modal is the data of a MODAL answer.
type Modal struct {
	CustomID string `json:"custom_id"` // 1-100 characters; the submission carries it
	Title    string `json:"title"`     // 1-45 characters
	// Components are 1 to 5 top-level components, checked as a modal's
	// (labels and text displays; see [components.Modal]).
	Components components.List `json:"components"`
}

// Limits of interaction answers, the reference platform's.
const (
	MaxModalTitle          = 45
	MaxModalComponents     = 5
	MaxAutocompleteChoices = 25
)

// Allowed flags: in a new message (answer or follow-up), in an update, and
// in a deferral.
const (
	interactionMessageFlagSet = MessageFlagSuppressEmbeds | MessageFlagEphemeral | MessageFlagSuppressNotifications | MessageFlagIsComponentsV2
	interactionUpdateFlagSet  = MessageFlagSuppressEmbeds | MessageFlagIsComponentsV2
)

// MessageResponse answers with a new message (CHANNEL_MESSAGE_WITH_SOURCE).
// Set [MessageFlagEphemeral] in its Flags to show it to the invoking user
// only.
func MessageResponse(m *InteractionMessageParams) *InteractionResponse {
	return &InteractionResponse{Type: InteractionResponseChannelMessage, Message: m}
}

// UpdateResponse edits the message the component is on (UPDATE_MESSAGE).
func UpdateResponse(m *InteractionMessageParams) *InteractionResponse {
	return &InteractionResponse{Type: InteractionResponseUpdateMessage, Message: m}
}

// DeferredMessageResponse acknowledges the interaction and shows a loading
// state (DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE); edit the original response
// within 15 minutes. With ephemeral, only the invoking user sees it.
func DeferredMessageResponse(ephemeral bool) *InteractionResponse {
	r := &InteractionResponse{Type: InteractionResponseDeferredChannelMessage}
	if ephemeral {
		r.Message = &InteractionMessageParams{Flags: Some(MessageFlagEphemeral)}
	}
	return r
}

// DeferredUpdateResponse acknowledges a component or modal interaction
// without a loading state (DEFERRED_UPDATE_MESSAGE); edit the message later
// through the original response.
func DeferredUpdateResponse() *InteractionResponse {
	return &InteractionResponse{Type: InteractionResponseDeferredUpdateMessage}
}

// ModalResponse shows a modal (MODAL).
func ModalResponse(customID, title string, comps ...components.Component) *InteractionResponse {
	return &InteractionResponse{Type: InteractionResponseModal, Modal: &Modal{CustomID: customID, Title: title, Components: comps}}
}

// AutocompleteResponse offers choices to an autocomplete interaction.
func AutocompleteResponse(choices ...CommandOptionChoice) *InteractionResponse {
	return &InteractionResponse{Type: InteractionResponseAutocompleteResult, Choices: choices}
}

// LaunchActivityResponse launches the application's activity.
func LaunchActivityResponse() *InteractionResponse {
	return &InteractionResponse{Type: InteractionResponseLaunchActivity}
}

// Files returns the files the answer uploads.
func (r *InteractionResponse) Files() []File {
	if r == nil || r.Message == nil {
		return nil
	}
	return r.Message.Files
}

// Validate checks the answer as the client checks it before sending
// anything: a known type with only the data that type takes; a message
// checked as a message (content, embeds, flags, files, and components in
// V2 or legacy mode by IS_COMPONENTS_V2); a modal checked as a modal (a
// custom_id of 1-100 characters, a title of 1-45, 1 to 5 top-level
// components valid in a modal); 0 to 25 choices. It returns a
// [*ValidationError] listing every problem, paths as in the JSON ("data.components[0]...").
func (r *InteractionResponse) Validate() error {
	var v ValidationError
	if r == nil {
		v.Add("", wire.CodeRequired, "an interaction response is required")
		return v.Err()
	}
	r.collectProblems(&v)
	return v.Err()
}

func (r *InteractionResponse) collectProblems(v *ValidationError) {
	switch r.Type {
	case InteractionResponsePong, InteractionResponseDeferredUpdateMessage, InteractionResponseLaunchActivity:
		if r.Message != nil {
			v.Add("data", wire.CodeNotAllowed, "a %s answer takes no message", r.Type)
		}
	case InteractionResponseChannelMessage:
		if r.Message == nil {
			v.Add("data", wire.CodeRequired, "a %s answer needs a message", r.Type)
		} else {
			r.Message.collectProblems(v, "data.", interactionMessageFlagSet, true)
		}
	case InteractionResponseUpdateMessage:
		if r.Message == nil {
			v.Add("data", wire.CodeRequired, "a %s answer needs the message's new fields", r.Type)
		} else {
			r.Message.collectProblems(v, "data.", interactionUpdateFlagSet, false)
		}
	case InteractionResponseDeferredChannelMessage:
		if m := r.Message; m != nil {
			flags, _ := m.Flags.Get()
			if extra := flags &^ MessageFlagEphemeral; extra != 0 {
				v.Add("data.flags", wire.CodeNotAllowed, "a deferral takes only the EPHEMERAL flag, got %s", extra)
			}
			if m.TTS.IsSet() || m.Content.IsSet() || len(m.Embeds) > 0 || m.AllowedMentions.IsSet() || len(m.Components) > 0 ||
				len(m.Attachments) > 0 || len(m.Files) > 0 || m.Poll.IsSet() {
				v.Add("data", wire.CodeNotAllowed, "a deferral takes only flags; send the message as an edit of the original response")
			}
		}
	case InteractionResponseModal:
		if r.Modal == nil {
			v.Add("data", wire.CodeRequired, "a MODAL answer needs a modal")
		} else {
			r.Modal.collectProblems(v)
		}
	case InteractionResponseAutocompleteResult:
		if len(r.Choices) > MaxAutocompleteChoices {
			v.Add("data.choices", wire.CodeLength, "at most %d choices, got %d", MaxAutocompleteChoices, len(r.Choices))
		}
		for i, c := range r.Choices {
			p := fmt.Sprintf("data.choices[%d]", i)
			if n := utf8.RuneCountInString(c.Name); n < 1 || n > 100 {
				v.Add(p+".name", wire.CodeLength, "1-100 characters, got %d", n)
			}
			switch val := c.Value.(type) {
			case string:
				messageMaxLen(v, p+".value", val, 100)
			case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64, json.Number:
			default:
				v.Add(p+".value", wire.CodeInvalid, "a string, an integer or a float, got %T", c.Value)
			}
		}
	default:
		v.Add("type", wire.CodeInvalid, "unknown interaction response type %d", int(r.Type))
	}
	if r.Modal != nil && r.Type != InteractionResponseModal {
		v.Add("data", wire.CodeNotAllowed, "a %s answer takes no modal", r.Type)
	}
	if len(r.Choices) > 0 && r.Type != InteractionResponseAutocompleteResult {
		v.Add("data.choices", wire.CodeNotAllowed, "a %s answer takes no choices", r.Type)
	}
}

// collectProblems checks the modal: custom_id and title lengths, 1 to 5
// top-level components, each valid in a modal.
func (m *Modal) collectProblems(v *ValidationError) {
	if n := utf8.RuneCountInString(m.CustomID); n < 1 || n > components.MaxCustomIDLength {
		v.Add("data.custom_id", wire.CodeLength, "1-%d characters, got %d", components.MaxCustomIDLength, n)
	}
	if n := utf8.RuneCountInString(m.Title); n < 1 || n > MaxModalTitle {
		v.Add("data.title", wire.CodeLength, "1-%d characters, got %d", MaxModalTitle, n)
	}
	if n := len(m.Components); n < 1 || n > MaxModalComponents {
		v.Add("data.components", wire.CodeLength, "a modal holds 1 to %d top-level components, got %d", MaxModalComponents, n)
	}
	if len(m.Components) == 0 {
		return
	}
	if err := components.Validate(components.Modal, m.Components...); err != nil {
		var ve *ValidationError
		if errors.As(err, &ve) {
			v.Merge("data.components", ve)
		} else {
			v.Add("data.components", wire.CodeInvalid, "%v", err)
		}
	}
}

// collectProblems checks a message of an answer or a follow-up; prefix starts
// every path ("data." in an answer). A new message needs something to show.
func (m *InteractionMessageParams) collectProblems(v *ValidationError, prefix string, allowed MessageFlags, isNew bool) {
	var sub ValidationError
	notNull(&sub, "tts", m.TTS)
	notNull(&sub, "content", m.Content)
	notNull(&sub, "allowed_mentions", m.AllowedMentions)
	notNull(&sub, "flags", m.Flags)
	notNull(&sub, "poll", m.Poll)
	flags, _ := m.Flags.Get()
	if extra := flags &^ allowed; extra != 0 {
		sub.Add("flags", wire.CodeNotAllowed, "only %s may be set here, got %s", allowed, extra)
	}
	v2 := flags.Has(MessageFlagIsComponentsV2)
	if !v2 && !isNew && m.Flags.IsZero() {
		// An update without flags keeps the message's mode, which the
		// client cannot see: a tree that is not action rows at the top can
		// only be a V2 message's.
		v2 = messageLooksV2(m.Components)
	}
	content, _ := m.Content.Get()
	body := messageBody{content: content, embeds: m.Embeds, allowedMentions: m.AllowedMentions, poll: m.Poll,
		files: m.Files, attachments: m.Attachments, comps: m.Components, v2: v2, appOwned: true, newFiles: isNew}
	hasComponents, hasPoll := checkMessageBody(&sub, body)
	if isNew {
		body.requireSomething(&sub, hasComponents, hasPoll)
	}
	v.Merge(strings.TrimSuffix(prefix, "."), &sub)
}

// payload is the JSON body of the answer, with an attachments entry for
// every file.
func (r *InteractionResponse) payload() any {
	type out struct {
		Type InteractionResponseType `json:"type"`
		Data any                     `json:"data,omitempty"`
	}
	o := out{Type: r.Type}
	switch {
	case r.Message != nil:
		o.Data = r.Message.payload()
	case r.Modal != nil:
		o.Data = r.Modal
	case r.Type == InteractionResponseAutocompleteResult:
		o.Data = struct {
			Choices []CommandOptionChoice `json:"choices"`
		}{append([]CommandOptionChoice{}, r.Choices...)}
	}
	return o
}

// payload is the message with an attachments entry for every file.
func (m *InteractionMessageParams) payload() any {
	if len(m.Files) == 0 {
		return m
	}
	return struct {
		*InteractionMessageParams
		Attachments []PartialAttachment `json:"attachments,omitzero"`
	}{m, messageFileAttachments(m.Attachments, m.Files)}
}

// MarshalJSON encodes the answer as the interface takes it:
// {"type": T, "data": {...}}, with an attachments entry for every file.
func (r InteractionResponse) MarshalJSON() ([]byte, error) { return json.Marshal(r.payload()) }

// UnmarshalJSON decodes an answer: data goes to Message, Modal or Choices
// by Type. Files cannot travel in JSON; their attachments entries stay in
// Message.Attachments.
func (r *InteractionResponse) UnmarshalJSON(b []byte) error {
	var raw struct {
		Type InteractionResponseType `json:"type"`
		Data json.RawMessage         `json:"data"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*r = InteractionResponse{Type: raw.Type}
	if len(raw.Data) == 0 || string(raw.Data) == "null" {
		return nil
	}
	switch raw.Type {
	case InteractionResponseModal:
		r.Modal = new(Modal)
		return json.Unmarshal(raw.Data, r.Modal)
	case InteractionResponseAutocompleteResult:
		var d struct {
			Choices []CommandOptionChoice `json:"choices"`
		}
		err := json.Unmarshal(raw.Data, &d)
		r.Choices = d.Choices
		return err
	default:
		r.Message = new(InteractionMessageParams)
		return json.Unmarshal(raw.Data, r.Message)
	}
}

// Encode returns the answer as an HTTP body: JSON, or, when the message has
// files, a streamed multipart/form-data body with payload_json and files[n]
// (the form the interface takes both in the answer to its POST and on the
// callback route). It does not validate; call [InteractionResponse.Validate]
// first.
func (r *InteractionResponse) Encode() (contentType string, body io.Reader, err error) {
	payload, err := json.Marshal(r.payload())
	if err != nil {
		return "", nil, fmt.Errorf("guildkit: encoding the interaction response: %w", err)
	}
	files := r.Files()
	if len(files) == 0 {
		return "application/json", bytes.NewReader(payload), nil
	}
	mp, err := newMultipartBody(payload, messageFileParts(files))
	if err != nil {
		return "", nil, fmt.Errorf("guildkit: encoding the interaction response: %w", err)
	}
	body, err = mp.reader()
	if err != nil {
		return "", nil, fmt.Errorf("guildkit: encoding the interaction response: %w", err)
	}
	return mp.contentType[0], body, nil
}
