// Package guildkittest provides an in-memory implementation of the guild
// interface for tests.
//
// A [Server] is a real HTTP server on the loopback interface, shaped like
// httptest.Server: start one with [NewServer] in a test (it closes itself
// through t.Cleanup), seed it with guilds, users, members, roles and
// channels, point a bot at [Server.BaseURL] or take a ready
// [*guildkit.Client] from [Server.Client], and inspect what happened with
// [Server.Events] and [Server.Requests].
//
// It implements the interface's documented behaviour: authentication (401
// for an unknown token), permissions computed from roles (the owner and
// ADMINISTRATOR holders have every permission the platform defines; everyone
// else has the union of
// the @everyone role and their roles), the interface's error body, status
// codes, state transitions and the gateway events each operation emits.
// Where the documents are silent it follows the reference platform (API
// v10): the role hierarchy, the grant limit and the owner's protection
// (403, code 50013); tokens of 256 random bits, each good with its own
// scheme only ("Bot" or "Bearer"); body limits (413, code 40005), 10 files
// a message, strict JSON bodies, 405 with Allow.
//
// It stays up under hostile input: every body is read and bounded before
// the server's lock is taken, so a large or slow body holds up only its own
// request; the request and event logs are bounded rings
// ([WithRequestLogSize], [WithEventLogSize]); the HTTP server has header,
// idle and body timeouts ([WithHTTPTimeouts]).
//
// It plays the platform for interactions, following the reference
// platform's v10 interactions API where the documents are silent: a user
// clicks a button ([Server.Click]), chooses in a select ([Server.Select]) or
// submits a modal ([Server.SubmitModal]) on a message the application sent
// ([Server.AddApplicationMessage], or through [Server.ApplicationWebhook]);
// the server delivers the signed interaction to the application's endpoint
// ([Server.SetInteractionsHandler], [Server.SetInteractionsURL]), takes its
// answer in the HTTP response or on the callback route, applies the
// platform's rules (3 seconds for the initial answer, one answer, 15 minutes
// for follow-ups) on its clock, and returns what the user saw
// ([Outcome]). [Server.AfterFunc] makes the server a clock that
// [Server.AdvanceClock] moves, so code with deadlines is tested without
// sleeping.
//
// It stores each application's commands, globally and per guild, behind
// the platform's application-command routes, checked with the SDK's rules
// and held to the platform's limits; a user runs one ([Server.RunCommand],
// [Server.Run], [Server.Autocomplete], [Server.RunUserCommand],
// [Server.RunMessageCommand]) only when it is registered where it is run
// and with the options the platform's client would send.
//
// # Messages
//
// Channels and DMs keep their messages as the reference platform's message
// API does (Get Channel Messages, Create, Edit, Delete and Bulk Delete
// Message, own reactions, Trigger Typing, Create DM, Get Channel, Get
// User), checked with each user's effective permissions in the channel
// and answered with the platform's codes; each channel keeps
// [WithChannelMessageLimit] messages. Members post with [Server.Post] and
// [Server.PostMessage], checked against their own permissions, so a bot
// that reads messages (a prefix command, a spam filter) is tested as one
// that answers interactions is; [Server.DMChannel] is the bot's DM with a
// user, [Server.ChannelMessages] what a user sees of a channel. Buttons and
// selects on messages the bot sent to a channel deliver interactions.
//
// # Gateway
//
// The server is also the platform's real-time gateway (v10), which
// unmodified bots in any language connect to. GET /gateway answers
// {"url": "ws://127.0.0.1:port"} ([Server.GatewayURL]: no path, no query;
// the WebSocket endpoint answers at "/" with any query, with or without a
// trailing slash); GET /gateway/bot adds shards and session_start_limit;
// GET /oauth2/applications/@me is the application. A connection asks for
// v 9 or 10 (else 4012), encoding json (etf is refused) and compress
// zlib-stream or zstd-stream, or IDENTIFY's compress for per-message zlib.
//
// Sessions run as the platform runs them: HELLO, heartbeats answered with
// op 11 (1.5 intervals of the server's clock without one close 4000),
// IDENTIFY checked (4003, 4004, 4005, 4010, 4011, 4013, 4014; op 9 beyond
// max_concurrency per 5 s), READY with every field the strictest libraries
// read and resume_gateway_url on a second loopback port
// ([Server.ResumeGatewayURL]), one GUILD_CREATE per guild of the shard,
// then every event the server's operations emit, with the platform's
// payload, routed by shard ((guild_id >> 22) % num_shards) and filtered by
// intents and permissions; op 8 answered with GUILD_MEMBERS_CHUNK; RESUME
// replays what the session missed, in order, then RESUMED; a session is
// kept for ResumeWindow of the server's clock after any close but
// 1000/1001. Limits: 4096 bytes a payload (4002), SendLimit payloads per 60
// s (4008), a bounded outbound queue per session (a connection that does
// not read is closed, resumable). [GatewaySettings] ([WithGateway],
// [Server.SetGatewaySettings]) sets them, and GuildsPerShard, the 4011
// threshold, so that sharding and resharding can be tested;
// [Server.SetPrivilegedIntents] (or a seed's application) sets the
// approved privileged intents.
//
// Go tests inspect and break sessions: [Server.GatewaySessions],
// [Server.GatewayFrames] (each session's frames, decompressed, tokens
// redacted, with the dispatches it did not get and why),
// [Server.IdentifyStats], [Server.InjectGatewayFault] (reconnect,
// invalid_session, close, drop, withhold_acks, silence, request_heartbeat)
// and [Server.DispatchGatewayEvent] for events the server does not emit
// itself.
//
// All methods are safe for concurrent use. Seeding methods panic on
// impossible input (an unknown guild id, for example), as
// httptest.NewRequest does: they are for test set-up.
package guildkittest

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed012df1e9/guildkit"
)

