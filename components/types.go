package components

import (
	"encoding/json"
	"strconv"

	"github.com/seed012df1e9/guildkit/wire"
)

// Snowflake is a 64-bit identifier; it is the type package guildkit uses.
type Snowflake = wire.Snowflake

// ChannelType is the kind of a channel, as used by [ChannelSelect.ChannelTypes].
type ChannelType = wire.ChannelType

// ValidationError lists every problem [Validate] found. It is the type
// package guildkit reports, so one errors.As covers both.
type ValidationError = wire.ValidationError

// FieldError is one problem of a [ValidationError].
type FieldError = wire.FieldError

// Opt is the tri-state optional field (omitted, null or a value) used for
// every optional field that has a default in the spec.
type Opt[T any] = wire.Opt[T]

// Some returns an [Opt] that sends v.
func Some[T any](v T) Opt[T] { return wire.Some(v) }

// Null returns an [Opt] that sends JSON null.
func Null[T any]() Opt[T] { return wire.Null[T]() }

// Type is a component type, the "type" field of every component.
type Type int

// Component types. "Usable in" follows the spec's table: message means a
// legacy or a Components V2 message, modal means a modal.
const (
	TypeActionRow         Type = 1  // layout; message (and, deprecated, modal rows of one text input)
	TypeButton            Type = 2  // interactive; message
	TypeStringSelect      Type = 3  // interactive; message, modal
	TypeTextInput         Type = 4  // interactive; modal
	TypeUserSelect        Type = 5  // interactive; message, modal
	TypeRoleSelect        Type = 6  // interactive; message, modal
	TypeMentionableSelect Type = 7  // interactive; message, modal
	TypeChannelSelect     Type = 8  // interactive; message, modal
	TypeSection           Type = 9  // layout; message (V2)
	TypeTextDisplay       Type = 10 // content; message (V2), modal
	TypeThumbnail         Type = 11 // content; message (V2), section accessory only
	TypeMediaGallery      Type = 12 // content; message (V2)
	TypeFile              Type = 13 // content; message (V2)
	TypeSeparator         Type = 14 // layout; message (V2)
	TypeContainer         Type = 17 // layout; message (V2)
	TypeLabel             Type = 18 // layout; modal
	TypeFileUpload        Type = 19 // interactive; modal
	TypeRadioGroup        Type = 21 // interactive; modal
	TypeCheckboxGroup     Type = 22 // interactive; modal
	TypeCheckbox          Type = 23 // interactive; modal
)

var typeNames = map[Type]string{
	TypeActionRow:         "Action Row",
	TypeButton:            "Button",
	TypeStringSelect:      "String Select",
	TypeTextInput:         "Text Input",
	TypeUserSelect:        "User Select",
	TypeRoleSelect:        "Role Select",
	TypeMentionableSelect: "Mentionable Select",
	TypeChannelSelect:     "Channel Select",
	TypeSection:           "Section",
	TypeTextDisplay:       "Text Display",
	TypeThumbnail:         "Thumbnail",
	TypeMediaGallery:      "Media Gallery",
	TypeFile:              "File",
	TypeSeparator:         "Separator",
	TypeContainer:         "Container",
	TypeLabel:             "Label",
	TypeFileUpload:        "File Upload",
	TypeRadioGroup:        "Radio Group",
	TypeCheckboxGroup:     "Checkbox Group",
	TypeCheckbox:          "Checkbox",
}

// String returns the spec's name of t ("Action Row", "Text Input", ...), or
// "Type(n)" for a type this package does not know.
func (t Type) String() string {
	if s, ok := typeNames[t]; ok {
		return s
	}
	return "Type(" + strconv.Itoa(int(t)) + ")"
}

// Known reports whether t is one of the 20 types of the spec.
func (t Type) Known() bool {
	_, ok := typeNames[t]
	return ok
}

// IsSelect reports whether t is one of the five select menus (3, 5, 6, 7, 8).
func (t Type) IsSelect() bool {
	switch t {
	case TypeStringSelect, TypeUserSelect, TypeRoleSelect, TypeMentionableSelect, TypeChannelSelect:
		return true
	}
	return false
}

// ButtonStyle is the style of a [Button]: 1 Primary, 2 Secondary, 3 Success,
// 4 Danger, 5 Link, 6 Premium.
type ButtonStyle int

// Button styles.
const (
	ButtonPrimary   ButtonStyle = 1 // needs custom_id; no url or sku_id
	ButtonSecondary ButtonStyle = 2 // needs custom_id; no url or sku_id
	ButtonSuccess   ButtonStyle = 3 // needs custom_id; no url or sku_id
	ButtonDanger    ButtonStyle = 4 // needs custom_id; no url or sku_id
	ButtonLink      ButtonStyle = 5 // needs url, no custom_id; sends no interaction
	ButtonPremium   ButtonStyle = 6 // needs sku_id; no custom_id, label, url or emoji; sends no interaction
)

// String returns the spec's name of s ("Primary", ..., "Premium") or
// "ButtonStyle(n)".
func (s ButtonStyle) String() string {
	switch s {
	case ButtonPrimary:
		return "Primary"
	case ButtonSecondary:
		return "Secondary"
	case ButtonSuccess:
		return "Success"
	case ButtonDanger:
		return "Danger"
	case ButtonLink:
		return "Link"
	case ButtonPremium:
		return "Premium"
	}
	return "ButtonStyle(" + strconv.Itoa(int(s)) + ")"
}

// TextInputStyle is the style of a [TextInput]: 1 Short (single line) or
// 2 Paragraph (multi-line).
type TextInputStyle int

// Text input styles.
const (
	TextInputShort     TextInputStyle = 1 // single line
	TextInputParagraph TextInputStyle = 2 // multi-line
)

