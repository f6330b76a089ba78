package components

// Component is one element of a component tree: every type of this package
// (always used as a pointer, such as *Button) and [Unknown].
//
// Type reports the component type written in the "type" field. ComponentID
// reports the optional 32-bit "id" (0 when empty). The set of implementations
// is closed: the unexported method lets [AssignIDs] fill ids in place.
type Component interface {
	Type() Type
	ComponentID() int
	idRef() *int
	keptRef() *kept
}

// ActionRow (type 1) is a layout row holding up to 5 buttons, or exactly one
// select (string, user, role, mentionable or channel). At most 5 action rows
// sit at the top level of a legacy message. In a modal an action row holding
// one text input is the deprecated form of a [Label].
type ActionRow struct {
	ID         int  `json:"id,omitempty"`
	Components List `json:"components"`

	kept kept // members decoding would drop; see keep.go
}

// Button (type 2) is a clickable button in an [ActionRow] or as a [Section]
// accessory. Label is at most 80 characters, URL at most 512, CustomID 1-100.
// Styles 1-4 need CustomID and must not have URL or SKUID; Link (5) needs URL
// and no CustomID; Premium (6) needs SKUID and must not have CustomID, Label,
// URL or Emoji. Link and Premium buttons send no interaction. Disabled
// defaults to false.
type Button struct {
	ID       int           `json:"id,omitempty"`
	Style    ButtonStyle   `json:"style"`
	Label    string        `json:"label,omitempty"`
	Emoji    *PartialEmoji `json:"emoji,omitempty"`
	CustomID string        `json:"custom_id,omitempty"`
	SKUID    Snowflake     `json:"sku_id,omitzero"`
	URL      string        `json:"url,omitempty"`
	Disabled bool          `json:"disabled,omitempty"`

	kept kept // members decoding would drop; see keep.go
}

// StringSelect (type 3) is a select menu of up to 25 [SelectOption]s.
//
// CustomID is 1-100 characters; Placeholder at most 150. MinValues (default
// 1) is 0-25 and MaxValues (default 1) is 1-25. Required (default true) is
// for modals and ignored in messages. Disabled (default false) is for
// messages only: using it in a modal is an error. In a message a select sits
// alone in an [ActionRow]; in a modal inside a [Label].
type StringSelect struct {
	ID          int            `json:"id,omitempty"`
	CustomID    string         `json:"custom_id"`
	Options     []SelectOption `json:"options"`
	Placeholder string         `json:"placeholder,omitempty"`
	MinValues   Opt[int]       `json:"min_values,omitzero"` // 0-25, default 1; not nullable
	MaxValues   Opt[int]       `json:"max_values,omitzero"` // 1-25, default 1; not nullable
	Required    Opt[bool]      `json:"required,omitzero"`   // default true; modals only; not nullable
	Disabled    bool           `json:"disabled,omitempty"`

	kept kept // members decoding would drop; see keep.go
}

// UserSelect (type 5) is a select menu of users. DefaultValues may only hold
// users, and their number must lie between MinValues and MaxValues. The other
// fields are as in [StringSelect].
type UserSelect struct {
	ID            int            `json:"id,omitempty"`
	CustomID      string         `json:"custom_id"`
	Placeholder   string         `json:"placeholder,omitempty"`
	DefaultValues []DefaultValue `json:"default_values,omitempty"`
	MinValues     Opt[int]       `json:"min_values,omitzero"` // 0-25, default 1; not nullable
	MaxValues     Opt[int]       `json:"max_values,omitzero"` // 1-25, default 1; not nullable
	Required      Opt[bool]      `json:"required,omitzero"`   // default true; modals only; not nullable
	Disabled      bool           `json:"disabled,omitempty"`

	kept kept // members decoding would drop; see keep.go
}

// RoleSelect (type 6) is a select menu of roles. DefaultValues may only hold
// roles. The other fields are as in [UserSelect].
type RoleSelect struct {
	ID            int            `json:"id,omitempty"`
	CustomID      string         `json:"custom_id"`
	Placeholder   string         `json:"placeholder,omitempty"`
	DefaultValues []DefaultValue `json:"default_values,omitempty"`
	MinValues     Opt[int]       `json:"min_values,omitzero"` // 0-25, default 1; not nullable
	MaxValues     Opt[int]       `json:"max_values,omitzero"` // 1-25, default 1; not nullable
	Required      Opt[bool]      `json:"required,omitzero"`   // default true; modals only; not nullable
	Disabled      bool           `json:"disabled,omitempty"`

	kept kept // members decoding would drop; see keep.go
}

