package components

import "encoding/json"

// One block per component type: Type, ComponentID, idRef, WithID and MarshalJSON
// (which writes the "type" field first).

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
	type plain ActionRow
	return marshalWithType(TypeActionRow, plain(c), c.kept)
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
	type plain Button
	return marshalWithType(TypeButton, plain(c), c.kept)
}

func (c *Button) keptRef() *kept { return &c.kept }

// UnmarshalJSON decodes c, keeping what its fields would drop (see [List]).
func (c *Button) UnmarshalJSON(b []byte) error {
	type plain Button
	*c = Button{}
	if err := json.Unmarshal(b, (*plain)(c)); err != nil {
		return err
	}
	return c.kept.collect(b, buttonFields)
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
	type plain StringSelect
	return marshalWithType(TypeStringSelect, plain(c), c.kept)
}

func (c *StringSelect) keptRef() *kept { return &c.kept }

// UnmarshalJSON decodes c, keeping what its fields would drop (see [List]).
func (c *StringSelect) UnmarshalJSON(b []byte) error {
	type plain StringSelect
	*c = StringSelect{}
	if err := json.Unmarshal(b, (*plain)(c)); err != nil {
		return err
	}
	return c.kept.collect(b, stringSelectFields)
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
	type plain TextInput
	return marshalWithType(TypeTextInput, plain(c), c.kept)
}

func (c *TextInput) keptRef() *kept { return &c.kept }

// UnmarshalJSON decodes c, keeping what its fields would drop (see [List]).
func (c *TextInput) UnmarshalJSON(b []byte) error {
	type plain TextInput
	*c = TextInput{}
	if err := json.Unmarshal(b, (*plain)(c)); err != nil {
		return err
	}
	return c.kept.collect(b, textInputFields)
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
	type plain UserSelect
	return marshalWithType(TypeUserSelect, plain(c), c.kept)
}

func (c *UserSelect) keptRef() *kept { return &c.kept }

// UnmarshalJSON decodes c, keeping what its fields would drop (see [List]).
func (c *UserSelect) UnmarshalJSON(b []byte) error {
	type plain UserSelect
	*c = UserSelect{}
	if err := json.Unmarshal(b, (*plain)(c)); err != nil {
		return err
	}
	return c.kept.collect(b, userSelectFields)
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
	type plain RoleSelect
	return marshalWithType(TypeRoleSelect, plain(c), c.kept)
}

func (c *RoleSelect) keptRef() *kept { return &c.kept }

// UnmarshalJSON decodes c, keeping what its fields would drop (see [List]).
func (c *RoleSelect) UnmarshalJSON(b []byte) error {
	type plain RoleSelect
	*c = RoleSelect{}
	if err := json.Unmarshal(b, (*plain)(c)); err != nil {
		return err
	}
	return c.kept.collect(b, roleSelectFields)
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
	type plain MentionableSelect
	return marshalWithType(TypeMentionableSelect, plain(c), c.kept)
}

func (c *MentionableSelect) keptRef() *kept { return &c.kept }

// UnmarshalJSON decodes c, keeping what its fields would drop (see [List]).
func (c *MentionableSelect) UnmarshalJSON(b []byte) error {
	type plain MentionableSelect
	*c = MentionableSelect{}
	if err := json.Unmarshal(b, (*plain)(c)); err != nil {
		return err
	}
	return c.kept.collect(b, mentionableSelectFields)
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
	type plain ChannelSelect
	return marshalWithType(TypeChannelSelect, plain(c), c.kept)
}

func (c *ChannelSelect) keptRef() *kept { return &c.kept }

// UnmarshalJSON decodes c, keeping what its fields would drop (see [List]).
func (c *ChannelSelect) UnmarshalJSON(b []byte) error {
	type plain ChannelSelect
	*c = ChannelSelect{}
	if err := json.Unmarshal(b, (*plain)(c)); err != nil {
		return err
	}
	return c.kept.collect(b, channelSelectFields)
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
	type plain Section
	return marshalWithType(TypeSection, plain(c), c.kept)
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
	type plain TextDisplay
	return marshalWithType(TypeTextDisplay, plain(c), c.kept)
}

func (c *TextDisplay) keptRef() *kept { return &c.kept }

// UnmarshalJSON decodes c, keeping what its fields would drop (see [List]).
func (c *TextDisplay) UnmarshalJSON(b []byte) error {
	type plain TextDisplay
	*c = TextDisplay{}
	if err := json.Unmarshal(b, (*plain)(c)); err != nil {
		return err
	}
	return c.kept.collect(b, textDisplayFields)
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
	type plain Thumbnail
	return marshalWithType(TypeThumbnail, plain(c), c.kept)
}

func (c *Thumbnail) keptRef() *kept { return &c.kept }

