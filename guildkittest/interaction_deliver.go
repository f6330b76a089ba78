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
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/seed012df1e9/guildkit"
)

// Interaction rules of the reference platform.
const (
	// answerWindow is how long the platform waits for the initial answer.
	answerWindow = 3 * time.Second
	// tokenLife is how long the token answers follow-ups and edits.
	tokenLife = 15 * time.Minute
	// expiredMemory is how long an expired token is remembered after its
	// life, to be told apart from one that never existed.
	expiredMemory = time.Hour
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
	verdict *EndpointCheck // the latest check of handler or url; nil when none
	gen     int            // counts the changes of handler and url
}

// interactionStore is what the server keeps about interactions.
type interactionStore struct {
	byID       map[guildkit.Snowflake]*interactionState
	byToken    map[string]*interactionState
	deliveries []*Delivery // the most recent maxDeliveries, oldest first
	// modals are the modals opened, by the id of the interaction they
	// answered, for the control API to submit; forgotten with the
	// interaction.
	modals map[guildkit.Snowflake]*OpenModal
	// order holds the ids of byID, oldest first (and some forgotten
	// already), for forgetting the oldest past maxInteractions.
	order     []guildkit.Snowflake
	lastSweep time.Time // when forgetExpiredLocked last looked
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

	answered chan struct{} // closed on the initial answer
	// settled is closed when the delivery is over (answered or failed): a
	// REST call of the token that arrives while the HTTP answer is still
	// on its way waits for it (see awaitInteractionSettled).
	settled    chan struct{}
	settleOnce sync.Once
	// responding is closed when the endpoint's HTTP answer starts to
	// arrive; a REST call of the token waits for the answer only then.
	responding   chan struct{}
	respondsOnce sync.Once
	answer       *guildkit.InteractionResponse
	failed       string // why the interaction failed; "" while it has not
	result       *Outcome
	originalID   guildkit.Snowflake // the original response's message; 0 when none
	// deferredPending: after DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE, the
	// first follow-up edits the loading message.
	deferredPending bool
	followups       []guildkit.Snowflake
	// delivery is the interaction's record in Deliveries; nil until
	// delivered. It stays valid when the list is trimmed or the server
	// reset: the state writes to its own record.
	delivery *Delivery
}

func (s *Server) inter() *interactionStore {
	if s.interactions == nil {
		s.interactions = &interactionStore{
			byID:    make(map[guildkit.Snowflake]*interactionState),
			byToken: make(map[string]*interactionState),
			modals:  make(map[guildkit.Snowflake]*OpenModal),
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
		if now.Sub(it.deliveredAt) > tokenLife+expiredMemory {
			s.forgetInteractionLocked(id)
		}
	}
	// The ids of forgotten interactions leave the order, oldest first.
	for len(st.order) > 0 {
		if _, kept := st.byID[st.order[0]]; kept {
			break
		}
		st.order = st.order[1:]
	}
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
		ID: s.newID(), ApplicationID: s.appID(), Type: t, Data: data,
		Guild:   &guildkit.InteractionGuild{ID: g.ID, Locale: g.PreferredLocale, Features: features},
		GuildID: guildkit.Some(g.ID), Channel: &chCopy, ChannelID: guildkit.Some(ch.ID),
		Member: &member, Token: guildkit.InteractionToken(token), Version: 1, Message: msg,
		AppPermissions: s.channelPermissionsLocked(gs, ch, s.bot), Locale: guildkit.Some("en-US"),
		GuildLocale: guildkit.Some(g.PreferredLocale), Entitlements: []map[string]any{},
		AuthorizingIntegrationOwners: map[string]guildkit.Snowflake{"0": g.ID},
		Context:                      guildkit.Some(guildkit.InteractionContextGuild), AttachmentSizeLimit: attachmentSizeLimit,
	}
	// Encoded now, under the lock: the message it carries is the server's.
	// The state keeps it decoded as the application decodes it (its typed
	// data and Raw set), for the Outcome.
	body, _ := json.Marshal(it)
	if err := json.Unmarshal(body, &it); err != nil {
		panic("guildkittest: an interaction that does not decode: " + err.Error())
	}
	st := &interactionState{it: it, body: body, token: token, userID: userID, guildID: g.ID, channelID: ch.ID,
		deliveredAt: now, answered: make(chan struct{}), settled: make(chan struct{}), responding: make(chan struct{})}
	store := s.inter()
	store.byID[it.ID] = st
	store.byToken[token] = st
	store.order = append(store.order, it.ID)
	for len(store.byID) > maxInteractions {
		s.forgetInteractionLocked(store.order[0])
		store.order = store.order[1:]
	}
	return st
}

