package guildkittest

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/wire"
)

// Click clicks the button with customID on a message, as userID, and
// returns what the user saw. It delivers a MESSAGE_COMPONENT interaction to
// the application's endpoint, or, when the application has none, to the
// bot's connected gateway sessions as INTERACTION_CREATE (its answer then
// comes through the callback route), and waits for its answer (at most 3
// seconds, on the server's clock and in real time). With no endpoint and
// no session to receive it the interaction fails, as it does when the
// endpoint cannot be reached.
//
// The platform's client lets a user click only a button that is on a
// message the application sent (through its webhooks, or as an answer),
// that the user can see (a member of the guild with VIEW_CHANNEL; an
// ephemeral message only by its user), not disabled, and not a link or
// premium button: anything else is refused with an error matching
// [ErrRefused], and nothing is delivered.
func (s *Server) Click(ctx context.Context, userID, messageID guildkit.Snowflake, customID string) (*Outcome, error) {
	s.mu.Lock()
	st, err := s.componentInteractionLocked(userID, messageID, customID, nil)
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return s.deliver(ctx, st)
}

// Select chooses values in the select with customID on a message, as
// userID, and returns what the user saw, as [Server.Click] does. Values
// are option values for a string select, ids for a user, role, mentionable
// or channel select (the interaction then carries their resolved data:
// users with their members, roles, channels). They must be among the
// options (members of the guild, its roles, its channels of the allowed
// types), distinct, and between the select's min_values and max_values
// (default 1 and 1); otherwise the choice is refused.
func (s *Server) Select(ctx context.Context, userID, messageID guildkit.Snowflake, customID string, values ...string) (*Outcome, error) {
	if values == nil {
		values = []string{}
	}
	s.mu.Lock()
	st, err := s.componentInteractionLocked(userID, messageID, customID, values)
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return s.deliver(ctx, st)
}

// SubmitModal submits a modal that opened for userID (an Outcome's Modal)
// with values (see [ModalValues]), and returns what the user saw. The
// MODAL_SUBMIT interaction carries the modal's custom_id, its components'
// values in the modal's response shape, the resolved data of selects and
// uploads, and the message when the modal was opened from a component.
//
// Refused, as the platform's client would: another user's modal, a modal
// already submitted and answered, a custom_id not in the modal, a required
// field left empty, a text shorter or longer than its input allows, values
// not among the options or too few or too many.
func (s *Server) SubmitModal(ctx context.Context, userID guildkit.Snowflake, modal *OpenModal, values ModalValues) (*Outcome, error) {
	if modal == nil {
		return nil, refused("no modal")
	}
	if userID != modal.userID {
		return nil, refused("the modal %q is shown to user %s only", modal.Modal.CustomID, modal.userID)
	}
	// The submission claims the modal before it is delivered, so two at
	// once deliver one MODAL_SUBMIT; a failed one gives the claim back, as
	// the platform's client keeps a modal open when its submission fails.
	modal.mu.Lock()
	taken := modal.submitted
	modal.submitted = true
	modal.mu.Unlock()
	if taken {
		return nil, refused("the modal %q was already submitted and closed", modal.Modal.CustomID)
	}
	out, err := s.submitModal(ctx, modal, values)
	if err != nil || out.Kind == OutcomeFailed {
		modal.mu.Lock()
		modal.submitted = false
		modal.mu.Unlock()
	}
	return out, err
}

// submitModal delivers the submission of a claimed modal.
func (s *Server) submitModal(ctx context.Context, modal *OpenModal, values ModalValues) (*Outcome, error) {
	files, err := readModalFiles(values)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	st, err := s.modalInteractionLocked(modal, values, files)
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return s.deliver(ctx, st)
}

