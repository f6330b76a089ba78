package components

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/seed012df1e9/guildkit/wire"
)

// Target says where a component tree is sent, for [Validate]: one of
// [LegacyMessage], [V2Message] or [Modal], optionally combined with
// [NonInteractive] for a message sent by a webhook not owned by an
// application (V2Message|NonInteractive).
type Target uint8

// Targets of [Validate].
const (
	// LegacyMessage is a message without the IS_COMPONENTS_V2 flag: at most 5
	// action rows at the top level, beside content and embeds.
	LegacyMessage Target = 1
	// V2Message is a message with the IS_COMPONENTS_V2 flag (1 << 15): up to
	// 40 components in total, nested ones included.
	V2Message Target = 2
	// Modal is the component list of a modal: labels, text displays and the
	// deprecated action rows of one text input.
	Modal Target = 3

	// NonInteractive restricts a message to non-interactive components, as
	// for a webhook not owned by an application. Link buttons are accepted
	// (they send no interaction and the platform allows them there); every
	// other button style, including Premium (bound to an application's SKU),
	// and every select or modal input is rejected.
	NonInteractive Target = 1 << 4

	targetMask = 0x0f
)

// MaxID is the largest component id: ids are 32-bit, and this package takes
// them as signed (0..2^31-1), which also fits an unsigned reading.
const MaxID = math.MaxInt32

// Limits of the spec, used by [Validate].
const (
	MaxV2Components      = 40       // components per V2 message, nested ones included
	MaxLegacyRows        = 5        // top-level action rows of a legacy message
	MaxRowButtons        = 5        // buttons per action row
	MaxCustomIDLength    = 100      // custom_id is 1-100 characters
	MaxButtonLabelLength = 80       // button label
	MaxButtonURLLength   = 512      // button url
	MaxSelectOptions     = 25       // string select options
	MaxSelectValues      = 25       // select min_values 0-25, max_values 1-25
	MaxPlaceholderLength = 150      // select placeholder
	MaxOptionLength      = 100      // option label, value, description
	MaxTextInputLength   = 4000     // text input min_length 0-4000, max_length 1-4000, value
	MaxTextPlaceholder   = 100      // text input placeholder
	MaxLabelLength       = 45       // label text
	MaxLabelDescription  = 100      // label description
	MaxGalleryItems      = 10       // media gallery items 1-10
	MaxMediaDescription  = 1024     // thumbnail and gallery item description
	MaxSectionChildren   = 3        // section children 1-3
	MaxFileUploadValues  = 10       // file upload min_values 0-10, max_values 1-10
	MinRadioOptions      = 2        // radio group options 2-10
	MaxRadioOptions      = 10       // radio group options 2-10
	MaxCheckboxOptions   = 10       // checkbox group options 1-10, min_values 0-10, max_values 1-10
	MaxAccentColor       = 0xFFFFFF // container accent_color 0x000000-0xFFFFFF
)

const (
	attachmentScheme      = "attachment://"
	maxTextInputLabelSize = 45 // deprecated text input label
)

// String names the target: "legacy message", "V2 message", "modal", with
// "+non-interactive" when the flag is set.
func (t Target) String() string {
	var s string
	switch t & targetMask {
	case LegacyMessage:
		s = "legacy message"
	case V2Message:
		s = "V2 message"
	case Modal:
		s = "modal"
	default:
		s = "Target(" + strconv.Itoa(int(t&targetMask)) + ")"
	}
	if t&NonInteractive != 0 {
		s += "+non-interactive"
	}
	return s
}

// place is where a component sits in the tree.
type place int

const (
	placeTop place = iota
	placeRow
	placeSectionChild
	placeAccessory
	placeContainer
	placeLabel
)

