package components

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// InteractionData is the data of a message component interaction
// (interaction type 3): a button click or a select choice in a message.
//
// Values holds the chosen option values of a string select, or the ids of
// the chosen users, roles or channels of the other selects (see
// [InteractionData.Snowflakes]); it is absent for buttons. Resolved is the
// resolved data of a non-string select (users and members, roles, channels),
// kept raw: its types live in package guildkit.
type InteractionData struct {
	CustomID      string          `json:"custom_id"`
	ComponentType Type            `json:"component_type"`
	ID            int             `json:"id,omitempty"`
	Values        []string        `json:"values,omitzero"`
	Resolved      json.RawMessage `json:"resolved,omitempty"`
}

// Snowflakes parses Values as ids, for a user, role, mentionable or channel
// select.
func (d *InteractionData) Snowflakes() ([]Snowflake, error) {
	return parseSnowflakes(d.CustomID, d.Values)
}

// ModalSubmitData is the data of a modal submission: the modal's CustomID
// and the response data of its components, in the modal's shape (labels
// wrapping their child under "component", deprecated action rows wrapping
// theirs under "components"). Resolved is the resolved data of the
// submission (attachments of file uploads, users, roles, channels of
// selects), kept raw.
//
// Read fields by custom_id with the typed look-ups ([ModalSubmitData.Text],
// [ModalSubmitData.Values], [ModalSubmitData.Selected],
// [ModalSubmitData.Checked], [ModalSubmitData.Files], ...). They report a
// missing custom_id with an error matching [ErrNoSuchField] and a component
// of the wrong type with a [*FieldTypeError].
type ModalSubmitData struct {
	CustomID   string          `json:"custom_id"`
	Components []ResponseData  `json:"components"`
	Resolved   json.RawMessage `json:"resolved,omitempty"`
}

// ResponseData is what a modal submission carries for one component. Every
// one has Type and ID. By type:
//
//   - Text Input (4): CustomID, Value (a JSON string);
//   - selects (3, 5, 6, 7, 8): CustomID, Values (option values or ids);
//   - File Upload (19): CustomID, Values (attachment ids, found in the
//     submission's resolved data);
//   - Radio Group (21): CustomID, Value (a JSON string, or null when nothing
//     is selected);
//   - Checkbox Group (22): CustomID, Values (empty array when none);
//   - Checkbox (23): CustomID, Value (a JSON boolean);
//   - Label (18): the child's response data in Component;
//   - Action Row (1, deprecated modals): children in Components;
//   - Text Display (10): nothing else.
//
// Value is kept raw because its JSON type depends on the component; read it
// with the look-ups of [ModalSubmitData].
type ResponseData struct {
	Type       Type            `json:"type"`
	ID         int             `json:"id,omitempty"`
	CustomID   string          `json:"custom_id,omitempty"`
	Value      json.RawMessage `json:"value,omitempty"`
	Values     []string        `json:"values,omitzero"`
	Component  *ResponseData   `json:"component,omitempty"`
	Components []ResponseData  `json:"components,omitzero"`
}

// ErrNoSuchField is matched (errors.Is) by the error of a modal look-up
// whose custom_id is not in the submission.
var ErrNoSuchField = errors.New("no such field")

// FieldTypeError reports a modal look-up on a component of another type
// than the look-up reads, or whose value has the wrong JSON type.
type FieldTypeError struct {
	CustomID string // the custom_id looked up
	Want     []Type // the types the look-up reads
	Got      Type   // the type submitted
	Detail   string // set when the type matched but the value did not
}

// Error reports the custom_id, the expected type(s) and the actual one.
func (e *FieldTypeError) Error() string {
	want := make([]string, len(e.Want))
	for i, t := range e.Want {
		want[i] = t.String()
	}
	if e.Detail != "" {
		return fmt.Sprintf("components: field %q (%s): %s", e.CustomID, e.Got, e.Detail)
	}
	return fmt.Sprintf("components: field %q is a %s, want %s", e.CustomID, e.Got, strings.Join(want, " or "))
}

// Field returns the response data of the component with customID, searching
// labels and action rows.
func (d *ModalSubmitData) Field(customID string) (*ResponseData, error) {
	if r := find(d.Components, customID); r != nil {
		return r, nil
	}
	return nil, fmt.Errorf("components: modal %q: field %q: %w", d.CustomID, customID, ErrNoSuchField)
}

