package guildkittest

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/wire"
)

// Interaction rules of the reference platform.
const (
	// answerWindow is how long the platform waits for the initial answer.
	answerWindow = 3 * time.Second
	// tokenLife is how long the token answers follow-ups and edits.
	tokenLife = 15 * time.Minute
	// attachmentSizeLimit is what an upload may weigh in a guild without
	// boosts, as the platform tells the application.
	attachmentSizeLimit = 10 << 20
	// deliveryUserAgent is the User-Agent of the platform's deliveries.
	deliveryUserAgent = "Discord-Interactions/1.0 (+https://discord.com)"
)

// interactionEndpoint is where interactions go.
type interactionEndpoint struct {
	mu      sync.Mutex
	handler http.Handler
	url     string
	client  *http.Client
}

// interactionStore is what the server keeps about interactions.
type interactionStore struct {
	byID       map[guildkit.Snowflake]*interactionState
	byToken    map[string]*interactionState
	deliveries []Delivery
	commands   map[string]guildkit.Snowflake // command ids by name: interaction_command.go
	lastSweep  time.Time                     // when forgetExpiredLocked last looked
}

// interactionState is one delivered interaction, guarded by s.mu.
type interactionState struct {
	it          guildkit.Interaction // as delivered
	body        []byte               // it, encoded
	token       string
	userID      guildkit.Snowflake
	guildID     guildkit.Snowflake
	channelID   guildkit.Snowflake
	messageID   guildkit.Snowflake // the component's message (or the modal's); 0 when none
	customID    string
	deliveredAt time.Time // the server's clock

	answered   chan struct{} // closed on the initial answer
	answer     *guildkit.InteractionResponse
	viaHTTP    bool
	failed     string // why the interaction failed; "" while it has not
	result     *Outcome
	originalID guildkit.Snowflake // the original response's message; 0 when none
	// deferredPending: after DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE, the
	// first follow-up edits the loading message.
	deferredPending bool
	followups       []guildkit.Snowflake
	delivery        int // index in deliveries + 1; 0 when not recorded
}

func (s *Server) inter() *interactionStore {
	if s.interactions == nil {
		s.interactions = &interactionStore{
			byID:    make(map[guildkit.Snowflake]*interactionState),
			byToken: make(map[string]*interactionState),
		}
	}
	return s.interactions
}

// forgetExpiredLocked drops interactions whose token has expired, looking
// at most once a minute of the server's clock.
func (s *Server) forgetExpiredLocked(now time.Time) {
	st := s.inter()
	if now.Sub(st.lastSweep) < time.Minute {
		return
	}
	st.lastSweep = now
	for id, it := range st.byID {
		if now.Sub(it.deliveredAt) > tokenLife+time.Minute {
			delete(st.byID, id)
			delete(st.byToken, it.token)
		}
	}
}

