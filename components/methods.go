package components

import "reflect"

// One block per component type: Type, ComponentID, idRef, WithID, keptRef,
// MarshalJSON and UnmarshalJSON (through the encoder and decoder of
// encoder.go and decoder.go), then the sub-objects' keptRef, MarshalJSON and
// UnmarshalJSON.

// Type returns [TypeActionRow].
func (*ActionRow) Type() Type { return TypeActionRow }

// ComponentID returns the component's id (0 when empty).
func (c *ActionRow) ComponentID() int { return c.ID }

func (c *ActionRow) idRef() *int { return &c.ID }

// WithID sets the component id (32-bit, unique within the message; 0 lets
// the service assign one) and returns c.
func (c *ActionRow) WithID(id int) *ActionRow { c.ID = id; return c }

// MarshalJSON encodes c with its "type" field.
func (c ActionRow) MarshalJSON() ([]byte, error) {
	return appendComponent(nil, &c), nil
}

func (c *ActionRow) keptRef() *kept { return &c.kept }

// Type returns [TypeButton].
func (*Button) Type() Type { return TypeButton }

// ComponentID returns the component's id (0 when empty).
func (c *Button) ComponentID() int { return c.ID }

func (c *Button) idRef() *int { return &c.ID }

// WithID sets the component id (32-bit, unique within the message; 0 lets
// the service assign one) and returns c.
func (c *Button) WithID(id int) *Button { c.ID = id; return c }

// MarshalJSON encodes c with its "type" field.
func (c Button) MarshalJSON() ([]byte, error) {
	return appendComponent(nil, &c), nil
}

func (c *Button) keptRef() *kept { return &c.kept }

// UnmarshalJSON decodes c, keeping what its fields would drop (see [List]).
func (c *Button) UnmarshalJSON(b []byte) error {
	return decodeInto(b, c, &c.kept)
}

// Type returns [TypeStringSelect].
func (*StringSelect) Type() Type { return TypeStringSelect }

// ComponentID returns the component's id (0 when empty).
func (c *StringSelect) ComponentID() int { return c.ID }

func (c *StringSelect) idRef() *int { return &c.ID }

// WithID sets the component id (32-bit, unique within the message; 0 lets
// the service assign one) and returns c.
func (c *StringSelect) WithID(id int) *StringSelect { c.ID = id; return c }

// MarshalJSON encodes c with its "type" field.
func (c StringSelect) MarshalJSON() ([]byte, error) {
	return appendComponent(nil, &c), nil
}

func (c *StringSelect) keptRef() *kept { return &c.kept }

// UnmarshalJSON decodes c, keeping what its fields would drop (see [List]).
func (c *StringSelect) UnmarshalJSON(b []byte) error {
	return decodeInto(b, c, &c.kept)
}

// Type returns [TypeTextInput].
func (*TextInput) Type() Type { return TypeTextInput }

// ComponentID returns the component's id (0 when empty).
func (c *TextInput) ComponentID() int { return c.ID }

func (c *TextInput) idRef() *int { return &c.ID }

// WithID sets the component id (32-bit, unique within the message; 0 lets
// the service assign one) and returns c.
func (c *TextInput) WithID(id int) *TextInput { c.ID = id; return c }

// MarshalJSON encodes c with its "type" field.
func (c TextInput) MarshalJSON() ([]byte, error) {
	return appendComponent(nil, &c), nil
}

func (c *TextInput) keptRef() *kept { return &c.kept }

// UnmarshalJSON decodes c, keeping what its fields would drop (see [List]).
func (c *TextInput) UnmarshalJSON(b []byte) error {
	return decodeInto(b, c, &c.kept)
}

// Type returns [TypeUserSelect].
func (*UserSelect) Type() Type { return TypeUserSelect }

// ComponentID returns the component's id (0 when empty).
func (c *UserSelect) ComponentID() int { return c.ID }

func (c *UserSelect) idRef() *int { return &c.ID }

// WithID sets the component id (32-bit, unique within the message; 0 lets
// the service assign one) and returns c.
func (c *UserSelect) WithID(id int) *UserSelect { c.ID = id; return c }

