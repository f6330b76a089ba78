package components

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"slices"
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
	v := newValidator(target)
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
		n := v.enter("", i)
		v.component(c, placeTop)
		v.leave(n)
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
	// path is the path of the component or object being checked; a
	// problem's path is made from it only when the problem is reported.
	path []byte
	// ids and customIDs are the ids and custom_ids met so far, with the
	// path of their first use kept in firstUses; small trees need no
	// allocation beyond the validator itself.
	ids       []use[int]
	customIDs []use[string]
	firstUses []byte
	arrays    struct {
		path      [128]byte
		ids       [48]use[int]
		customIDs [48]use[string]
		firstUses [1536]byte
	}
}

// use is an id or custom_id met, with where the path of its first use is
// kept in firstUses.
type use[T comparable] struct {
	id         T
	start, end int
}

func newValidator(target Target) *validator {
	v := &validator{target: target & targetMask, nonInteractive: target&NonInteractive != 0}
	v.path = v.arrays.path[:0]
	v.ids = v.arrays.ids[:0]
	v.customIDs = v.arrays.customIDs[:0]
	v.firstUses = v.arrays.firstUses[:0]
	return v
}

// add reports a problem at the current path followed by suffix
// (".custom_id", "[2]", or "" for the current component itself).
func (v *validator) add(suffix, code, format string, args ...any) {
	v.errs.Add(string(v.path)+suffix, code, format, args...)
}

// enter appends name and, when i >= 0, "[i]" to the current path and returns
// the length to give [validator.leave] to go back.
func (v *validator) enter(name string, i int) int {
	n := len(v.path)
	v.path = append(v.path, name...)
	if i >= 0 {
		v.path = append(v.path, '[')
		v.path = strconv.AppendInt(v.path, int64(i), 10)
		v.path = append(v.path, ']')
	}
	return n
}

func (v *validator) leave(n int) { v.path = v.path[:n] }