// Click clicks the button with customID on a message, as userID, and
// returns what the user saw. It delivers a MESSAGE_COMPONENT interaction to
// the application's endpoint and waits for its answer (at most 3 seconds,
// on the server's clock and in real time).
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
	modal.mu.Lock()
	submitted := modal.submitted
	modal.mu.Unlock()
	if submitted {
		return nil, refused("the modal %q was already submitted and closed", modal.Modal.CustomID)
	}
	if userID != modal.userID {
		return nil, refused("the modal %q is shown to user %s only", modal.Modal.CustomID, modal.userID)
	}
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
	out, err := s.deliver(ctx, st)
	if err == nil && out.Kind != OutcomeFailed {
		modal.mu.Lock()
		modal.submitted = true
		modal.mu.Unlock()
	}
	return out, err
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
	if p.Has(guildkit.PermissionAdministrator) || p == ^guildkit.Permissions(0) {
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
	return p
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
	if wm.msg.ApplicationID == nil || *wm.msg.ApplicationID != s.app.id {
		return nil, refused("message %s was not sent by the application: its components deliver nothing", messageID)
	}
	components.AssignIDs(wm.msg.Components...)
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

// newInteractionLocked makes an interaction of type t with data, by userID
// in ch, and registers it with a fresh token.
func (s *Server) newInteractionLocked(t guildkit.InteractionType, data json.RawMessage, gs *guildState, ch *guildkit.Channel,
	userID guildkit.Snowflake, perms guildkit.Permissions, msg *guildkit.Message) *interactionState {
	now := s.now()
	s.forgetExpiredLocked(now)
	member := shaped(copyMember(gs.members[userID].member))
	member.User = s.userLocked(userID)
	member.Permissions = &perms
	g := gs.guild
	features := g.Features
	if features == nil {
		features = []guildkit.GuildFeature{}
	}
	chCopy := *ch
	chCopy.PermissionOverwrites = nil
	token := randomToken()
	it := guildkit.Interaction{
		ID: s.newID(), ApplicationID: s.app.id, Type: t, Data: data,
		Guild:   &guildkit.InteractionGuild{ID: g.ID, Locale: g.PreferredLocale, Features: features},
		GuildID: guildkit.Some(g.ID), Channel: &chCopy, ChannelID: guildkit.Some(ch.ID),
		Member: &member, Token: guildkit.InteractionToken(token), Version: 1, Message: msg,
		AppPermissions: s.channelPermissionsLocked(gs, ch, s.bot), Locale: guildkit.Some("en-US"),
		GuildLocale: guildkit.Some(g.PreferredLocale), Entitlements: []map[string]any{},
		AuthorizingIntegrationOwners: map[string]guildkit.Snowflake{"0": g.ID},
		Context:                      guildkit.Some(guildkit.InteractionContextGuild), AttachmentSizeLimit: attachmentSizeLimit,
	}
	// Encoded now, under the lock: the message it carries is the server's.
	body, _ := json.Marshal(it)
	st := &interactionState{it: it, body: body, token: token, userID: userID, guildID: g.ID, channelID: ch.ID,
		deliveredAt: now, answered: make(chan struct{})}
	store := s.inter()
	store.byID[it.ID] = st
	store.byToken[token] = st
	return st
}

// deliver signs and sends the interaction, waits for the answer and
// returns the outcome.
func (s *Server) deliver(ctx context.Context, st *interactionState) (*Outcome, error) {
	h, url, client := s.endpoint.get()
	if h == nil && url == "" {
		s.mu.Lock()
		delete(s.inter().byID, st.it.ID)
		delete(s.inter().byToken, st.token)
		s.mu.Unlock()
		return nil, ErrNoInteractionsEndpoint
	}
	body := st.body
	s.mu.Lock()
	store := s.inter()
	store.deliveries = append(store.deliveries, Delivery{InteractionID: st.it.ID, Type: st.it.Type,
		CustomID: st.customID, UserID: st.userID})
	if len(store.deliveries) > maxDeliveries {
		store.deliveries = slices.Delete(store.deliveries, 0, len(store.deliveries)-maxDeliveries)
		for _, other := range store.byID {
			other.delivery = max(other.delivery-1, 0)
		}
	}
	st.delivery = len(store.deliveries)
	s.mu.Unlock()

	// The deadline on the server's clock also wakes a wait for a callback.
	clockDue := make(chan struct{})
	stopClock := s.AfterFunc(st.deliveredAt.Add(answerWindow).Sub(s.Now()), func() { close(clockDue) })
	defer stopClock()
	realCtx, cancel := context.WithTimeout(ctx, answerWindow)
	defer cancel()

	status, header, answer, sendErr := s.send(realCtx, h, url, client, body, false)
	s.mu.Lock()
	if st.delivery > 0 {
		store.deliveries[st.delivery-1].Status = status
	}
	s.mu.Unlock()
	switch {
	case sendErr != nil:
		reason := "the application did not answer within 3 seconds"
		if !errors.Is(sendErr, context.DeadlineExceeded) && !errors.Is(sendErr, errDeliveryTimeout) {
			reason = "the interactions endpoint could not be reached: " + describeSendError(sendErr)
		}
		if ctx.Err() != nil {
			reason = "the user went away: " + ctx.Err().Error()
		}
		return s.finish(st, reason), nil
	case status == http.StatusAccepted:
		// The answer comes (or came) through the callback route.
		select {
		case <-st.answered:
		case <-clockDue:
		case <-realCtx.Done():
		}
		return s.finish(st, "the application did not answer within 3 seconds"), nil
	case status == http.StatusOK:
		s.mu.Lock()
		fail := s.acceptHTTPAnswerLocked(st, header.Get("Content-Type"), answer)
		s.mu.Unlock()
		return s.finish(st, fail), nil
	default:
		return s.finish(st, fmt.Sprintf("the interactions endpoint answered %d %s", status, http.StatusText(status))), nil
	}
}

// get returns where to deliver, and the client for a URL.
func (e *interactionEndpoint) get() (http.Handler, string, *http.Client) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.url != "" && e.client == nil {
		e.client = &http.Client{Timeout: answerWindow, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	return e.handler, e.url, e.client
}

// CheckInteractionsEndpoint checks the application's endpoint as the
// reference platform does when the endpoint URL is saved (and from time to
// time after): a signed PING must be answered 200 with {"type": 1} (PONG),
// and a PING whose signature does not match its body must be answered
// 401. It returns an error saying what failed, or nil; each request is
// bounded to 3 seconds of real time.
func (s *Server) CheckInteractionsEndpoint(ctx context.Context) error {
	h, url, client := s.endpoint.get()
	if h == nil && url == "" {
		return ErrNoInteractionsEndpoint
	}
	s.mu.Lock()
	ping := map[string]any{"id": s.newID(), "application_id": s.app.id, "type": guildkit.InteractionTypePing,
		"token": randomToken(), "version": 1, "app_permissions": "0", "entitlements": []any{},
		"authorizing_integration_owners": map[string]any{}, "attachment_size_limit": attachmentSizeLimit,
		"user": s.userLocked(s.bot)}
	s.mu.Unlock()
	body, _ := json.Marshal(ping)
	check := func(bad bool) (int, []byte, error) {
		cctx, cancel := context.WithTimeout(ctx, answerWindow)
		defer cancel()
		status, _, answer, err := s.send(cctx, h, url, client, body, bad)
		return status, answer, err
	}
	status, answer, err := check(false)
	if err != nil {
		return fmt.Errorf("guildkittest: interactions endpoint: a signed PING got no answer: %s", describeSendError(err))
	}
	var pong struct {
		Type *guildkit.InteractionResponseType `json:"type"`
	}
	if status != http.StatusOK || json.Unmarshal(answer, &pong) != nil || pong.Type == nil || *pong.Type != guildkit.InteractionResponsePong {
		return fmt.Errorf("guildkittest: interactions endpoint: a signed PING was answered %d %.100q, want 200 with {\"type\":1}", status, answer)
	}
	status, _, err = check(true)
	if err != nil {
		return fmt.Errorf("guildkittest: interactions endpoint: a PING with a bad signature got no answer: %s", describeSendError(err))
	}
	if status != http.StatusUnauthorized {
		return fmt.Errorf("guildkittest: interactions endpoint: a PING with a bad signature was answered %d, want 401", status)
	}
	return nil
}

// errDeliveryTimeout is the in-process handler overrunning its 3 seconds.
var errDeliveryTimeout = errors.New("the handler did not return within 3 seconds")

// describeSendError names a failed POST without the URL's query or
// credentials.
func describeSendError(err error) string {
	var ue interface{ Unwrap() error }
	if errors.As(err, &ue) {
		if inner := ue.Unwrap(); inner != nil {
			return inner.Error()
		}
	}
	return err.Error()
}

// send POSTs the signed body to the handler or the URL and returns the
// answer (at most MaxUploadBody bytes).
// With badSignature the signature is made over other bytes, as the
// platform's endpoint checks do.
func (s *Server) send(ctx context.Context, h http.Handler, url string, client *http.Client, body []byte, badSignature bool) (int, http.Header, []byte, error) {
	target := url
	if h != nil {
		target = "http://interactions.guildkittest.invalid/interactions"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return 0, nil, nil, err
	}
	signed := body
	if badSignature {
		signed = append([]byte("tampered"), body...)
	}
	s.signDelivery(req, signed, s.Now())
	if h == nil {
		resp, err := client.Do(req)
		if err != nil {
			return 0, nil, nil, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(io.LimitReader(resp.Body, MaxUploadBody))
		if err != nil {
			return 0, nil, nil, err
		}
		return resp.StatusCode, resp.Header, b, nil
	}
	req.RemoteAddr = "127.0.0.1:0"
	rec := httptest.NewRecorder()
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if p := recover(); p != nil && p != http.ErrAbortHandler {
				rec.Code = http.StatusInternalServerError
			}
		}()
		h.ServeHTTP(rec, req)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		return 0, nil, nil, errDeliveryTimeout
	}
	res := rec.Result()
	b, _ := io.ReadAll(io.LimitReader(res.Body, MaxUploadBody))
	return res.StatusCode, res.Header, b, nil
}

// signDelivery sets the headers the platform sends with a delivery, the
// signature made with the application's key over the timestamp followed by
// the body.
func (s *Server) signDelivery(req *http.Request, body []byte, at time.Time) {
	ts := strconv.FormatInt(at.Unix(), 10)
	sig := ed25519.Sign(s.app.key, append([]byte(ts), body...))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", deliveryUserAgent)
	req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(sig))
	req.Header.Set("X-Signature-Timestamp", ts)
}

