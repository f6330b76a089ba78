package interactions

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/seed012df1e9/guildkit"
)

// Defaults of a [Handler].
const (
	// DefaultDeadline is when the Handler answers for a function that has
	// not answered: 2 s after the delivery arrived, a second before the
	// platform's 3 s run out, for the answer's way back and the clocks.
	DefaultDeadline = 2 * time.Second
	// DefaultReplayWindow is how far a delivery's signed timestamp may be
	// from now: 5 minutes. The platform delivers within its 3 s, so an older
	// timestamp is a replay; the rest is room for hosts whose clocks drift.
	DefaultReplayWindow = 5 * time.Minute
	// DefaultMaxBody bounds a delivery: 1 MiB. An interaction carries at
	// most one message (2,000 characters, 10 embeds, 40 components) and its
	// resolved entities, well under that.
	DefaultMaxBody = 1 << 20
	// TokenLifetime is how long an interaction's token answers follow-ups.
	TokenLifetime = 15 * time.Minute
)

// AnswerMode says how the initial answer reaches the platform; see the
// package doc for which host fits which.
type AnswerMode int

const (
	// AnswerInResponse puts the initial answer in the HTTP response.
	AnswerInResponse AnswerMode = iota
	// AnswerByCallback sends it through the REST callback route and
	// answers the POST with 202 once the function has returned.
	AnswerByCallback
)

// Clock tells the Handler the time, for the replay window and its
// deadline. [guildkittest.Server] is one, so tests of the deadline need no
// sleeps.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f once d has passed, unless stop is called first
	// (stop reports whether it stopped f): in its own goroutine, or, for a
	// test clock such as guildkittest's, in the goroutine that moves the
	// clock past it. f must not block on the function being served.
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }
func (realClock) AfterFunc(d time.Duration, f func()) func() bool {
	return time.AfterFunc(d, f).Stop
}

// Option configures a [Handler].
type Option func(*Handler) error

// WithDeadline sets when the Handler answers with a deferral for a function
// that has not answered ([DefaultDeadline]). It must be under 3 s.
func WithDeadline(d time.Duration) Option {
	return func(h *Handler) error {
		if d <= 0 || d >= 3*time.Second {
			return fmt.Errorf("interactions: WithDeadline(%v): must be above 0 and under the platform's 3s", d)
		}
		h.deadline = d
		return nil
	}
}

// WithReplayWindow sets how far a signed timestamp may be from now
// ([DefaultReplayWindow]); 0 turns the check off.
func WithReplayWindow(d time.Duration) Option {
	return func(h *Handler) error {
		if d < 0 {
			return fmt.Errorf("interactions: WithReplayWindow(%v): negative", d)
		}
		h.window = d
		return nil
	}
}

// WithMaxBody bounds a delivery's body ([DefaultMaxBody]); larger ones get 413.
func WithMaxBody(n int64) Option {
	return func(h *Handler) error {
		if n <= 0 {
			return fmt.Errorf("interactions: WithMaxBody(%d): must be positive", n)
		}
		h.maxBody = n
		return nil
	}
}

// WithAnswerMode sets how initial answers travel ([AnswerInResponse] by default).
func WithAnswerMode(m AnswerMode) Option {
	return func(h *Handler) error {
		if m != AnswerInResponse && m != AnswerByCallback {
			return fmt.Errorf("interactions: unknown answer mode %d", m)
		}
		h.mode = m
		return nil
	}
}

// WithLogger sets where the Handler logs refused deliveries, unmatched
// interactions and functions' errors (slog.Default by default). It never
// logs a token.
func WithLogger(l *slog.Logger) Option {
	return func(h *Handler) error {
		if l == nil {
			return errors.New("interactions: WithLogger(nil)")
		}
		h.logger = l
		return nil
	}
}

// WithClock sets the Handler's clock (the system's by default); pass a
// [guildkittest.Server] in tests.
func WithClock(c Clock) Option {
	return func(h *Handler) error {
		if c == nil {
			return errors.New("interactions: WithClock(nil)")
		}
		h.clock = c
		return nil
	}
}

// WithEphemeralDeferral makes the Handler's automatic deferral of commands
// and modal submissions ephemeral, for applications whose answers are
// ephemeral: a late answer is an edit of the deferred message and cannot
// change whether it is ephemeral.
func WithEphemeralDeferral() Option {
	return func(h *Handler) error { h.ephemeralDeferral = true; return nil }
}