// MarshalJSON encodes c with its "type" field.
func (c UserSelect) MarshalJSON() ([]byte, error) {
	return appendComponent(nil, &c), nil
}

func (c *UserSelect) keptRef() *kept { return &c.kept }

// UnmarshalJSON decodes c, keeping what its fields would drop (see [List]).
func (c *UserSelect) UnmarshalJSON(b []byte) error {
	return decodeInto(b, c, &c.kept)
}

// Type returns [TypeRoleSelect].
func (*RoleSelect) Type() Type { return TypeRoleSelect }

// ComponentID returns the component's id (0 when empty).
func (c *RoleSelect) ComponentID() int { return c.ID }

func (c *RoleSelect) idRef() *int { return &c.ID }

// WithID sets the component id (32-bit, unique within the message; 0 lets
// the service assign one) and returns c.
func (c *RoleSelect) WithID(id int) *RoleSelect { c.ID = id; return c }

// MarshalJSON encodes c with its "type" field.
func (c RoleSelect) MarshalJSON() ([]byte, error) {
	return appendComponent(nil, &c), nil
}

func (c *RoleSelect) keptRef() *kept { return &c.kept }

// UnmarshalJSON decodes c, keeping what its fields would drop (see [List]).
func (c *RoleSelect) UnmarshalJSON(b []byte) error {
	return decodeInto(b, c, &c.kept)
}

// Type returns [TypeMentionableSelect].
func (*MentionableSelect) Type() Type { return TypeMentionableSelect }

// ComponentID returns the component's id (0 when empty).
func (c *MentionableSelect) ComponentID() int { return c.ID }

func (c *MentionableSelect) idRef() *int { return &c.ID }

// WithID sets the component id (32-bit, unique within the message; 0 lets
// the service assign one) and returns c.
func (c *MentionableSelect) WithID(id int) *MentionableSelect { c.ID = id; return c }

// MarshalJSON encodes c with its "type" field.
func (c MentionableSelect) MarshalJSON() ([]byte, error) {
	return appendComponent(nil, &c), nil
}

func (c *MentionableSelect) keptRef() *kept { return &c.kept }

// UnmarshalJSON decodes c, keeping what its fields would drop (see [List]).
func (c *MentionableSelect) UnmarshalJSON(b []byte) error {
	return decodeInto(b, c, &c.kept)
}

// Type returns [TypeChannelSelect].
func (*ChannelSelect) Type() Type { return TypeChannelSelect }

// ComponentID returns the component's id (0 when empty).
func (c *ChannelSelect) ComponentID() int { return c.ID }

func (c *ChannelSelect) idRef() *int { return &c.ID }

// WithID sets the component id (32-bit, unique within the message; 0 lets
// the service assign one) and returns c.
func (c *ChannelSelect) WithID(id int) *ChannelSelect { c.ID = id; return c }

// MarshalJSON encodes c with its "type" field.
func (c ChannelSelect) MarshalJSON() ([]byte, error) {
	return appendComponent(nil, &c), nil
}

func (c *ChannelSelect) keptRef() *kept { return &c.kept }

// UnmarshalJSON decodes c, keeping what its fields would drop (see [List]).
func (c *ChannelSelect) UnmarshalJSON(b []byte) error {
	return decodeInto(b, c, &c.kept)
}

// Type returns [TypeSection].
func (*Section) Type() Type { return TypeSection }

// ComponentID returns the component's id (0 when empty).
func (c *Section) ComponentID() int { return c.ID }

func (c *Section) idRef() *int { return &c.ID }

// WithID sets the component id (32-bit, unique within the message; 0 lets
// the service assign one) and returns c.
func (c *Section) WithID(id int) *Section { c.ID = id; return c }

// MarshalJSON encodes c with its "type" field.
func (c Section) MarshalJSON() ([]byte, error) {
	return appendComponent(nil, &c), nil
}

func (c *Section) keptRef() *kept { return &c.kept }

// Type returns [TypeTextDisplay].
func (*TextDisplay) Type() Type { return TypeTextDisplay }

// ComponentID returns the component's id (0 when empty).
func (c *TextDisplay) ComponentID() int { return c.ID }

