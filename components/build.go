package components

// Builders. Each New... function returns a pointer to a component with its
// required fields set; the With... methods set one optional field, return
// the same pointer and so chain:
//
//	components.NewContainer(
//		components.NewTextDisplay("## Build 42 passed"),
//		components.NewActionRow(components.LinkButton("https://ci.example/42", "Open")),
//	).WithAccentColor(0x2ECC71)
//
// Struct literals (&components.Container{...}) build the same values.

// NewActionRow returns an action row of children: up to 5 buttons, or one
// select (in a modal, the deprecated form: one text input).
func NewActionRow(children ...Component) *ActionRow {
	return &ActionRow{Components: List(children)}
}

// NewButton returns a button of any style; prefer the helpers named after
// the style ([PrimaryButton], [LinkButton], ...).
func NewButton(style ButtonStyle, customID, label string) *Button {
	return &Button{Style: style, CustomID: customID, Label: label}
}

// PrimaryButton returns a Primary (style 1) button. customID is 1-100
// characters; label at most 80.
func PrimaryButton(customID, label string) *Button { return NewButton(ButtonPrimary, customID, label) }

// SecondaryButton returns a Secondary (style 2) button.
func SecondaryButton(customID, label string) *Button {
	return NewButton(ButtonSecondary, customID, label)
}

// SuccessButton returns a Success (style 3) button.
func SuccessButton(customID, label string) *Button { return NewButton(ButtonSuccess, customID, label) }

// DangerButton returns a Danger (style 4) button.
func DangerButton(customID, label string) *Button { return NewButton(ButtonDanger, customID, label) }

// LinkButton returns a Link (style 5) button opening url (at most 512
// characters). It sends no interaction.
func LinkButton(url, label string) *Button {
	return &Button{Style: ButtonLink, URL: url, Label: label}
}

// PremiumButton returns a Premium (style 6) button selling skuID. It has no
// custom_id, label, url or emoji and sends no interaction.
func PremiumButton(skuID Snowflake) *Button {
	return &Button{Style: ButtonPremium, SKUID: skuID}
}

// WithEmoji sets the button's emoji (not allowed on Premium buttons).
func (c *Button) WithEmoji(e PartialEmoji) *Button { c.Emoji = &e; return c }

// WithDisabled sets whether the button is disabled (default false).
func (c *Button) WithDisabled(disabled bool) *Button { c.Disabled = disabled; return c }

// UnicodeEmoji returns a partial emoji for a unicode emoji such as "🔥".
func UnicodeEmoji(name string) PartialEmoji { return PartialEmoji{Name: name} }

// CustomEmoji returns a partial emoji for a custom emoji.
func CustomEmoji(id Snowflake, name string, animated bool) PartialEmoji {
	return PartialEmoji{ID: id, Name: name, Animated: animated}
}

// NewStringSelect returns a string select of options (1-25).
func NewStringSelect(customID string, options ...SelectOption) *StringSelect {
	return &StringSelect{CustomID: customID, Options: options}
}

// WithPlaceholder sets the placeholder (at most 150 characters).
func (c *StringSelect) WithPlaceholder(s string) *StringSelect { c.Placeholder = s; return c }

// WithMinValues sets min_values (0-25, default 1).
func (c *StringSelect) WithMinValues(n int) *StringSelect { c.MinValues = Some(n); return c }

// WithMaxValues sets max_values (1-25, default 1).
func (c *StringSelect) WithMaxValues(n int) *StringSelect { c.MaxValues = Some(n); return c }

// WithValues sets min_values (0-25) and max_values (1-25); both default to 1.
func (c *StringSelect) WithValues(minValues, maxValues int) *StringSelect {
	c.MinValues, c.MaxValues = Some(minValues), Some(maxValues)
	return c
}

// WithRequired sets required (modals only, default true).
func (c *StringSelect) WithRequired(b bool) *StringSelect { c.Required = Some(b); return c }

// WithDisabled sets disabled (messages only, default false).
func (c *StringSelect) WithDisabled(b bool) *StringSelect { c.Disabled = b; return c }

