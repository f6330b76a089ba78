package interactions

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/components"
	"github.com/seed012df1e9/guildkit/wire"
)

// ErrDeferred is returned for a late answer that cannot follow the
// Handler's automatic deferral: a MODAL, an autocomplete result or a
// LAUNCH_ACTIVITY must be the first answer, within the platform's 3 s.
var ErrDeferred = errors.New("interactions: the interaction was deferred at the deadline; this answer must be the first one")

// Request is one interaction being handled: the interaction, the named
// parts of the pattern that matched it, and the way to answer it.
type Request struct {
	Interaction *guildkit.Interaction
	params      []Param
	ex          *exchange
}

// Param returns the value of the named part of the pattern that matched
// the custom_id ("" when there is none): for "role:{id}" and "role:123",
// Param("id") is "123".
func (r *Request) Param(name string) string {
	for _, p := range r.params {
		if p.Name == name {
			return p.Value
		}
	}
	return ""
}

// Params returns every named part of the matched pattern, in order.
func (r *Request) Params() []Param { return append([]Param(nil), r.params...) }

// Client returns the client the Handler answers with, for the bot's own
// REST calls when it holds a credential.
func (r *Request) Client() *guildkit.Client { return r.ex.h.client }

// Respond sends the initial answer. It is checked first: a
// [*guildkit.ValidationError] (nothing sent) for an invalid answer or one
// that does not fit the interaction's type. A second answer returns an
// error matching [guildkit.ErrInteractionAcknowledged]. After the Handler's
// automatic deferral, the answer goes as an edit of the original response
// (or a follow-up; see the package doc).
func (r *Request) Respond(ctx context.Context, resp *guildkit.InteractionResponse) error {
	if err := r.check(resp); err != nil {
		return err
	}
	return r.ex.respond(ctx, resp)
}

// check validates resp for this interaction.
func (r *Request) check(resp *guildkit.InteractionResponse) error {
	if err := resp.Validate(); err != nil {
		return err
	}
	if !resp.Type.Answers(r.Interaction.Type) {
		v := &guildkit.ValidationError{}
		v.Add("type", wire.CodeNotAllowed, "%s does not answer %s interactions", resp.Type, r.Interaction.Type)
		return v
	}
	if resp.Type == guildkit.InteractionResponseUpdateMessage && r.Interaction.Message == nil {
		v := &guildkit.ValidationError{}
		v.Add("type", wire.CodeNotAllowed, "UPDATE_MESSAGE needs a message to update: this %s did not come from one", r.Interaction.Type)
		return v
	}
	return nil
}

// Reply answers with a new message (CHANNEL_MESSAGE_WITH_SOURCE).
func (r *Request) Reply(ctx context.Context, msg *guildkit.InteractionMessageParams) error {
	return r.Respond(ctx, guildkit.MessageResponse(msg))
}

// ReplyEphemeral answers with a text only the invoking user sees, and
// rows of components under it (action rows of buttons or a select, as
// in any legacy message):
//
//	r.ReplyEphemeral(ctx, "Warned "+user.Mention(),
//		components.NewActionRow(components.SecondaryButton("undo:"+id, "Undo")))
//
// A click on one of them is an interaction of its own, whose
// [Request.Update] edits this answer.
func (r *Request) ReplyEphemeral(ctx context.Context, text string, rows ...components.Component) error {
	return r.Reply(ctx, &guildkit.InteractionMessageParams{Content: guildkit.Some(text), Flags: guildkit.Some(guildkit.MessageFlagEphemeral), Components: rows})
}

// Update edits the message the component is on (UPDATE_MESSAGE).
func (r *Request) Update(ctx context.Context, msg *guildkit.InteractionMessageParams) error {
	return r.Respond(ctx, guildkit.UpdateResponse(msg))
}

// ShowModal answers with a modal (MODAL): 1 to 5 components valid in a
// modal, a title of 1-45 characters.
func (r *Request) ShowModal(ctx context.Context, customID, title string, comps ...components.Component) error {
	return r.Respond(ctx, guildkit.ModalResponse(customID, title, comps...))
}

// Defer acknowledges the interaction now, as the Handler would at its
// deadline: DEFERRED_UPDATE_MESSAGE for a component, else
// DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE (ephemeral with ephemeral). Follow it
// with [Request.EditOriginal] or [Request.Followup].
func (r *Request) Defer(ctx context.Context, ephemeral bool) error {
	return r.Respond(ctx, deferralFor(r.Interaction, ephemeral))
}

// EditOriginal edits the original response (after a deferral, the
// deferred message; after a deferred update, the component's message).
func (r *Request) EditOriginal(ctx context.Context, params *guildkit.WebhookMessageEditParams) (*guildkit.Message, error) {
	if err := r.ex.deferralWritten(ctx); err != nil {
		return nil, err
	}
	it := r.Interaction
	return r.ex.h.client.Interactions.EditOriginalResponse(ctx, it.ApplicationID, it.Token, params)
}