// Validate checks components against every rule and limit of the spec for
// target and returns all problems at once as a [*ValidationError], or nil.
// Paths start with the top-level index and follow JSON field names:
// "[1].components[0].custom_id", "[0].accessory.url".
//
// It checks: which types are usable in a message or a modal and where
// (V2-only types are refused in a legacy message; a Thumbnail only as a
// section accessory; a Text Input only inside a Label, or in the deprecated
// action row of one text input, which is accepted); at most 5 top-level
// action rows in a legacy message and 40 components in total in a V2 message
// (nested ones, accessories and label children included); action row content
// (1-5 buttons, or exactly one select, not mixed); section children (1-3
// text displays) and its required Button or Thumbnail accessory; container
// children (action rows, text displays, sections, media galleries,
// separators, files; at least one); label text (1-45), description (≤100)
// and child kind; every field bound of buttons, selects, options, default
// values, text inputs, media, files, separators, file uploads, radio and
// checkbox groups; unique custom_id and unique non-zero id across the whole
// tree, ids within 0..[MaxID].
//
// Where the spec is silent it also enforces: min_values ≤ max_values (with
// defaults), at least min_values options in a string select, no more default
// options than max_values, a label or emoji on every non-Premium button (the
// platform's rule), at most one default in a radio group, unique option
// values, a checkbox group's max_values ≤ its options, a non-empty unfurled
// media url, non-empty text display content, a non-empty action row or
// container, an emoji with an id or a name, unique default values. Fields the
// spec says are ignored (required on a select in a message, response-only
// media fields, a file's name and size) are not checked. An [*Unknown]
// component cannot be checked and is reported.
func Validate(target Target, components ...Component) error {
	v := &validator{target: target & targetMask, nonInteractive: target&NonInteractive != 0}
	if target&^(targetMask|NonInteractive) != 0 {
		v.errs.Add("", wire.CodeInvalid, "unknown target %s", target)
		return v.errs.Err()
	}
	switch v.target {
	case LegacyMessage, V2Message:
	case Modal:
		if v.nonInteractive {
			v.errs.Add("", wire.CodeInvalid, "NonInteractive applies to messages only, not to a modal")
			return v.errs.Err()
		}
	default:
		v.errs.Add("", wire.CodeInvalid, "unknown target %s", target)
		return v.errs.Err()
	}
	if v.target == LegacyMessage && len(components) > MaxLegacyRows {
		v.errs.Add("", wire.CodeLength, "a legacy message holds at most %d action rows, got %d", MaxLegacyRows, len(components))
	}
	for i, c := range components {
		v.component("["+strconv.Itoa(i)+"]", c, placeTop)
	}
	if v.target == V2Message && v.count > MaxV2Components {
		v.errs.Add("", wire.CodeLength, "a Components V2 message holds at most %d components in total, nested ones included, got %d", MaxV2Components, v.count)
	}
	return v.errs.Err()
}

type validator struct {
	target         Target
	nonInteractive bool
	errs           wire.ValidationError
	count          int
	customIDs      map[string]string // custom_id → path of its first use
	ids            map[int]string    // id → path of its first use
}

func (v *validator) add(path, code, format string, args ...any) {
	v.errs.Add(path, code, format, args...)
}

func isNil(c Component) bool {
	if c == nil {
		return true
	}
	rv := reflect.ValueOf(c)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}

// usableIn reports whether the spec's table lets t appear in the target at
// all (anywhere in the tree).
func (v *validator) usableIn(t Type) bool {
	switch t {
	case TypeStringSelect, TypeUserSelect, TypeRoleSelect, TypeMentionableSelect, TypeChannelSelect, TypeTextDisplay:
		return true
	case TypeActionRow:
		return true // in a modal only as the deprecated row of one text input
	case TypeButton, TypeSection, TypeThumbnail, TypeMediaGallery, TypeFile, TypeSeparator, TypeContainer:
		return v.target != Modal
	case TypeTextInput, TypeLabel, TypeFileUpload, TypeRadioGroup, TypeCheckboxGroup, TypeCheckbox:
		return v.target == Modal
	}
	return false
}

func v2Only(t Type) bool {
	switch t {
	case TypeSection, TypeTextDisplay, TypeThumbnail, TypeMediaGallery, TypeFile, TypeSeparator, TypeContainer:
		return true
	}
	return false
}

func interactive(c Component) bool {
	switch c := c.(type) {
	case *Button:
		return c.Style != ButtonLink
	case *StringSelect, *UserSelect, *RoleSelect, *MentionableSelect, *ChannelSelect,
		*TextInput, *FileUpload, *RadioGroup, *CheckboxGroup, *Checkbox:
		return true
	}
	return false
}