// NewOption returns a string select option; label and value are 1-100
// characters.
func NewOption(label, value string) SelectOption { return SelectOption{Label: label, Value: value} }

// WithDescription sets the option's description (at most 100 characters).
func (o SelectOption) WithDescription(s string) SelectOption { o.Description = s; return o }

// WithEmoji sets the option's emoji.
func (o SelectOption) WithEmoji(e PartialEmoji) SelectOption { o.Emoji = &e; return o }

// AsDefault marks the option selected by default.
func (o SelectOption) AsDefault() SelectOption { o.Default = true; return o }

// DefaultUser returns a default value pre-selecting a user.
func DefaultUser(id Snowflake) DefaultValue { return DefaultValue{ID: id, Type: DefaultValueUser} }

// DefaultRole returns a default value pre-selecting a role.
func DefaultRole(id Snowflake) DefaultValue { return DefaultValue{ID: id, Type: DefaultValueRole} }

// DefaultChannel returns a default value pre-selecting a channel.
func DefaultChannel(id Snowflake) DefaultValue {
	return DefaultValue{ID: id, Type: DefaultValueChannel}
}

// NewUserSelect returns a user select pre-selecting defaults (users only).
func NewUserSelect(customID string, defaults ...DefaultValue) *UserSelect {
	return &UserSelect{CustomID: customID, DefaultValues: defaults}
}

// WithPlaceholder sets the placeholder (at most 150 characters).
func (c *UserSelect) WithPlaceholder(s string) *UserSelect { c.Placeholder = s; return c }

// WithValues sets min_values (0-25) and max_values (1-25); both default to 1.
func (c *UserSelect) WithValues(minValues, maxValues int) *UserSelect {
	c.MinValues, c.MaxValues = Some(minValues), Some(maxValues)
	return c
}

// WithRequired sets required (modals only, default true).
func (c *UserSelect) WithRequired(b bool) *UserSelect { c.Required = Some(b); return c }

// WithDisabled sets disabled (messages only, default false).
func (c *UserSelect) WithDisabled(b bool) *UserSelect { c.Disabled = b; return c }

// NewRoleSelect returns a role select pre-selecting defaults (roles only).
func NewRoleSelect(customID string, defaults ...DefaultValue) *RoleSelect {
	return &RoleSelect{CustomID: customID, DefaultValues: defaults}
}

// WithPlaceholder sets the placeholder (at most 150 characters).
func (c *RoleSelect) WithPlaceholder(s string) *RoleSelect { c.Placeholder = s; return c }

// WithValues sets min_values (0-25) and max_values (1-25); both default to 1.
func (c *RoleSelect) WithValues(minValues, maxValues int) *RoleSelect {
	c.MinValues, c.MaxValues = Some(minValues), Some(maxValues)
	return c
}

// WithRequired sets required (modals only, default true).
func (c *RoleSelect) WithRequired(b bool) *RoleSelect { c.Required = Some(b); return c }

// WithDisabled sets disabled (messages only, default false).
func (c *RoleSelect) WithDisabled(b bool) *RoleSelect { c.Disabled = b; return c }

// NewMentionableSelect returns a mentionable select pre-selecting defaults
// (users and roles).
func NewMentionableSelect(customID string, defaults ...DefaultValue) *MentionableSelect {
	return &MentionableSelect{CustomID: customID, DefaultValues: defaults}
}

// WithPlaceholder sets the placeholder (at most 150 characters).
func (c *MentionableSelect) WithPlaceholder(s string) *MentionableSelect {
	c.Placeholder = s
	return c
}

// WithValues sets min_values (0-25) and max_values (1-25); both default to 1.
func (c *MentionableSelect) WithValues(minValues, maxValues int) *MentionableSelect {
	c.MinValues, c.MaxValues = Some(minValues), Some(maxValues)
	return c
}

// WithRequired sets required (modals only, default true).
func (c *MentionableSelect) WithRequired(b bool) *MentionableSelect { c.Required = Some(b); return c }