// finish returns the outcome: the accepted answer's, or a failure for
// reason (which marks the interaction failed, its token dead).
func (s *Server) finish(st *interactionState, reason string) *Outcome {
	s.mu.Lock()
	defer s.mu.Unlock()
	it := st.it
	if st.result != nil {
		out := *st.result
		out.Interaction = &it
		return &out
	}
	if st.failed == "" {
		st.failed = reason
	}
	if st.delivery > 0 {
		d := &s.inter().deliveries[st.delivery-1]
		d.Failure = st.failed
		d.Duration = s.now().Sub(st.deliveredAt)
	}
	return &Outcome{Kind: OutcomeFailed, Failure: st.failed, Interaction: &it, Response: st.answer}
}

// answerFailure is an answer the platform refuses: the error it answers on
// the callback route, and what the user is told.
type answerFailure struct {
	status   int
	code     guildkit.ErrorCode
	message  string
	problems map[string]string // Invalid Form Body's, when set
}

func (f *answerFailure) String() string {
	if len(f.problems) == 0 {
		return f.message
	}
	keys := make([]string, 0, len(f.problems))
	for k := range f.problems {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + ": " + f.problems[k]
	}
	return f.message + ": " + strings.Join(parts, "; ")
}

// acceptHTTPAnswerLocked takes the HTTP answer to a delivery; it returns
// why the interaction failed, or "".
func (s *Server) acceptHTTPAnswerLocked(st *interactionState, contentType string, body []byte) string {
	if st.result != nil {
		// Answered through the callback route already; the HTTP answer is
		// a second answer, which the platform ignores.
		return ""
	}
	if s.now().Sub(st.deliveredAt) > answerWindow {
		return "the application did not answer within 3 seconds"
	}
	payload, files, bad := readAnswerBody(contentType, bytes.NewReader(body), int64(len(body)))
	if bad != "" {
		return "the answer is invalid: " + bad
	}
	var resp guildkit.InteractionResponse
	if msg := decodeJSON(payload, &resp); msg != "" {
		return "the answer is invalid: " + msg
	}
	if f := s.applyAnswerLocked(st, &resp, files, false); f != nil {
		return "the answer is invalid: " + f.String()
	}
	return ""
}