// userChannelLocked checks that userID can see channelID: a member of its
// guild with VIEW_CHANNEL there.
func (s *Server) userChannelLocked(userID, channelID guildkit.Snowflake) (*guildState, *guildkit.Channel, guildkit.Permissions, error) {
	gs, ch := s.webhookChannel(channelID)
	if gs == nil {
		return nil, nil, 0, refused("unknown channel %s", channelID)
	}
	if _, ok := gs.members[userID]; !ok {
		return nil, nil, 0, refused("user %s is not a member of guild %s", userID, gs.guild.ID)
	}
	perms := s.channelPermissionsLocked(gs, ch, userID)
	if !perms.Has(guildkit.PermissionViewChannel) {
		return nil, nil, 0, refused("user %s cannot see channel %s", userID, channelID)
	}
	return gs, ch, perms, nil
}

// channelPermissionsLocked computes userID's permissions in ch: the guild
// permissions, then the channel's (a thread's parent's) overwrites for
// @everyone, the member's roles and the member, as the platform computes
// them.
func (s *Server) channelPermissionsLocked(gs *guildState, ch *guildkit.Channel, userID guildkit.Snowflake) guildkit.Permissions {
	p := gs.permissions(userID)
	if p.Has(guildkit.PermissionAdministrator) {
		return p
	}
	if isWebhookThreadType(ch.Type) {
		if parent, ok := ch.ParentID.Get(); ok {
			if pc, ok := gs.channels[parent]; ok {
				ch = pc
			}
		}
	}
	ms, ok := gs.members[userID]
	if !ok {
		return 0
	}
	var roleAllow, roleDeny guildkit.Permissions
	for _, ow := range ch.PermissionOverwrites {
		switch {
		case ow.Type == guildkit.OverwriteTypeRole && ow.ID == gs.guild.ID:
			p = p&^ow.Deny | ow.Allow
		case ow.Type == guildkit.OverwriteTypeRole && slices.Contains(ms.member.Roles, ow.ID):
			roleAllow |= ow.Allow
			roleDeny |= ow.Deny
		}
	}
	p = p&^roleDeny | roleAllow
	for _, ow := range ch.PermissionOverwrites {
		if ow.Type == guildkit.OverwriteTypeMember && ow.ID == userID {
			p = p&^ow.Deny | ow.Allow
		}
	}
	return p & platformPermissions
}

// componentInteractionLocked checks a click (values nil) or a choice on a
// message and makes its interaction.
func (s *Server) componentInteractionLocked(userID, messageID guildkit.Snowflake, customID string, values []string) (*interactionState, error) {
	wm, ok := s.wh().messages[messageID]
	if !ok || (wm.visibleTo != 0 && wm.visibleTo != userID) {
		return nil, refused("unknown message %s", messageID)
	}
	gs, ch, perms, err := s.userChannelLocked(userID, wm.msg.ChannelID)
	if err != nil {
		return nil, err
	}
	if !s.sentByApplicationLocked(wm) {
		return nil, refused("message %s was not sent by the application: its components deliver nothing", messageID)
	}
	var comp components.Component
	walkComponents(wm.msg.Components, func(c components.Component) {
		if comp == nil && componentCustomID(c) == customID {
			comp = c
		}
	})
	if comp == nil || customID == "" {
		return nil, refused("message %s has no component with custom_id %q", messageID, customID)
	}
	data := components.InteractionData{CustomID: customID, ComponentType: comp.Type(), ID: comp.ComponentID()}
	switch c := comp.(type) {
	case *components.Button:
		if values != nil {
			return nil, refused("%q is a button: click it", customID)
		}
		if c.Disabled {
			return nil, refused("the button %q is disabled", customID)
		}
		if c.Style == components.ButtonLink || c.Style == components.ButtonPremium {
			return nil, refused("the button %q is a %s button: it delivers no interaction", customID, c.Style)
		}
	case *components.StringSelect, *components.UserSelect, *components.RoleSelect, *components.MentionableSelect, *components.ChannelSelect:
		if values == nil {
			return nil, refused("%q is a select: choose values with Select", customID)
		}
		if selectDisabled(c) {
			return nil, refused("the select %q is disabled", customID)
		}
		resolved, err := s.checkSelectLocked(gs, ch, c, values, false)
		if err != nil {
			return nil, err
		}
		data.Values = values
		if resolved != nil {
			data.Resolved, _ = json.Marshal(resolved)
		}
	default:
		return nil, refused("%q is a %s: it is not interactive in a message", customID, comp.Type())
	}
	raw, _ := json.Marshal(data)
	msg := shaped(copyWebhookMessage(wm.msg))
	st := s.newInteractionLocked(guildkit.InteractionTypeMessageComponent, raw, gs, ch, userID, perms, &msg)
	st.messageID = messageID
	st.customID = customID
	return st, nil
}