// WithDisabled sets disabled (messages only, default false).
func (c *MentionableSelect) WithDisabled(b bool) *MentionableSelect { c.Disabled = b; return c }

// NewChannelSelect returns a channel select limited to types (all types when
// none are given).
func NewChannelSelect(customID string, types ...ChannelType) *ChannelSelect {
	return &ChannelSelect{CustomID: customID, ChannelTypes: types}
}

// WithDefaults sets the pre-selected channels.
func (c *ChannelSelect) WithDefaults(defaults ...DefaultValue) *ChannelSelect {
	c.DefaultValues = defaults
	return c
}

// WithPlaceholder sets the placeholder (at most 150 characters).
func (c *ChannelSelect) WithPlaceholder(s string) *ChannelSelect { c.Placeholder = s; return c }

// WithValues sets min_values (0-25) and max_values (1-25); both default to 1.
func (c *ChannelSelect) WithValues(minValues, maxValues int) *ChannelSelect {
	c.MinValues, c.MaxValues = Some(minValues), Some(maxValues)
	return c
}

// WithRequired sets required (modals only, default true).
func (c *ChannelSelect) WithRequired(b bool) *ChannelSelect { c.Required = Some(b); return c }

// WithDisabled sets disabled (messages only, default false).
func (c *ChannelSelect) WithDisabled(b bool) *ChannelSelect { c.Disabled = b; return c }

// NewTextInput returns a text input for a modal; wrap it in [NewLabel].
func NewTextInput(customID string, style TextInputStyle) *TextInput {
	return &TextInput{CustomID: customID, Style: style}
}

// WithLength sets min_length (0-4000) and max_length (1-4000).
func (c *TextInput) WithLength(minLength, maxLength int) *TextInput {
	c.MinLength, c.MaxLength = Some(minLength), Some(maxLength)
	return c
}

// WithValue sets the prefilled text (at most 4000 characters).
func (c *TextInput) WithValue(s string) *TextInput { c.Value = s; return c }

// WithPlaceholder sets the placeholder (at most 100 characters).
func (c *TextInput) WithPlaceholder(s string) *TextInput { c.Placeholder = s; return c }

// WithRequired sets required (default true).
func (c *TextInput) WithRequired(b bool) *TextInput { c.Required = Some(b); return c }

// NewSection returns a section of 1-3 children (text displays) beside
// accessory, a [Button] or a [Thumbnail].
func NewSection(accessory Component, children ...Component) *Section {
	return &Section{Components: List(children), Accessory: accessory}
}

// NewTextDisplay returns a text display of markdown content.
func NewTextDisplay(content string) *TextDisplay { return &TextDisplay{Content: content} }

// NewThumbnail returns a thumbnail of the image at url (a URL or
// "attachment://<filename>"), for a section accessory.
func NewThumbnail(url string) *Thumbnail { return &Thumbnail{Media: UnfurledMediaItem{URL: url}} }

// WithDescription sets the alt text (at most 1024 characters).
func (c *Thumbnail) WithDescription(s string) *Thumbnail { c.Description = Some(s); return c }

// WithSpoiler sets whether the thumbnail is blurred (default false).
func (c *Thumbnail) WithSpoiler(b bool) *Thumbnail { c.Spoiler = b; return c }

// NewMediaGallery returns a gallery of 1-10 items.
func NewMediaGallery(items ...MediaGalleryItem) *MediaGallery {
	return &MediaGallery{Items: items}
}

// NewGalleryItem returns a media gallery item showing url.
func NewGalleryItem(url string) MediaGalleryItem {
	return MediaGalleryItem{Media: UnfurledMediaItem{URL: url}}
}

// WithDescription sets the item's alt text (at most 1024 characters).
func (i MediaGalleryItem) WithDescription(s string) MediaGalleryItem {
	i.Description = Some(s)
	return i
}

// WithSpoiler sets whether the item is blurred.
func (i MediaGalleryItem) WithSpoiler(b bool) MediaGalleryItem { i.Spoiler = b; return i }

