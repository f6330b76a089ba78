package guildkittest

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
)

// The control API's interaction routes: the application (its id, public
// key, interactions endpoint and the endpoint's verdict), and users' clicks,
// choices, modal submissions and commands, each answered with what the
// user saw.

// controlInteractionRoutes registers the application and interaction routes.
func (s *Server) controlInteractionRoutes(api func(pattern string, h func(w http.ResponseWriter, r *http.Request))) {
	api("GET application", func(w http.ResponseWriter, r *http.Request) { controlJSON(w, http.StatusOK, s.applicationJSON()) })
	api("POST application", func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			InteractionsURL *string `json:"interactions_url"`
		}
		if !controlDecode(w, r, &body) {
			return
		}
		if body.InteractionsURL != nil {
			if raw := *body.InteractionsURL; raw != "" { // "" removes the endpoint
				if _, err := ParseInteractionsURL(raw); err != nil {
					controlError(w, http.StatusBadRequest, "interactions_url: "+err.Error())
					return
				}
			}
			s.SetInteractionsURL(*body.InteractionsURL)
		}
		// Checked as the platform checks an endpoint when it is saved.
		_ = s.CheckInteractionsEndpoint(r.Context())
		controlJSON(w, http.StatusOK, s.applicationJSON())
	})
	api("GET interactions", func(w http.ResponseWriter, r *http.Request) {
		d := s.Deliveries()
		if d == nil {
			d = []Delivery{}
		}
		controlJSON(w, http.StatusOK, d)
	})
	api("POST interactions", s.controlInteraction)
}

// ParseInteractionsURL checks an interactions endpoint's URL as the
// server and the emulator take it: an absolute http or https URL, without
// user info (which would show in the endpoint's listings and verdicts).
func ParseInteractionsURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%q is not an http or https URL", raw)
	}
	if u.User != nil {
		return nil, errors.New("the URL must not carry credentials")
	}
	return u, nil
}

// applicationJSON is the application as the control API shows it: never
// its private key.
func (s *Server) applicationJSON() map[string]any {
	app := s.Application()
	out := map[string]any{"id": app.ID, "public_key": app.PublicKeyHex(), "interactions_url": s.InteractionsURL(), "endpoint_check": nil}
	if c, ok := s.EndpointCheck(); ok {
		out["endpoint_check"] = c
	}
	return out
}

// controlInteractionRequest is a user's action, as POST interactions takes it.
type controlInteractionRequest struct {
	// Kind is "click", "select", "modal_submit" or "command".
	Kind   string             `json:"kind"`
	UserID guildkit.Snowflake `json:"user_id"`
	// MessageID and CustomID name the component (click, select).
	MessageID guildkit.Snowflake `json:"message_id"`
	CustomID  string             `json:"custom_id"`
	// Values are a select's choices (an array), or a modal's values by
	// custom_id (an object).
	Values json.RawMessage `json:"values"`
	// ModalID is the modal to submit: the "id" of an outcome's modal.
	ModalID guildkit.Snowflake `json:"modal_id"`
	// ChannelID, Name and Options run a command (kind "command") or ask
	// for suggestions (kind "autocomplete"); CommandType (1 CHAT_INPUT, the
	// default; 2 USER, 3 MESSAGE) and TargetID (the member or message) run
	// a context-menu command; Files are the ATTACHMENT options' files by
	// option name: control_commands.go.
	ChannelID   guildkit.Snowflake       `json:"channel_id"`
	Name        string                   `json:"name"`
	Options     []guildkit.CommandOption `json:"options"`
	CommandType guildkit.CommandType     `json:"command_type"`
	TargetID    guildkit.Snowflake       `json:"target_id"`
	Files       map[string]controlFile   `json:"files"`
}

