package guildkit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/seed012df1e9/guildkit/internal/ratelimit"
)

// Version is the version of guildkit, sent in the default User-Agent.
const Version = "0.1.0"

// DefaultUserAgent is the User-Agent sent when [WithUserAgent] is not used.
const DefaultUserAgent = "guildkit (https://github.com/seed012df1e9/guildkit, " + Version + ")"

// Credential authenticates the client's requests. Make one with [BotToken] or
// [BearerToken]. Its string forms never show the token.
type Credential interface {
	authorization() string
	authorizationHeader() []string // the Authorization header's value, shared by the calls
	String() string
}

type credential struct {
	scheme string
	token  *secret
	header *secret // scheme + " " + token, built once: every call sends it
}

func (c credential) authorization() string { return c.header.value() }

func (c credential) authorizationHeader() []string { return c.header.values() }

func newCredential(scheme, token string) credential {
	return credential{scheme: scheme, token: newSecret(token), header: newSecret(scheme + " " + token)}
}

// String returns the scheme and a placeholder, never the token.
func (c credential) String() string { return c.scheme + " <redacted>" }

// GoString returns the same as String, so %#v does not show the token either.
func (c credential) GoString() string { return c.String() }

// Format prints String for every verb, so no verb reaches the token.
func (c credential) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, c.String()) }

// LogValue logs String.
func (c credential) LogValue() slog.Value { return slog.StringValue(c.String()) }

// MarshalJSON encodes String.
func (c credential) MarshalJSON() ([]byte, error) { return json.Marshal(c.String()) }

// credentialToken returns the secret part of cred, or "" when there is
// none.
func credentialToken(cred Credential) string {
	if c, ok := cred.(credential); ok {
		return c.token.value()
	}
	return ""
}

// secret holds a token behind two pointers. fmt prints a pointer it meets
// inside a struct as an address, never what it points at; only a verb the
// type does not support makes it print the value it was given as is, one
// level deep. Two levels keep the token out of reach either way, so a value
// that holds a *secret (a Client or a WebhookClient, copied, nested or
// embedded) cannot print the token under any verb; encoding/json does not
// see unexported fields at all.
type secret struct{ p *[1]string }

func newSecret(s string) *secret { return &secret{&[1]string{s}} }

func (s *secret) value() string {
	if s == nil || s.p == nil {
		return ""
	}
	return s.p[0]
}

// values returns the secret as a header's value: a slice of one, shared
// by every request that sends it.
func (s *secret) values() []string {
	if s == nil || s.p == nil {
		return nil
	}
	return s.p[:]
}

// Format, LogValue and MarshalJSON show a placeholder, should a secret ever
// be printed on its own.
func (s *secret) Format(f fmt.State, _ rune)   { _, _ = io.WriteString(f, "<redacted>") }
func (s *secret) LogValue() slog.Value         { return slog.StringValue("<redacted>") }
func (s *secret) MarshalJSON() ([]byte, error) { return []byte(`"<redacted>"`), nil }

// BotToken is a bot's token, sent as "Authorization: Bot <token>" (the
// reference platform's form; the interface leaves the header syntax unshown).
// Give the token alone: [New] refuses one that starts with "Bot ", a habit
// from other libraries.
func BotToken(token string) Credential { return newCredential("Bot", token) }

// BearerToken is a user's OAuth2 access token, sent as
// "Authorization: Bearer <token>".
func BearerToken(token string) Credential { return newCredential("Bearer", token) }

// Client talks to the guild interface. Make one with [New]; it is safe for
// concurrent use, and all its services share one transport (retries and rate
// limits). A Client holds no goroutine of its own.
type Client struct {
	baseURL   *url.URL
	base      string // baseURL as a string, which every call's URL starts with
	cred      Credential
	userAgent string
	// userAgentHeader is the User-Agent header's value, shared by the calls.
	userAgentHeader []string
	logger          *slog.Logger
	http            *http.Client // the rate-limit (and observer) layers over the caller's client
	retry           retryPolicy
	limiter         *ratelimit.Transport // the bucket layer below the retries
	observer        *Observer            // nil unless WithObserver

	reservedWebhookNames []string // nil means defaultReservedWebhookNames

	Guilds   *GuildService   // guild settings, widget, welcome screen, onboarding, incidents, integrations
	Channels *ChannelService // channels and threads, typing
	Messages *MessageService // messages of channels and DMs, reactions
	Users    *UserService    // users: DM channels
	Members  *MemberService  // guild members and prune
	Bans     *BanService     // bans
	Roles    *RoleService    // roles
	Invites  *InviteService  // invites and their target users
	Webhooks *WebhookService // webhooks and webhook messages
	// Interactions answers interactions: callback, original response,
	// follow-ups. No credential is needed for them.
	Interactions *InteractionService
	// Commands registers the application's commands, globally and in
	// guilds.
	Commands *CommandService
	// Applications reads the bot's application (its id, for Commands).
	Applications *ApplicationService
	// Gateway finds the real-time gateway (GET /gateway, GET /gateway/bot).
	Gateway *GatewayService
}