func find(list []ResponseData, customID string) *ResponseData {
	for i := range list {
		if f := findIn(&list[i], customID); f != nil {
			return f
		}
	}
	return nil
}

// findIn searches r and its children (a label's component, a row's
// components), depth-first.
func findIn(r *ResponseData, customID string) *ResponseData {
	if r.CustomID == customID && r.Type != TypeLabel && r.Type != TypeActionRow {
		return r
	}
	if r.Component != nil {
		if f := findIn(r.Component, customID); f != nil {
			return f
		}
	}
	return find(r.Components, customID)
}

func (d *ModalSubmitData) typed(customID string, want ...Type) (*ResponseData, error) {
	r, err := d.Field(customID)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(want, r.Type) {
		return nil, &FieldTypeError{CustomID: customID, Want: want, Got: r.Type}
	}
	return r, nil
}

// Text returns the value of the Text Input with customID ("" when the user
// left an optional input empty).
func (d *ModalSubmitData) Text(customID string) (string, error) {
	r, err := d.typed(customID, TypeTextInput)
	if err != nil {
		return "", err
	}
	if len(r.Value) == 0 || string(r.Value) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(r.Value, &s); err != nil {
		return "", &FieldTypeError{CustomID: customID, Want: []Type{TypeTextInput}, Got: r.Type, Detail: "value is not a string"}
	}
	return s, nil
}

// Values returns the chosen values of the select, checkbox group or file
// upload with customID: option values for a string select or a checkbox
// group (empty when none), ids for the other selects and file uploads.
func (d *ModalSubmitData) Values(customID string) ([]string, error) {
	r, err := d.typed(customID, TypeStringSelect, TypeUserSelect, TypeRoleSelect, TypeMentionableSelect,
		TypeChannelSelect, TypeCheckboxGroup, TypeFileUpload)
	if err != nil {
		return nil, err
	}
	return slices.Clone(r.Values), nil
}

// Snowflakes returns the chosen ids of the user, role, mentionable or
// channel select with customID. Look the entities up in the resolved data.
func (d *ModalSubmitData) Snowflakes(customID string) ([]Snowflake, error) {
	r, err := d.typed(customID, TypeUserSelect, TypeRoleSelect, TypeMentionableSelect, TypeChannelSelect)
	if err != nil {
		return nil, err
	}
	return parseSnowflakes(customID, r.Values)
}

// Files returns the attachment ids uploaded through the File Upload with
// customID; the attachments are in the submission's resolved data.
func (d *ModalSubmitData) Files(customID string) ([]Snowflake, error) {
	r, err := d.typed(customID, TypeFileUpload)
	if err != nil {
		return nil, err
	}
	return parseSnowflakes(customID, r.Values)
}

// Selected returns the value of the option picked in the Radio Group with
// customID; ok is false when none was picked (value null).
func (d *ModalSubmitData) Selected(customID string) (value string, ok bool, err error) {
	r, err := d.typed(customID, TypeRadioGroup)
	if err != nil {
		return "", false, err
	}
	if len(r.Value) == 0 || string(r.Value) == "null" {
		return "", false, nil
	}
	if err := json.Unmarshal(r.Value, &value); err != nil {
		return "", false, &FieldTypeError{CustomID: customID, Want: []Type{TypeRadioGroup}, Got: r.Type, Detail: "value is not a string or null"}
	}
	return value, true, nil
}

// Checked reports whether the Checkbox with customID was checked.
func (d *ModalSubmitData) Checked(customID string) (bool, error) {
	r, err := d.typed(customID, TypeCheckbox)
	if err != nil {
		return false, err
	}
	var b bool
	if err := json.Unmarshal(r.Value, &b); err != nil {
		return false, &FieldTypeError{CustomID: customID, Want: []Type{TypeCheckbox}, Got: r.Type, Detail: "value is not a boolean"}
	}
	return b, nil
}

func parseSnowflakes(customID string, values []string) ([]Snowflake, error) {
	out := make([]Snowflake, 0, len(values))
	for _, v := range values {
		var s Snowflake
		if err := s.UnmarshalText([]byte(v)); err != nil {
			return nil, fmt.Errorf("components: field %q: value %q is not an id: %w", customID, v, err)
		}
		out = append(out, s)
	}
	return out, nil
}