// Followup sends a follow-up message; ephemeral with
// [guildkit.MessageFlagEphemeral].
func (r *Request) Followup(ctx context.Context, msg *guildkit.InteractionMessageParams) (*guildkit.Message, error) {
	if err := r.ex.deferralWritten(ctx); err != nil {
		return nil, err
	}
	it := r.Interaction
	return r.ex.h.client.Interactions.CreateFollowup(ctx, it.ApplicationID, it.Token, msg)
}

// deferralFor is the deferral that fits the interaction.
func deferralFor(it *guildkit.Interaction, ephemeral bool) *guildkit.InteractionResponse {
	if it.Type == guildkit.InteractionTypeMessageComponent {
		return guildkit.DeferredUpdateResponse()
	}
	return guildkit.DeferredMessageResponse(ephemeral)
}

// state is where an exchange stands.
type state int

const (
	waiting   state = iota // no answer yet
	answering              // the answer is on its way in the HTTP response
	answered               // the initial answer has gone
	deferred               // the Handler deferred at the deadline; the function has not answered
	expired                // the platform gave up on the request
)

// pending is an answer handed to ServeHTTP to write.
type pending struct {
	resp    *guildkit.InteractionResponse
	written chan struct{} // closed by finish, once err is set
	err     error         // why the answer did not go; set by finish
}

func newPending(resp *guildkit.InteractionResponse) *pending {
	return &pending{resp: resp, written: make(chan struct{})}
}

// finish records what became of the answer; ServeHTTP's goroutine calls it
// once.
func (p *pending) finish(err error) {
	p.err = err
	close(p.written)
}

// outcome returns what became of the answer, and false when ServeHTTP
// returned without taking it.
func (p *pending) outcome() (error, bool) {
	select {
	case <-p.written:
		return p.err, true
	default:
		return nil, false
	}
}

// exchange is the answering state of one interaction.
type exchange struct {
	h        *Handler
	it       *guildkit.Interaction
	pending  chan *pending
	served   chan struct{} // closed when ServeHTTP has returned
	mu       sync.Mutex    // held across REST answers, so answers go one at a time
	st       state
	deferral guildkit.InteractionResponseType
	// deferring is the automatic deferral handed to ServeHTTP (nil by
	// callback): a late answer waits until it is written, since an edit of
	// the original response that reaches the platform before the deferral
	// is refused 404.
	deferring *pending
	gateway   bool // it came over the gateway: every answer goes by callback
}

// byCallback reports whether the initial answer goes through the REST
// callback route rather than the HTTP response.
func (ex *exchange) byCallback() bool { return ex.gateway || ex.h.mode == AnswerByCallback }

func (ex *exchange) answeredOrDeferred() bool {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	return ex.st != waiting
}

// respond delivers the function's answer.
func (ex *exchange) respond(ctx context.Context, resp *guildkit.InteractionResponse) error {
	ex.mu.Lock()
	if ex.st == deferred {
		if err := ex.awaitDeferral(ctx); err != nil {
			ex.mu.Unlock()
			return err
		}
	}
	switch ex.st {
	case waiting:
		if ex.byCallback() {
			defer ex.mu.Unlock()
			if err := ex.callback(ctx, resp); err != nil {
				return err
			}
			ex.st = answered
			return nil
		}
		ex.st = answering
		ex.mu.Unlock()
		p := newPending(resp)
		ex.pending <- p
		var err error
		select {
		case <-p.written:
			err = p.err
		case <-ex.served:
			// ServeHTTP wrote the answer before returning, or gave up
			// on the request without it.
			var took bool
			if err, took = p.outcome(); !took {
				err = fmt.Errorf("interactions: %s: the platform closed the request before the answer: %w", ex.it, guildkit.ErrUnknownInteraction)
			}
		case <-ctx.Done():
			return ctx.Err()
		}
		ex.mu.Lock()
		if err == nil {
			ex.st = answered
		} else if ex.st == answering {
			ex.st = expired
		}
		ex.mu.Unlock()
		return err
	case deferred:
		defer ex.mu.Unlock()
		if err := ex.late(ctx, resp); err != nil {
			return err
		}
		ex.st = answered
		return nil
	case expired:
		ex.mu.Unlock()
		return fmt.Errorf("interactions: %s: the platform gave up on the interaction before it was answered: %w", ex.it, guildkit.ErrUnknownInteraction)
	default:
		ex.mu.Unlock()
		return fmt.Errorf("interactions: %s: %w", ex.it, guildkit.ErrInteractionAcknowledged)
	}
}

// callback sends resp over the REST callback route.
func (ex *exchange) callback(ctx context.Context, resp *guildkit.InteractionResponse) error {
	_, err := ex.h.client.Interactions.CreateResponse(ctx, ex.it.ID, ex.it.Token, resp, nil)
	return err
}