// APIPrefix is the path under which the server also answers, as a real
// deployment does ("https://host/api/v10/guilds/1"). [Server.BaseURL] includes
// it.
const APIPrefix = "/api/v10"

// Server is an in-memory guild interface served over HTTP.
type Server struct {
	files fileStore // uploaded attachments' bytes: attachment.go

	// URL is the server's root address, "http://127.0.0.1:port", with no
	// trailing slash. The interface is served both at URL and at URL +
	// APIPrefix.
	URL string

	srv *httptest.Server

	mu       sync.Mutex
	now      func() time.Time
	lastID   guildkit.Snowflake
	tokens   map[string]guildkit.Snowflake // token → user
	bot      guildkit.Snowflake
	botToken string
	users    map[guildkit.Snowflake]*guildkit.User
	guilds   map[guildkit.Snowflake]*guildState
	invites  map[string]*inviteState // by code
	events   ring[Event]             // the event log: limits.go
	logMu    sync.Mutex              // guards requests; never held while taking mu
	// seedMu makes the control API's seeding one step: its conflict check
	// and the seed's application, which panics on a conflict.
	seedMu   sync.Mutex
	requests ring[Request] // the request log: limits.go
	timeouts httpTimeouts  // the HTTP server's: limits.go
	inv      inviteServer  // invite settings and scheduled events

	membersIntentOff bool       // List Guild Members answers 403; see SetMembersIntent
	limits           rateLimits // rate limits, latency and concurrency: ratelimit.go

	webhooks *webhookStore // webhooks, their messages, webhook thread state; made on first use

	chatMessages *chatLog // channels' ordinary messages and DM channels; made on first use: message.go
	chatLimit    int      // ordinary messages a channel keeps: WithChannelMessageLimit

	clockOffset atomic.Int64        // nanoseconds added to the clock: AdvanceClock
	routeSet    map[string]struct{} // "METHOD /template" of every route, for InjectFault
	faults      faults              // injected faults: faults.go
	feed        feed                // live subscribers: feed.go
	adminToken  string              // the control API's token; "" when it needs none: control.go
	closing     chan struct{}       // closed by Close, ending fault delays

	app          application         // the application: interaction.go
	interactions *interactionStore   // interactions delivered; made on first use: interaction.go
	appMux       *http.ServeMux      // the interaction-token webhook routes: interaction_routes.go
	timers       clockTimers         // AfterFunc's timers: interaction_clock.go
	endpoint     interactionEndpoint // where interactions are delivered: interaction_deliver.go
	commands     *commandStore       // registered application commands; made on first use: command_store.go
	gw           gatewayHub          // the gateway's sessions: gateway.go
	closeOnce    sync.Once
}