// maxInteractions is how many interactions the server keeps: past it, the
// oldest is forgotten (its token answers 404 Unknown Webhook, as an
// expired one does), so that a flood of interactions cannot grow the
// server without bound.
const maxInteractions = 1000

// forgetInteractionLocked drops an interaction and the modal it opened.
func (s *Server) forgetInteractionLocked(id guildkit.Snowflake) {
	store := s.inter()
	if st, ok := store.byID[id]; ok {
		delete(store.byToken, st.token)
	}
	delete(store.byID, id)
	delete(store.modals, id)
}

// deliver sends the interaction where the application receives
// interactions, waits for the answer and returns the outcome. The
// application's interactions endpoint, when it has one, gets a signed POST
// (an in-process handler or a URL); without one, the interaction goes to
// its gateway sessions as INTERACTION_CREATE, as on the reference platform
// (gateway.md §9). Both are held to the same rules: the initial answer
// within 3 seconds (by the endpoint's HTTP answer, or through the callback
// route), one answer, the token for 15 minutes.
func (s *Server) deliver(ctx context.Context, st *interactionState) (*Outcome, error) {
	h, url, client := s.endpoint.get()
	overGateway := h == nil && url == ""
	func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		store := s.inter()
		st.delivery = &Delivery{InteractionID: st.it.ID, Type: st.it.Type, CustomID: st.customID, UserID: st.userID, Gateway: overGateway}
		store.deliveries = append(store.deliveries, st.delivery)
		if n := len(store.deliveries) - maxDeliveries; n > 0 {
			store.deliveries = slices.Delete(store.deliveries, 0, n)
		}
	}()

	// The deadline on the server's clock also wakes a wait for a callback.
	clockDue := make(chan struct{})
	stopClock := s.AfterFunc(st.deliveredAt.Add(answerWindow).Sub(s.Now()), func() { close(clockDue) })
	defer stopClock()
	realCtx, cancel := context.WithTimeout(ctx, answerWindow)
	defer cancel()

	var sent delivered
	if overGateway {
		sent = s.sendOverGateway(st)
	} else {
		sent.status, sent.header, sent.answer, sent.err = s.send(realCtx, h, url, client, st.body, false,
			func() { st.respondsOnce.Do(func() { close(st.responding) }) })
		sent.callback = sent.status == http.StatusAccepted
	}
	s.mu.Lock()
	st.delivery.Status = sent.status
	st.delivery.Sessions = sent.sessions
	s.mu.Unlock()
	var undelivered *gatewayUndelivered
	switch {
	case errors.As(sent.err, &undelivered):
		return s.finish(st, undelivered.Error()), nil
	case sent.err != nil:
		reason := "the application did not answer within 3 seconds"
		if !errors.Is(sent.err, context.DeadlineExceeded) && !errors.Is(sent.err, errDeliveryTimeout) {
			reason = "the interactions endpoint could not be reached: " + describeSendError(sent.err)
		}
		if ctx.Err() != nil {
			reason = "the user went away: " + ctx.Err().Error()
		}
		return s.finish(st, reason), nil
	case sent.callback:
		// The answer comes (or came) through the callback route: after a
		// 202 from the endpoint, or after an INTERACTION_CREATE.
		select {
		case <-st.answered:
		case <-clockDue:
		case <-realCtx.Done():
		}
		reason := "the application did not answer within 3 seconds"
		if ctx.Err() != nil {
			reason = "the user went away: " + ctx.Err().Error()
		}
		return s.finish(st, reason), nil
	case sent.status == http.StatusOK:
		s.mu.Lock()
		fail := s.acceptHTTPAnswerLocked(st, sent.header.Get("Content-Type"), sent.answer)
		s.mu.Unlock()
		return s.finish(st, fail), nil
	default:
		return s.finish(st, fmt.Sprintf("the interactions endpoint answered %d %s", sent.status, http.StatusText(sent.status))), nil
	}
}