// allowedAt reports whether type t may sit at p in the target, and if not,
// why.
func (v *validator) allowedAt(t Type, p place) (bool, string) {
	switch p {
	case placeTop:
		switch v.target {
		case LegacyMessage:
			if t == TypeActionRow {
				return true, ""
			}
			if v2Only(t) {
				return false, fmt.Sprintf("a %s needs a Components V2 message (flag IS_COMPONENTS_V2); the top level of a legacy message holds only action rows", t)
			}
			return false, fmt.Sprintf("the top level of a legacy message holds only action rows; put the %s in an Action Row", t)
		case V2Message:
			switch t {
			case TypeActionRow, TypeSection, TypeTextDisplay, TypeMediaGallery, TypeFile, TypeSeparator, TypeContainer:
				return true, ""
			case TypeThumbnail:
				return false, "a Thumbnail is only allowed as a section accessory"
			}
			return false, fmt.Sprintf("a %s must be inside an Action Row", t)
		default:
			switch t {
			case TypeLabel, TypeTextDisplay, TypeActionRow:
				return true, ""
			}
			return false, fmt.Sprintf("a %s must be inside a Label in a modal", t)
		}
	case placeRow:
		if v.target == Modal {
			if t == TypeTextInput {
				return true, ""
			}
			return false, fmt.Sprintf("an action row in a modal (deprecated) holds only a Text Input, not a %s", t)
		}
		if t == TypeButton || t.IsSelect() {
			return true, ""
		}
		return false, fmt.Sprintf("an action row holds only buttons or a select, not a %s", t)
	case placeSectionChild:
		if t == TypeTextDisplay {
			return true, ""
		}
		return false, fmt.Sprintf("a section holds only Text Displays, not a %s", t)
	case placeAccessory:
		if t == TypeButton || t == TypeThumbnail {
			return true, ""
		}
		return false, fmt.Sprintf("a section accessory is a Button or a Thumbnail, not a %s", t)
	case placeContainer:
		switch t {
		case TypeActionRow, TypeTextDisplay, TypeSection, TypeMediaGallery, TypeSeparator, TypeFile:
			return true, ""
		}
		return false, fmt.Sprintf("a container holds action rows, text displays, sections, media galleries, separators and files, not a %s", t)
	case placeLabel:
		switch t {
		case TypeStringSelect, TypeTextInput, TypeUserSelect, TypeRoleSelect, TypeMentionableSelect,
			TypeChannelSelect, TypeFileUpload, TypeRadioGroup, TypeCheckboxGroup, TypeCheckbox:
			return true, ""
		}
		return false, fmt.Sprintf("a label holds a select, text input, file upload, radio group, checkbox group or checkbox, not a %s", t)
	}
	return false, "unexpected place"
}

func (v *validator) component(path string, c Component, p place) {
	if isNil(c) {
		v.add(path, wire.CodeRequired, "missing component (nil)")
		return
	}
	v.count++
	v.id(path, c.ComponentID())
	if u, ok := c.(*Unknown); ok {
		v.add(path, wire.CodeInvalid, "unknown component type %d cannot be validated", int(u.Type()))
		return
	}
	t := c.Type()
	if !v.usableIn(t) {
		where := "a message"
		if v.target == Modal {
			where = "a modal"
		}
		v.add(path, wire.CodePlacement, "a %s cannot be used in %s", t, where)
		return
	}
	if ok, why := v.allowedAt(t, p); !ok {
		v.add(path, wire.CodePlacement, "%s", why)
	}
	if v.nonInteractive && interactive(c) {
		v.add(path, wire.CodeNotAllowed, "a %s is interactive; a webhook not owned by an application may only send non-interactive components (and link buttons)", t)
	}
	switch c := c.(type) {
	case *ActionRow:
		v.actionRow(path, c)
	case *Button:
		v.button(path, c)
	case *StringSelect:
		v.stringSelect(path, c)
	case *UserSelect:
		minV, maxV := v.selectCommon(path, selectFields{c.CustomID, c.Placeholder, c.MinValues, c.MaxValues, c.Required, c.Disabled, c.kept})
		v.defaultValues(path, c.DefaultValues, minV, maxV, DefaultValueUser)
	case *RoleSelect:
		minV, maxV := v.selectCommon(path, selectFields{c.CustomID, c.Placeholder, c.MinValues, c.MaxValues, c.Required, c.Disabled, c.kept})
		v.defaultValues(path, c.DefaultValues, minV, maxV, DefaultValueRole)
	case *MentionableSelect:
		minV, maxV := v.selectCommon(path, selectFields{c.CustomID, c.Placeholder, c.MinValues, c.MaxValues, c.Required, c.Disabled, c.kept})
		v.defaultValues(path, c.DefaultValues, minV, maxV, DefaultValueUser, DefaultValueRole)
	case *ChannelSelect:
		minV, maxV := v.selectCommon(path, selectFields{c.CustomID, c.Placeholder, c.MinValues, c.MaxValues, c.Required, c.Disabled, c.kept})
		v.defaultValues(path, c.DefaultValues, minV, maxV, DefaultValueChannel)
		seen := make(map[ChannelType]bool, len(c.ChannelTypes))
		for i, t := range c.ChannelTypes {
			ip := path + ".channel_types[" + strconv.Itoa(i) + "]"
			switch {
			case !t.Known():
				v.add(ip, wire.CodeInvalid, "unknown channel type %d", int(t))
			case seen[t]:
				v.add(ip, wire.CodeDuplicate, "channel type %s is repeated", t)
			}
			seen[t] = true
		}
	case *TextInput:
		v.textInput(path, c, p)
	case *Section:
		v.section(path, c)
	case *TextDisplay:
		if c.Content == "" {
			v.add(path+".content", wire.CodeRequired, "content is required")
		}
	case *Thumbnail:
		v.media(path, c.Media)
		v.mediaDescription(path, c.Description)
	case *MediaGallery:
		v.gallery(path, c)
	case *File:
		v.file(path, c)
	case *Separator:
		if c.Divider.IsNull() {
			v.add(path+".divider", wire.CodeNotNull, "divider cannot be null")
		}
		if c.Spacing != 0 && c.Spacing != SpacingSmall && c.Spacing != SpacingLarge {
			v.add(path+".spacing", wire.CodeInvalid, "spacing must be 1 (small) or 2 (large), got %d", c.Spacing.value())
		}
	case *Container:
		v.container(path, c)
	case *Label:
		v.label(path, c)
	case *FileUpload:
		v.customID(path, c.CustomID)
		minV, maxV := v.minMax(path, c.MinValues, c.MaxValues, 0, MaxFileUploadValues, 1)
		if minV >= 0 && maxV >= 0 && minV > maxV {
			v.add(path+".min_values", wire.CodeRange, "min_values (%d) is greater than max_values (%d)", minV, maxV)
		}
		v.notNull(path, "required", c.Required.IsNull())
	case *RadioGroup:
		v.radioGroup(path, c)
	case *CheckboxGroup:
		v.checkboxGroup(path, c)
	case *Checkbox:
		v.customID(path, c.CustomID)
		if !c.Required.IsZero() {
			v.add(path+".required", wire.CodeNotAllowed, "a Checkbox cannot be marked required; use a one-option Checkbox Group instead")
		}
	}
}