// controlInteraction performs a user's action and answers what the user saw.
func (s *Server) controlInteraction(w http.ResponseWriter, r *http.Request) {
	var body controlInteractionRequest
	if !controlDecode(w, r, &body) {
		return
	}
	if body.UserID == 0 {
		controlError(w, http.StatusBadRequest, "user_id: give the user who acts (a member of the guild)")
		return
	}
	ctx := context.WithoutCancel(r.Context()) // a user who leaves does not take the answer back
	var (
		out *Outcome
		err error
	)
	switch body.Kind {
	case "click":
		out, err = s.Click(ctx, body.UserID, body.MessageID, body.CustomID)
	case "select":
		var values []string
		if len(body.Values) > 0 && string(body.Values) != "null" {
			if json.Unmarshal(body.Values, &values) != nil {
				controlError(w, http.StatusBadRequest, "values: a select takes an array of strings (option values or ids)")
				return
			}
		}
		if values == nil {
			values = []string{}
		}
		out, err = s.Select(ctx, body.UserID, body.MessageID, body.CustomID, values...)
	case "modal_submit":
		s.mu.Lock()
		modal := s.inter().modals[body.ModalID]
		s.mu.Unlock()
		if modal == nil {
			controlError(w, http.StatusNotFound, "modal_id: no open modal "+body.ModalID.String()+" (give the \"id\" of an outcome's modal; a modal is kept 15 minutes)")
			return
		}
		values, problem := modalValuesFromJSON(modal, body.Values)
		if problem != "" {
			controlError(w, http.StatusBadRequest, "values: "+problem)
			return
		}
		out, err = s.SubmitModal(ctx, body.UserID, modal, values)
	case "command", "autocomplete":
		var problem string
		if out, problem, err = s.controlRunCommand(ctx, &body); problem != "" {
			controlError(w, http.StatusBadRequest, problem)
			return
		}
	default:
		controlError(w, http.StatusBadRequest, fmt.Sprintf("kind: %q is not click, select, modal_submit, command or autocomplete", body.Kind))
		return
	}
	if err != nil {
		controlError(w, http.StatusBadRequest, strings.TrimPrefix(err.Error(), "guildkittest: "))
		return
	}
	controlJSON(w, http.StatusOK, s.outcomeJSON(out))
}

// modalValuesFromJSON reads a modal's values from JSON by the type of the
// component each custom_id names: a string for a text input and a radio
// group, an array of strings for a select and a checkbox group, a boolean
// for a checkbox, and for a file upload an array of
// {"filename", "content_type", "data" (base64)}.
func modalValuesFromJSON(modal *OpenModal, raw json.RawMessage) (ModalValues, string) {
	var fields map[string]json.RawMessage
	if len(raw) > 0 && string(raw) != "null" {
		if json.Unmarshal(raw, &fields) != nil {
			return nil, "a modal's values are an object: {\"custom_id\": value}"
		}
	}
	kinds := map[string]components.Component{}
	walkComponents(modal.Modal.Components, func(c components.Component) {
		if id := componentCustomID(c); id != "" {
			kinds[id] = c
		}
	})
	values := ModalValues{}
	for id, v := range fields {
		var err error
		switch kinds[id].(type) {
		case *components.TextInput, *components.RadioGroup:
			var s string
			err = json.Unmarshal(v, &s)
			values[id] = s
		case *components.StringSelect, *components.UserSelect, *components.RoleSelect, *components.MentionableSelect,
			*components.ChannelSelect, *components.CheckboxGroup:
			list := []string{}
			err = json.Unmarshal(v, &list)
			values[id] = list
		case *components.Checkbox:
			var b bool
			err = json.Unmarshal(v, &b)
			values[id] = b
		case *components.FileUpload:
			var files []struct {
				Filename    string `json:"filename"`
				ContentType string `json:"content_type"`
				Data        string `json:"data"`
			}
			if err = json.Unmarshal(v, &files); err != nil {
				break
			}
			list := []guildkit.File{}
			for _, f := range files {
				data, derr := base64.StdEncoding.DecodeString(f.Data)
				if derr != nil {
					return nil, fmt.Sprintf("%q: the data of %q is not base64", id, f.Filename)
				}
				list = append(list, guildkit.File{Name: f.Filename, ContentType: f.ContentType, Reader: bytes.NewReader(data)})
			}
			values[id] = list
		default:
			values[id] = string(v) // refused by SubmitModal: the modal has no such field
		}
		if err != nil {
			return nil, fmt.Sprintf("%q: %s takes %s", id, componentTypeName(kinds[id]), modalValueShape(kinds[id]))
		}
	}
	return values, ""
}