// deadlinePassed answers for a function that has not answered by the
// deadline, with the deferral that fits the interaction.
func (ex *exchange) deadlinePassed() {
	ex.mu.Lock()
	if ex.st != waiting {
		ex.mu.Unlock()
		return
	}
	var resp *guildkit.InteractionResponse
	if ex.it.Type == guildkit.InteractionTypeAutocomplete {
		// An autocomplete cannot be deferred: it gets no choices.
		resp = guildkit.AutocompleteResponse()
		ex.st = answered
	} else {
		resp = deferralFor(ex.it, ex.h.ephemeralDeferral)
		ex.st = deferred
		ex.deferral = resp.Type
	}
	if ex.byCallback() {
		defer ex.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), TokenLifetime)
		defer cancel()
		if err := ex.callback(ctx, resp); err != nil {
			ex.st = expired
			ex.h.logger.Error("interactions: the automatic deferral failed", "interaction", *ex.it, "error", err.Error())
		}
		return
	}
	p := newPending(resp)
	ex.deferring = p
	ex.mu.Unlock()
	ex.pending <- p
}

// deferralWritten waits, after the automatic deferral, until it is
// written (awaitDeferral): an edit or a follow-up that reached the
// platform before it would be refused. It returns an error only when ctx
// ends.
func (ex *exchange) deferralWritten(ctx context.Context) error {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	if ex.st != deferred {
		return nil
	}
	return ex.awaitDeferral(ctx)
}

// awaitDeferral waits until ServeHTTP has written the automatic deferral,
// so that a late answer reaches the platform after it: an edit of the
// original response that comes first is refused 404. It marks the exchange
// expired when the deferral did not go, and returns an error only when ctx
// ends. It is called with ex.mu held, and releases it while it waits:
// ServeHTTP takes ex.mu when the platform gives up on the request
// (expire), and another answer may go meanwhile.
func (ex *exchange) awaitDeferral(ctx context.Context) error {
	p := ex.deferring
	if p == nil {
		return nil // sent by callback, under ex.mu
	}
	ex.mu.Unlock()
	select {
	case <-p.written:
	case <-ex.served:
	case <-ctx.Done():
	}
	ex.mu.Lock()
	err, took := p.outcome()
	if !took {
		select {
		case <-ex.served: // ServeHTTP returned without writing it
		default:
			return ctx.Err()
		}
	}
	if (!took || err != nil) && ex.st == deferred {
		ex.st = expired // the platform gave up on the request
	}
	return nil
}

// expire marks the exchange given up by the platform, and returns the
// answer on its way, if any, for its sender to be told.
func (ex *exchange) expire() *pending {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	if ex.st == waiting || ex.st == answering {
		ex.st = expired
	}
	select {
	case p := <-ex.pending:
		return p
	default:
		return nil
	}
}

// late delivers an answer after the automatic deferral: an edit of the
// original response, or a follow-up for a new message after a deferred
// update.
func (ex *exchange) late(ctx context.Context, resp *guildkit.InteractionResponse) error {
	it, svc := ex.it, ex.h.client.Interactions
	switch resp.Type {
	case guildkit.InteractionResponseDeferredChannelMessage, guildkit.InteractionResponseDeferredUpdateMessage:
		return nil // deferred already
	case guildkit.InteractionResponseChannelMessage:
		if ex.deferral == guildkit.InteractionResponseDeferredUpdateMessage {
			_, err := svc.CreateFollowup(ctx, it.ApplicationID, it.Token, resp.Message)
			return err
		}
		_, err := svc.EditOriginalResponse(ctx, it.ApplicationID, it.Token, editOf(resp.Message))
		return err
	case guildkit.InteractionResponseUpdateMessage:
		_, err := svc.EditOriginalResponse(ctx, it.ApplicationID, it.Token, editOf(resp.Message))
		return err
	}
	return fmt.Errorf("%w (%s after the deferral of %s)", ErrDeferred, resp.Type, ex.it)
}

// editOf turns an answer's message into the edit of the original response
// that shows it.
func editOf(m *guildkit.InteractionMessageParams) *guildkit.WebhookMessageEditParams {
	e := &guildkit.WebhookMessageEditParams{
		Content:         m.Content,
		AllowedMentions: m.AllowedMentions,
		Files:           m.Files,
		Poll:            m.Poll,
	}
	if m.Embeds != nil {
		e.Embeds = guildkit.Some(m.Embeds)
	}
	if m.Components != nil {
		e.Components = guildkit.Some(m.Components)
	}
	if m.Attachments != nil {
		e.Attachments = guildkit.Some(m.Attachments)
	}
	// An edit takes only these flags; EPHEMERAL was settled by the deferral.
	if flags := m.Flags.Or(0) & (guildkit.MessageFlagSuppressEmbeds | guildkit.MessageFlagIsComponentsV2); flags != 0 {
		e.Flags = guildkit.Some(flags)
		if flags.Has(guildkit.MessageFlagIsComponentsV2) {
			// Turning the deferred message into a V2 one nulls what a V2
			// message cannot hold.
			e.Content, e.Embeds, e.Poll = guildkit.Null[string](), guildkit.Null[[]guildkit.Embed](), guildkit.Null[guildkit.PollCreate]()
			if len(m.Files) == 0 {
				e.Attachments = guildkit.Null[[]guildkit.PartialAttachment]()
			}
		}
	}
	return e
}