func (v *validator) id(path string, id int) {
	if id == 0 {
		return
	}
	if id < 0 || id > MaxID {
		v.add(path+".id", wire.CodeRange, "id must be a 32-bit integer 0-%d, got %d", MaxID, id)
		return
	}
	if v.ids == nil {
		v.ids = make(map[int]string)
	}
	if first, dup := v.ids[id]; dup {
		v.add(path+".id", wire.CodeDuplicate, "id %d is already used at %s", id, first)
		return
	}
	v.ids[id] = path
}

func (v *validator) customID(path, id string) {
	if id == "" {
		v.add(path+".custom_id", wire.CodeRequired, "custom_id is required (1-%d characters)", MaxCustomIDLength)
		return
	}
	v.maxLen(path, "custom_id", id, MaxCustomIDLength)
	if v.customIDs == nil {
		v.customIDs = make(map[string]string)
	}
	if first, dup := v.customIDs[id]; dup {
		v.add(path+".custom_id", wire.CodeDuplicate, "custom_id %q is already used at %s", id, first)
		return
	}
	v.customIDs[id] = path
}

// maxLen reports a string longer than max characters at path.field.
func (v *validator) maxLen(path, field, s string, max int) {
	if len(s) <= max {
		return // fewer bytes than max means fewer characters
	}
	if n := utf8.RuneCountInString(s); n > max {
		v.add(path+"."+field, wire.CodeLength, "%s must be at most %d characters, got %d", field, max, n)
	}
}

// reqLen reports an empty string, or one longer than max characters, at
// path.field.
func (v *validator) reqLen(path, field, s string, max int) {
	if s == "" {
		v.add(path+"."+field, wire.CodeRequired, "%s is required (1-%d characters)", field, max)
		return
	}
	v.maxLen(path, field, s, max)
}

// notNull reports a null at path.field, a field that cannot be null.
func (v *validator) notNull(path, field string, isNull bool) {
	if isNull {
		v.add(path+"."+field, wire.CodeNotNull, "%s cannot be null", field)
	}
}