// Handler is the http.Handler of an application's interactions endpoint;
// see the package doc. Register functions before serving; a Handler is safe
// for concurrent use once serving.
type Handler struct {
	key               ed25519.PublicKey
	client            *guildkit.Client
	deadline, window  time.Duration
	maxBody           int64
	mode              AnswerMode
	logger            *slog.Logger
	clock             Clock
	ephemeralDeferral bool

	components, modals, commands, autocompletes routes
	fallback                                    HandlerFunc
	// declared are the commands declared with Command, for Sync:
	// commands.go.
	declaredMu sync.Mutex
	declared   []guildkit.CommandCreateParams

	work sync.WaitGroup // functions still running
}

// NewHandler returns a Handler for the application whose public key is
// publicKey (64 hexadecimal digits, as the developer portal shows it; a
// malformed key is an error here, not at the first request). client sends
// the REST answers (callback, original response, follow-ups); it needs no
// credential.
func NewHandler(publicKey string, client *guildkit.Client, opts ...Option) (*Handler, error) {
	key, err := ParsePublicKey(publicKey)
	if err != nil {
		return nil, err
	}
	return newHandler("NewHandler", key, client, opts)
}

// newHandler makes a Handler with key (nil for the gateway only).
func newHandler(name string, key ed25519.PublicKey, client *guildkit.Client, opts []Option) (*Handler, error) {
	if client == nil {
		return nil, errors.New("interactions: " + name + ": a *guildkit.Client is required for the answers sent over REST")
	}
	h := &Handler{key: key, client: client, deadline: DefaultDeadline, window: DefaultReplayWindow,
		maxBody: DefaultMaxBody, logger: slog.Default(), clock: realClock{}}
	for _, o := range opts {
		if err := o(h); err != nil {
			return nil, err
		}
	}
	return h, nil
}

