package guildkittest

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"unicode/utf8"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
)

// readModalFiles reads the files of the modal's uploads, before the
// server's lock: each at most the attachment size limit.
func readModalFiles(values ModalValues) (map[string][]webhookFile, error) {
	out := map[string][]webhookFile{}
	for id, v := range values {
		files, ok := v.([]guildkit.File)
		if !ok {
			continue
		}
		var read []webhookFile
		for i, f := range files {
			if f.Name == "" {
				return nil, refused("the upload %q: file %d has no name", id, i)
			}
			var data []byte
			if f.Reader != nil {
				b, err := io.ReadAll(io.LimitReader(f.Reader, attachmentSizeLimit+1))
				if err != nil {
					return nil, fmt.Errorf("guildkittest: reading the upload %q: %w", id, err)
				}
				data = b
			}
			if len(data) > attachmentSizeLimit {
				return nil, refused("the upload %q: %s is larger than %d bytes", id, f.Name, attachmentSizeLimit)
			}
			ct := f.ContentType
			if ct == "" {
				ct = "application/octet-stream"
			}
			keep := data
			if len(keep) > attachmentKeep {
				keep = nil
			}
			read = append(read, webhookFile{index: i, filename: f.Name, contentType: ct, size: int64(len(data)), data: keep})
		}
		out[id] = read
	}
	return out, nil
}