// minMax checks min_values (minLo..hi) and max_values (1..hi) and returns
// their effective values (defMax when max is omitted, 1 for an omitted min),
// or -1 for one that is invalid.
func (v *validator) minMax(path string, minO, maxO Opt[int], minLo, hi, defMax int) (int, int) {
	minV, maxV := 1, defMax
	if minO.IsNull() {
		v.add(path+".min_values", wire.CodeNotNull, "min_values cannot be null")
		minV = -1
	} else if m, ok := minO.Get(); ok {
		minV = m
		if m < minLo || m > hi {
			v.add(path+".min_values", wire.CodeRange, "min_values must be %d-%d, got %d", minLo, hi, m)
			minV = -1
		}
	}
	if maxO.IsNull() {
		v.add(path+".max_values", wire.CodeNotNull, "max_values cannot be null")
		maxV = -1
	} else if m, ok := maxO.Get(); ok {
		maxV = m
		if m < 1 || m > hi {
			v.add(path+".max_values", wire.CodeRange, "max_values must be 1-%d, got %d", hi, m)
			maxV = -1
		}
	}
	return minV, maxV
}

// emoji checks the partial emoji at path.emoji.
func (v *validator) emoji(path string, e *PartialEmoji) {
	if e != nil && e.ID == 0 && e.Name == "" {
		v.add(path+".emoji", wire.CodeRequired, "emoji needs an id or a name")
	}
}

func (v *validator) actionRow(path string, r *ActionRow) {
	cp := path + ".components"
	if v.target == Modal {
		if len(r.Components) != 1 {
			v.add(cp, wire.CodeLength, "an action row in a modal (deprecated) holds exactly one Text Input, got %d components", len(r.Components))
		}
	} else {
		var buttons, selects int
		for _, c := range r.Components {
			if isNil(c) {
				continue
			}
			switch t := c.Type(); {
			case t == TypeButton:
				buttons++
			case t.IsSelect():
				selects++
			}
		}
		switch {
		case len(r.Components) == 0:
			v.add(cp, wire.CodeRequired, "an action row holds 1-%d buttons or one select, got none", MaxRowButtons)
		case selects > 0 && buttons > 0:
			v.add(cp, wire.CodeConflict, "an action row holds buttons or one select, not both")
		case selects > 1:
			v.add(cp, wire.CodeLength, "an action row holds exactly one select, got %d", selects)
		case buttons > MaxRowButtons:
			v.add(cp, wire.CodeLength, "an action row holds at most %d buttons, got %d", MaxRowButtons, buttons)
		}
	}
	for i, c := range r.Components {
		v.component(cp+"["+strconv.Itoa(i)+"]", c, placeRow)
	}
}

func (v *validator) button(path string, b *Button) {
	if b.Style == 0 {
		v.add(path+".style", wire.CodeRequired, "style is required (1-6)")
	} else if b.Style < ButtonPrimary || b.Style > ButtonPremium {
		v.add(path+".style", wire.CodeInvalid, "style must be 1-6, got %d", int(b.Style))
	}
	v.maxLen(path, "label", b.Label, MaxButtonLabelLength)
	v.maxLen(path, "url", b.URL, MaxButtonURLLength)
	v.emoji(path, b.Emoji)
	s := b.Style
	switch {
	case s >= ButtonPrimary && s <= ButtonDanger:
		v.customID(path, b.CustomID)
		if b.URL != "" || b.kept.Has("url") {
			v.add(path+".url", wire.CodeConflict, "a %s button cannot have a url", s)
		}
		if b.SKUID != 0 || b.kept.Has("sku_id") {
			v.add(path+".sku_id", wire.CodeConflict, "a %s button cannot have a sku_id", s)
		}
	case s == ButtonLink:
		if b.URL == "" {
			v.add(path+".url", wire.CodeRequired, "a Link button needs a url (at most %d characters)", MaxButtonURLLength)
		}
		if b.CustomID != "" || b.kept.Has("custom_id") {
			v.add(path+".custom_id", wire.CodeConflict, "a Link button cannot have a custom_id")
		}
		if b.SKUID != 0 || b.kept.Has("sku_id") {
			v.add(path+".sku_id", wire.CodeConflict, "a Link button cannot have a sku_id")
		}
	case s == ButtonPremium:
		if b.SKUID == 0 {
			v.add(path+".sku_id", wire.CodeRequired, "a Premium button needs a sku_id")
		}
		if b.CustomID != "" || b.kept.Has("custom_id") {
			v.add(path+".custom_id", wire.CodeConflict, "a Premium button cannot have a custom_id")
		}
		if b.Label != "" || b.kept.Has("label") {
			v.add(path+".label", wire.CodeConflict, "a Premium button cannot have a label")
		}
		if b.URL != "" || b.kept.Has("url") {
			v.add(path+".url", wire.CodeConflict, "a Premium button cannot have a url")
		}
		if b.Emoji != nil || b.kept.Has("emoji") {
			v.add(path+".emoji", wire.CodeConflict, "a Premium button cannot have an emoji")
		}
	}
	if s >= ButtonPrimary && s <= ButtonLink && b.Label == "" && b.Emoji == nil {
		v.add(path+".label", wire.CodeRequired, "a %s button needs a label or an emoji", s)
	}
}