func (c *TextDisplay) idRef() *int { return &c.ID }

// WithID sets the component id (32-bit, unique within the message; 0 lets
// the service assign one) and returns c.
func (c *TextDisplay) WithID(id int) *TextDisplay { c.ID = id; return c }

// MarshalJSON encodes c with its "type" field.
func (c TextDisplay) MarshalJSON() ([]byte, error) {
	return appendComponent(nil, &c), nil
}

func (c *TextDisplay) keptRef() *kept { return &c.kept }

// UnmarshalJSON decodes c, keeping what its fields would drop (see [List]).
func (c *TextDisplay) UnmarshalJSON(b []byte) error {
	return decodeInto(b, c, &c.kept)
}

// Type returns [TypeThumbnail].
func (*Thumbnail) Type() Type { return TypeThumbnail }

// ComponentID returns the component's id (0 when empty).
func (c *Thumbnail) ComponentID() int { return c.ID }

func (c *Thumbnail) idRef() *int { return &c.ID }

// WithID sets the component id (32-bit, unique within the message; 0 lets
// the service assign one) and returns c.
func (c *Thumbnail) WithID(id int) *Thumbnail { c.ID = id; return c }

// MarshalJSON encodes c with its "type" field.
func (c Thumbnail) MarshalJSON() ([]byte, error) {
	return appendComponent(nil, &c), nil
}

func (c *Thumbnail) keptRef() *kept { return &c.kept }

// UnmarshalJSON decodes c, keeping what its fields would drop (see [List]).
func (c *Thumbnail) UnmarshalJSON(b []byte) error {
	return decodeInto(b, c, &c.kept)
}

// Type returns [TypeMediaGallery].
func (*MediaGallery) Type() Type { return TypeMediaGallery }

// ComponentID returns the component's id (0 when empty).
func (c *MediaGallery) ComponentID() int { return c.ID }

func (c *MediaGallery) idRef() *int { return &c.ID }

// WithID sets the component id (32-bit, unique within the message; 0 lets
// the service assign one) and returns c.
func (c *MediaGallery) WithID(id int) *MediaGallery { c.ID = id; return c }

// MarshalJSON encodes c with its "type" field.
func (c MediaGallery) MarshalJSON() ([]byte, error) {
	return appendComponent(nil, &c), nil
}

func (c *MediaGallery) keptRef() *kept { return &c.kept }

// UnmarshalJSON decodes c, keeping what its fields would drop (see [List]).
func (c *MediaGallery) UnmarshalJSON(b []byte) error {
	return decodeInto(b, c, &c.kept)
}

// Type returns [TypeFile].
func (*File) Type() Type { return TypeFile }

// ComponentID returns the component's id (0 when empty).
func (c *File) ComponentID() int { return c.ID }

func (c *File) idRef() *int { return &c.ID }

// WithID sets the component id (32-bit, unique within the message; 0 lets
// the service assign one) and returns c.
func (c *File) WithID(id int) *File { c.ID = id; return c }

// MarshalJSON encodes c with its "type" field.
func (c File) MarshalJSON() ([]byte, error) {
	return appendComponent(nil, &c), nil
}

func (c *File) keptRef() *kept { return &c.kept }

// UnmarshalJSON decodes c, keeping what its fields would drop (see [List]).
func (c *File) UnmarshalJSON(b []byte) error {
	return decodeInto(b, c, &c.kept)
}

// Type returns [TypeSeparator].
func (*Separator) Type() Type { return TypeSeparator }

// ComponentID returns the component's id (0 when empty).
func (c *Separator) ComponentID() int { return c.ID }

func (c *Separator) idRef() *int { return &c.ID }

// WithID sets the component id (32-bit, unique within the message; 0 lets
// the service assign one) and returns c.
func (c *Separator) WithID(id int) *Separator { c.ID = id; return c }

// MarshalJSON encodes c with its "type" field.
func (c Separator) MarshalJSON() ([]byte, error) {
	return appendComponent(nil, &c), nil
}

func (c *Separator) keptRef() *kept { return &c.kept }