// modalInteractionLocked checks a modal submission and makes its
// MODAL_SUBMIT interaction.
func (s *Server) modalInteractionLocked(modal *OpenModal, values ModalValues, files map[string][]webhookFile) (*interactionState, error) {
	gs, ch, perms, err := s.userChannelLocked(modal.userID, modal.channelID)
	if err != nil {
		return nil, err
	}
	used := map[string]bool{}
	res := &resolvedData{}
	b := modalBuilder{s: s, gs: gs, ch: ch, values: values, files: files, used: used, res: res}
	var data []components.ResponseData
	for _, c := range modal.Modal.Components {
		r, err := b.respond(c)
		if err != nil {
			return nil, err
		}
		data = append(data, r)
	}
	var unknown []string
	for id := range values {
		if !used[id] {
			unknown = append(unknown, id)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, refused("the modal %q has no field %q", modal.Modal.CustomID, unknown[0])
	}
	sub := components.ModalSubmitData{CustomID: modal.Modal.CustomID, Components: data}
	if !res.empty() {
		sub.Resolved, _ = json.Marshal(res)
	}
	raw, _ := json.Marshal(sub)
	var msg *guildkit.Message
	if modal.messageID != 0 {
		if wm, ok := s.wh().messages[modal.messageID]; ok {
			m := shaped(copyWebhookMessage(wm.msg))
			msg = &m
		}
	}
	st := s.newInteractionLocked(guildkit.InteractionTypeModalSubmit, raw, gs, ch, modal.userID, perms, msg)
	if msg != nil {
		st.messageID = modal.messageID
	}
	st.customID = modal.Modal.CustomID
	return st, nil
}

// modalBuilder makes a submission's response data from the user's values.
type modalBuilder struct {
	s      *Server
	gs     *guildState
	ch     *guildkit.Channel
	values ModalValues
	files  map[string][]webhookFile
	used   map[string]bool
	res    *resolvedData
}

// value returns the user's value for customID, and whether there is one.
func (b *modalBuilder) value(customID string) (any, bool) {
	v, ok := b.values[customID]
	if ok {
		b.used[customID] = true
	}
	return v, ok
}

func (b *modalBuilder) strings(customID string, v any) ([]string, error) {
	switch v := v.(type) {
	case []string:
		return v, nil
	case string:
		return []string{v}, nil
	}
	return nil, refused("the field %q takes a []string, got %T", customID, v)
}

func (b *modalBuilder) respond(c components.Component) (components.ResponseData, error) {
	r := components.ResponseData{Type: c.Type(), ID: c.ComponentID(), CustomID: componentCustomID(c)}
	switch c := c.(type) {
	case *components.Label:
		if c.Component == nil {
			return r, nil
		}
		child, err := b.respond(c.Component)
		if err != nil {
			return r, err
		}
		r.Component = &child
	case *components.ActionRow:
		for _, child := range c.Components {
			cr, err := b.respond(child)
			if err != nil {
				return r, err
			}
			r.Components = append(r.Components, cr)
		}
	case *components.TextDisplay:
	case *components.TextInput:
		text := c.Value
		if v, ok := b.value(c.CustomID); ok {
			s, isString := v.(string)
			if !isString {
				return r, refused("the text input %q takes a string, got %T", c.CustomID, v)
			}
			text = s
		}
		n := utf8.RuneCountInString(text)
		switch {
		case n == 0 && c.Required.Or(true):
			return r, refused("the text input %q is required", c.CustomID)
		case n > 0 && (n < c.MinLength.Or(0) || n > c.MaxLength.Or(4000)):
			return r, refused("the text input %q takes %d to %d characters, got %d", c.CustomID, c.MinLength.Or(0), c.MaxLength.Or(4000), n)
		}
		r.Value, _ = json.Marshal(text)
	case *components.StringSelect, *components.UserSelect, *components.RoleSelect, *components.MentionableSelect, *components.ChannelSelect:
		values := selectDefaults(c)
		if v, ok := b.value(r.CustomID); ok {
			var err error
			if values, err = b.strings(r.CustomID, v); err != nil {
				return r, err
			}
		}
		if selectDisabled(c) {
			return r, refused("the select %q is disabled", r.CustomID)
		}
		res, err := b.s.checkSelectLocked(b.gs, b.ch, c, values, true)
		if err != nil {
			return r, err
		}
		b.merge(res)
		r.Values = append([]string{}, values...)
	case *components.FileUpload:
		var files []webhookFile
		if v, ok := b.value(c.CustomID); ok {
			if _, isFiles := v.([]guildkit.File); !isFiles {
				return r, refused("the upload %q takes a []guildkit.File, got %T", c.CustomID, v)
			}
			files = b.files[c.CustomID]
		}
		lo, hi := c.MinValues.Or(1), c.MaxValues.Or(1)
		if !(len(files) == 0 && !c.Required.Or(true)) && (len(files) < lo || len(files) > hi) {
			return r, refused("the upload %q takes %d to %d files, got %d", c.CustomID, lo, hi, len(files))
		}
		r.Values = []string{}
		for _, a := range b.s.newAttachments(b.ch.ID, nil, nil, files) {
			r.Values = append(r.Values, a.ID.String())
			if b.res.Attachments == nil {
				b.res.Attachments = map[string]guildkit.Attachment{}
			}
			b.res.Attachments[a.ID.String()] = a
		}
	case *components.RadioGroup:
		chosen, picked := "", false
		for _, o := range c.Options {
			if o.Default {
				chosen, picked = o.Value, true
			}
		}
		if v, ok := b.value(c.CustomID); ok {
			s, isString := v.(string)
			if !isString {
				return r, refused("the radio group %q takes a string, got %T", c.CustomID, v)
			}
			chosen, picked = s, s != ""
		}
		if picked && !slices.ContainsFunc(c.Options, func(o components.RadioOption) bool { return o.Value == chosen }) {
			return r, refused("the radio group %q has no option %q", c.CustomID, chosen)
		}
		if !picked && c.Required.Or(true) {
			return r, refused("the radio group %q is required", c.CustomID)
		}
		r.Value = json.RawMessage("null")
		if picked {
			r.Value, _ = json.Marshal(chosen)
		}
	case *components.CheckboxGroup:
		var values []string
		for _, o := range c.Options {
			if o.Default {
				values = append(values, o.Value)
			}
		}
		if v, ok := b.value(c.CustomID); ok {
			var err error
			if values, err = b.strings(c.CustomID, v); err != nil {
				return r, err
			}
		}
		lo, hi := c.MinValues.Or(1), c.MaxValues.Or(len(c.Options))
		if !(len(values) == 0 && !c.Required.Or(true)) && (len(values) < lo || len(values) > hi) {
			return r, refused("the checkbox group %q takes %d to %d values, got %d", c.CustomID, lo, hi, len(values))
		}
		seen := map[string]bool{}
		for _, v := range values {
			if seen[v] || !slices.ContainsFunc(c.Options, func(o components.RadioOption) bool { return o.Value == v }) {
				return r, refused("the checkbox group %q: %q is not an option, or chosen twice", c.CustomID, v)
			}
			seen[v] = true
		}
		r.Values = append([]string{}, values...)
	case *components.Checkbox:
		checked := c.Default
		if v, ok := b.value(c.CustomID); ok {
			bv, isBool := v.(bool)
			if !isBool {
				return r, refused("the checkbox %q takes a bool, got %T", c.CustomID, v)
			}
			checked = bv
		}
		r.Value, _ = json.Marshal(checked)
	default:
		// A component the server does not model: its raw JSON names its
		// type and id, and it carries no value.
	}
	return r, nil
}

// merge adds a select's resolved data to the submission's.
func (b *modalBuilder) merge(res *resolvedData) {
	if res == nil {
		return
	}
	for k, v := range res.Users {
		if b.res.Users == nil {
			b.res.Users, b.res.Members = map[string]guildkit.User{}, map[string]map[string]any{}
		}
		b.res.Users[k] = v
		b.res.Members[k] = res.Members[k]
	}
	for k, v := range res.Roles {
		if b.res.Roles == nil {
			b.res.Roles = map[string]guildkit.Role{}
		}
		b.res.Roles[k] = v
	}
	for k, v := range res.Channels {
		if b.res.Channels == nil {
			b.res.Channels = map[string]map[string]any{}
		}
		b.res.Channels[k] = v
	}
}

// selectDefaults returns what a select in a modal holds before the user
// changes it: its default options or default values.
func selectDefaults(c components.Component) []string {
	var out []string
	var defaults []components.DefaultValue
	switch c := c.(type) {
	case *components.StringSelect:
		for _, o := range c.Options {
			if o.Default {
				out = append(out, o.Value)
			}
		}
		return out
	case *components.UserSelect:
		defaults = c.DefaultValues
	case *components.RoleSelect:
		defaults = c.DefaultValues
	case *components.MentionableSelect:
		defaults = c.DefaultValues
	case *components.ChannelSelect:
		defaults = c.DefaultValues
	}
	for _, d := range defaults {
		out = append(out, d.ID.String())
	}
	return out
}