// componentCustomID returns an interactive component's custom_id.
func componentCustomID(c components.Component) string {
	switch c := c.(type) {
	case *components.Button:
		return c.CustomID
	case *components.StringSelect:
		return c.CustomID
	case *components.UserSelect:
		return c.CustomID
	case *components.RoleSelect:
		return c.CustomID
	case *components.MentionableSelect:
		return c.CustomID
	case *components.ChannelSelect:
		return c.CustomID
	case *components.TextInput:
		return c.CustomID
	case *components.FileUpload:
		return c.CustomID
	case *components.RadioGroup:
		return c.CustomID
	case *components.CheckboxGroup:
		return c.CustomID
	case *components.Checkbox:
		return c.CustomID
	}
	return ""
}

func selectDisabled(c components.Component) bool {
	switch c := c.(type) {
	case *components.StringSelect:
		return c.Disabled
	case *components.UserSelect:
		return c.Disabled
	case *components.RoleSelect:
		return c.Disabled
	case *components.MentionableSelect:
		return c.Disabled
	case *components.ChannelSelect:
		return c.Disabled
	}
	return false
}

// resolvedData is the resolved data of an interaction as the platform
// sends it: partial members (no user, deaf, mute), partial channels.
type resolvedData struct {
	Users       map[string]guildkit.User       `json:"users,omitempty"`
	Members     map[string]map[string]any      `json:"members,omitempty"`
	Roles       map[string]guildkit.Role       `json:"roles,omitempty"`
	Channels    map[string]map[string]any      `json:"channels,omitempty"`
	Attachments map[string]guildkit.Attachment `json:"attachments,omitempty"`
}

func (r *resolvedData) empty() bool {
	return len(r.Users) == 0 && len(r.Members) == 0 && len(r.Roles) == 0 && len(r.Channels) == 0 && len(r.Attachments) == 0
}

// selectBounds returns a select's min and max values (defaults 1 and 1)
// and whether it must be filled in a modal.
func selectBounds(c components.Component) (minV, maxV int, required bool) {
	var lo, hi wire.Opt[int]
	var req wire.Opt[bool]
	switch c := c.(type) {
	case *components.StringSelect:
		lo, hi, req = c.MinValues, c.MaxValues, c.Required
	case *components.UserSelect:
		lo, hi, req = c.MinValues, c.MaxValues, c.Required
	case *components.RoleSelect:
		lo, hi, req = c.MinValues, c.MaxValues, c.Required
	case *components.MentionableSelect:
		lo, hi, req = c.MinValues, c.MaxValues, c.Required
	case *components.ChannelSelect:
		lo, hi, req = c.MinValues, c.MaxValues, c.Required
	}
	return lo.Or(1), hi.Or(1), req.Or(true)
}