// MentionableSelect (type 7) is a select menu of users and roles.
// DefaultValues may hold users and roles. The other fields are as in
// [UserSelect].
type MentionableSelect struct {
	ID            int            `json:"id,omitempty"`
	CustomID      string         `json:"custom_id"`
	Placeholder   string         `json:"placeholder,omitempty"`
	DefaultValues []DefaultValue `json:"default_values,omitempty"`
	MinValues     Opt[int]       `json:"min_values,omitzero"` // 0-25, default 1; not nullable
	MaxValues     Opt[int]       `json:"max_values,omitzero"` // 1-25, default 1; not nullable
	Required      Opt[bool]      `json:"required,omitzero"`   // default true; modals only; not nullable
	Disabled      bool           `json:"disabled,omitempty"`

	kept kept // members decoding would drop; see keep.go
}

// ChannelSelect (type 8) is a select menu of channels, limited to
// ChannelTypes when set. DefaultValues may only hold channels. The other
// fields are as in [UserSelect].
type ChannelSelect struct {
	ID            int            `json:"id,omitempty"`
	CustomID      string         `json:"custom_id"`
	ChannelTypes  []ChannelType  `json:"channel_types,omitempty"`
	Placeholder   string         `json:"placeholder,omitempty"`
	DefaultValues []DefaultValue `json:"default_values,omitempty"`
	MinValues     Opt[int]       `json:"min_values,omitzero"` // 0-25, default 1; not nullable
	MaxValues     Opt[int]       `json:"max_values,omitzero"` // 1-25, default 1; not nullable
	Required      Opt[bool]      `json:"required,omitzero"`   // default true; modals only; not nullable
	Disabled      bool           `json:"disabled,omitempty"`

	kept kept // members decoding would drop; see keep.go
}

// TextInput (type 4) is a text field of a modal, inside a [Label].
//
// CustomID is 1-100 characters; Style is Short or Paragraph; MinLength is
// 0-4000 and MaxLength 1-4000 (MinLength <= MaxLength); Required defaults to
// true; Value is prefilled text of at most 4000 characters; Placeholder at
// most 100.
type TextInput struct {
	ID       int            `json:"id,omitempty"`
	CustomID string         `json:"custom_id"`
	Style    TextInputStyle `json:"style"`
	// Label is deprecated: use the Label component's label and description.
	// It is needed only by the deprecated action-row form (at most 45
	// characters) and is rejected inside a Label.
	Label       string    `json:"label,omitempty"`
	MinLength   Opt[int]  `json:"min_length,omitzero"` // 0-4000; not nullable
	MaxLength   Opt[int]  `json:"max_length,omitzero"` // 1-4000; not nullable
	Required    Opt[bool] `json:"required,omitzero"`   // default true; not nullable
	Value       string    `json:"value,omitempty"`
	Placeholder string    `json:"placeholder,omitempty"`

	kept kept // members decoding would drop; see keep.go
}

// Section (type 9) shows 1-3 child components (Text Display today) beside a
// required Accessory, a [Button] or a [Thumbnail]. Components V2 only.
// Decoding accepts any child and accessory types, as the spec tells clients
// not to assume sections hold only text or only those accessories.
type Section struct {
	ID         int       `json:"id,omitempty"`
	Components List      `json:"components"`
	Accessory  Component `json:"accessory,omitempty"`

	kept kept // members decoding would drop; see keep.go
}

// TextDisplay (type 10) is markdown text: mentions and emojis; pings follow
// the message's allowed_mentions.
type TextDisplay struct {
	ID      int    `json:"id,omitempty"`
	Content string `json:"content"`

	kept kept // members decoding would drop; see keep.go
}

// Thumbnail (type 11) is a small image, only usable as a [Section]
// accessory; images only (animated formats allowed, no video). Description is
// at most 1024 characters and may be null. Spoiler defaults to false and is
// always encoded, false too, as the reference platform (v10) sends it in
// every answer: a thumbnail read from a message re-encodes unchanged.
type Thumbnail struct {
	ID          int               `json:"id,omitempty"`
	Media       UnfurledMediaItem `json:"media"`
	Description Opt[string]       `json:"description,omitzero"` // at most 1024; Null allowed (no description)
	Spoiler     bool              `json:"spoiler"`

	kept kept // members decoding would drop; see keep.go
}

// MediaGallery (type 12) shows 1-10 media items.
type MediaGallery struct {
	ID    int                `json:"id,omitempty"`
	Items []MediaGalleryItem `json:"items"`

	kept kept // members decoding would drop; see keep.go
}

