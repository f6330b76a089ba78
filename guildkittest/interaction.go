package guildkittest

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
)

// The server plays the platform for interactions: it signs and delivers
// them to the application's endpoint ([Server.SetInteractionsHandler],
// [Server.SetInteractionsURL]) — or, when the application has none, to its
// gateway sessions as INTERACTION_CREATE — when a user clicks, chooses or
// submits ([Server.Click], [Server.Select], [Server.SubmitModal]), reads the
// answer, and serves the interaction routes (the callback, the original
// response and follow-ups). The interface's documents do not describe
// interactions; everything here follows the reference platform's v10
// interactions API, as spec/interactions.md collects it.

// Application is the application the bot belongs to, as its developer
// portal shows it: its id and the public key that checks the signatures of
// the interactions the server delivers.
type Application struct {
	// ID is the application's id. As on the reference platform for the
	// applications made today, it is the bot user's id ([Server.BotID]).
	ID        guildkit.Snowflake
	PublicKey ed25519.PublicKey
}

// PublicKeyHex returns the public key in hex, the form the developer
// portal shows and the receiving side takes.
func (a Application) PublicKeyHex() string { return hex.EncodeToString(a.PublicKey) }

// application is the server's application: its key pair. Its id is the
// bot's, kept here too so that paths can be matched without the server's
// lock; both may change when a seed or a saved state names another bot or
// key, so they are atomic.
type application struct {
	key atomic.Pointer[ed25519.PrivateKey]
	id  atomic.Uint64
}

// WithApplicationKey makes the server sign deliveries with priv instead of
// a key pair made at start, so a test or an emulator can keep one
// application key across servers. priv must be a valid Ed25519 private key
// (ed25519.PrivateKeySize bytes); New panics otherwise.
func WithApplicationKey(priv ed25519.PrivateKey) Option {
	return func(s *Server) {
		if len(priv) != ed25519.PrivateKeySize {
			panic(fmt.Sprintf("guildkittest: WithApplicationKey: a private key has %d bytes, got %d", ed25519.PrivateKeySize, len(priv)))
		}
		key := append(ed25519.PrivateKey(nil), priv...)
		s.app.key.Store(&key)
	}
}

// initApplication makes the key pair unless an option gave one; the
// application's id is the bot's.
func (s *Server) initApplication() {
	if s.app.key.Load() == nil {
		_, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			panic("guildkittest: generating the application key: " + err.Error())
		}
		s.app.key.Store(&priv)
	}
	s.app.id.Store(uint64(s.bot))
}

// appID is the application's id: the bot's.
func (s *Server) appID() guildkit.Snowflake { return guildkit.Snowflake(s.app.id.Load()) }

// appKey is the application's private key.
func (s *Server) appKey() ed25519.PrivateKey { return *s.app.key.Load() }

// Application returns the application: its id and public key.
func (s *Server) Application() Application {
	return Application{ID: s.appID(), PublicKey: s.appKey().Public().(ed25519.PublicKey)}
}

// ApplicationWebhook returns the application-owned webhook of a channel,
// with its token, adding it the first time. Messages the application sends
// through it (or as answers to interactions) carry interactive components
// that users can use: post one with the webhook's token (Execute Webhook),
// or seed one with [Server.AddApplicationMessage]. It panics on an unknown
// channel.
func (s *Server) ApplicationWebhook(channelID guildkit.Snowflake) guildkit.Webhook {
	s.mu.Lock()
	defer s.mu.Unlock()
	gs, _ := s.webhookChannel(channelID)
	if gs == nil {
		panic("guildkittest: ApplicationWebhook: unknown channel " + channelID.String())
	}
	for _, e := range sortedByID(s.wh().hooks) {
		if e.hook.ChannelID != nil && *e.hook.ChannelID == channelID && e.hook.ApplicationID != nil && *e.hook.ApplicationID == s.appID() {
			return shaped(s.webhookJSON(e, true))
		}
	}
	name := "guildkit-bot"
	if u, ok := s.users[s.bot]; ok {
		name = u.Username
	}
	app := s.appID()
	w := guildkit.Webhook{Type: guildkit.WebhookTypeIncoming, User: &guildkit.User{ID: s.bot}, Name: &name, ApplicationID: &app}
	return shaped(s.addWebhookLocked(gs, channelID, w))
}