// UnmarshalJSON decodes c, keeping what its fields would drop (see [List]).
func (c *Separator) UnmarshalJSON(b []byte) error {
	return decodeInto(b, c, &c.kept)
}

// Type returns [TypeContainer].
func (*Container) Type() Type { return TypeContainer }

// ComponentID returns the component's id (0 when empty).
func (c *Container) ComponentID() int { return c.ID }

func (c *Container) idRef() *int { return &c.ID }

// WithID sets the component id (32-bit, unique within the message; 0 lets
// the service assign one) and returns c.
func (c *Container) WithID(id int) *Container { c.ID = id; return c }

// MarshalJSON encodes c with its "type" field.
func (c Container) MarshalJSON() ([]byte, error) {
	return appendComponent(nil, &c), nil
}

func (c *Container) keptRef() *kept { return &c.kept }

// Type returns [TypeLabel].
func (*Label) Type() Type { return TypeLabel }

// ComponentID returns the component's id (0 when empty).
func (c *Label) ComponentID() int { return c.ID }

func (c *Label) idRef() *int { return &c.ID }

// WithID sets the component id (32-bit, unique within the message; 0 lets
// the service assign one) and returns c.
func (c *Label) WithID(id int) *Label { c.ID = id; return c }

// MarshalJSON encodes c with its "type" field.
func (c Label) MarshalJSON() ([]byte, error) {
	return appendComponent(nil, &c), nil
}

func (c *Label) keptRef() *kept { return &c.kept }

// Type returns [TypeFileUpload].
func (*FileUpload) Type() Type { return TypeFileUpload }

// ComponentID returns the component's id (0 when empty).
func (c *FileUpload) ComponentID() int { return c.ID }

func (c *FileUpload) idRef() *int { return &c.ID }

// WithID sets the component id (32-bit, unique within the message; 0 lets
// the service assign one) and returns c.
func (c *FileUpload) WithID(id int) *FileUpload { c.ID = id; return c }

// MarshalJSON encodes c with its "type" field.
func (c FileUpload) MarshalJSON() ([]byte, error) {
	return appendComponent(nil, &c), nil
}

func (c *FileUpload) keptRef() *kept { return &c.kept }

// UnmarshalJSON decodes c, keeping what its fields would drop (see [List]).
func (c *FileUpload) UnmarshalJSON(b []byte) error {
	return decodeInto(b, c, &c.kept)
}

// Type returns [TypeRadioGroup].
func (*RadioGroup) Type() Type { return TypeRadioGroup }

// ComponentID returns the component's id (0 when empty).
func (c *RadioGroup) ComponentID() int { return c.ID }

func (c *RadioGroup) idRef() *int { return &c.ID }

// WithID sets the component id (32-bit, unique within the message; 0 lets
// the service assign one) and returns c.
func (c *RadioGroup) WithID(id int) *RadioGroup { c.ID = id; return c }

// MarshalJSON encodes c with its "type" field.
func (c RadioGroup) MarshalJSON() ([]byte, error) {
	return appendComponent(nil, &c), nil
}

func (c *RadioGroup) keptRef() *kept { return &c.kept }

// UnmarshalJSON decodes c, keeping what its fields would drop (see [List]).
func (c *RadioGroup) UnmarshalJSON(b []byte) error {
	return decodeInto(b, c, &c.kept)
}

// Type returns [TypeCheckboxGroup].
func (*CheckboxGroup) Type() Type { return TypeCheckboxGroup }

// ComponentID returns the component's id (0 when empty).
func (c *CheckboxGroup) ComponentID() int { return c.ID }

func (c *CheckboxGroup) idRef() *int { return &c.ID }

// WithID sets the component id (32-bit, unique within the message; 0 lets
// the service assign one) and returns c.
func (c *CheckboxGroup) WithID(id int) *CheckboxGroup { c.ID = id; return c }

// MarshalJSON encodes c with its "type" field.
func (c CheckboxGroup) MarshalJSON() ([]byte, error) {
	return appendComponent(nil, &c), nil
}

func (c *CheckboxGroup) keptRef() *kept { return &c.kept }