// readAnswerBody reads an answer body: JSON, or multipart/form-data with
// payload_json and files[n] (at most MaxMessageFiles). bad says what is
// wrong with it.
func readAnswerBody(contentType string, r io.Reader, limit int64) (payload []byte, files []webhookFile, bad string) {
	mt, params, _ := mime.ParseMediaType(contentType)
	switch mt {
	case "application/json":
		b, err := readJSONPart(r)
		if err != nil {
			return nil, nil, "the body is too large"
		}
		return b, nil, ""
	case "multipart/form-data":
	default:
		return nil, nil, fmt.Sprintf("Content-Type %q is neither application/json nor multipart/form-data", contentType)
	}
	mr := multipart.NewReader(r, params["boundary"])
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, "Invalid multipart body"
		}
		name := part.FormName()
		switch {
		case name == "payload_json":
			if payload, err = readJSONPart(part); err != nil {
				return nil, nil, "the payload_json part is too large"
			}
		case strings.HasPrefix(name, "files[") && strings.HasSuffix(name, "]"):
			n, err := strconv.Atoi(name[len("files[") : len(name)-1])
			if err != nil || n < 0 {
				return nil, nil, "invalid file field " + strconv.Quote(name)
			}
			if len(files) == MaxMessageFiles {
				return nil, nil, fmt.Sprintf("at most %d files", MaxMessageFiles)
			}
			var kept bytes.Buffer
			size, err := io.Copy(&kept, io.LimitReader(part, attachmentKeep+1))
			if err != nil {
				return nil, nil, "Invalid multipart body"
			}
			data := kept.Bytes()
			if size > attachmentKeep {
				data = nil
				more, err := io.Copy(io.Discard, part)
				if err != nil {
					return nil, nil, "Invalid multipart body"
				}
				size += more
			}
			files = append(files, webhookFile{index: n, filename: part.FileName(), contentType: part.Header.Get("Content-Type"), size: size, data: data})
		default:
			_, _ = io.Copy(io.Discard, part)
		}
		part.Close()
	}
	if payload == nil {
		return nil, nil, "a multipart answer needs a payload_json part"
	}
	return payload, files, ""
}