// Event is a gateway event an operation emitted.
type Event struct {
	Name    guildkit.EventName
	GuildID guildkit.Snowflake
	// Data is a copy of the object the event carries (a guildkit.Guild for
	// GUILD_UPDATE, a guildkit.Member for GUILD_MEMBER_ADD, ...).
	Data any
}

// Request is one request the server answered.
type Request struct {
	Method string
	// Route is the route template the request matched, in the interface's
	// notation ("/guilds/{guild.id}/members/{user.id}"), or "" when it matched
	// none.
	Route string
	Path  string // the path as sent, without APIPrefix
	Query map[string][]string
	// Header is the request's header; an Authorization value is kept as
	// its scheme only ("Bot [redacted]").
	Header http.Header
	// Body is the request body when it was JSON and at most 64 KiB.
	Body   []byte
	Status int
}

// Option configures a [Server].
type Option func(*Server)

// WithClock sets the server's clock, for timeouts, incident actions and
// prune activity. The default is time.Now.
func WithClock(now func() time.Time) Option { return func(s *Server) { s.now = now } }

// NewServer starts a server and closes it when tb's test ends.
func NewServer(tb testing.TB, opts ...Option) *Server {
	tb.Helper()
	s := New(opts...)
	tb.Cleanup(s.Close)
	return s
}

// New starts a server outside a test, on a free loopback port; the caller
// must Close it.
func New(opts ...Option) *Server {
	s := newServer(opts)
	s.srv = httptest.NewUnstartedServer(s.handler())
	s.timeouts.configure(s.srv.Config)
	s.srv.Start()
	s.URL = s.srv.URL
	return s
}

// Listen starts a server on addr ("127.0.0.1:8080"; port 0 picks a free
// one), as the standalone emulator does; the caller must Close it. Its
// [Server.URL] names the address it listens on, with a loopback address
// (127.0.0.1) in place of an unspecified one ("0.0.0.0:0", ":8080"), so
// that it is an address a client on the same machine can use.
func Listen(addr string, opts ...Option) (*Server, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("guildkittest: %w", err)
	}
	s := newServer(opts)
	s.srv = httptest.NewUnstartedServer(s.handler())
	_ = s.srv.Listener.Close()
	s.srv.Listener = l
	s.timeouts.configure(s.srv.Config)
	s.srv.Start()
	s.URL = usableURL(l.Addr())
	return s, nil
}

// newServer makes a server's state from its options: the bot user and its
// token.
func newServer(opts []Option) *Server {
	s := &Server{now: time.Now, closing: make(chan struct{})}
	s.initGateway()
	s.requests.max = DefaultRequestLogSize
	s.events.max = DefaultEventLogSize
	s.timeouts = httpTimeouts{DefaultReadHeaderTimeout, DefaultIdleTimeout, DefaultBodyTimeout}
	for _, o := range opts {
		o(s)
	}
	clock := s.now
	s.now = func() time.Time { return clock().Add(time.Duration(s.clockOffset.Load())) }
	s.requests.budget = s.requests.max * requestLogBytesPerEntry
	s.resetState()
	bot := s.AddUser(guildkit.User{Username: "guildkit-bot", Bot: true})
	s.bot = bot.ID
	s.botToken = s.NewToken(bot.ID)
	s.initApplication()
	return s
}