// AddApplicationMessage places a message from the application in a
// channel, as if it had sent it through its webhook ([Server.ApplicationWebhook]),
// and returns it as stored: its id, author, timestamp and the ids of its
// components filled in. Its components may be interactive; they are
// checked as the platform checks an application's message (V2 rules with
// [guildkit.MessageFlagIsComponentsV2] in m.Flags), and AddApplicationMessage
// panics on an invalid tree or an unknown channel, as seeding methods do.
func (s *Server) AddApplicationMessage(channelID guildkit.Snowflake, m guildkit.Message) guildkit.Message {
	hook := s.ApplicationWebhook(channelID)
	target := components.LegacyMessage
	if m.Flags.Has(guildkit.MessageFlagIsComponentsV2) {
		target = components.V2Message
	}
	if len(m.Components) > 0 {
		if err := components.Validate(target, m.Components...); err != nil {
			panic("guildkittest: AddApplicationMessage: " + err.Error())
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m.ID = s.newID()
	m.ChannelID = channelID
	m.Author = &guildkit.User{ID: hook.ID, Username: *hook.Name, Discriminator: "0000", Bot: true}
	m.Timestamp = s.now().UTC()
	m.WebhookID = &hook.ID
	app := s.appID()
	m.ApplicationID = &app
	if m.Components == nil {
		m.Components = components.List{}
	}
	components.AssignIDs(m.Components...)
	s.wh().messages[m.ID] = &webhookMessage{msg: m, webhookID: hook.ID}
	return shaped(copyWebhookMessage(m))
}

// ChannelMessages returns the messages of a channel that the server holds
// (webhook messages and interaction answers) as userID sees them, oldest
// first: an ephemeral message is seen by the user who invoked its
// interaction only, as on the reference platform.
func (s *Server) ChannelMessages(channelID, userID guildkit.Snowflake) []guildkit.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []guildkit.Message
	for _, m := range sortedByID(s.wh().messages) {
		if m.msg.ChannelID == channelID && (m.visibleTo == 0 || m.visibleTo == userID) {
			out = append(out, copyWebhookMessage(m.msg))
		}
	}
	return shaped(out)
}

// OutcomeKind is what a user saw after using a component or submitting a
// modal.
type OutcomeKind int

// Outcome kinds.
const (
	// OutcomeMessage: the application answered with a new message
	// (CHANNEL_MESSAGE_WITH_SOURCE), or a follow-up replaced its loading state.
	OutcomeMessage OutcomeKind = iota + 1
	// OutcomeUpdated: the message the component is on was edited
	// (UPDATE_MESSAGE).
	OutcomeUpdated
	// OutcomeDeferred: the application acknowledged and will answer later:
	// a loading message (DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE) or nothing
	// visible (DEFERRED_UPDATE_MESSAGE).
	OutcomeDeferred
	// OutcomeModal: a modal opened (MODAL).
	OutcomeModal
	// OutcomeAutocomplete: choices were offered
	// (APPLICATION_COMMAND_AUTOCOMPLETE_RESULT).
	OutcomeAutocomplete
	// OutcomeLaunchActivity: the application's activity launched.
	OutcomeLaunchActivity
	// OutcomeFailed: the user saw "This interaction failed"; Failure says
	// why.
	OutcomeFailed
)

var outcomeKindNames = []string{"", "message", "updated", "deferred", "modal", "autocomplete", "launch activity", "failed"}

// String returns the kind's name, such as "updated".
func (k OutcomeKind) String() string {
	if k > 0 && int(k) < len(outcomeKindNames) {
		return outcomeKindNames[k]
	}
	return fmt.Sprintf("OutcomeKind(%d)", int(k))
}

// Outcome is what the user who used a component or submitted a modal saw.
// An interaction that failed is an Outcome of kind [OutcomeFailed], not an
// error: the errors of [Server.Click], [Server.Select] and
// [Server.SubmitModal] are for actions the platform's client would not let
// the user take.
type Outcome struct {
	Kind OutcomeKind
	// Message is the message the user sees: the new message
	// (OutcomeMessage), the edited one (OutcomeUpdated), the loading
	// message of a deferral or, for a deferred update, the message the
	// component is on (OutcomeDeferred). Nil otherwise.
	Message *guildkit.Message
	// Ephemeral is true when only this user sees Message.
	Ephemeral bool
	// Modal is the modal that opened (OutcomeModal), to fill in and submit
	// with [Server.SubmitModal].
	Modal *OpenModal
	// Failure says why the interaction failed (OutcomeFailed), such as
	// "the application did not answer within 3 seconds".
	Failure string
	// Interaction is what the server delivered, its token included.
	Interaction *guildkit.Interaction
	// Response is the application's initial answer; nil when none came.
	Response *guildkit.InteractionResponse
}

// String describes what the user saw, in one line: "message (ephemeral):
// Done", "updated: 3 roles", "modal "Apply" (apply)", "failed: ...".
func (o *Outcome) String() string {
	if o == nil {
		return "<nil>"
	}
	s := o.Kind.String()
	if o.Ephemeral {
		s += " (ephemeral)"
	}
	switch o.Kind {
	case OutcomeFailed:
		return s + ": " + o.Failure
	case OutcomeModal:
		if o.Modal != nil {
			return fmt.Sprintf("%s %q (%s)", s, o.Modal.Modal.Title, o.Modal.Modal.CustomID)
		}
	case OutcomeAutocomplete:
		if o.Response != nil {
			return fmt.Sprintf("%s: %d choices", s, len(o.Response.Choices))
		}
	case OutcomeDeferred:
		if o.Message != nil && o.Message.Flags.Has(guildkit.MessageFlagLoading) {
			return s + ": loading"
		}
		return s
	}
	if o.Message != nil {
		if text := messageText(o.Message); text != "" {
			return s + ": " + text
		}
	}
	return s
}

// components are what the user sees: the message's components, or the
// open modal's.
func (o *Outcome) components() components.List {
	switch {
	case o == nil:
		return nil
	case o.Message != nil:
		return o.Message.Components
	case o.Modal != nil:
		return o.Modal.Modal.Components
	}
	return nil
}

// Find returns the component of what the user sees (the message, or the
// modal that opened) whose custom_id is customID, or nil; see
// [components.Find].
func (o *Outcome) Find(customID string) components.Component { return o.components().Find(customID) }

// FindLabel returns the component of what the user sees that label names
// (a button, a modal's field), or nil; see [components.FindLabel].
func (o *Outcome) FindLabel(label string) components.Component {
	return o.components().FindLabel(label)
}

// FindButton returns the button labelled label on the message the user
// sees, or nil: the one a test clicks next.
//
//	undo := out.FindButton("Undo")
//	out, err = srv.Click(ctx, mod.ID, out.Message.ID, undo.CustomID)
func (o *Outcome) FindButton(label string) *components.Button {
	return o.components().FindButton(label)
}

// messageText is what a message shows as text: its content, or the text
// displays of a Components V2 message, joined by " / ".
func messageText(m *guildkit.Message) string {
	if m.Content != "" {
		return m.Content
	}
	var parts []string
	walkComponents(m.Components, func(c components.Component) {
		if td, ok := c.(*components.TextDisplay); ok {
			parts = append(parts, td.Content)
		}
	})
	return strings.Join(parts, " / ")
}

// OpenModal is a modal shown to a user: the modal as the application sent
// it (component ids filled in), and the interaction it answered. Submit it
// with [Server.SubmitModal]; the submission carries the message when the
// modal was opened from a component.
type OpenModal struct {
	Modal guildkit.Modal
	// Interaction is the interaction the modal answered.
	Interaction *guildkit.Interaction

	userID    guildkit.Snowflake
	guildID   guildkit.Snowflake
	channelID guildkit.Snowflake
	messageID guildkit.Snowflake // the component's message; 0 when none
	mu        sync.Mutex
	submitted bool // a submission was answered: the modal closed
}

// ModalValues are what a user enters in a modal, by custom_id:
//
//   - a Text Input: a string (absent: its pre-filled value);
//   - a Radio Group: a string, the chosen option's value (absent: its
//     default option, or none);
//   - a string select and a Checkbox Group: a []string of option values;
//     a user, role, mentionable or channel select: a []string of ids
//     (absent: their defaults);
//   - a Checkbox: a bool (absent: its default);
//   - a File Upload: a []guildkit.File, uploaded as attachments (absent:
//     none).
//
// A custom_id that is not in the modal, or a value of the wrong type, is
// refused.
type ModalValues map[string]any

// Delivery is one interaction the server delivered and how the endpoint
// answered; never its token.
type Delivery struct {
	InteractionID guildkit.Snowflake
	Type          guildkit.InteractionType
	CustomID      string // the component's or the modal's custom_id, or the command's name
	UserID        guildkit.Snowflake
	// Status is the HTTP status the endpoint answered the delivery with; 0
	// when it did not answer (a timeout, a refused connection).
	Status int
	// AnswerType is the initial answer's type; 0 when none was accepted.
	AnswerType guildkit.InteractionResponseType
	// Answer is the initial answer as the server accepted it; nil when
	// none was.
	Answer *guildkit.InteractionResponse
	// Callback is true when the answer came through the callback route, false
	// when it was the HTTP answer to the delivery.
	Callback bool
	// Gateway is true when the interaction went to the bot's gateway
	// sessions as INTERACTION_CREATE (the application has no interactions
	// endpoint), false when it was POSTed to the endpoint.
	Gateway bool
	// Sessions are the ids of the gateway sessions it was dispatched to;
	// empty over HTTP, or when no session could receive it.
	Sessions []string
	// Duration is the time, on the server's clock, from the delivery to the
	// answer (or to the failure).
	Duration time.Duration
	// Failure says why the interaction failed; "" when it did not.
	Failure string
}

// maxDeliveries is how many deliveries [Server.Deliveries] keeps.
const maxDeliveries = 1000

// Deliveries returns the interactions delivered so far, oldest first (the
// most recent 1000).
func (s *Server) Deliveries() []Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.interactions == nil {
		return nil
	}
	out := make([]Delivery, len(s.interactions.deliveries))
	for i, d := range s.interactions.deliveries {
		out[i] = *d
	}
	return out
}