// NewFile returns a File component showing the attachment uploaded with the
// message under filename (its url is "attachment://" + filename).
func NewFile(filename string) *File {
	return &File{File: UnfurledMediaItem{URL: attachmentScheme + filename}}
}

// WithSpoiler sets whether the file is blurred.
func (c *File) WithSpoiler(b bool) *File { c.Spoiler = b; return c }

// NewSeparator returns a separator with the defaults (a divider, small
// spacing).
func NewSeparator() *Separator { return &Separator{} }

// WithSpacing sets the spacing (small or large).
func (c *Separator) WithSpacing(s SeparatorSpacing) *Separator { c.Spacing = s; return c }

// WithDivider sets whether a line is drawn (default true).
func (c *Separator) WithDivider(b bool) *Separator { c.Divider = Some(b); return c }

// NewContainer returns a container of children: action rows, text displays,
// sections, media galleries, separators and files.
func NewContainer(children ...Component) *Container {
	return &Container{Components: List(children)}
}

// WithAccentColor sets the accent colour, RGB 0x000000-0xFFFFFF.
func (c *Container) WithAccentColor(rgb int) *Container { c.AccentColor = Some(rgb); return c }

// WithSpoiler sets whether the container is blurred.
func (c *Container) WithSpoiler(b bool) *Container { c.Spoiler = b; return c }

// NewLabel returns a label (at most 45 characters) around one modal
// component.
func NewLabel(label string, child Component) *Label { return &Label{Label: label, Component: child} }

// WithDescription sets the label's description (at most 100 characters).
func (c *Label) WithDescription(s string) *Label { c.Description = s; return c }

// NewFileUpload returns a file upload for a modal; wrap it in [NewLabel].
func NewFileUpload(customID string) *FileUpload { return &FileUpload{CustomID: customID} }

// WithValues sets min_values (0-10) and max_values (1-10); both default to 1.
func (c *FileUpload) WithValues(minValues, maxValues int) *FileUpload {
	c.MinValues, c.MaxValues = Some(minValues), Some(maxValues)
	return c
}

// WithRequired sets required (default true).
func (c *FileUpload) WithRequired(b bool) *FileUpload { c.Required = Some(b); return c }

// NewChoice returns a radio or checkbox option; label and value are 1-100
// characters.
func NewChoice(label, value string) RadioOption { return RadioOption{Label: label, Value: value} }

// WithDescription sets the option's description (at most 100 characters).
func (o RadioOption) WithDescription(s string) RadioOption { o.Description = s; return o }

// AsDefault marks the option selected by default.
func (o RadioOption) AsDefault() RadioOption { o.Default = true; return o }

// NewRadioGroup returns a radio group of 2-10 options.
func NewRadioGroup(customID string, options ...RadioOption) *RadioGroup {
	return &RadioGroup{CustomID: customID, Options: options}
}

// WithRequired sets required (default true).
func (c *RadioGroup) WithRequired(b bool) *RadioGroup { c.Required = Some(b); return c }

// NewCheckboxGroup returns a checkbox group of 1-10 options.
func NewCheckboxGroup(customID string, options ...CheckboxOption) *CheckboxGroup {
	return &CheckboxGroup{CustomID: customID, Options: options}
}

// WithValues sets min_values (0-10; 0 needs WithRequired(false)) and
// max_values (1-10, at most the number of options).
func (c *CheckboxGroup) WithValues(minValues, maxValues int) *CheckboxGroup {
	c.MinValues, c.MaxValues = Some(minValues), Some(maxValues)
	return c
}

// WithRequired sets required (default true).
func (c *CheckboxGroup) WithRequired(b bool) *CheckboxGroup { c.Required = Some(b); return c }

// NewCheckbox returns a checkbox, unchecked by default.
func NewCheckbox(customID string) *Checkbox { return &Checkbox{CustomID: customID} }

// WithDefault sets whether the box starts checked.
func (c *Checkbox) WithDefault(b bool) *Checkbox { c.Default = b; return c }