// resetState empties everything the server keeps but its options; the
// caller holds s.mu or owns s alone.
func (s *Server) resetState() {
	s.files.reset()
	s.tokens = make(map[string]guildkit.Snowflake)
	s.users = make(map[guildkit.Snowflake]*guildkit.User)
	s.guilds = make(map[guildkit.Snowflake]*guildState)
	s.invites = nil
	s.events.reset()
	s.logMu.Lock()
	s.requests.reset()
	s.logMu.Unlock()
	s.inv.events = nil
	s.webhooks = nil
	s.chatMessages = nil
	s.interactions = nil
	s.commands = nil
}

// Reset empties the server, as if it had just started, keeping its options,
// the bot user and the bot's token (a bot already running against it goes
// on working). Injected faults are cleared.
func (s *Server) Reset() {
	s.mu.Lock()
	bot := *s.users[s.bot]
	s.resetState()
	s.users[bot.ID] = &bot
	s.tokens[s.botToken] = bot.ID
	s.mu.Unlock()
	s.ClearFaults()
}

// handler is the server's whole HTTP handler: the interface at the root and
// under APIPrefix, and the emulator's control API under ControlPrefix.
func (s *Server) handler() http.Handler {
	api := http.NewServeMux()
	s.routes(api)
	api.HandleFunc("/", s.allowHandler(api))
	s.appMux.HandleFunc("/", s.allowHandler(s.appMux))
	// /webhooks/{application.id}/{interaction.token}/... has the shape of
	// the webhook-token routes: a path naming the application goes to the
	// interaction routes (interaction_routes.go).
	apiRoutes := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.isApplicationWebhookPath(r.URL.Path) {
			s.appMux.ServeHTTP(w, r)
			return
		}
		api.ServeHTTP(w, r)
	})
	root := http.NewServeMux()
	root.Handle(APIPrefix+"/", http.StripPrefix(APIPrefix, apiRoutes))
	root.Handle(ControlPrefix, s.controlHandler())
	root.HandleFunc("GET /attachments/{channel}/{id}/{filename}", s.serveAttachment)
	root.HandleFunc("GET /invite/{code}", s.serveInviteLink)
	root.Handle("/", apiRoutes)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if isGatewayUpgrade(r) {
			s.serveGateway(w, r, false)
			return
		}
		root.ServeHTTP(w, r)
	})
}

// Close shuts the server down and waits for requests in flight. Live feed
// streams end.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		close(s.closing)
		s.feed.closeAll()
		s.closeGateway()
		s.timers.close()
	})
	s.srv.Close()
}

// AdvanceClock moves the server's clock forward by d (timeouts, invite
// expiry, incident actions, prune activity and the interaction deadlines
// read it). The [Server.AfterFunc] functions the move makes due run before
// AdvanceClock returns, in the order of their times, in the caller's
// goroutine.
func (s *Server) AdvanceClock(d time.Duration) {
	s.clockOffset.Add(int64(d))
	s.timers.fireDue(s.Now())
}

// Now returns the server's clock: [WithClock]'s, or time.Now, plus what
// [Server.AdvanceClock] added.
func (s *Server) Now() time.Time { return s.now() }

// BaseURL is the address to give guildkit.WithBaseURL: URL + APIPrefix.
func (s *Server) BaseURL() string { return s.URL + APIPrefix }

// Token returns the bot's token.
func (s *Server) Token() string { return s.botToken }

// BotID returns the bot user's id.
func (s *Server) BotID() guildkit.Snowflake { return s.bot }

// NewToken makes a bot token that authenticates as userID, presented as
// "Authorization: Bot <token>". It has the platform's shape, which some
// libraries read (disgo takes the application's id from it): the user's id
// in base64, a dot, a time part (the server's clock, base64), a dot, and a
// secret of 256 random bits from crypto/rand (base64url, 43 characters).
// Only the secret part is secret: the id is public, and nothing the server
// answers lets anyone derive the secret.
func (s *Server) NewToken(userID guildkit.Snowflake) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.newBotTokenLocked(userID)
}