// withFiles puts placeholders for the received files in the message's
// Files, in index order, so that validation sees them.
func withFiles(m *guildkit.InteractionMessageParams, files []webhookFile) {
	if m == nil || len(files) == 0 {
		return
	}
	sorted := slices.Clone(files)
	slices.SortFunc(sorted, func(a, b webhookFile) int { return a.index - b.index })
	m.Files = nil
	for _, f := range sorted {
		m.Files = append(m.Files, guildkit.File{Name: f.filename, ContentType: f.contentType, Reader: bytes.NewReader(f.data)})
	}
}

// validationProblems turns a validation error into Invalid Form Body's
// problems, keyed by dotted paths.
func validationProblems(err error) map[string]string {
	problems := map[string]string{}
	var ve *guildkit.ValidationError
	if !errors.As(err, &ve) {
		problems["_"] = err.Error()
		return problems
	}
	rep := strings.NewReplacer("[", ".", "]", "")
	for _, p := range ve.Problems {
		key := rep.Replace(p.Path)
		if key == "" {
			key = "_"
		}
		if prev, dup := problems[key]; dup {
			problems[key] = prev + "; " + p.Message
		} else {
			problems[key] = p.Message
		}
	}
	return problems
}

// applyAnswerLocked checks the initial answer as the platform does and
// carries out its effect; it returns nil when it was accepted.
func (s *Server) applyAnswerLocked(st *interactionState, resp *guildkit.InteractionResponse, files []webhookFile, callback bool) *answerFailure {
	now := s.now()
	switch {
	case st.failed != "" || now.Sub(st.deliveredAt) > answerWindow:
		if st.failed == "" && st.result == nil {
			st.failed = "the application did not answer within 3 seconds"
		}
		return &answerFailure{status: http.StatusNotFound, code: guildkit.CodeUnknownInteraction, message: "Unknown interaction"}
	case st.result != nil:
		return &answerFailure{status: http.StatusBadRequest, code: guildkit.CodeInteractionAcknowledged, message: "Interaction has already been acknowledged"}
	}
	formFail := func(problems map[string]string) *answerFailure {
		return &answerFailure{status: http.StatusBadRequest, code: guildkit.CodeInvalidFormBody, message: "Invalid Form Body", problems: problems}
	}
	if !resp.Type.Answers(st.it.Type) {
		return formFail(map[string]string{"type": fmt.Sprintf("a %s answer cannot answer a %s interaction", resp.Type, st.it.Type)})
	}
	if (resp.Type == guildkit.InteractionResponseUpdateMessage || resp.Type == guildkit.InteractionResponseDeferredUpdateMessage) && st.messageID == 0 {
		return formFail(map[string]string{"type": fmt.Sprintf("a %s answer needs a message to update: this modal was not opened from a component", resp.Type)})
	}
	withFiles(resp.Message, files)
	if err := resp.Validate(); err != nil {
		return formFail(validationProblems(err))
	}
	out := &Outcome{Response: resp}
	switch resp.Type {
	case guildkit.InteractionResponseChannelMessage:
		m := s.newInteractionMessageLocked(st, resp.Message, files)
		st.originalID = m.ID
		out.Kind, out.Message, out.Ephemeral = OutcomeMessage, &m, m.Flags.Has(guildkit.MessageFlagEphemeral)
	case guildkit.InteractionResponseDeferredChannelMessage:
		flags := guildkit.MessageFlagLoading
		if resp.Message != nil && resp.Message.Flags.Or(0).Has(guildkit.MessageFlagEphemeral) {
			flags |= guildkit.MessageFlagEphemeral
		}
		m := s.newInteractionMessageLocked(st, &guildkit.InteractionMessageParams{Flags: guildkit.Some(flags)}, nil)
		st.originalID = m.ID
		st.deferredPending = true
		out.Kind, out.Message, out.Ephemeral = OutcomeDeferred, &m, flags.Has(guildkit.MessageFlagEphemeral)
	case guildkit.InteractionResponseDeferredUpdateMessage:
		st.originalID = st.messageID
		out.Kind = OutcomeDeferred
		if wm, ok := s.wh().messages[st.messageID]; ok {
			m := shaped(copyWebhookMessage(wm.msg))
			out.Message, out.Ephemeral = &m, wm.visibleTo != 0
		}
	case guildkit.InteractionResponseUpdateMessage:
		wm, ok := s.wh().messages[st.messageID]
		if !ok {
			return &answerFailure{status: http.StatusNotFound, code: guildkit.CodeUnknownMessage, message: "Unknown Message"}
		}
		if f := s.editInteractionMessageLocked(wm, resp.Message, files); f != nil {
			return f
		}
		st.originalID = st.messageID
		m := shaped(copyWebhookMessage(wm.msg))
		out.Kind, out.Message, out.Ephemeral = OutcomeUpdated, &m, wm.visibleTo != 0
	case guildkit.InteractionResponseModal:
		modal := *resp.Modal
		components.AssignIDs(modal.Components...)
		it := st.it
		out.Kind = OutcomeModal
		out.Modal = &OpenModal{Modal: modal, Interaction: &it, userID: st.userID, guildID: st.guildID,
			channelID: st.channelID, messageID: st.messageID}
	case guildkit.InteractionResponseAutocompleteResult:
		out.Kind = OutcomeAutocomplete
	case guildkit.InteractionResponseLaunchActivity:
		out.Kind = OutcomeLaunchActivity
	}
	st.answer, st.viaHTTP, st.result = resp, !callback, out
	close(st.answered)
	if st.delivery > 0 {
		d := &s.inter().deliveries[st.delivery-1]
		d.AnswerType, d.Callback, d.Duration = resp.Type, callback, now.Sub(st.deliveredAt)
	}
	return nil
}