// Errors of the user's actions.
var (
	// ErrNoInteractionsEndpoint: neither [Server.SetInteractionsHandler]
	// nor [Server.SetInteractionsURL] was called, so there is no endpoint
	// to check ([Server.CheckInteractionsEndpoint]). Interactions then go
	// to the bot's gateway sessions, as on the reference platform.
	ErrNoInteractionsEndpoint = errors.New("guildkittest: the application has no interactions endpoint")
	// ErrRefused is matched (errors.Is) by every refusal of a user's
	// action that the platform's client would not let the user take: a
	// component that is not there, disabled, not the application's; a
	// value out of bounds; a modal field missing.
	ErrRefused = errors.New("guildkittest: the platform's client would not send this")
)

// refused returns an error matching ErrRefused.
func refused(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrRefused, fmt.Sprintf(format, args...))
}

// SetInteractionsHandler makes the server deliver interactions to h, in
// this process: each delivery is a real *http.Request (a POST of the signed
// JSON body, with the headers the platform sends and a context cancelled
// after 3 seconds of real time) served by h.ServeHTTP. It replaces any URL
// set before. Pass nil to remove it.
func (s *Server) SetInteractionsHandler(h http.Handler) {
	s.endpoint.mu.Lock()
	defer s.endpoint.mu.Unlock()
	s.endpoint.handler, s.endpoint.url, s.endpoint.verdict = h, "", nil
	s.endpoint.gen++
}