type selectFields struct {
	customID    string
	placeholder string
	min, max    Opt[int]
	required    Opt[bool]
	disabled    bool
	kept        kept
}

// selectCommon checks the fields every select shares and returns the
// effective min_values and max_values (-1 when invalid).
func (v *validator) selectCommon(path string, f selectFields) (int, int) {
	v.customID(path, f.customID)
	v.maxLen(path, "placeholder", f.placeholder, MaxPlaceholderLength)
	minV, maxV := v.minMax(path, f.min, f.max, 0, MaxSelectValues, 1)
	if minV >= 0 && maxV >= 0 && minV > maxV {
		v.add(path+".min_values", wire.CodeRange, "min_values (%d) is greater than max_values (%d)", minV, maxV)
	}
	v.notNull(path, "required", f.required.IsNull())
	if (f.disabled || f.kept.Has("disabled")) && v.target == Modal {
		v.add(path+".disabled", wire.CodeNotAllowed, "disabled cannot be used on a select in a modal")
	}
	return minV, maxV
}

// defaultValues checks the default values of a user, role, mentionable or
// channel select against the effective minV and maxV (-1 when invalid) and
// the allowed types. No default values at all is always fine.
func (v *validator) defaultValues(path string, dv []DefaultValue, minV, maxV int, allowed ...DefaultValueType) {
	if len(dv) == 0 {
		return
	}
	p := path + ".default_values"
	if minV >= 0 && maxV >= 0 && (len(dv) < minV || len(dv) > maxV) {
		v.add(p, wire.CodeLength, "the number of default values (%d) must lie between min_values (%d) and max_values (%d)", len(dv), minV, maxV)
	}
	seen := make(map[Snowflake]bool, len(dv))
	for i, d := range dv {
		ip := p + "[" + strconv.Itoa(i) + "]"
		if d.ID == 0 {
			v.add(ip+".id", wire.CodeRequired, "id is required")
		} else if seen[d.ID] {
			v.add(ip+".id", wire.CodeDuplicate, "default value %s is repeated", d.ID)
		}
		seen[d.ID] = true
		ok := false
		for _, a := range allowed {
			ok = ok || d.Type == a
		}
		if !ok {
			names := make([]string, len(allowed))
			for j, a := range allowed {
				names[j] = string(a)
			}
			v.add(ip+".type", wire.CodeInvalid, "type must be %s here, got %q", strings.Join(names, " or "), string(d.Type))
		}
	}
}

func (v *validator) stringSelect(path string, s *StringSelect) {
	minV, maxV := v.selectCommon(path, selectFields{s.CustomID, s.Placeholder, s.MinValues, s.MaxValues, s.Required, s.Disabled, s.kept})
	p := path + ".options"
	n := len(s.Options)
	switch {
	case n == 0:
		v.add(p, wire.CodeRequired, "a string select needs 1-%d options, got none", MaxSelectOptions)
	case n > MaxSelectOptions:
		v.add(p, wire.CodeLength, "a string select holds at most %d options, got %d", MaxSelectOptions, n)
	case minV > n:
		v.add(p, wire.CodeLength, "a string select needs at least min_values (%d) options, got %d", minV, n)
	}
	if mv, ok := s.MaxValues.Get(); ok && n > 0 && mv > n {
		v.add(path+".max_values", wire.CodeRange, "max_values (%d) is more than the %d options", mv, n)
	}
	seen := make(map[string]bool, n)
	defaults := 0
	for i, o := range s.Options {
		ip := p + "[" + strconv.Itoa(i) + "]"
		v.reqLen(ip, "label", o.Label, MaxOptionLength)
		v.reqLen(ip, "value", o.Value, MaxOptionLength)
		v.maxLen(ip, "description", o.Description, MaxOptionLength)
		v.emoji(ip, o.Emoji)
		if o.Value != "" && seen[o.Value] {
			v.add(ip+".value", wire.CodeDuplicate, "option value %q is repeated", o.Value)
		}
		seen[o.Value] = true
		if o.Default {
			defaults++
		}
	}
	if maxV >= 0 && defaults > maxV {
		v.add(p, wire.CodeLength, "%d options are default, more than max_values (%d)", defaults, maxV)
	}
}