// UnmarshalJSON decodes c, keeping what its fields would drop (see [List]).
func (c *CheckboxGroup) UnmarshalJSON(b []byte) error {
	return decodeInto(b, c, &c.kept)
}

// Type returns [TypeCheckbox].
func (*Checkbox) Type() Type { return TypeCheckbox }

// ComponentID returns the component's id (0 when empty).
func (c *Checkbox) ComponentID() int { return c.ID }

func (c *Checkbox) idRef() *int { return &c.ID }

// WithID sets the component id (32-bit, unique within the message; 0 lets
// the service assign one) and returns c.
func (c *Checkbox) WithID(id int) *Checkbox { c.ID = id; return c }

// MarshalJSON encodes c with its "type" field.
func (c Checkbox) MarshalJSON() ([]byte, error) {
	return appendComponent(nil, &c), nil
}

func (c *Checkbox) keptRef() *kept { return &c.kept }

// UnmarshalJSON decodes c, keeping what its fields would drop (see [List]).
func (c *Checkbox) UnmarshalJSON(b []byte) error {
	return decodeInto(b, c, &c.kept)
}

func (v *PartialEmoji) keptRef() *kept { return &v.kept }

// MarshalJSON encodes v with the members its decoding kept (see [List]).
func (v PartialEmoji) MarshalJSON() ([]byte, error) {
	return appendObject(nil, reflect.ValueOf(&v).Elem()), nil
}

// UnmarshalJSON decodes v, keeping what its fields would drop (see [List]).
func (v *PartialEmoji) UnmarshalJSON(b []byte) error {
	return decodeInto(b, v, &v.kept)
}

func (v *UnfurledMediaItem) keptRef() *kept { return &v.kept }

// MarshalJSON encodes v with the members its decoding kept (see [List]).
func (v UnfurledMediaItem) MarshalJSON() ([]byte, error) {
	return appendObject(nil, reflect.ValueOf(&v).Elem()), nil
}

// UnmarshalJSON decodes v, keeping what its fields would drop (see [List]).
func (v *UnfurledMediaItem) UnmarshalJSON(b []byte) error {
	return decodeInto(b, v, &v.kept)
}

func (v *SelectOption) keptRef() *kept { return &v.kept }

// MarshalJSON encodes v with the members its decoding kept (see [List]).
func (v SelectOption) MarshalJSON() ([]byte, error) {
	return appendObject(nil, reflect.ValueOf(&v).Elem()), nil
}

// UnmarshalJSON decodes v, keeping what its fields would drop (see [List]).
func (v *SelectOption) UnmarshalJSON(b []byte) error {
	return decodeInto(b, v, &v.kept)
}

func (v *DefaultValue) keptRef() *kept { return &v.kept }

// MarshalJSON encodes v with the members its decoding kept (see [List]).
func (v DefaultValue) MarshalJSON() ([]byte, error) {
	return appendObject(nil, reflect.ValueOf(&v).Elem()), nil
}

// UnmarshalJSON decodes v, keeping what its fields would drop (see [List]).
func (v *DefaultValue) UnmarshalJSON(b []byte) error {
	return decodeInto(b, v, &v.kept)
}

func (v *MediaGalleryItem) keptRef() *kept { return &v.kept }

// MarshalJSON encodes v with the members its decoding kept (see [List]).
func (v MediaGalleryItem) MarshalJSON() ([]byte, error) {
	return appendObject(nil, reflect.ValueOf(&v).Elem()), nil
}

// UnmarshalJSON decodes v, keeping what its fields would drop (see [List]).
func (v *MediaGalleryItem) UnmarshalJSON(b []byte) error {
	return decodeInto(b, v, &v.kept)
}

func (v *RadioOption) keptRef() *kept { return &v.kept }

// MarshalJSON encodes v with the members its decoding kept (see [List]).
func (v RadioOption) MarshalJSON() ([]byte, error) {
	return appendObject(nil, reflect.ValueOf(&v).Elem()), nil
}

// UnmarshalJSON decodes v, keeping what its fields would drop (see [List]).
func (v *RadioOption) UnmarshalJSON(b []byte) error {
	return decodeInto(b, v, &v.kept)
}