// SetInteractionsURL makes the server deliver interactions over HTTP to
// url (the interactions endpoint URL of the developer portal), each POST
// bounded to 3 seconds of real time, as the platform waits. It replaces any
// handler set before. Pass "" to remove it.
func (s *Server) SetInteractionsURL(url string) {
	s.endpoint.mu.Lock()
	defer s.endpoint.mu.Unlock()
	if url != s.endpoint.url || s.endpoint.handler != nil {
		s.endpoint.verdict = nil
	}
	s.endpoint.handler, s.endpoint.url = nil, url
	s.endpoint.gen++
}

// walkComponents calls fn for every component of the trees, depth-first,
// parent before children.
func walkComponents(list []components.Component, fn func(components.Component)) {
	for _, c := range list {
		if c == nil {
			continue
		}
		fn(c)
		switch c := c.(type) {
		case *components.ActionRow:
			walkComponents(c.Components, fn)
		case *components.Section:
			walkComponents(c.Components, fn)
			if c.Accessory != nil {
				walkComponents([]components.Component{c.Accessory}, fn)
			}
		case *components.Container:
			walkComponents(c.Components, fn)
		case *components.Label:
			if c.Component != nil {
				walkComponents([]components.Component{c.Component}, fn)
			}
		}
	}
}

// ParseApplicationKey reads an application's Ed25519 private key written
// in hex: its 32-byte seed (as the state file keeps it) or the 64-byte
// private key.
func ParseApplicationKey(s string) (ed25519.PrivateKey, error) {
	b, err := hex.DecodeString(strings.TrimSpace(s))
	if err != nil {
		return nil, errors.New("not hex")
	}
	switch len(b) {
	case ed25519.SeedSize:
		return ed25519.NewKeyFromSeed(b), nil
	case ed25519.PrivateKeySize:
		key := ed25519.PrivateKey(b)
		if !bytes.Equal(ed25519.NewKeyFromSeed(key.Seed()), key) {
			return nil, errors.New("the 64 bytes are not an Ed25519 private key (its seed followed by its public key)")
		}
		return key, nil
	}
	return nil, fmt.Errorf("%d bytes; an Ed25519 key is written as its %d-byte seed or its %d-byte private key", len(b), ed25519.SeedSize, ed25519.PrivateKeySize)
}