func componentTypeName(c components.Component) string {
	switch c.(type) {
	case *components.TextInput:
		return "a text input"
	case *components.RadioGroup:
		return "a radio group"
	case *components.CheckboxGroup:
		return "a checkbox group"
	case *components.Checkbox:
		return "a checkbox"
	case *components.FileUpload:
		return "a file upload"
	}
	return "a select"
}

func modalValueShape(c components.Component) string {
	switch c.(type) {
	case *components.TextInput, *components.RadioGroup:
		return "a string"
	case *components.Checkbox:
		return "a boolean"
	case *components.FileUpload:
		return `an array of {"filename", "content_type", "data" (base64)}`
	}
	return "an array of strings"
}

// outcomeJSON is an outcome as the control API answers it: the
// interaction's token redacted, the modal with the id to submit it by, and
// the delivery's record.
func (s *Server) outcomeJSON(o *Outcome) map[string]any {
	out := map[string]any{"kind": o.Kind.String(), "ephemeral": o.Ephemeral, "summary": o.String()}
	if o.Message != nil {
		out["message"] = o.Message
	}
	if o.Failure != "" {
		out["failure"] = o.Failure
	}
	if o.Response != nil {
		out["response"] = o.Response
	}
	if o.Modal != nil {
		out["modal"] = map[string]any{"id": o.Modal.Interaction.ID, "custom_id": o.Modal.Modal.CustomID,
			"title": o.Modal.Modal.Title, "components": o.Modal.Modal.Components}
	}
	if o.Interaction != nil {
		out["interaction"] = redactedInteraction(o.Interaction)
		if d, ok := s.delivery(o.Interaction.ID); ok {
			out["delivery"] = d
		}
	}
	return out
}

// redactedInteraction is an interaction as the control API shows it: its
// token replaced.
func redactedInteraction(it *guildkit.Interaction) json.RawMessage {
	b, err := json.Marshal(it)
	if err != nil {
		return json.RawMessage("null")
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return json.RawMessage("null")
	}
	m["token"] = redactedToken
	b, _ = json.Marshal(m)
	return b
}

// MarshalJSON writes a delivery for the control API: lower-case names, the
// duration in milliseconds, the kind of answer by name, "via" "http" or
// "gateway" and the gateway sessions it went to.
func (d Delivery) MarshalJSON() ([]byte, error) {
	answer := ""
	if d.AnswerType != 0 {
		answer = d.AnswerType.String()
	}
	via := "http"
	if d.Gateway {
		via = "gateway"
	}
	return json.Marshal(struct {
		InteractionID guildkit.Snowflake            `json:"interaction_id"`
		Type          guildkit.InteractionType      `json:"type"`
		TypeName      string                        `json:"type_name"`
		CustomID      string                        `json:"custom_id"`
		UserID        guildkit.Snowflake            `json:"user_id"`
		Status        int                           `json:"status"`
		AnswerType    int                           `json:"answer_type,omitempty"`
		AnswerName    string                        `json:"answer_name,omitempty"`
		Answer        *guildkit.InteractionResponse `json:"answer,omitempty"`
		Callback      bool                          `json:"callback"`
		Via           string                        `json:"via"`
		Sessions      []string                      `json:"sessions,omitempty"`
		DurationMS    float64                       `json:"duration_ms"`
		Failure       string                        `json:"failure,omitempty"`
	}{d.InteractionID, d.Type, d.Type.String(), d.CustomID, d.UserID, d.Status, int(d.AnswerType), answer, d.Answer, d.Callback,
		via, d.Sessions, float64(d.Duration.Microseconds()) / 1000, d.Failure})
}

// delivery returns the record of the delivery of interaction id, while it
// is among those kept.
func (s *Server) delivery(id guildkit.Snowflake) (Delivery, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.interactions == nil {
		return Delivery{}, false
	}
	if st := s.interactions.byID[id]; st != nil && st.delivery != nil {
		return *st.delivery, true
	}
	d := s.interactions.deliveries
	for i := len(d) - 1; i >= 0; i-- {
		if d[i].InteractionID == id {
			return *d[i], true
		}
	}
	return Delivery{}, false
}