// service is the one struct every service type is made from.
type service struct{ c *Client }

// Option configures a [Client] made by [New].
type Option func(*config) error

type config struct {
	baseURL    string
	httpClient *http.Client
	userAgent  string
	logger     *slog.Logger
	retry      retryPolicy
	limits     rateLimitConfig
	observer   *Observer

	reservedWebhookNames []string // WithReservedWebhookNames; nil means the defaults
}

// WithBaseURL sets the interface's address, such as
// "https://chat.example.com/api/v10". It is required: the address depends on
// the deployment, and New reads no environment variable. A trailing slash is
// ignored.
func WithBaseURL(u string) Option {
	return func(c *config) error {
		c.baseURL = u
		return nil
	}
}

// WithHTTPClient sets the HTTP client whose transport sends the requests. Its
// Timeout, if any, bounds each attempt, including the attempt's wait for its
// rate-limit bucket. The default is a client with no timeout (use contexts)
// and the standard library's default transport settings. The client is not
// changed: guildkit sends through a copy whose transport keeps the rate
// limits before handing each request to hc's transport.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *config) error {
		if hc == nil {
			return errors.New("WithHTTPClient: nil client")
		}
		c.httpClient = hc
		return nil
	}
}

// WithUserAgent sets the User-Agent header. The default is [DefaultUserAgent].
func WithUserAgent(ua string) Option {
	return func(c *config) error {
		c.userAgent = ua
		return nil
	}
}

// WithLogger sets the logger for debug records of requests, retries and
// waits. Records name route templates, never URLs or tokens. The default logs
// nothing, and no logging work is done at levels the logger does not enable.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) error {
		c.logger = l
		return nil
	}
}

// WithRetry sets how often a failed attempt is retried (max, default 3) and
// the bounds of the backoff between attempts after a server error or a lost
// connection (default 500ms to 30s, doubling). A rate-limited attempt waits
// as long as the service asks instead (see [WithMaxRateLimitWait]). max 0
// turns retries off.
//
// Which failures are retried: a 429 always (after the wait the service asks
// for); 408, 502, 503, 504 and connection errors only for GET, HEAD, PUT and
// DELETE, never for POST or PATCH, so a request that may have taken effect is
// not sent twice. A body that cannot be rewound (a non-seekable file) is
// never sent twice.
func WithRetry(max int, minWait, maxWait time.Duration) Option {
	return func(c *config) error {
		if max < 0 || minWait < 0 || maxWait < minWait {
			return fmt.Errorf("WithRetry: need max >= 0 and 0 <= minWait <= maxWait, got %d, %v, %v", max, minWait, maxWait)
		}
		c.retry.max, c.retry.minWait, c.retry.maxWait = max, minWait, maxWait
		return nil
	}
}

// WithMaxRateLimitWait sets the longest wait for a rate limit the client
// accepts before retrying (default 60s). A 429 that asks for a longer wait
// fails at once with a [*RateLimitError] carrying the wait, instead of
// sleeping through it. A wait that would outlast the context's deadline
// fails the same way, whatever this limit.
func WithMaxRateLimitWait(d time.Duration) Option {
	return func(c *config) error {
		if d < 0 {
			return fmt.Errorf("WithMaxRateLimitWait: negative duration %v", d)
		}
		c.retry.maxRateLimitWait = d
		return nil
	}
}

