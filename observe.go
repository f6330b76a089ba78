package guildkit

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/seed012df1e9/guildkit/internal/ratelimit"
)

// Observer is told of every call the client makes and of every attempt
// within it, for metrics and tracing (the OpenTelemetry integration in module
// github.com/seed012df1e9/guildkit/otelguildkit is built on it). Set it with
// [WithObserver]. Every field is optional, and fields may be added later, as
// in [net/http/httptrace.ClientTrace].
//
// The events name an operation by its route template, never by its URL, and
// carry no token: the major parameter of a webhook-token route is the
// webhook id alone, and [CallInfo.URL] has the token replaced by
// "REDACTED". Functions are called synchronously on the calling goroutine, so
// they must be quick and safe for concurrent use.
//
// A call that the client refuses before sending (a [ValidationError], a
// missing credential, a body that cannot be encoded) is not observed: nothing
// was sent. A call whose body the caller reads
// ([GuildService.GetWidgetImage]) ends when the body is closed.
type Observer struct {
	// CallStart is told when a call begins, before its first attempt waits
	// for its rate-limit bucket. The context it returns is the call's from
	// then on (a tracer puts its span in it); returning ctx keeps it.
	CallStart func(ctx context.Context, call CallInfo) context.Context
	// Attempt is told after each attempt: the answer's status, or the
	// error kind when there was no answer.
	Attempt func(ctx context.Context, e AttemptEvent)
	// CallEnd is told when a call ends, with its outcome. Every call whose
	// CallStart was told ends once, with the context CallStart returned.
	CallEnd func(ctx context.Context, e CallEvent)
	// RateLimit is told what [WithRateLimitObserver]'s function is told:
	// every 429 answer, every wait before sending, and the shared store's
	// outages.
	RateLimit func(RateLimitEvent)
	// Gateway is told what the gateway shards given this observer
	// (package gateway's WithObserver) see: connections, READY, RESUMED,
	// lost sessions, zombies, backoff, fatal closes. It is called on the
	// shard's own goroutine: it must be quick.
	Gateway func(ctx context.Context, e GatewayEvent)
}

// WithObserver sets the client's [Observer]. The default observes nothing
// and costs nothing on the request path.
func WithObserver(o Observer) Option {
	return func(c *config) error {
		if o.CallStart == nil && o.Attempt == nil && o.CallEnd == nil && o.RateLimit == nil && o.Gateway == nil {
			c.observer = nil
			return nil
		}
		c.observer = &o
		return nil
	}
}

// CallInfo names one call: an operation and the parameters that pick its
// rate-limit bucket.
type CallInfo struct {
	Method string // "GET", "POST", ...
	Route  string // the route template, "/guilds/{guild.id}/members/{user.id}"
	// Major is the route's major parameter: the guild id, the channel id,
	// the webhook id, or the application or interaction id of an
	// interaction's routes ("" for routes without one). A token is never
	// part of it.
	Major string
	// URL is the request's URL with every token replaced by "REDACTED".
	URL   string
	Start time.Time
}

// AttemptEvent reports one attempt of a call.
type AttemptEvent struct {
	Call    CallInfo
	Attempt int // 1 for the first
	// Status is the answer's HTTP status, 0 when there was none.
	Status int
	// RateLimitWait is how long the attempt waited for its bucket, the
	// global pause or the global limiter before being sent.
	RateLimitWait time.Duration
	// Bucket is the X-RateLimit-Bucket the service named, when known.
	Bucket string
	// Duration is from the start of the attempt (its rate-limit wait
	// included) to its answer's headers.
	Duration time.Duration
	// ErrorKind says why the attempt failed; [ErrorKindNone] for an answer
	// below 400.
	ErrorKind ErrorKind
	Start     time.Time
}

// CallEvent reports the end of a call.
type CallEvent struct {
	Call     CallInfo
	Attempts int // how many attempts were sent (0 when the rate limiter refused to wait)
	Status   int // the last answer's status, 0 when there was none
	// RateLimitWait is the time all attempts waited before being sent;
	// retry backoff between attempts is not included.
	RateLimitWait time.Duration
	Bucket        string
	// Duration is from the start of the call to its end: the answer decoded
	// or, for a body the caller reads, closed.
	Duration  time.Duration
	ErrorKind ErrorKind
	// Err is the error the call returned, nil on success. Its text holds no
	// token.
	Err error
}

// ErrorKind classifies a failed call or attempt, for metrics. Its String is
// meant for a label ("rate_limited", "api", ...).
type ErrorKind uint8

const (
	ErrorKindNone        ErrorKind = iota // success
	ErrorKindAPI                          // an answer of 400 or above other than 429 ([*APIError])
	ErrorKindRateLimited                  // a 429, or a wait the client refused ([*RateLimitError])
	ErrorKindTransport                    // no answer: the connection failed or broke ([*RequestError])
	ErrorKindCanceled                     // the context was canceled
	ErrorKindTimeout                      // the context's deadline passed
	ErrorKindDecode                       // the answer could not be read ([*DecodeError])
)

