package components

// CustomID returns c's custom_id: a button's, a select's, a text input's,
// a file upload's, a radio group's, a checkbox group's or a checkbox's; ""
// for a component that has none.
func CustomID(c Component) string {
	switch c := c.(type) {
	case *Button:
		return c.CustomID
	case *StringSelect:
		return c.CustomID
	case *UserSelect:
		return c.CustomID
	case *RoleSelect:
		return c.CustomID
	case *MentionableSelect:
		return c.CustomID
	case *ChannelSelect:
		return c.CustomID
	case *TextInput:
		return c.CustomID
	case *FileUpload:
		return c.CustomID
	case *RadioGroup:
		return c.CustomID
	case *CheckboxGroup:
		return c.CustomID
	case *Checkbox:
		return c.CustomID
	}
	return ""
}

// Find returns the first component of the trees, depth-first, whose
// custom_id is customID, or nil:
//
//	sel, _ := components.Find(msg.Components, "colour").(*components.StringSelect)
func Find(list []Component, customID string) Component {
	if customID == "" {
		return nil
	}
	return first(list, func(c Component) bool { return CustomID(c) == customID })
}

// FindLabel returns the first component of the trees, depth-first, that
// label names, or nil: a button whose label is label, or the component a
// [Label] of that text holds (a modal's field).
func FindLabel(list []Component, label string) Component {
	found := first(list, func(c Component) bool {
		switch c := c.(type) {
		case *Button:
			return c.Label == label
		case *Label:
			return c.Label == label && !isNil(c.Component)
		}
		return false
	})
	if l, ok := found.(*Label); ok {
		return l.Component
	}
	return found
}

// FindButton returns the first button of the trees, depth-first, whose
// label is label, or nil: what a user sees and clicks.
//
//	undo := components.FindButton(msg.Components, "Undo")
//	srv.Click(ctx, userID, msg.ID, undo.CustomID)
func FindButton(list []Component, label string) *Button {
	b, _ := first(list, func(c Component) bool {
		b, ok := c.(*Button)
		return ok && b.Label == label
	}).(*Button)
	return b
}

// Find is [Find] on l.
func (l List) Find(customID string) Component { return Find(l, customID) }

// FindLabel is [FindLabel] on l.
func (l List) FindLabel(label string) Component { return FindLabel(l, label) }

// FindButton is [FindButton] on l.
func (l List) FindButton(label string) *Button { return FindButton(l, label) }

// first returns the first component of the trees, depth-first, for which
// match is true, or nil.
func first(list []Component, match func(Component) bool) Component {
	var found Component
	walk(list, func(c Component) {
		if found == nil && match(c) {
			found = c
		}
	})
	return found
}