// appAuthorLocked is the author of the application's interaction
// messages: its bot user.
func (s *Server) appAuthorLocked() *guildkit.User {
	u := s.userLocked(s.bot)
	u.Bot = true
	return u
}

// newInteractionMessageLocked stores a new message of the interaction
// (an answer or a follow-up) and emits MESSAGE_CREATE unless it is
// ephemeral. p has been validated.
func (s *Server) newInteractionMessageLocked(st *interactionState, p *guildkit.InteractionMessageParams, files []webhookFile) guildkit.Message {
	now := s.now().UTC()
	app := s.app.id
	flags := p.Flags.Or(0)
	m := guildkit.Message{
		ID: s.newID(), ChannelID: st.channelID, Author: s.appAuthorLocked(), Content: p.Content.Or(""), Timestamp: now,
		TTS: p.TTS.Or(false), Embeds: webhookRichEmbeds(p.Embeds), Attachments: s.newAttachments(st.channelID, nil, p.Attachments, files),
		WebhookID: &app, ApplicationID: &app, Flags: flags, Components: slices.Clone(p.Components),
	}
	if m.Components == nil {
		m.Components = components.List{}
	}
	components.AssignIDs(m.Components...)
	if poll, ok := p.Poll.Get(); ok {
		m.Poll = webhookPoll(poll, now)
	}
	if gs := s.guilds[st.guildID]; gs != nil {
		text := m.Content
		if flags.Has(guildkit.MessageFlagIsComponentsV2) {
			text = webhookComponentText(m.Components)
		}
		m.Mentions, m.MentionRoles, m.MentionEveryone = s.buildMentions(gs, text, webhookOptPtr(wireOpt(p.AllowedMentions)))
	}
	wm := &webhookMessage{msg: m, webhookID: app}
	if flags.Has(guildkit.MessageFlagEphemeral) {
		wm.visibleTo = st.userID
	}
	s.wh().messages[m.ID] = wm
	if wm.visibleTo == 0 {
		s.emit(guildkit.EventMessageCreate, st.guildID, shaped(copyWebhookMessage(m)))
	}
	return shaped(copyWebhookMessage(m))
}

// wireOpt converts a guildkit.Opt to a wire.Opt (they are the same type).
func wireOpt[T any](o guildkit.Opt[T]) wire.Opt[T] { return o }