// String returns "", "api", "rate_limited", "transport", "canceled",
// "timeout" or "decode".
func (k ErrorKind) String() string {
	switch k {
	case ErrorKindNone:
		return ""
	case ErrorKindAPI:
		return "api"
	case ErrorKindRateLimited:
		return "rate_limited"
	case ErrorKindTransport:
		return "transport"
	case ErrorKindCanceled:
		return "canceled"
	case ErrorKindTimeout:
		return "timeout"
	case ErrorKindDecode:
		return "decode"
	}
	return fmt.Sprintf("ErrorKind(%d)", uint8(k))
}

// errorKindOf classifies an error the client returned or met.
func errorKindOf(err error) ErrorKind {
	var rl *RateLimitError
	var api *APIError
	var dec *DecodeError
	var we *ratelimit.WaitError
	switch {
	case err == nil:
		return ErrorKindNone
	case errors.Is(err, context.Canceled):
		return ErrorKindCanceled
	case errors.Is(err, context.DeadlineExceeded):
		return ErrorKindTimeout
	case errors.As(err, &rl), errors.As(err, &we):
		return ErrorKindRateLimited
	case errors.As(err, &dec):
		return ErrorKindDecode
	case errors.As(err, &api):
		if api.Status == http.StatusTooManyRequests {
			return ErrorKindRateLimited
		}
		return ErrorKindAPI
	}
	return ErrorKindTransport
}

func statusKind(status int) ErrorKind {
	switch {
	case status == http.StatusTooManyRequests:
		return ErrorKindRateLimited
	case status >= 400:
		return ErrorKindAPI
	}
	return ErrorKindNone
}

// observation is one observed call's state, kept beside its attempt state.
type observation struct {
	o        *Observer
	ctx      context.Context // the call's context, as CallStart returned it
	info     CallInfo
	attempts int
	status   int
	ended    bool
}

// startObservation begins observing a call; path is the expanded route and
// secrets the token values in it.
func (c *Client) startObservation(ctx context.Context, r *request, u string, major string, secrets []string) (context.Context, *observation) {
	for _, s := range secrets {
		if s != "" {
			u = strings.ReplaceAll(u, url.PathEscape(s), "REDACTED")
		}
	}
	// A major of two parts is an id and a token (webhook and interaction
	// routes): only the id is told.
	major, _, _ = strings.Cut(major, "/")
	ob := &observation{o: c.observer, info: CallInfo{Method: r.method, Route: r.route, Major: major, URL: u, Start: time.Now()}}
	if f := ob.o.CallStart; f != nil {
		if cctx := f(ctx, ob.info); cctx != nil {
			ctx = cctx
		}
	}
	ob.ctx = ctx
	return ctx, ob
}

// end reports the call's end once; st may be nil before the attempt state
// exists.
func (ob *observation) end(st *attempt, err error) {
	if ob == nil || ob.ended {
		return
	}
	ob.ended = true
	if ob.o.CallEnd == nil {
		return
	}
	e := CallEvent{Call: ob.info, Attempts: ob.attempts, Status: ob.status,
		Duration: time.Since(ob.info.Start), ErrorKind: errorKindOf(err), Err: err}
	if st != nil {
		e.RateLimitWait, e.Bucket = st.rl.Waited, st.redact(st.rl.Bucket)
	}
	ob.o.CallEnd(ob.ctx, e)
}

// finish ends an observed call that failed, or arranges for a successful
// one to end when its body is closed.
func (ob *observation) finish(st *attempt, resp *http.Response, err error) *http.Response {
	if err != nil || resp == nil {
		ob.end(st, err)
		return resp
	}
	resp.Body = &observedBody{ReadCloser: resp.Body, ob: ob, st: st}
	return resp
}

// observedBody reports the call's end when the caller closes the body.
type observedBody struct {
	io.ReadCloser
	ob  *observation
	st  *attempt
	err error // set by do when decoding failed
}

func (b *observedBody) Close() error {
	err := b.ReadCloser.Close()
	b.ob.end(b.st, b.err)
	return err
}

// observeTransport sits above the rate-limit layer when an observer is set
// and reports each attempt.
type observeTransport struct {
	next http.RoundTripper
}

func (t *observeTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	st := attemptFrom(req.Context())
	if st == nil || st.ob == nil {
		return t.next.RoundTrip(req)
	}
	ob := st.ob
	ob.attempts++
	n := ob.attempts
	waited := st.rl.Waited
	start := time.Now()
	resp, err := t.next.RoundTrip(req)
	e := AttemptEvent{Call: ob.info, Attempt: n, RateLimitWait: st.rl.Waited - waited,
		Bucket: st.redact(st.rl.Bucket), Duration: time.Since(start), Start: start}
	if err != nil {
		var we *ratelimit.WaitError
		if errors.As(err, &we) {
			// Refused before sending: not an attempt.
			ob.attempts--
			return resp, err
		}
		e.ErrorKind = errorKindOf(req.Context().Err())
		if e.ErrorKind == ErrorKindNone {
			e.ErrorKind = ErrorKindTransport
		}
		ob.status = 0
	} else {
		e.Status = resp.StatusCode
		e.ErrorKind = statusKind(resp.StatusCode)
		ob.status = resp.StatusCode
	}
	if f := ob.o.Attempt; f != nil {
		f(ob.ctx, e)
	}
	return resp, err
}

// withObserver returns hc with the attempt-reporting layer on top of its
// transport. The caller's client is not changed.
func withObserver(hc *http.Client) *http.Client {
	next := hc.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	cp := *hc
	cp.Transport = &observeTransport{next: next}
	return &cp
}