// newBotTokenLocked makes a bot token of the platform's shape for userID;
// the caller holds s.mu or owns s alone.
func (s *Server) newBotTokenLocked(userID guildkit.Snowflake) string {
	var ts [4]byte
	binary.BigEndian.PutUint32(ts[:], uint32(s.now().Unix()))
	prefix := base64.RawStdEncoding.EncodeToString([]byte(userID.String())) + "." +
		base64.RawURLEncoding.EncodeToString(ts[:]) + "."
	return s.newTokenLocked(prefix, userID)
}

// newTokenLocked makes a random token with prefix (which says what kind of
// token it is, never whose) for userID; the caller holds s.mu or owns s
// alone.
func (s *Server) newTokenLocked(prefix string, userID guildkit.Snowflake) string {
	for {
		tok := prefix + randomToken()
		if _, taken := s.tokens[tok]; !taken {
			s.tokens[tok] = userID
			return tok
		}
	}
}

// randomToken returns 256 bits from crypto/rand, base64url-encoded (43
// characters, no padding).
func randomToken() string {
	var b [32]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24)
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// Client returns a client that authenticates as the bot, pointed at the
// server, with quick retries. opts are applied after those defaults.
func (s *Server) Client(opts ...guildkit.Option) *guildkit.Client {
	return s.clientWith(guildkit.BotToken(s.botToken), opts)
}

// ClientAs returns a client that authenticates as the user userID (a bot
// token of that user), for permission tests.
func (s *Server) ClientAs(userID guildkit.Snowflake, opts ...guildkit.Option) *guildkit.Client {
	return s.clientWith(guildkit.BotToken(s.NewToken(userID)), opts)
}

func (s *Server) clientWith(cred guildkit.Credential, opts []guildkit.Option) *guildkit.Client {
	base := []guildkit.Option{
		guildkit.WithBaseURL(s.BaseURL()),
		guildkit.WithHTTPClient(s.srv.Client()),
		guildkit.WithRetry(2, time.Millisecond, 50*time.Millisecond),
	}
	c, err := guildkit.New(cred, slices.Concat(base, opts)...)
	if err != nil {
		panic("guildkittest: " + err.Error())
	}
	return c
}

// Events returns the events emitted so far, oldest first: the most recent
// [DefaultEventLogSize] (see [WithEventLogSize]).
func (s *Server) Events() []Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.events.all()
}

// EventsNamed returns the events emitted so far with the given name.
func (s *Server) EventsNamed(name guildkit.EventName) []Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Event
	for _, e := range s.events.all() {
		if e.Name == name {
			out = append(out, e)
		}
	}
	return out
}

// Requests returns the requests answered so far, oldest first: the most
// recent [DefaultRequestLogSize] (see [WithRequestLogSize]).
func (s *Server) Requests() []Request {
	s.settle()
	s.logMu.Lock()
	defer s.logMu.Unlock()
	return s.requests.all()
}

// LastRequest returns the most recent request, and false when there is none.
func (s *Server) LastRequest() (Request, bool) {
	s.settle()
	s.logMu.Lock()
	defer s.logMu.Unlock()
	return s.requests.last()
}

// settle waits for the handler in progress, if any, which records its
// request before it releases s.mu.
func (s *Server) settle() {
	s.mu.Lock()
	defer s.mu.Unlock()
}

// emit records an event; the caller holds s.mu.
func (s *Server) emit(name guildkit.EventName, guildID guildkit.Snowflake, data any) {
	e := Event{Name: name, GuildID: guildID, Data: data}
	s.events.push(e, 0)
	s.feed.publish(FeedItem{Kind: "event", Event: &e})
	s.dispatchLocked(e)
}