// New returns a client that authenticates with cred. cred may be nil for a
// client used only for webhook-token operations, which need no credential.
// [WithBaseURL] is required.
func New(cred Credential, opts ...Option) (*Client, error) {
	cfg := config{
		limits:    defaultRateLimitConfig(),
		userAgent: DefaultUserAgent,
		retry: retryPolicy{
			max: 3, minWait: 500 * time.Millisecond, maxWait: 30 * time.Second,
			maxRateLimitWait: 60 * time.Second,
		},
	}
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, fmt.Errorf("guildkit: %w", err)
		}
	}
	if cfg.baseURL == "" {
		return nil, errors.New("guildkit: WithBaseURL is required: the interface's address depends on the deployment (for example https://chat.example.com/api/v10)")
	}
	base, err := url.Parse(strings.TrimRight(cfg.baseURL, "/"))
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, fmt.Errorf("guildkit: WithBaseURL: %q is not an absolute http or https URL", cfg.baseURL)
	}
	if base.RawQuery != "" || base.Fragment != "" || base.User != nil {
		return nil, fmt.Errorf("guildkit: WithBaseURL: %q must not carry a query, fragment or user info", cfg.baseURL)
	}
	if cred != nil {
		if cr, ok := cred.(credential); ok {
			tok := strings.TrimSpace(cr.token.value())
			if tok == "" {
				return nil, errors.New("guildkit: empty token")
			}
			for _, scheme := range []string{"Bot ", "Bearer "} {
				if len(tok) > len(scheme) && hasPrefixFold(tok, scheme) {
					return nil, fmt.Errorf("guildkit: the token starts with %q: pass the token alone, %sToken adds the scheme", scheme, cr.scheme)
				}
			}
		}
	}
	logger := cfg.logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if base.Scheme == "http" && !isLoopback(base.Hostname()) {
		// Go's default transport also honours HTTP_PROXY for http:// URLs:
		// the proxy, and anyone on the way, sees the Authorization header.
		logger.LogAttrs(context.Background(), slog.LevelWarn,
			"guildkit: the base URL is plain http on a host that is not this machine: tokens travel unencrypted, and through HTTP_PROXY when it is set; use https",
			slog.String("host", base.Host))
	}
	c := &Client{
		baseURL:         base,
		base:            base.String(),
		cred:            cred,
		userAgent:       cfg.userAgent,
		userAgentHeader: []string{cfg.userAgent},
		logger:          logger,
		retry:           cfg.retry,
		observer:        cfg.observer,

		reservedWebhookNames: cfg.reservedWebhookNames,
	}
	hc := cfg.httpClient
	if hc == nil {
		hc = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	}
	// The interface never redirects a call, and following one would carry
	// the Authorization header to another port or over plain http, replay a
	// body holding an access token, and send a webhook token wherever the
	// Location points. A 3xx is an answer: send turns it into a
	// *RedirectError. The caller's client is copied, not changed.
	noRedirect := *hc
	noRedirect.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	// The caller's Timeout is kept by the client's own top layer, per
	// attempt and through the reading of the body, as http.Client keeps it:
	// net/http, which does not know the client's transports, would serve it
	// with a timer goroutine and a cancellation goroutine per request.
	timeout := noRedirect.Timeout
	noRedirect.Timeout = 0
	hc = &noRedirect
	if o := cfg.observer; o != nil && o.RateLimit != nil {
		prev := cfg.limits.observer
		cfg.limits.observer = func(e RateLimitEvent) {
			if prev != nil {
				prev(e)
			}
			o.RateLimit(e)
		}
	}
	hc = c.withRateLimits(hc, cfg.limits)
	if cfg.observer != nil {
		hc = withObserver(hc)
	}
	guarded := *hc
	guarded.Transport = redirectGuard{next: hc.Transport, timeout: timeout}
	c.http = &guarded
	s := service{c}
	c.Guilds = (*GuildService)(&s)
	c.Channels = (*ChannelService)(&s)
	c.Messages = (*MessageService)(&s)
	c.Users = (*UserService)(&s)
	c.Members = (*MemberService)(&s)
	c.Bans = (*BanService)(&s)
	c.Roles = (*RoleService)(&s)
	c.Invites = (*InviteService)(&s)
	c.Webhooks = (*WebhookService)(&s)
	c.Interactions = (*InteractionService)(&s)
	c.Commands = (*CommandService)(&s)
	c.Applications = (*ApplicationService)(&s)
	c.Gateway = (*GatewayService)(&s)
	return c, nil
}

// isLoopback reports whether host is this machine: localhost or a loopback
// address.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// BaseURL returns the interface's address the client sends to.
func (c *Client) BaseURL() string { return c.baseURL.String() }

// String describes the client without its credential.
func (c *Client) String() string {
	cred := "none"
	if c.cred != nil {
		cred = c.cred.String()
	}
	return fmt.Sprintf("guildkit.Client{%s, %s}", c.baseURL, cred)
}

// GoString returns String, for %#v.
func (c *Client) GoString() string { return c.String() }

// Format prints String for every verb.
func (c *Client) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, c.String()) }

// LogValue logs String.
func (c *Client) LogValue() slog.Value { return slog.StringValue(c.String()) }