// UnmarshalJSON decodes c, keeping what its fields would drop (see [List]).
func (c *Thumbnail) UnmarshalJSON(b []byte) error {
	type plain Thumbnail
	*c = Thumbnail{}
	if err := json.Unmarshal(b, (*plain)(c)); err != nil {
		return err
	}
	return c.kept.collect(b, thumbnailFields)
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
	type plain MediaGallery
	return marshalWithType(TypeMediaGallery, plain(c), c.kept)
}

func (c *MediaGallery) keptRef() *kept { return &c.kept }

// UnmarshalJSON decodes c, keeping what its fields would drop (see [List]).
func (c *MediaGallery) UnmarshalJSON(b []byte) error {
	type plain MediaGallery
	*c = MediaGallery{}
	if err := json.Unmarshal(b, (*plain)(c)); err != nil {
		return err
	}
	return c.kept.collect(b, mediaGalleryFields)
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
	type plain File
	return marshalWithType(TypeFile, plain(c), c.kept)
}

func (c *File) keptRef() *kept { return &c.kept }

// UnmarshalJSON decodes c, keeping what its fields would drop (see [List]).
func (c *File) UnmarshalJSON(b []byte) error {
	type plain File
	*c = File{}
	if err := json.Unmarshal(b, (*plain)(c)); err != nil {
		return err
	}
	return c.kept.collect(b, fileFields)
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
	type plain Separator
	return marshalWithType(TypeSeparator, plain(c), c.kept)
}

func (c *Separator) keptRef() *kept { return &c.kept }

// UnmarshalJSON decodes c, keeping what its fields would drop (see [List]).
func (c *Separator) UnmarshalJSON(b []byte) error {
	type plain Separator
	*c = Separator{}
	if err := json.Unmarshal(b, (*plain)(c)); err != nil {
		return err
	}
	return c.kept.collect(b, separatorFields)
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
	type plain Container
	return marshalWithType(TypeContainer, plain(c), c.kept)
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
	type plain Label
	return marshalWithType(TypeLabel, plain(c), c.kept)
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
	type plain FileUpload
	return marshalWithType(TypeFileUpload, plain(c), c.kept)
}

func (c *FileUpload) keptRef() *kept { return &c.kept }

// UnmarshalJSON decodes c, keeping what its fields would drop (see [List]).
func (c *FileUpload) UnmarshalJSON(b []byte) error {
	type plain FileUpload
	*c = FileUpload{}
	if err := json.Unmarshal(b, (*plain)(c)); err != nil {
		return err
	}
	return c.kept.collect(b, fileUploadFields)
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
	type plain RadioGroup
	return marshalWithType(TypeRadioGroup, plain(c), c.kept)
}

func (c *RadioGroup) keptRef() *kept { return &c.kept }

// UnmarshalJSON decodes c, keeping what its fields would drop (see [List]).
func (c *RadioGroup) UnmarshalJSON(b []byte) error {
	type plain RadioGroup
	*c = RadioGroup{}
	if err := json.Unmarshal(b, (*plain)(c)); err != nil {
		return err
	}
	return c.kept.collect(b, radioGroupFields)
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
	type plain CheckboxGroup
	return marshalWithType(TypeCheckboxGroup, plain(c), c.kept)
}

func (c *CheckboxGroup) keptRef() *kept { return &c.kept }

// UnmarshalJSON decodes c, keeping what its fields would drop (see [List]).
func (c *CheckboxGroup) UnmarshalJSON(b []byte) error {
	type plain CheckboxGroup
	*c = CheckboxGroup{}
	if err := json.Unmarshal(b, (*plain)(c)); err != nil {
		return err
	}
	return c.kept.collect(b, checkboxGroupFields)
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
	type plain Checkbox
	return marshalWithType(TypeCheckbox, plain(c), c.kept)
}

func (c *Checkbox) keptRef() *kept { return &c.kept }

// UnmarshalJSON decodes c, keeping what its fields would drop (see [List]).
func (c *Checkbox) UnmarshalJSON(b []byte) error {
	type plain Checkbox
	*c = Checkbox{}
	if err := json.Unmarshal(b, (*plain)(c)); err != nil {
		return err
	}
	return c.kept.collect(b, checkboxFields)
}