// keepPath stores the current path as a first use and returns where. A
// component's id and custom_id share one copy.
func (v *validator) keepPath() (start, end int) {
	if n := len(v.path); n <= len(v.firstUses) && bytes.Equal(v.firstUses[len(v.firstUses)-n:], v.path) {
		return len(v.firstUses) - n, len(v.firstUses)
	}
	start = len(v.firstUses)
	v.firstUses = append(v.firstUses, v.path...)
	return start, len(v.firstUses)
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

func (v *validator) component(c Component, p place) {
	if isNil(c) {
		v.add("", wire.CodeRequired, "missing component (nil)")
		return
	}
	v.count++
	v.id(c.ComponentID())
	if u, ok := c.(*Unknown); ok {
		v.add("", wire.CodeInvalid, "unknown component type %d cannot be validated", int(u.Type()))
		return
	}
	t := c.Type()
	if !v.usableIn(t) {
		where := "a message"
		if v.target == Modal {
			where = "a modal"
		}
		v.add("", wire.CodePlacement, "a %s cannot be used in %s", t, where)
		return
	}
	if ok, why := v.allowedAt(t, p); !ok {
		v.add("", wire.CodePlacement, "%s", why)
	}
	if v.nonInteractive && interactive(c) {
		v.add("", wire.CodeNotAllowed, "a %s is interactive; a webhook not owned by an application may only send non-interactive components (and link buttons)", t)
	}
	switch c := c.(type) {
	case *ActionRow:
		v.actionRow(c)
	case *Button:
		v.button(c)
	case *StringSelect:
		v.stringSelect(c)
	case *UserSelect:
		minV, maxV := v.selectCommon(selectFields{c.CustomID, c.Placeholder, c.MinValues, c.MaxValues, c.Required, c.Disabled, c.kept})
		v.defaultValues(c.DefaultValues, minV, maxV, DefaultValueUser)
	case *RoleSelect:
		minV, maxV := v.selectCommon(selectFields{c.CustomID, c.Placeholder, c.MinValues, c.MaxValues, c.Required, c.Disabled, c.kept})
		v.defaultValues(c.DefaultValues, minV, maxV, DefaultValueRole)
	case *MentionableSelect:
		minV, maxV := v.selectCommon(selectFields{c.CustomID, c.Placeholder, c.MinValues, c.MaxValues, c.Required, c.Disabled, c.kept})
		v.defaultValues(c.DefaultValues, minV, maxV, DefaultValueUser, DefaultValueRole)
	case *ChannelSelect:
		minV, maxV := v.selectCommon(selectFields{c.CustomID, c.Placeholder, c.MinValues, c.MaxValues, c.Required, c.Disabled, c.kept})
		v.defaultValues(c.DefaultValues, minV, maxV, DefaultValueChannel)
		for i, t := range c.ChannelTypes {
			switch {
			case !t.Known():
				v.add(".channel_types["+strconv.Itoa(i)+"]", wire.CodeInvalid, "unknown channel type %d", int(t))
			case slices.Contains(c.ChannelTypes[:i], t):
				v.add(".channel_types["+strconv.Itoa(i)+"]", wire.CodeDuplicate, "channel type %s is repeated", t)
			}
		}
	case *TextInput:
		v.textInput(c, p)
	case *Section:
		v.section(c)
	case *TextDisplay:
		if c.Content == "" {
			v.add(".content", wire.CodeRequired, "content is required")
		}
	case *Thumbnail:
		v.media(c.Media)
		v.mediaDescription(c.Description)
	case *MediaGallery:
		v.gallery(c)
	case *File:
		v.file(c)
	case *Separator:
		if c.Divider.IsNull() {
			v.add(".divider", wire.CodeNotNull, "divider cannot be null")
		}
		if c.Spacing != 0 && c.Spacing != SpacingSmall && c.Spacing != SpacingLarge {
			v.add(".spacing", wire.CodeInvalid, "spacing must be 1 (small) or 2 (large), got %d", c.Spacing.value())
		}
	case *Container:
		v.container(c)
	case *Label:
		v.label(c)
	case *FileUpload:
		v.customID(c.CustomID)
		minV, maxV := v.minMax(c.MinValues, c.MaxValues, 0, MaxFileUploadValues, 1)
		if minV >= 0 && maxV >= 0 && minV > maxV {
			v.add(".min_values", wire.CodeRange, "min_values (%d) is greater than max_values (%d)", minV, maxV)
		}
		v.notNull("required", c.Required.IsNull())
	case *RadioGroup:
		v.radioGroup(c)
	case *CheckboxGroup:
		v.checkboxGroup(c)
	case *Checkbox:
		v.customID(c.CustomID)
		if !c.Required.IsZero() {
			v.add(".required", wire.CodeNotAllowed, "a Checkbox cannot be marked required; use a one-option Checkbox Group instead")
		}
	}
}

func (v *validator) id(id int) {
	if id == 0 {
		return
	}
	if id < 0 || id > MaxID {
		v.add(".id", wire.CodeRange, "id must be a 32-bit integer 0-%d, got %d", MaxID, id)
		return
	}
	if first, dup := firstUseOf(v, &v.ids, id); dup {
		v.add(".id", wire.CodeDuplicate, "id %d is already used at %s", id, first)
	}
}

func (v *validator) customID(id string) {
	if id == "" {
		v.add(".custom_id", wire.CodeRequired, "custom_id is required (1-%d characters)", MaxCustomIDLength)
		return
	}
	v.maxLen("custom_id", id, MaxCustomIDLength)
	if first, dup := firstUseOf(v, &v.customIDs, id); dup {
		v.add(".custom_id", wire.CodeDuplicate, "custom_id %q is already used at %s", id, first)
	}
}

// firstUseOf returns the path of id's first use when id was met before, or
// records the current path as its first use.
func firstUseOf[T comparable](v *validator, uses *[]use[T], id T) (first []byte, dup bool) {
	for _, u := range *uses {
		if u.id == id {
			return v.firstUses[u.start:u.end], true
		}
	}
	start, end := v.keepPath()
	*uses = append(*uses, use[T]{id, start, end})
	return nil, false
}

// maxLen reports a string longer than max characters at the current path's
// field.
func (v *validator) maxLen(field, s string, max int) {
	if len(s) <= max {
		return // fewer bytes than max means fewer characters
	}
	if n := utf8.RuneCountInString(s); n > max {
		v.add("."+field, wire.CodeLength, "%s must be at most %d characters, got %d", field, max, n)
	}
}

// reqLen reports an empty string, or one longer than max characters, at
// the current path's field.
func (v *validator) reqLen(field, s string, max int) {
	if s == "" {
		v.add("."+field, wire.CodeRequired, "%s is required (1-%d characters)", field, max)
		return
	}
	v.maxLen(field, s, max)
}

// notNull reports a null in field, one that cannot be null.
func (v *validator) notNull(field string, isNull bool) {
	if isNull {
		v.add("."+field, wire.CodeNotNull, "%s cannot be null", field)
	}
}

// minMax checks min_values (minLo..hi) and max_values (1..hi) and returns
// their effective values (defMax when max is omitted, 1 for an omitted min),
// or -1 for one that is invalid.
func (v *validator) minMax(minO, maxO Opt[int], minLo, hi, defMax int) (int, int) {
	minV, maxV := 1, defMax
	if minO.IsNull() {
		v.add(".min_values", wire.CodeNotNull, "min_values cannot be null")
		minV = -1
	} else if m, ok := minO.Get(); ok {
		minV = m
		if m < minLo || m > hi {
			v.add(".min_values", wire.CodeRange, "min_values must be %d-%d, got %d", minLo, hi, m)
			minV = -1
		}
	}
	if maxO.IsNull() {
		v.add(".max_values", wire.CodeNotNull, "max_values cannot be null")
		maxV = -1
	} else if m, ok := maxO.Get(); ok {
		maxV = m
		if m < 1 || m > hi {
			v.add(".max_values", wire.CodeRange, "max_values must be 1-%d, got %d", hi, m)
			maxV = -1
		}
	}
	return minV, maxV
}

// emoji checks the partial emoji of the current component or option.
func (v *validator) emoji(e *PartialEmoji) {
	if e != nil && e.ID == 0 && e.Name == "" {
		v.add(".emoji", wire.CodeRequired, "emoji needs an id or a name")
	}
}

func (v *validator) actionRow(r *ActionRow) {
	const cp = ".components"
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
		n := v.enter(cp, i)
		v.component(c, placeRow)
		v.leave(n)
	}
}