// editInteractionMessageLocked edits a message of the application with p
// (an UPDATE_MESSAGE answer, or an edit of the original response or of a
// follow-up), emitting MESSAGE_UPDATE unless it is ephemeral. It returns
// the platform's refusal (Invalid Form Body, Cannot send an empty
// message), or nil. A loading message (a deferral)
// becomes the message: its LOADING flag goes, and it may take a poll.
func (s *Server) editInteractionMessageLocked(wm *webhookMessage, p *guildkit.InteractionMessageParams, files []webhookFile) *answerFailure {
	old := wm.msg
	m := copyWebhookMessage(old)
	loading := old.Flags.Has(guildkit.MessageFlagLoading)
	problems := map[string]string{}
	if f, ok := p.Flags.Get(); ok {
		m.Flags = old.Flags&^webhookEditFlags | f&webhookEditFlags
		if old.Flags.Has(guildkit.MessageFlagIsComponentsV2) && !m.Flags.Has(guildkit.MessageFlagIsComponentsV2) {
			problems["flags"] = "The IS_COMPONENTS_V2 flag cannot be removed"
		}
	}
	m.Flags &^= guildkit.MessageFlagLoading
	if !p.Content.IsZero() {
		m.Content = p.Content.Or("")
	}
	if p.Embeds != nil {
		m.Embeds = webhookRichEmbeds(p.Embeds)
	}
	if p.TTS.IsSet() && loading {
		m.TTS = p.TTS.Or(false)
	}
	if poll, ok := p.Poll.Get(); ok {
		if !loading {
			problems["poll"] = "Polls can only be added when editing a deferred interaction response"
		} else {
			m.Poll = webhookPoll(poll, s.now().UTC())
		}
	}
	if p.Attachments != nil {
		var kept []guildkit.Attachment
		for _, a := range old.Attachments {
			if slices.ContainsFunc(p.Attachments, func(e guildkit.PartialAttachment) bool { return e.ID == a.ID }) {
				kept = append(kept, a)
			}
		}
		m.Attachments = s.newAttachments(m.ChannelID, kept, p.Attachments, files)
	} else {
		m.Attachments = s.newAttachments(m.ChannelID, old.Attachments, nil, files)
	}
	if p.Components != nil {
		m.Components = slices.Clone(p.Components)
		components.AssignIDs(m.Components...)
	}
	v2 := m.Flags.Has(guildkit.MessageFlagIsComponentsV2)
	if v2 {
		webhookV2Conflicts(problems, m.Content != "", len(m.Embeds) > 0, false, m.Poll != nil)
	}
	if len(m.Components) > 0 {
		target := components.LegacyMessage
		if v2 {
			target = components.V2Message
		}
		if err := components.Validate(target, m.Components...); err != nil {
			for k, v := range validationProblems(err) {
				problems[strings.TrimSuffix("components."+k, "._")] = v
			}
		}
	}
	if len(problems) > 0 {
		return &answerFailure{status: http.StatusBadRequest, code: guildkit.CodeInvalidFormBody, message: "Invalid Form Body", problems: problems}
	}
	if m.Content == "" && len(m.Embeds) == 0 && !webhookHasComponents(m.Components) && len(m.Attachments) == 0 && m.Poll == nil {
		return &answerFailure{status: http.StatusBadRequest, code: codeWebhookEmptyMessage, message: "Cannot send an empty message"}
	}
	if !p.Content.IsZero() || (v2 && p.Components != nil) {
		if gs, _ := s.webhookChannel(m.ChannelID); gs != nil {
			text := m.Content
			if v2 {
				text = webhookComponentText(m.Components)
			}
			m.Mentions, m.MentionRoles, m.MentionEveryone = s.buildMentions(gs, text, webhookOptPtr(wireOpt(p.AllowedMentions)))
		}
	}
	if !loading {
		now := s.now().UTC()
		m.EditedTimestamp = &now
	}
	wm.msg = m
	if wm.visibleTo == 0 {
		gs, _ := s.webhookChannel(m.ChannelID)
		var gid guildkit.Snowflake
		if gs != nil {
			gid = gs.guild.ID
		}
		s.emit(guildkit.EventMessageUpdate, gid, shaped(copyWebhookMessage(m)))
	}
	return nil
}