// Wait blocks until every function the Handler started has returned, or
// ctx ends; call it after the HTTP server has shut down.
func (h *Handler) Wait(ctx context.Context) error {
	done := make(chan struct{})
	go func() { h.work.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// refuse answers a refused delivery with a short text that reveals nothing.
func (h *Handler) refuse(w http.ResponseWriter, r *http.Request, status int, why string) {
	h.logger.LogAttrs(r.Context(), slog.LevelWarn, "interactions: delivery refused",
		slog.Int("status", status), slog.String("reason", why), slog.String("remote", r.RemoteAddr))
	http.Error(w, http.StatusText(status), status)
}

// ServeHTTP verifies, decodes, routes and answers one delivery.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		h.refuse(w, r, http.StatusMethodNotAllowed, "method "+r.Method)
		return
	}
	if r.ContentLength > h.maxBody {
		h.refuse(w, r, http.StatusRequestEntityTooLarge, "body of "+strconv.FormatInt(r.ContentLength, 10)+" bytes")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.maxBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			h.refuse(w, r, http.StatusRequestEntityTooLarge, "body over "+strconv.FormatInt(h.maxBody, 10)+" bytes")
			return
		}
		h.refuse(w, r, http.StatusBadRequest, "reading the body: "+err.Error())
		return
	}
	if h.key == nil {
		// A gateway-only Handler (NewGatewayHandler) has no key to verify
		// a delivery with: none is genuine.
		h.refuse(w, r, http.StatusUnauthorized, "the Handler has no public key: it serves the gateway only")
		return
	}
	if err := Verify(h.key, r.Header, body, h.clock.Now(), h.window); err != nil {
		h.refuse(w, r, http.StatusUnauthorized, err.Error())
		return
	}
	it := new(guildkit.Interaction)
	// UnmarshalJSON itself, not json.Unmarshal: it checks the JSON in the
	// same pass as it decodes, and json.Unmarshal would scan it once more
	// before calling it.
	if err := it.UnmarshalJSON(body); err != nil {
		h.refuse(w, r, http.StatusBadRequest, "the signed body is not an interaction: "+err.Error())
		return
	}
	switch it.Type {
	case guildkit.InteractionTypePing:
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"type":1}`)
		return
	case guildkit.InteractionTypeApplicationCommand, guildkit.InteractionTypeMessageComponent,
		guildkit.InteractionTypeAutocomplete, guildkit.InteractionTypeModalSubmit:
	default:
		h.refuse(w, r, http.StatusBadRequest, "interaction type "+strconv.Itoa(int(it.Type))+" is not one the Handler answers")
		return
	}
	if it.Token == "" {
		h.refuse(w, r, http.StatusBadRequest, "the interaction has no token")
		return
	}
	h.serve(w, r, it)
}

// serve runs the interaction's function and answers the delivery.
func (h *Handler) serve(w http.ResponseWriter, r *http.Request, it *guildkit.Interaction) {
	ex := &exchange{h: h, it: it, pending: make(chan *pending, 1), served: make(chan struct{})}
	defer close(ex.served)
	fn, params := h.lookup(it)
	// The function's context outlives the HTTP request: it lasts the
	// token's life, and only Wait (or the token's end) bounds it.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), TokenLifetime)
	req := &Request{Interaction: it, params: params, ex: ex}
	// The deadline runs from the delivery's arrival, before the function
	// starts.
	stop := h.clock.AfterFunc(h.deadline, ex.deadlinePassed)
	defer stop()
	done := make(chan struct{})
	h.work.Add(1)
	go func() {
		defer h.work.Done()
		defer cancel()
		defer close(done)
		h.run(ctx, fn, req)
	}()

	if h.mode == AnswerByCallback {
		// Every answer went over REST; the POST is answered when the
		// function is done, so a serverless host keeps it running.
		select {
		case <-done:
		case <-r.Context().Done():
			ex.expire()
			return
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	select {
	case p := <-ex.pending:
		p.finish(writeAnswer(w, p.resp))
	case <-r.Context().Done():
		if p := ex.expire(); p != nil {
			p.finish(fmt.Errorf("interactions: %s: the platform closed the request before the answer: %w", it, guildkit.ErrUnknownInteraction))
		}
	}
}

// writeAnswer writes the answer as the HTTP response: JSON, or multipart
// with its files.
func writeAnswer(w http.ResponseWriter, resp *guildkit.InteractionResponse) error {
	ct, body, err := resp.Encode()
	if err != nil {
		http.Error(w, "encoding the answer failed", http.StatusInternalServerError)
		return err
	}
	w.Header().Set("Content-Type", ct)
	w.WriteHeader(http.StatusOK)
	if _, err := io.Copy(w, body); err != nil {
		return fmt.Errorf("interactions: writing the answer: %w", err)
	}
	// On its way now rather than when ServeHTTP returns: the function's
	// next call (an edit of the original response after the deferral) must
	// reach the platform after it.
	if err := http.NewResponseController(w).Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return fmt.Errorf("interactions: writing the answer: %w", err)
	}
	return nil
}

// run calls fn and answers for it when it did not: unmatched, failed,
// panicked or returned without answering.
func (h *Handler) run(ctx context.Context, fn HandlerFunc, req *Request) {
	it := req.Interaction
	var err error
	if fn == nil {
		h.logger.LogAttrs(ctx, slog.LevelWarn, "interactions: no function for the interaction", slog.Any("interaction", *it))
		h.answerUnhandled(ctx, req, "This interaction is not handled by the application.")
		return
	}
	func() {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("panic: %v", p)
			}
		}()
		err = fn(ctx, req)
	}()
	if err != nil {
		h.logger.LogAttrs(ctx, slog.LevelError, "interactions: the function failed", slog.Any("interaction", *it), slog.String("error", err.Error()))
		h.answerUnhandled(ctx, req, "Something went wrong while handling this interaction.")
		return
	}
	if !req.ex.answeredOrDeferred() {
		h.logger.LogAttrs(ctx, slog.LevelWarn, "interactions: the function returned without answering", slog.Any("interaction", *it))
		h.answerUnhandled(ctx, req, "")
	}
}

// answerUnhandled gives an interaction the function did not answer an
// answer: no choices for an autocomplete; a silent deferred update for a
// component or a modal submitted from a message when there is nothing to
// say; else an ephemeral message with text.
func (h *Handler) answerUnhandled(ctx context.Context, req *Request, text string) {
	it := req.Interaction
	var resp *guildkit.InteractionResponse
	switch {
	case it.Type == guildkit.InteractionTypeAutocomplete:
		resp = guildkit.AutocompleteResponse()
	case text == "" && (it.Type == guildkit.InteractionTypeMessageComponent || it.Message != nil):
		resp = guildkit.DeferredUpdateResponse()
	default:
		if text == "" {
			text = "The application did not answer."
		}
		resp = guildkit.MessageResponse(&guildkit.InteractionMessageParams{Content: guildkit.Some(text), Flags: guildkit.Some(guildkit.MessageFlagEphemeral)})
	}
	if err := req.Respond(ctx, resp); err != nil && !errors.Is(err, guildkit.ErrInteractionAcknowledged) && !errors.Is(err, ErrDeferred) {
		h.logger.LogAttrs(ctx, slog.LevelError, "interactions: answering for the function failed", slog.Any("interaction", *it), slog.String("error", err.Error()))
	}
}