// newID returns a fresh snowflake from the server's clock; the caller holds
// s.mu (or is seeding before the server is shared).
func (s *Server) newID() guildkit.Snowflake {
	id := guildkit.SnowflakeFromTime(s.now())
	if id <= s.lastID {
		id = s.lastID + 1
	}
	s.lastID = id
	return id
}

// authKind says how a route authenticates.
type authKind uint8

const (
	authRequired authKind = iota // a known token in "Authorization: Bot|Bearer <token>"
	authNone                     // none: webhook-token routes, the widget image
)

// call is one request being handled. Handlers run with s.mu held.
type call struct {
	s      *Server
	w      http.ResponseWriter
	r      *http.Request
	user   guildkit.Snowflake // the authenticated user, 0 on authNone routes
	status int

	body    []byte // the body, read before the lock (nil for streamed routes)
	logBody []byte // what the request log keeps of it
	upload  any    // what a streamed route's reader made of its body
}

// registrar registers a handler for a Go ServeMux pattern whose wildcards
// are named like the interface's placeholders with dots as underscores:
// "GET /guilds/{guild_id}/members/{user_id}". A route's body is at most
// [MaxJSONBody] unless an option says otherwise.
type registrar func(pattern string, auth authKind, h func(*call), opts ...routeOption)

// routes registers every route. Each resource adds its own in its file.
func (s *Server) routes(m *http.ServeMux) {
	s.routeSet = make(map[string]struct{})
	reg := s.registrarFor(m)
	// Each resource registers its routes in its own file.
	for _, register := range []func(registrar){
		s.guildRoutes,
		s.inviteRoutes,
		s.memberRoutes,
		s.channelRoutes,
		s.messageRoutes,
		s.webhookRoutes,
		s.interactionRoutes,
		s.userRoutes,
		s.commandRoutes,
		s.gatewayRoutes,
	} {
		register(reg)
	}
	s.appMux = http.NewServeMux()
	s.applicationWebhookRoutes(s.registrarFor(s.appMux))
}

// registrarFor returns the registrar that adds routes to m.
func (s *Server) registrarFor(m *http.ServeMux) registrar {
	return registrar(func(pattern string, auth authKind, h func(*call), opts ...routeOption) {
		method, route, _ := strings.Cut(pattern, " ")
		route = specRoute(route)
		s.routeSet[method+" "+route] = struct{}{}
		rc := routeConfig{limit: MaxJSONBody}
		for _, o := range opts {
			o(&rc)
		}
		m.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
			if s.playFault(w, r, route) {
				return
			}
			release, ok := s.admit(w, r, route)
			defer release()
			if !ok {
				return
			}
			c := &call{s: s, w: w, r: r, status: http.StatusOK}
			// The body is read, within the route's limit, before the
			// lock: a large or slow one holds up only this request.
			if !c.readBody(rc) {
				s.record(r, route, c.logBody, c.status)
				return
			}
			if strings.Contains(pattern, "/webhooks/{application_id}/{interaction_token}") {
				s.awaitInteractionSettled(r)
			}
			s.mu.Lock()
			defer s.mu.Unlock()
			// Recorded before the lock is released: Requests waits for
			// handlers in progress.
			defer func() { s.record(r, route, c.logBody, c.status) }()
			if auth == authRequired {
				user, ok := s.authenticate(r)
				if !ok {
					c.error(http.StatusUnauthorized, 0, "401: Unauthorized")
					return
				}
				c.user = user
			}
			h(c)
		})
	})
}

// record appends to the request log (a bounded ring, without Authorization
// values) and publishes the request to the live feed. It takes s.logMu, so
// it may be called with or without s.mu held.
func (s *Server) record(r *http.Request, route string, body []byte, status int) {
	rec := Request{
		Method: r.Method, Route: route, Path: redactPath(r.URL.Path), Query: r.URL.Query(),
		Header: redactedHeader(r.Header), Body: body, Status: status,
	}
	s.logMu.Lock()
	s.requests.push(rec, requestSize(&rec))
	s.logMu.Unlock()
	s.feed.publish(FeedItem{Kind: "request", Request: &rec})
}

