package components

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// List is a list of components, such as the "components" field of a
// message, a row, a section or a container. Decoding dispatches on each
// element's "type"; a type this package does not know becomes an [*Unknown].
// A nil List encodes as [].
//
// Decoding then encoding loses nothing: every component and sub-object
// keeps the members of its JSON that its Go fields would drop (a member this
// package does not model, such as one the interface added later or a
// response-only field, and an explicit zero value such as "disabled": false
// or "emoji": null) and writes them back, after its own fields, when it is
// encoded. A field given a value after decoding wins over a kept member of
// the same name. [Validate] reports a kept member where the documents forbid
// the field whatever its value (a select's disabled in a modal, a Premium
// button's label, custom_id, url or emoji, a Link button's custom_id or
// sku_id, a url or sku_id on styles 1-4, a Text Input's label inside a
// Label); members this package does not model are left to the service.
type List []Component

// MarshalJSON encodes the list; a nil list encodes as [] and a nil element
// as null. The whole tree is written into one buffer (see encoder.go).
func (l List) MarshalJSON() ([]byte, error) {
	return appendList(make([]byte, 0, 128*len(l)+2), l), nil
}

// UnmarshalJSON decodes a JSON array of components. null decodes as nil.
// The decoded strings share one copy of b (see decoder.go), so the tree
// keeps that copy alive while any of its strings is in use.
func (l *List) UnmarshalJSON(b []byte) error {
	return prefixed(newDecoder(b).list(b, l))
}

// ErrNoType is returned by [Unmarshal] for an object without a "type".
var ErrNoType = errors.New("components: component has no type")

// Unmarshal decodes one component, choosing its Go type by the "type"
// field. A type this package does not know decodes into an [*Unknown] that
// keeps the raw JSON. Members of a known type that its Go type would drop
// (members this package does not model, and explicit zero values its
// fields leave out) are kept and written back by encoding; see [List].
// Should "type" appear twice, the first non-null one counts.
//
// The input is checked as it is decoded (see package jsonscan): malformed
// input gives encoding/json's syntax error.
func Unmarshal(data []byte) (Component, error) {
	c, err := newDecoder(data).component(data)
	if errors.Is(err, errScan) {
		var v any
		if serr := json.Unmarshal(data, &v); serr != nil { // for the syntax error's detail
			err = serr
		}
		return nil, fmt.Errorf("components: %w", err)
	}
	return c, prefixed(err)
}

func newOfType(t Type) Component {
	switch t {
	case TypeActionRow:
		return new(ActionRow)
	case TypeButton:
		return new(Button)
	case TypeStringSelect:
		return new(StringSelect)
	case TypeTextInput:
		return new(TextInput)
	case TypeUserSelect:
		return new(UserSelect)
	case TypeRoleSelect:
		return new(RoleSelect)
	case TypeMentionableSelect:
		return new(MentionableSelect)
	case TypeChannelSelect:
		return new(ChannelSelect)
	case TypeSection:
		return new(Section)
	case TypeTextDisplay:
		return new(TextDisplay)
	case TypeThumbnail:
		return new(Thumbnail)
	case TypeMediaGallery:
		return new(MediaGallery)
	case TypeFile:
		return new(File)
	case TypeSeparator:
		return new(Separator)
	case TypeContainer:
		return new(Container)
	case TypeLabel:
		return new(Label)
	case TypeFileUpload:
		return new(FileUpload)
	case TypeRadioGroup:
		return new(RadioGroup)
	case TypeCheckboxGroup:
		return new(CheckboxGroup)
	case TypeCheckbox:
		return new(Checkbox)
	}
	return nil
}

// UnmarshalJSON decodes an action row and its components.
func (c *ActionRow) UnmarshalJSON(b []byte) error { return decodeInto(b, c, &c.kept) }

// UnmarshalJSON decodes a container and its components.
func (c *Container) UnmarshalJSON(b []byte) error { return decodeInto(b, c, &c.kept) }

// UnmarshalJSON decodes a section, its components and its accessory.
func (c *Section) UnmarshalJSON(b []byte) error { return decodeInto(b, c, &c.kept) }

// UnmarshalJSON decodes a label and its component.
func (c *Label) UnmarshalJSON(b []byte) error { return decodeInto(b, c, &c.kept) }

// Unknown is a component of a type this package does not know, such as one
// added to the interface later. It keeps the component's JSON as received
// and encodes it back unchanged, so a decode/encode round trip loses nothing.
// [Validate] reports it, as it cannot check it; [AssignIDs] leaves it alone
// but does not reuse its id.
type Unknown struct {
	Raw json.RawMessage
}

// Type returns the "type" field of the raw JSON (the first one, as in
// [Unmarshal]), or 0 when it cannot be read.
func (u *Unknown) Type() Type {
	t, _, _ := peekType(u.Raw)
	return t
}

// ComponentID returns the "id" field of the raw JSON, or 0 when it is
// missing or not an integer.
func (u *Unknown) ComponentID() int {
	var h struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(u.Raw, &h) != nil {
		return 0
	}
	id, err := strconv.Atoi(string(h.ID))
	if err != nil {
		return 0
	}
	return id
}

func (u *Unknown) idRef() *int { return nil }

func (u *Unknown) keptRef() *kept { return nil }

// MarshalJSON returns the raw JSON (null when empty).
func (u Unknown) MarshalJSON() ([]byte, error) {
	if len(u.Raw) == 0 {
		return []byte("null"), nil
	}
	return u.Raw, nil
}

// UnmarshalJSON keeps a copy of b.
func (u *Unknown) UnmarshalJSON(b []byte) error {
	u.Raw = append(u.Raw[:0:0], b...)
	return nil
}