func (v *validator) button(b *Button) {
	if b.Style == 0 {
		v.add(".style", wire.CodeRequired, "style is required (1-6)")
	} else if b.Style < ButtonPrimary || b.Style > ButtonPremium {
		v.add(".style", wire.CodeInvalid, "style must be 1-6, got %d", int(b.Style))
	}
	v.maxLen("label", b.Label, MaxButtonLabelLength)
	v.maxLen("url", b.URL, MaxButtonURLLength)
	v.emoji(b.Emoji)
	s := b.Style
	switch {
	case s >= ButtonPrimary && s <= ButtonDanger:
		v.customID(b.CustomID)
		if b.URL != "" || b.kept.Has("url") {
			v.add(".url", wire.CodeConflict, "a %s button cannot have a url", s)
		}
		if b.SKUID != 0 || b.kept.Has("sku_id") {
			v.add(".sku_id", wire.CodeConflict, "a %s button cannot have a sku_id", s)
		}
	case s == ButtonLink:
		if b.URL == "" {
			v.add(".url", wire.CodeRequired, "a Link button needs a url (at most %d characters)", MaxButtonURLLength)
		}
		if b.CustomID != "" || b.kept.Has("custom_id") {
			v.add(".custom_id", wire.CodeConflict, "a Link button cannot have a custom_id")
		}
		if b.SKUID != 0 || b.kept.Has("sku_id") {
			v.add(".sku_id", wire.CodeConflict, "a Link button cannot have a sku_id")
		}
	case s == ButtonPremium:
		if b.SKUID == 0 {
			v.add(".sku_id", wire.CodeRequired, "a Premium button needs a sku_id")
		}
		if b.CustomID != "" || b.kept.Has("custom_id") {
			v.add(".custom_id", wire.CodeConflict, "a Premium button cannot have a custom_id")
		}
		if b.Label != "" || b.kept.Has("label") {
			v.add(".label", wire.CodeConflict, "a Premium button cannot have a label")
		}
		if b.URL != "" || b.kept.Has("url") {
			v.add(".url", wire.CodeConflict, "a Premium button cannot have a url")
		}
		if b.Emoji != nil || b.kept.Has("emoji") {
			v.add(".emoji", wire.CodeConflict, "a Premium button cannot have an emoji")
		}
	}
	if s >= ButtonPrimary && s <= ButtonLink && b.Label == "" && b.Emoji == nil {
		v.add(".label", wire.CodeRequired, "a %s button needs a label or an emoji", s)
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
func (v *validator) selectCommon(f selectFields) (int, int) {
	v.customID(f.customID)
	v.maxLen("placeholder", f.placeholder, MaxPlaceholderLength)
	minV, maxV := v.minMax(f.min, f.max, 0, MaxSelectValues, 1)
	if minV >= 0 && maxV >= 0 && minV > maxV {
		v.add(".min_values", wire.CodeRange, "min_values (%d) is greater than max_values (%d)", minV, maxV)
	}
	v.notNull("required", f.required.IsNull())
	if (f.disabled || f.kept.Has("disabled")) && v.target == Modal {
		v.add(".disabled", wire.CodeNotAllowed, "disabled cannot be used on a select in a modal")
	}
	return minV, maxV
}

// defaultValues checks the default values of a user, role, mentionable or
// channel select against the effective minV and maxV (-1 when invalid) and
// the allowed types. No default values at all is always fine.
func (v *validator) defaultValues(dv []DefaultValue, minV, maxV int, allowed ...DefaultValueType) {
	if len(dv) == 0 {
		return
	}
	const p = ".default_values"
	if minV >= 0 && maxV >= 0 && (len(dv) < minV || len(dv) > maxV) {
		v.add(p, wire.CodeLength, "the number of default values (%d) must lie between min_values (%d) and max_values (%d)", len(dv), minV, maxV)
	}
	for i, d := range dv {
		n := v.enter(p, i)
		if d.ID == 0 {
			v.add(".id", wire.CodeRequired, "id is required")
		} else if slices.ContainsFunc(dv[:i], func(e DefaultValue) bool { return e.ID == d.ID }) {
			v.add(".id", wire.CodeDuplicate, "default value %s is repeated", d.ID)
		}
		ok := false
		for _, a := range allowed {
			ok = ok || d.Type == a
		}
		if !ok {
			names := make([]string, len(allowed))
			for j, a := range allowed {
				names[j] = string(a)
			}
			v.add(".type", wire.CodeInvalid, "type must be %s here, got %q", strings.Join(names, " or "), string(d.Type))
		}
		v.leave(n)
	}
}

func (v *validator) stringSelect(s *StringSelect) {
	minV, maxV := v.selectCommon(selectFields{s.CustomID, s.Placeholder, s.MinValues, s.MaxValues, s.Required, s.Disabled, s.kept})
	const p = ".options"
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
		v.add(".max_values", wire.CodeRange, "max_values (%d) is more than the %d options", mv, n)
	}
	defaults := 0
	for i, o := range s.Options {
		m := v.enter(p, i)
		v.reqLen("label", o.Label, MaxOptionLength)
		v.reqLen("value", o.Value, MaxOptionLength)
		v.maxLen("description", o.Description, MaxOptionLength)
		v.emoji(o.Emoji)
		if o.Value != "" && slices.ContainsFunc(s.Options[:i], func(e SelectOption) bool { return e.Value == o.Value }) {
			v.add(".value", wire.CodeDuplicate, "option value %q is repeated", o.Value)
		}
		if o.Default {
			defaults++
		}
		v.leave(m)
	}
	if maxV >= 0 && defaults > maxV {
		v.add(p, wire.CodeLength, "%d options are default, more than max_values (%d)", defaults, maxV)
	}
}

func (v *validator) textInput(t *TextInput, p place) {
	v.customID(t.CustomID)
	if t.Style == 0 {
		v.add(".style", wire.CodeRequired, "style is required (1 Short or 2 Paragraph)")
	} else if t.Style != TextInputShort && t.Style != TextInputParagraph {
		v.add(".style", wire.CodeInvalid, "style must be 1 (Short) or 2 (Paragraph), got %d", int(t.Style))
	}
	minV, maxV := -1, -1
	if t.MinLength.IsNull() {
		v.add(".min_length", wire.CodeNotNull, "min_length cannot be null")
	} else if m, ok := t.MinLength.Get(); ok {
		if m < 0 || m > MaxTextInputLength {
			v.add(".min_length", wire.CodeRange, "min_length must be 0-%d, got %d", MaxTextInputLength, m)
		} else {
			minV = m
		}
	}
	if t.MaxLength.IsNull() {
		v.add(".max_length", wire.CodeNotNull, "max_length cannot be null")
	} else if m, ok := t.MaxLength.Get(); ok {
		if m < 1 || m > MaxTextInputLength {
			v.add(".max_length", wire.CodeRange, "max_length must be 1-%d, got %d", MaxTextInputLength, m)
		} else {
			maxV = m
		}
	}
	if minV >= 0 && maxV >= 0 && minV > maxV {
		v.add(".min_length", wire.CodeRange, "min_length (%d) is greater than max_length (%d)", minV, maxV)
	}
	if n := utf8.RuneCountInString(t.Value); n > MaxTextInputLength {
		v.add(".value", wire.CodeLength, "value must be at most %d characters, got %d", MaxTextInputLength, n)
	} else if n > 0 {
		if minV >= 0 && n < minV {
			v.add(".value", wire.CodeLength, "value is shorter than min_length (%d): %d characters", minV, n)
		}
		if maxV >= 0 && n > maxV {
			v.add(".value", wire.CodeLength, "value is longer than max_length (%d): %d characters", maxV, n)
		}
	}
	v.maxLen("placeholder", t.Placeholder, MaxTextPlaceholder)
	v.notNull("required", t.Required.IsNull())
	switch p {
	case placeLabel:
		if t.Label != "" || t.kept.Has("label") {
			v.add(".label", wire.CodeConflict, "a Text Input inside a Label cannot have its own (deprecated) label; use the Label's label and description")
		}
	case placeRow:
		v.reqLen("label", t.Label, maxTextInputLabelSize)
	default:
		v.maxLen("label", t.Label, maxTextInputLabelSize)
	}
}

func (v *validator) section(s *Section) {
	const cp = ".components"
	if n := len(s.Components); n < 1 || n > MaxSectionChildren {
		v.add(cp, wire.CodeLength, "a section holds 1-%d components, got %d", MaxSectionChildren, n)
	}
	for i, c := range s.Components {
		n := v.enter(cp, i)
		v.component(c, placeSectionChild)
		v.leave(n)
	}
	if isNil(s.Accessory) {
		v.add(".accessory", wire.CodeRequired, "a section needs an accessory (a Button or a Thumbnail)")
		return
	}
	n := v.enter(".accessory", -1)
	v.component(s.Accessory, placeAccessory)
	v.leave(n)
}

// media checks the unfurled media item in the current object's media.
func (v *validator) media(m UnfurledMediaItem) {
	if m.URL == "" {
		v.add(".media.url", wire.CodeRequired, "url is required")
	}
}

// mediaDescription checks the current object's description (nullable, at
// most 1024).
func (v *validator) mediaDescription(d Opt[string]) {
	if s, ok := d.Get(); ok {
		v.maxLen("description", s, MaxMediaDescription)
	}
}

func (v *validator) gallery(g *MediaGallery) {
	const p = ".items"
	if n := len(g.Items); n < 1 || n > MaxGalleryItems {
		v.add(p, wire.CodeLength, "a media gallery holds 1-%d items, got %d", MaxGalleryItems, n)
	}
	for i, it := range g.Items {
		n := v.enter(p, i)
		v.media(it.Media)
		v.mediaDescription(it.Description)
		v.leave(n)
	}
}

func (v *validator) file(f *File) {
	const p = ".file.url"
	switch u := f.File.URL; {
	case u == "":
		v.add(p, wire.CodeRequired, "url is required (attachment://<filename>)")
	case !strings.HasPrefix(u, attachmentScheme) || len(u) == len(attachmentScheme):
		v.add(p, wire.CodeInvalid, "a File component only takes attachment://<filename> references, got %q", u)
	}
}

func (v *validator) container(c *Container) {
	if col, ok := c.AccentColor.Get(); ok && (col < 0 || col > MaxAccentColor) {
		v.add(".accent_color", wire.CodeRange, "accent_color must be an RGB colour 0x000000-0xFFFFFF, got %#x", col)
	}
	const cp = ".components"
	if len(c.Components) == 0 {
		v.add(cp, wire.CodeRequired, "a container needs at least one component")
	}
	for i, ch := range c.Components {
		n := v.enter(cp, i)
		v.component(ch, placeContainer)
		v.leave(n)
	}
}

func (v *validator) label(l *Label) {
	v.reqLen("label", l.Label, MaxLabelLength)
	v.maxLen("description", l.Description, MaxLabelDescription)
	if isNil(l.Component) {
		v.add(".component", wire.CodeRequired, "a label needs one component")
		return
	}
	n := v.enter(".component", -1)
	v.component(l.Component, placeLabel)
	v.leave(n)
}

// groupOptions checks radio or checkbox options and returns how many are
// default.
func (v *validator) groupOptions(opts []RadioOption, radio bool) int {
	defaults := 0
	for i, o := range opts {
		n := v.enter(".options", i)
		v.reqLen("value", o.Value, MaxOptionLength)
		v.reqLen("label", o.Label, MaxOptionLength)
		v.maxLen("description", o.Description, MaxOptionLength)
		if o.Value != "" && slices.ContainsFunc(opts[:i], func(e RadioOption) bool { return e.Value == o.Value }) {
			v.add(".value", wire.CodeDuplicate, "option value %q is repeated", o.Value)
		}
		if o.Default {
			defaults++
			if radio && defaults > 1 {
				v.add(".default", wire.CodeConflict, "a radio group has at most one default option")
			}
		}
		v.leave(n)
	}
	return defaults
}

func (v *validator) radioGroup(r *RadioGroup) {
	v.customID(r.CustomID)
	const p = ".options"
	if n := len(r.Options); n < MinRadioOptions || n > MaxRadioOptions {
		v.add(p, wire.CodeLength, "a radio group holds %d-%d options, got %d", MinRadioOptions, MaxRadioOptions, n)
	}
	v.groupOptions(r.Options, true)
	v.notNull("required", r.Required.IsNull())
}

func (v *validator) checkboxGroup(g *CheckboxGroup) {
	v.customID(g.CustomID)
	const p = ".options"
	n := len(g.Options)
	if n < 1 || n > MaxCheckboxOptions {
		v.add(p, wire.CodeLength, "a checkbox group holds 1-%d options, got %d", MaxCheckboxOptions, n)
	}
	defaults := v.groupOptions(g.Options, false)
	minV, maxV := v.minMax(g.MinValues, g.MaxValues, 0, MaxCheckboxOptions, n)
	if m, ok := g.MinValues.Get(); ok && m == 0 {
		if req, set := g.Required.Get(); !set || req {
			v.add(".min_values", wire.CodeConflict, "min_values 0 requires required set to false")
		}
	}
	if m, ok := g.MaxValues.Get(); ok && maxV >= 0 && n > 0 && m > n {
		v.add(".max_values", wire.CodeRange, "max_values (%d) is greater than the number of options (%d)", m, n)
		maxV = -1
	}
	switch {
	case n == 0:
		// The options problem is already reported.
	case minV >= 0 && maxV >= 0 && minV > maxV:
		v.add(".min_values", wire.CodeRange, "min_values (%d) is greater than max_values (%d)", minV, maxV)
	case minV > n:
		v.add(".min_values", wire.CodeRange, "min_values (%d) is greater than the number of options (%d)", minV, n)
	}
	if maxV >= 0 && defaults > maxV {
		v.add(p, wire.CodeLength, "%d options are default, more than max_values (%d)", defaults, maxV)
	}
	v.notNull("required", g.Required.IsNull())
}