// The members each type models, for [kept.collect].
var (
	actionRowFields         = fieldsOf[ActionRow](true)
	buttonFields            = fieldsOf[Button](true)
	stringSelectFields      = fieldsOf[StringSelect](true)
	userSelectFields        = fieldsOf[UserSelect](true)
	roleSelectFields        = fieldsOf[RoleSelect](true)
	mentionableSelectFields = fieldsOf[MentionableSelect](true)
	channelSelectFields     = fieldsOf[ChannelSelect](true)
	textInputFields         = fieldsOf[TextInput](true)
	sectionFields           = fieldsOf[Section](true)
	textDisplayFields       = fieldsOf[TextDisplay](true)
	thumbnailFields         = fieldsOf[Thumbnail](true)
	mediaGalleryFields      = fieldsOf[MediaGallery](true)
	fileFields              = fieldsOf[File](true)
	separatorFields         = fieldsOf[Separator](true)
	containerFields         = fieldsOf[Container](true)
	labelFields             = fieldsOf[Label](true)
	fileUploadFields        = fieldsOf[FileUpload](true)
	radioGroupFields        = fieldsOf[RadioGroup](true)
	checkboxGroupFields     = fieldsOf[CheckboxGroup](true)
	checkboxFields          = fieldsOf[Checkbox](true)
	partialEmojiFields      = fieldsOf[PartialEmoji](false)
	unfurledMediaItemFields = fieldsOf[UnfurledMediaItem](false)
	selectOptionFields      = fieldsOf[SelectOption](false)
	defaultValueFields      = fieldsOf[DefaultValue](false)
	mediaGalleryItemFields  = fieldsOf[MediaGalleryItem](false)
	radioOptionFields       = fieldsOf[RadioOption](false)
)

// MarshalJSON encodes v with the members its decoding kept (see [List]).
func (v PartialEmoji) MarshalJSON() ([]byte, error) {
	type plain PartialEmoji
	return marshalKept(plain(v), v.kept)
}

// UnmarshalJSON decodes v, keeping what its fields would drop (see [List]).
func (v *PartialEmoji) UnmarshalJSON(b []byte) error {
	type plain PartialEmoji
	*v = PartialEmoji{}
	if err := json.Unmarshal(b, (*plain)(v)); err != nil {
		return err
	}
	return v.kept.collect(b, partialEmojiFields)
}

// MarshalJSON encodes v with the members its decoding kept (see [List]).
func (v UnfurledMediaItem) MarshalJSON() ([]byte, error) {
	type plain UnfurledMediaItem
	return marshalKept(plain(v), v.kept)
}

// UnmarshalJSON decodes v, keeping what its fields would drop (see [List]).
func (v *UnfurledMediaItem) UnmarshalJSON(b []byte) error {
	type plain UnfurledMediaItem
	*v = UnfurledMediaItem{}
	if err := json.Unmarshal(b, (*plain)(v)); err != nil {
		return err
	}
	return v.kept.collect(b, unfurledMediaItemFields)
}

// MarshalJSON encodes v with the members its decoding kept (see [List]).
func (v SelectOption) MarshalJSON() ([]byte, error) {
	type plain SelectOption
	return marshalKept(plain(v), v.kept)
}

// UnmarshalJSON decodes v, keeping what its fields would drop (see [List]).
func (v *SelectOption) UnmarshalJSON(b []byte) error {
	type plain SelectOption
	*v = SelectOption{}
	if err := json.Unmarshal(b, (*plain)(v)); err != nil {
		return err
	}
	return v.kept.collect(b, selectOptionFields)
}

// MarshalJSON encodes v with the members its decoding kept (see [List]).
func (v DefaultValue) MarshalJSON() ([]byte, error) {
	type plain DefaultValue
	return marshalKept(plain(v), v.kept)
}

// UnmarshalJSON decodes v, keeping what its fields would drop (see [List]).
func (v *DefaultValue) UnmarshalJSON(b []byte) error {
	type plain DefaultValue
	*v = DefaultValue{}
	if err := json.Unmarshal(b, (*plain)(v)); err != nil {
		return err
	}
	return v.kept.collect(b, defaultValueFields)
}

// MarshalJSON encodes v with the members its decoding kept (see [List]).
func (v MediaGalleryItem) MarshalJSON() ([]byte, error) {
	type plain MediaGalleryItem
	return marshalKept(plain(v), v.kept)
}

// UnmarshalJSON decodes v, keeping what its fields would drop (see [List]).
func (v *MediaGalleryItem) UnmarshalJSON(b []byte) error {
	type plain MediaGalleryItem
	*v = MediaGalleryItem{}
	if err := json.Unmarshal(b, (*plain)(v)); err != nil {
		return err
	}
	return v.kept.collect(b, mediaGalleryItemFields)
}

// MarshalJSON encodes v with the members its decoding kept (see [List]).
func (v RadioOption) MarshalJSON() ([]byte, error) {
	type plain RadioOption
	return marshalKept(plain(v), v.kept)
}

// UnmarshalJSON decodes v, keeping what its fields would drop (see [List]).
func (v *RadioOption) UnmarshalJSON(b []byte) error {
	type plain RadioOption
	*v = RadioOption{}
	if err := json.Unmarshal(b, (*plain)(v)); err != nil {
		return err
	}
	return v.kept.collect(b, radioOptionFields)
}