// delivered is what became of a delivery's sending, by either kind of
// endpoint.
type delivered struct {
	status int // the endpoint's HTTP status; 0 over the gateway, or when it did not answer
	header http.Header
	answer []byte
	// callback is true when the answer is to come through the callback
	// route: the endpoint answered 202, or the interaction went out as
	// INTERACTION_CREATE.
	callback bool
	sessions []string // the gateway sessions it was dispatched to
	err      error
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
// bounded to 3 seconds of real time. The result is kept as the endpoint's
// verdict ([Server.EndpointCheck]).
func (s *Server) CheckInteractionsEndpoint(ctx context.Context) error {
	h, url, client := s.endpoint.get()
	if h == nil && url == "" {
		return ErrNoInteractionsEndpoint
	}
	s.endpoint.mu.Lock()
	gen := s.endpoint.gen
	s.endpoint.mu.Unlock()
	err := s.checkEndpoint(ctx, h, url, client)
	verdict := EndpointCheck{URL: url, OK: err == nil, CheckedAt: s.Now().UTC(), Verdict: endpointReady}
	if err != nil {
		verdict.Verdict = strings.TrimPrefix(err.Error(), "guildkittest: interactions endpoint: ")
	}
	s.endpoint.mu.Lock()
	if s.endpoint.gen == gen { // not changed meanwhile
		s.endpoint.verdict = &verdict
	}
	s.endpoint.mu.Unlock()
	return err
}

// endpointReady is the verdict on an endpoint that passed the check.
const endpointReady = "ready: a signed PING was answered PONG and a PING with an invalid signature 401"

// EndpointCheck is the verdict of the latest check of the interactions
// endpoint ([Server.CheckInteractionsEndpoint]).
type EndpointCheck struct {
	// URL is the endpoint checked; "" for an in-process handler.
	URL string `json:"url"`
	// OK is true when the endpoint passed the check.
	OK bool `json:"ok"`
	// Verdict says what the endpoint did, in a sentence for its developer,
	// such as "a PING with a bad signature was answered 200, want 401:
	// your endpoint accepted an invalid signature — it must verify
	// X-Signature-Ed25519".
	Verdict string `json:"verdict"`
	// CheckedAt is when, on the server's clock.
	CheckedAt time.Time `json:"checked_at"`
}

// EndpointCheck returns the verdict of the latest check of the current
// interactions endpoint, and false when it has not been checked since it
// was set.
func (s *Server) EndpointCheck() (EndpointCheck, bool) {
	s.endpoint.mu.Lock()
	defer s.endpoint.mu.Unlock()
	if s.endpoint.verdict == nil {
		return EndpointCheck{}, false
	}
	return *s.endpoint.verdict, true
}

// InteractionsURL returns the interactions endpoint URL set with
// [Server.SetInteractionsURL]; "" when none is.
func (s *Server) InteractionsURL() string {
	s.endpoint.mu.Lock()
	defer s.endpoint.mu.Unlock()
	return s.endpoint.url
}

// checkEndpoint runs the platform's two checks; see CheckInteractionsEndpoint.
func (s *Server) checkEndpoint(ctx context.Context, h http.Handler, url string, client *http.Client) error {
	s.mu.Lock()
	ping := map[string]any{"id": s.newID(), "application_id": s.appID(), "type": guildkit.InteractionTypePing,
		"token": randomToken(), "version": 1, "app_permissions": "0", "entitlements": []any{},
		"authorizing_integration_owners": map[string]any{}, "attachment_size_limit": attachmentSizeLimit,
		"user": s.userLocked(s.bot)}
	s.mu.Unlock()
	body, _ := json.Marshal(ping)
	check := func(bad bool) (int, []byte, error) {
		cctx, cancel := context.WithTimeout(ctx, answerWindow)
		defer cancel()
		status, _, answer, err := s.send(cctx, h, url, client, body, bad, nil)
		return status, answer, err
	}
	status, answer, err := check(false)
	if err != nil {
		return fmt.Errorf("guildkittest: interactions endpoint: a signed PING got no answer: %s: is the bot running and listening there?", describeSendError(err))
	}
	var pong struct {
		Type *guildkit.InteractionResponseType `json:"type"`
	}
	if status != http.StatusOK || json.Unmarshal(answer, &pong) != nil || pong.Type == nil || *pong.Type != guildkit.InteractionResponsePong {
		hint := "it must answer a PING with PONG"
		if status == http.StatusUnauthorized {
			hint = "your endpoint refused a valid signature — check the public key it verifies with (the application's, printed at start-up)"
		}
		return fmt.Errorf("guildkittest: interactions endpoint: a signed PING was answered %d %.100q, want 200 with {\"type\":1}: %s", status, answer, hint)
	}
	status, _, err = check(true)
	if err != nil {
		return fmt.Errorf("guildkittest: interactions endpoint: a PING with a bad signature got no answer: %s", describeSendError(err))
	}
	if status != http.StatusUnauthorized {
		hint := "the platform refuses an endpoint that does not answer 401 to a bad signature"
		if status >= 200 && status < 300 {
			hint = "your endpoint accepted an invalid signature — it must verify X-Signature-Ed25519"
		}
		return fmt.Errorf("guildkittest: interactions endpoint: a PING with a bad signature was answered %d, want 401: %s", status, hint)
	}
	return nil
}

// errDeliveryTimeout is the in-process handler overrunning its 3 seconds.
var errDeliveryTimeout = errors.New("the handler did not return within 3 seconds")

// errHandlerPanicked is an in-process handler that panicked: over HTTP,
// net/http would close the connection without an answer.
var errHandlerPanicked = errors.New("the endpoint closed the connection without an answer (its handler panicked)")

// answerRecorder records an in-process handler's answer and tells when it
// starts.
type answerRecorder struct {
	*httptest.ResponseRecorder
	once    sync.Once
	started func()
}

func (r *answerRecorder) start() {
	if r.started != nil {
		r.once.Do(r.started)
	}
}

func (r *answerRecorder) WriteHeader(code int) { r.start(); r.ResponseRecorder.WriteHeader(code) }

func (r *answerRecorder) Write(b []byte) (int, error) { r.start(); return r.ResponseRecorder.Write(b) }

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
// platform's endpoint checks do. started, when not nil, is called when the
// answer starts to arrive.
func (s *Server) send(ctx context.Context, h http.Handler, url string, client *http.Client, body []byte, badSignature bool, started func()) (int, http.Header, []byte, error) {
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
		if started != nil {
			started()
		}
		b, err := io.ReadAll(io.LimitReader(resp.Body, MaxUploadBody))
		if err != nil {
			return 0, nil, nil, err
		}
		return resp.StatusCode, resp.Header, b, nil
	}
	req.RemoteAddr = "127.0.0.1:0"
	rec := &answerRecorder{ResponseRecorder: httptest.NewRecorder(), started: started}
	done := make(chan struct{})
	var panicked bool
	go func() {
		defer close(done)
		defer func() {
			// Any panic, http.ErrAbortHandler included: over HTTP the
			// connection closes without an answer.
			panicked = recover() != nil
		}()
		h.ServeHTTP(rec, req)
	}()
	select {
	case <-done:
	case <-ctx.Done():
	}
	if ctx.Err() != nil {
		// As over HTTP: a request whose context ended has no answer, even
		// when the handler returned at the same moment.
		return 0, nil, nil, errDeliveryTimeout
	}
	if panicked {
		return 0, nil, nil, errHandlerPanicked
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
	sig := ed25519.Sign(s.appKey(), append([]byte(ts), body...))
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
	st.settleOnce.Do(func() { close(st.settled) })
	it := st.it
	defer s.publishDeliveryLocked(st)
	if st.result != nil {
		out := *st.result
		out.Interaction = &it
		return &out
	}
	if st.failed == "" {
		st.failed = reason
	}
	if d := st.delivery; d != nil {
		d.Failure = st.failed
		d.Duration = s.now().Sub(st.deliveredAt)
	}
	return &Outcome{Kind: OutcomeFailed, Failure: st.failed, Interaction: &it, Response: st.answer}
}

// publishDeliveryLocked sends the delivery's record to the live feed, once
// it is over.
func (s *Server) publishDeliveryLocked(st *interactionState) {
	if st.delivery == nil {
		return
	}
	d := *st.delivery
	s.feed.publish(FeedItem{Kind: "interaction", Interaction: &d})
}

// awaitInteractionSettled holds a request on an interaction's token routes
// until that interaction has its initial answer or its delivery is over:
// an application that answers in the HTTP response and edits the original
// response at once may reach the route before the server has read the
// answer. It waits at most the
// 3-second answer window, or until r's context ends.
func (s *Server) awaitInteractionSettled(r *http.Request) {
	s.mu.Lock()
	var responding, answered, settled chan struct{}
	if st := s.inter().byToken[r.PathValue("interaction_token")]; st != nil {
		responding, answered, settled = st.responding, st.answered, st.settled
	}
	s.mu.Unlock()
	if settled == nil {
		return
	}
	select {
	case <-responding:
	default:
		// No answer is on its way: a call before the answer meets the
		// platform's 404 at once, without holding the delivery up.
		return
	}
	t := time.NewTimer(answerWindow)
	defer t.Stop()
	select {
	case <-answered:
	case <-settled:
	case <-t.C:
	case <-r.Context().Done():
	}
}