func (v *validator) textInput(path string, t *TextInput, p place) {
	v.customID(path, t.CustomID)
	if t.Style == 0 {
		v.add(path+".style", wire.CodeRequired, "style is required (1 Short or 2 Paragraph)")
	} else if t.Style != TextInputShort && t.Style != TextInputParagraph {
		v.add(path+".style", wire.CodeInvalid, "style must be 1 (Short) or 2 (Paragraph), got %d", int(t.Style))
	}
	minV, maxV := -1, -1
	if t.MinLength.IsNull() {
		v.add(path+".min_length", wire.CodeNotNull, "min_length cannot be null")
	} else if m, ok := t.MinLength.Get(); ok {
		if m < 0 || m > MaxTextInputLength {
			v.add(path+".min_length", wire.CodeRange, "min_length must be 0-%d, got %d", MaxTextInputLength, m)
		} else {
			minV = m
		}
	}
	if t.MaxLength.IsNull() {
		v.add(path+".max_length", wire.CodeNotNull, "max_length cannot be null")
	} else if m, ok := t.MaxLength.Get(); ok {
		if m < 1 || m > MaxTextInputLength {
			v.add(path+".max_length", wire.CodeRange, "max_length must be 1-%d, got %d", MaxTextInputLength, m)
		} else {
			maxV = m
		}
	}
	if minV >= 0 && maxV >= 0 && minV > maxV {
		v.add(path+".min_length", wire.CodeRange, "min_length (%d) is greater than max_length (%d)", minV, maxV)
	}
	if n := utf8.RuneCountInString(t.Value); n > MaxTextInputLength {
		v.add(path+".value", wire.CodeLength, "value must be at most %d characters, got %d", MaxTextInputLength, n)
	} else if n > 0 {
		if minV >= 0 && n < minV {
			v.add(path+".value", wire.CodeLength, "value is shorter than min_length (%d): %d characters", minV, n)
		}
		if maxV >= 0 && n > maxV {
			v.add(path+".value", wire.CodeLength, "value is longer than max_length (%d): %d characters", maxV, n)
		}
	}
	v.maxLen(path, "placeholder", t.Placeholder, MaxTextPlaceholder)
	v.notNull(path, "required", t.Required.IsNull())
	switch p {
	case placeLabel:
		if t.Label != "" || t.kept.Has("label") {
			v.add(path+".label", wire.CodeConflict, "a Text Input inside a Label cannot have its own (deprecated) label; use the Label's label and description")
		}
	case placeRow:
		v.reqLen(path, "label", t.Label, maxTextInputLabelSize)
	default:
		v.maxLen(path, "label", t.Label, maxTextInputLabelSize)
	}
}

func (v *validator) section(path string, s *Section) {
	cp := path + ".components"
	if n := len(s.Components); n < 1 || n > MaxSectionChildren {
		v.add(cp, wire.CodeLength, "a section holds 1-%d components, got %d", MaxSectionChildren, n)
	}
	for i, c := range s.Components {
		v.component(cp+"["+strconv.Itoa(i)+"]", c, placeSectionChild)
	}
	if isNil(s.Accessory) {
		v.add(path+".accessory", wire.CodeRequired, "a section needs an accessory (a Button or a Thumbnail)")
		return
	}
	v.component(path+".accessory", s.Accessory, placeAccessory)
}

// media checks the unfurled media item at path.media.
func (v *validator) media(path string, m UnfurledMediaItem) {
	if m.URL == "" {
		v.add(path+".media.url", wire.CodeRequired, "url is required")
	}
}

// mediaDescription checks path.description (nullable, at most 1024).
func (v *validator) mediaDescription(path string, d Opt[string]) {
	if s, ok := d.Get(); ok {
		v.maxLen(path, "description", s, MaxMediaDescription)
	}
}

func (v *validator) gallery(path string, g *MediaGallery) {
	p := path + ".items"
	if n := len(g.Items); n < 1 || n > MaxGalleryItems {
		v.add(p, wire.CodeLength, "a media gallery holds 1-%d items, got %d", MaxGalleryItems, n)
	}
	for i, it := range g.Items {
		ip := p + "[" + strconv.Itoa(i) + "]"
		v.media(ip, it.Media)
		v.mediaDescription(ip, it.Description)
	}
}