// String returns "Short", "Paragraph" or "TextInputStyle(n)".
func (s TextInputStyle) String() string {
	switch s {
	case TextInputShort:
		return "Short"
	case TextInputParagraph:
		return "Paragraph"
	}
	return "TextInputStyle(" + strconv.Itoa(int(s)) + ")"
}

// SeparatorSpacing is the padding of a [Separator]: 1 small (the default)
// or 2 large. The zero value means "not set" and is left out of the JSON.
// An explicit "spacing": 0 read from JSON, which the document does not
// allow, is kept apart from "not set" (it re-encodes as 0, and [Validate]
// reports it), so decoding never turns a refused value into an accepted one.
type SeparatorSpacing int

// Separator spacings.
const (
	SpacingSmall SeparatorSpacing = 1
	SpacingLarge SeparatorSpacing = 2

	// spacingExplicitZero stands for a "spacing": 0 that was sent.
	spacingExplicitZero SeparatorSpacing = -1 << 31
)

// String returns "Small", "Large", "Unset" for zero, or "SeparatorSpacing(n)".
func (s SeparatorSpacing) String() string {
	switch s {
	case 0:
		return "Unset"
	case SpacingSmall:
		return "Small"
	case SpacingLarge:
		return "Large"
	}
	return "SeparatorSpacing(" + strconv.Itoa(s.value()) + ")"
}

// value is the number s stands for on the wire.
func (s SeparatorSpacing) value() int {
	if s == spacingExplicitZero {
		return 0
	}
	return int(s)
}

// MarshalJSON encodes the spacing's number (an explicit 0 as 0).
func (s SeparatorSpacing) MarshalJSON() ([]byte, error) {
	return strconv.AppendInt(nil, int64(s.value()), 10), nil
}

// UnmarshalJSON decodes a spacing, keeping an explicit 0 apart from unset.
func (s *SeparatorSpacing) UnmarshalJSON(b []byte) error {
	var n int
	if err := json.Unmarshal(b, &n); err != nil {
		return err
	}
	*s = SeparatorSpacing(n)
	if n == 0 {
		*s = spacingExplicitZero
	}
	return nil
}

// DefaultValueType is the "type" of a select's [DefaultValue]: one of user,
// role, channel.
type DefaultValueType string

// Default value types.
const (
	DefaultValueUser    DefaultValueType = "user"
	DefaultValueRole    DefaultValueType = "role"
	DefaultValueChannel DefaultValueType = "channel"
)

// String returns the wire form of t.
func (t DefaultValueType) String() string { return string(t) }

// PartialEmoji is the emoji of a button or a select option: a custom emoji by
// ID (with its Name and Animated flag), or a unicode emoji by Name alone.
type PartialEmoji struct {
	ID       Snowflake `json:"id,omitzero"`
	Name     string    `json:"name,omitempty"`
	Animated bool      `json:"animated,omitempty"`

	kept kept // members decoding would drop; see keep.go
}

// UnfurledMediaItem is a piece of media a component shows. URL (an arbitrary
// URL or "attachment://<filename>") is the only field a caller may set; the
// others are filled in by the service in responses, decode and re-encode,
// and are ignored by [Validate].
type UnfurledMediaItem struct {
	URL          string    `json:"url"`
	ProxyURL     string    `json:"proxy_url,omitempty"`    // response only
	Height       Opt[int]  `json:"height,omitzero"`        // response only; may be null
	Width        Opt[int]  `json:"width,omitzero"`         // response only; may be null
	ContentType  string    `json:"content_type,omitempty"` // response only
	AttachmentID Snowflake `json:"attachment_id,omitzero"` // response only; uploaded attachments
	// ID is the media item's own id (response only): the reference
	// platform's answers carry one for every item.
	ID Snowflake `json:"id,omitzero"`

	kept kept // members decoding would drop; see keep.go
}

// SelectOption is one choice of a [StringSelect]. Label and Value are
// required, 1-100 characters each; Description is at most 100 characters.
// Values are unique within one select.
type SelectOption struct {
	Label       string        `json:"label"`
	Value       string        `json:"value"`
	Description string        `json:"description,omitempty"`
	Emoji       *PartialEmoji `json:"emoji,omitempty"`
	Default     bool          `json:"default,omitempty"`

	kept kept // members decoding would drop; see keep.go
}

// DefaultValue pre-selects an entity in a user, role, mentionable or channel
// select: a user or role in a user, role or mentionable select as fits, a
// channel in a channel select.
type DefaultValue struct {
	ID   Snowflake        `json:"id"`
	Type DefaultValueType `json:"type"`

	kept kept // members decoding would drop; see keep.go
}

// MediaGalleryItem is one item of a [MediaGallery]. Description is at most
// 1024 characters and may be null. Spoiler is always encoded, false too, as
// the reference platform (v10) sends it in every answer.
type MediaGalleryItem struct {
	Media       UnfurledMediaItem `json:"media"`
	Description Opt[string]       `json:"description,omitzero"` // at most 1024; Null allowed
	Spoiler     bool              `json:"spoiler"`

	kept kept // members decoding would drop; see keep.go
}

// RadioOption is one choice of a [RadioGroup] or a [CheckboxGroup] (the
// spec's "radio and checkbox option"): Value and Label 1-100 characters,
// Description at most 100. Values are unique within one group; a radio group
// has at most one Default option.
type RadioOption struct {
	Value       string `json:"value"`
	Label       string `json:"label"`
	Description string `json:"description,omitempty"`
	Default     bool   `json:"default,omitempty"`

	kept kept // members decoding would drop; see keep.go
}

// CheckboxOption is one choice of a [CheckboxGroup]; it has the same shape as
// a [RadioOption].
type CheckboxOption = RadioOption