// File (type 13) shows an uploaded attachment. File.URL may only be an
// "attachment://<filename>" reference. Name and Size (bytes) are ignored on
// input and supplied in responses. Spoiler is always encoded, false too, as
// the reference platform (v10) sends it in every answer.
type File struct {
	ID      int               `json:"id,omitempty"`
	File    UnfurledMediaItem `json:"file"`
	Spoiler bool              `json:"spoiler"`
	Name    string            `json:"name,omitempty"` // response only
	Size    int64             `json:"size,omitempty"` // response only

	kept kept // members decoding would drop; see keep.go
}

// Separator (type 14) adds vertical padding and an optional line. Divider
// defaults to true; Spacing is 1 (small, the default) or 2 (large).
type Separator struct {
	ID      int              `json:"id,omitempty"`
	Divider Opt[bool]        `json:"divider,omitzero"` // default true; not nullable
	Spacing SeparatorSpacing `json:"spacing,omitempty"`

	kept kept // members decoding would drop; see keep.go
}

// Container (type 17) groups child components (action rows, text displays,
// sections, media galleries, separators and files) in a box. AccentColor is
// an RGB colour 0x000000-0xFFFFFF and may be null; Spoiler defaults to false
// and is always encoded, false too, as the reference platform (v10) sends it
// in every answer: a container read from a message re-encodes unchanged.
type Container struct {
	ID          int      `json:"id,omitempty"`
	Components  List     `json:"components"`
	AccentColor Opt[int] `json:"accent_color,omitzero"` // 0x000000-0xFFFFFF; Null allowed (no accent)
	Spoiler     bool     `json:"spoiler"`

	kept kept // members decoding would drop; see keep.go
}

// Label (type 18) wraps one modal component with a label of at most 45
// characters and a Description of at most 100. Its Component is a string
// select, text input, user, role, mentionable or channel select, file upload,
// radio group, checkbox group or checkbox.
type Label struct {
	ID          int       `json:"id,omitempty"`
	Label       string    `json:"label"`
	Description string    `json:"description,omitempty"`
	Component   Component `json:"component,omitempty"`

	kept kept // members decoding would drop; see keep.go
}

// FileUpload (type 19) lets the user upload files in a modal. CustomID is
// 1-100 characters; MinValues (default 1) is 0-10 and MaxValues (default 1)
// is 1-10; Required defaults to true.
type FileUpload struct {
	ID        int       `json:"id,omitempty"`
	CustomID  string    `json:"custom_id"`
	MinValues Opt[int]  `json:"min_values,omitzero"` // 0-10, default 1; not nullable
	MaxValues Opt[int]  `json:"max_values,omitzero"` // 1-10, default 1; not nullable
	Required  Opt[bool] `json:"required,omitzero"`   // default true; not nullable

	kept kept // members decoding would drop; see keep.go
}

// RadioGroup (type 21) picks one of 2-10 options in a modal. Required
// defaults to true.
type RadioGroup struct {
	ID       int           `json:"id,omitempty"`
	CustomID string        `json:"custom_id"`
	Options  []RadioOption `json:"options"`
	Required Opt[bool]     `json:"required,omitzero"` // default true; not nullable

	kept kept // members decoding would drop; see keep.go
}

// CheckboxGroup (type 22) picks any of 1-10 options in a modal. MinValues is
// 0-10 (default 1; 0 requires Required set to false), MaxValues is 1-10
// (default the number of options), Required defaults to true.
type CheckboxGroup struct {
	ID        int              `json:"id,omitempty"`
	CustomID  string           `json:"custom_id"`
	Options   []CheckboxOption `json:"options"`
	MinValues Opt[int]         `json:"min_values,omitzero"` // 0-10, default 1 (0 needs Required Some(false)); not nullable
	MaxValues Opt[int]         `json:"max_values,omitzero"` // 1-10, default the number of options; not nullable
	Required  Opt[bool]        `json:"required,omitzero"`   // default true; not nullable

	kept kept // members decoding would drop; see keep.go
}

// Checkbox (type 23) is a single yes/no box in a modal, checked when Default.
// It cannot be marked required (use a one-option [CheckboxGroup]), so it has
// no Required field.
type Checkbox struct {
	ID       int    `json:"id,omitempty"`
	CustomID string `json:"custom_id"`
	Default  bool   `json:"default,omitempty"`
	// Required is not allowed on a checkbox ("cannot be marked required;
	// use a one-option Checkbox Group instead"). It is kept when decoded,
	// re-encoded, and reported by [Validate], never dropped.
	Required Opt[bool] `json:"required,omitzero"`

	kept kept // members decoding would drop; see keep.go
}