func (v *validator) file(path string, f *File) {
	p := path + ".file.url"
	switch u := f.File.URL; {
	case u == "":
		v.add(p, wire.CodeRequired, "url is required (attachment://<filename>)")
	case !strings.HasPrefix(u, attachmentScheme) || len(u) == len(attachmentScheme):
		v.add(p, wire.CodeInvalid, "a File component only takes attachment://<filename> references, got %q", u)
	}
}

func (v *validator) container(path string, c *Container) {
	if col, ok := c.AccentColor.Get(); ok && (col < 0 || col > MaxAccentColor) {
		v.add(path+".accent_color", wire.CodeRange, "accent_color must be an RGB colour 0x000000-0xFFFFFF, got %#x", col)
	}
	cp := path + ".components"
	if len(c.Components) == 0 {
		v.add(cp, wire.CodeRequired, "a container needs at least one component")
	}
	for i, ch := range c.Components {
		v.component(cp+"["+strconv.Itoa(i)+"]", ch, placeContainer)
	}
}

func (v *validator) label(path string, l *Label) {
	v.reqLen(path, "label", l.Label, MaxLabelLength)
	v.maxLen(path, "description", l.Description, MaxLabelDescription)
	if isNil(l.Component) {
		v.add(path+".component", wire.CodeRequired, "a label needs one component")
		return
	}
	v.component(path+".component", l.Component, placeLabel)
}

// groupOptions checks radio or checkbox options and returns how many are
// default.
func (v *validator) groupOptions(p string, opts []RadioOption, radio bool) int {
	seen := make(map[string]bool, len(opts))
	defaults := 0
	for i, o := range opts {
		ip := p + "[" + strconv.Itoa(i) + "]"
		v.reqLen(ip, "value", o.Value, MaxOptionLength)
		v.reqLen(ip, "label", o.Label, MaxOptionLength)
		v.maxLen(ip, "description", o.Description, MaxOptionLength)
		if o.Value != "" && seen[o.Value] {
			v.add(ip+".value", wire.CodeDuplicate, "option value %q is repeated", o.Value)
		}
		seen[o.Value] = true
		if o.Default {
			defaults++
			if radio && defaults > 1 {
				v.add(ip+".default", wire.CodeConflict, "a radio group has at most one default option")
			}
		}
	}
	return defaults
}

func (v *validator) radioGroup(path string, r *RadioGroup) {
	v.customID(path, r.CustomID)
	p := path + ".options"
	if n := len(r.Options); n < MinRadioOptions || n > MaxRadioOptions {
		v.add(p, wire.CodeLength, "a radio group holds %d-%d options, got %d", MinRadioOptions, MaxRadioOptions, n)
	}
	v.groupOptions(p, r.Options, true)
	v.notNull(path, "required", r.Required.IsNull())
}

func (v *validator) checkboxGroup(path string, g *CheckboxGroup) {
	v.customID(path, g.CustomID)
	p := path + ".options"
	n := len(g.Options)
	if n < 1 || n > MaxCheckboxOptions {
		v.add(p, wire.CodeLength, "a checkbox group holds 1-%d options, got %d", MaxCheckboxOptions, n)
	}
	defaults := v.groupOptions(p, g.Options, false)
	minV, maxV := v.minMax(path, g.MinValues, g.MaxValues, 0, MaxCheckboxOptions, n)
	if m, ok := g.MinValues.Get(); ok && m == 0 {
		if req, set := g.Required.Get(); !set || req {
			v.add(path+".min_values", wire.CodeConflict, "min_values 0 requires required set to false")
		}
	}
	if m, ok := g.MaxValues.Get(); ok && maxV >= 0 && n > 0 && m > n {
		v.add(path+".max_values", wire.CodeRange, "max_values (%d) is greater than the number of options (%d)", m, n)
		maxV = -1
	}
	switch {
	case n == 0:
		// The options problem is already reported.
	case minV >= 0 && maxV >= 0 && minV > maxV:
		v.add(path+".min_values", wire.CodeRange, "min_values (%d) is greater than max_values (%d)", minV, maxV)
	case minV > n:
		v.add(path+".min_values", wire.CodeRange, "min_values (%d) is greater than the number of options (%d)", minV, n)
	}
	if maxV >= 0 && defaults > maxV {
		v.add(p, wire.CodeLength, "%d options are default, more than max_values (%d)", defaults, maxV)
	}
	v.notNull(path, "required", g.Required.IsNull())
}