// checkSelectLocked checks the values chosen in a select (in a modal when
// inModal) and returns their resolved data (nil for a string select).
func (s *Server) checkSelectLocked(gs *guildState, ch *guildkit.Channel, c components.Component, values []string, inModal bool) (*resolvedData, error) {
	customID := componentCustomID(c)
	lo, hi, required := selectBounds(c)
	if inModal && !required && len(values) == 0 {
		return nil, nil
	}
	if len(values) < lo || len(values) > hi {
		return nil, refused("the select %q takes %d to %d values, got %d", customID, lo, hi, len(values))
	}
	seen := map[string]bool{}
	for _, v := range values {
		if seen[v] {
			return nil, refused("the select %q: %q chosen twice", customID, v)
		}
		seen[v] = true
	}
	if sel, ok := c.(*components.StringSelect); ok {
		for _, v := range values {
			if !slices.ContainsFunc(sel.Options, func(o components.SelectOption) bool { return o.Value == v }) {
				return nil, refused("the select %q has no option %q", customID, v)
			}
		}
		return nil, nil
	}
	res := &resolvedData{}
	addUser := func(id guildkit.Snowflake) bool {
		ms, ok := gs.members[id]
		if !ok {
			return false
		}
		if res.Users == nil {
			res.Users, res.Members = map[string]guildkit.User{}, map[string]map[string]any{}
		}
		res.Users[id.String()] = shaped(*s.userLocked(id))
		pm := partialMember(ms.member)
		pm["permissions"] = s.channelPermissionsLocked(gs, ch, id)
		res.Members[id.String()] = pm
		return true
	}
	addRole := func(id guildkit.Snowflake) bool {
		r, ok := gs.roles[id]
		if !ok {
			return false
		}
		if res.Roles == nil {
			res.Roles = map[string]guildkit.Role{}
		}
		res.Roles[id.String()] = shaped(*r)
		return true
	}
	for _, v := range values {
		id, err := guildkit.ParseSnowflake(v)
		if err != nil {
			return nil, refused("the select %q: %q is not an id", customID, v)
		}
		switch sel := c.(type) {
		case *components.UserSelect:
			if !addUser(id) {
				return nil, refused("the select %q: %s is not a member of the guild", customID, id)
			}
		case *components.RoleSelect:
			if !addRole(id) {
				return nil, refused("the select %q: %s is not a role of the guild", customID, id)
			}
		case *components.MentionableSelect:
			if !addUser(id) && !addRole(id) {
				return nil, refused("the select %q: %s is neither a member nor a role of the guild", customID, id)
			}
		case *components.ChannelSelect:
			target, ok := gs.channels[id]
			if !ok {
				return nil, refused("the select %q: %s is not a channel of the guild", customID, id)
			}
			if len(sel.ChannelTypes) > 0 && !slices.Contains(sel.ChannelTypes, target.Type) {
				return nil, refused("the select %q: channel %s is a %s, not among the select's channel types", customID, id, target.Type)
			}
			if res.Channels == nil {
				res.Channels = map[string]map[string]any{}
			}
			res.Channels[id.String()] = partialChannel(target, s.channelPermissionsLocked(gs, target, s.bot))
		}
	}
	return res, nil
}

func (s *Server) userLocked(id guildkit.Snowflake) *guildkit.User {
	if u, ok := s.users[id]; ok {
		cp := *u
		return &cp
	}
	return &guildkit.User{ID: id, Username: "user" + id.String(), Discriminator: "0"}
}

// partialMember is a member as resolved data carries it: without user,
// deaf and mute.
func partialMember(m guildkit.Member) map[string]any {
	m = shaped(copyMember(m))
	raw, _ := json.Marshal(m)
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	delete(out, "user")
	delete(out, "deaf")
	delete(out, "mute")
	return out
}

// partialChannel is a channel as an interaction carries it: id, type,
// name, guild, parent, permissions (the application's, in resolved data).
func partialChannel(ch *guildkit.Channel, perms guildkit.Permissions) map[string]any {
	out := map[string]any{"id": ch.ID, "type": ch.Type, "name": ch.Name, "guild_id": ch.GuildID, "permissions": perms}
	if p, ok := ch.ParentID.Get(); ok {
		out["parent_id"] = p
	}
	return out
}