// specRoute turns a ServeMux route into the interface's notation:
// "/guilds/{guild_id}" → "/guilds/{guild.id}".
func specRoute(route string) string {
	var b strings.Builder
	for {
		open := strings.IndexByte(route, '{')
		if open < 0 {
			b.WriteString(route)
			return b.String()
		}
		end := strings.IndexByte(route, '}')
		name := route[open+1 : end]
		if i := strings.LastIndexByte(name, '_'); i >= 0 {
			name = name[:i] + "." + name[i+1:]
		}
		b.WriteString(route[:open] + "{" + name + "}")
		route = route[end+1:]
	}
}

// authenticate finds the user r's credential names. A bot token counts only
// as "Bot <token>" and an OAuth2 access token ([Server.NewAccessToken]) only
// as "Bearer <token>": the reference platform answers 401 to a credential
// presented with the other scheme, and so does the server.
func (s *Server) authenticate(r *http.Request) (guildkit.Snowflake, bool) {
	h := r.Header.Get("Authorization")
	scheme, tok, ok := strings.Cut(h, " ")
	if !ok {
		return 0, false
	}
	access := strings.HasPrefix(tok, accessTokenPrefix)
	if (scheme != "Bot" || access) && (scheme != "Bearer" || !access) {
		return 0, false
	}
	id, ok := s.tokens[tok]
	return id, ok
}

// json writes v with status.
func (c *call) json(status int, v any) {
	v = withShapes(v)
	c.status = status
	c.w.Header().Set("Content-Type", "application/json")
	c.w.WriteHeader(status)
	_ = json.NewEncoder(c.w).Encode(v)
}

// noContent answers 204.
func (c *call) noContent() {
	c.status = http.StatusNoContent
	c.w.WriteHeader(http.StatusNoContent)
}

// error writes the interface's error body: {"code": code, "message": msg}.
func (c *call) error(status int, code guildkit.ErrorCode, msg string) {
	c.status = status
	writeError(c.w, status, code, msg)
}

// formError answers 400 Invalid Form Body with the nested errors object
// built from path → message ("roles.0" → "..."), as the platform does.
func (c *call) formError(problems map[string]string) {
	nested := map[string]any{}
	for path, msg := range problems {
		node := nested
		var parts []string // none for the body itself
		if path != "" {
			parts = strings.Split(path, ".")
		}
		for _, p := range parts {
			next, ok := node[p].(map[string]any)
			if !ok {
				next = map[string]any{}
				node[p] = next
			}
			node = next
		}
		errs, _ := node["_errors"].([]any)
		node["_errors"] = append(errs, map[string]string{"code": "BASE_TYPE_INVALID", "message": msg})
	}
	c.json(http.StatusBadRequest, map[string]any{
		"code": guildkit.CodeInvalidFormBody, "message": "Invalid Form Body", "errors": nested,
	})
}

func writeError(w http.ResponseWriter, status int, code guildkit.ErrorCode, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"code": code, "message": msg})
}

// decode reads the JSON body into v, answering 400 when it is not valid
// JSON, when it is null, when anything but white space follows the value
// (50109), or when a field does not fit v (50035 with its path), as the
// reference platform does.
func (c *call) decode(v any) bool {
	b, err := io.ReadAll(c.r.Body) // already bounded: readBody
	if err != nil {
		c.bodyError(err)
		return false
	}
	if p := decodeJSON(b, v); p != nil {
		c.badBody(p)
		return false
	}
	return true
}

// id parses the path wildcard name as a snowflake, answering 404 with code
// when it is not one.
func (c *call) id(name string, code guildkit.ErrorCode, what string) (guildkit.Snowflake, bool) {
	id, err := guildkit.ParseSnowflake(c.r.PathValue(name))
	if err != nil {
		c.error(http.StatusNotFound, code, "Unknown "+what)
		return 0, false
	}
	return id, true
}
