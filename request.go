package guildkit

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/go-querystring/query"
	"github.com/hashicorp/go-retryablehttp"

	"github.com/seed012df1e9/guildkit/internal/jsondec"
	"github.com/seed012df1e9/guildkit/internal/jsonenc"
	"github.com/seed012df1e9/guildkit/internal/ratelimit"
	"github.com/seed012df1e9/guildkit/wire"
)

// RequestOption changes one call: [WithReason], [WithHeader],
// [WithoutRateLimitRetry].
type RequestOption func(*requestOptions)

type requestOptions struct {
	reason           string
	hasReason        bool
	header           http.Header
	noRateLimitRetry bool
}

// WithReason records why an operation was done in the guild's audit log (the
// X-Audit-Log-Reason header, percent-encoded so any text survives). Only
// operations whose documentation says "Supports WithReason" accept it; on any
// other the call fails with a [ValidationError] before sending.
func WithReason(reason string) RequestOption {
	return func(o *requestOptions) {
		o.reason, o.hasReason = reason, true
	}
}

// WithHeader sets an extra header on one call. Authorization and the headers
// the client manages (Content-Type, User-Agent) cannot be overridden.
func WithHeader(key, value string) RequestOption {
	return func(o *requestOptions) {
		if o.header == nil {
			o.header = make(http.Header)
		}
		o.header.Set(key, value)
	}
}

// WithoutRateLimitRetry makes a rate-limited call fail at once with a
// [*RateLimitError] carrying the wait, instead of waiting and retrying, for
// callers that would rather skip a stale update. It covers both kinds of
// wait: a 429 answer is not retried, and a call whose bucket is used up (or
// that meets the global pause or the global limiter) is not sent at all: it
// fails before sending with the wait it would have made. A call still waits
// the one round trip it takes to learn an unknown bucket's limits.
func WithoutRateLimitRetry() RequestOption {
	return func(o *requestOptions) { o.noRateLimitRetry = true }
}

// auth says how a request authenticates.
type auth uint8

const (
	authCredential auth = iota // the client's credential, required
	authNone                   // no Authorization header at all (webhook tokens, widget image)
)

// request is one call of one operation, as a service method describes it.
type request struct {
	method   string
	route    string // template, with placeholders such as {guild.id}
	path     []any  // values for the placeholders, in order: Snowflake or string
	query    any    // a struct or a pointer to one (nil: no query) for go-querystring
	body     any    // encoded as JSON, or as payload_json when there are parts
	parts    []formPart
	auth     auth
	auditLog bool // the operation accepts X-Audit-Log-Reason
	// secrets are values in the body that must never leave the client in
	// an error or a log line (an OAuth2 access token), should the server or
	// a proxy echo them.
	secrets []string
	opts    []RequestOption
}

// response is what a caller of do may need beyond the decoded body.
type response struct {
	Status int
	Header http.Header
}

// maxResponseBody bounds how much of a JSON response is read. The largest
// documented answer (1000 members) is well under 2 MiB.
const maxResponseBody = 32 << 20

// attempt is the state of one call across its attempts. The retry hooks
// are its methods, bound to it for the call; the layers below find it
// through the rate-limit request in the context ([attemptFrom]).
type attempt struct {
	c *Client
	// opts and problems are the call's options and the problems found
	// before sending; secretsBuf holds the first secrets.
	opts       requestOptions
	problems   ValidationError
	secretsBuf [3]string
	// rl names the call (method, route template, major parameter, whether
	// it may wait) for the bucket layer, which reports its wait back in it.
	rl         ratelimit.Request
	replayable bool
	tries      int
	secrets    []string      // values no error, log line or event may show
	next       retryDecision // the retry policy's last decision
	ob         *observation  // nil unless the client has an Observer
	sender     retryablehttp.Client
}

// attemptFrom returns the call state a request of this client carries, or
// nil.
func attemptFrom(ctx context.Context) *attempt {
	if rl := ratelimit.FromContext(ctx); rl != nil {
		a, _ := rl.Call.(*attempt)
		return a
	}
	return nil
}

// do sends r, decodes a successful JSON answer into out (when out is not nil
// and there is a body), and maps failures to typed errors.
func (c *Client) do(ctx context.Context, r *request, out any) (*response, error) {
	resp, err := c.send(ctx, r)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	res := &response{Status: resp.StatusCode, Header: resp.Header}
	if out == nil || resp.StatusCode == http.StatusNoContent {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxErrorBody))
		return res, nil
	}
	body, pooled, err := readAnswer(resp)
	if err == nil {
		err = decodeAnswer(body, out)
	}
	releaseAnswer(pooled, body)
	if err != nil {
		derr := &DecodeError{Method: r.method, Route: r.route, Status: resp.StatusCode, Err: err}
		if ct := resp.Header.Get("Content-Type"); !strings.Contains(ct, "json") {
			derr.Hint = c.baseURLHint(fmt.Sprintf("the answer is %s, not JSON", contentTypeName(ct)))
		}
		if ob, ok := resp.Body.(*observedBody); ok {
			ob.err = derr
		}
		return res, derr
	}
	return res, nil
}

// send sends r and returns a successful response with its body open for the
// caller to read and close. Every failure is a typed error.
func (c *Client) send(ctx context.Context, r *request) (resp *http.Response, err error) {
	// The call's state holds what would otherwise be allocated one by one.
	st := &attempt{c: c, replayable: true}
	ro := &st.opts
	for _, o := range r.opts {
		if o != nil {
			o(ro)
		}
	}
	v := &st.problems
	// The URL is written into one buffer: base URL, path, query.
	var buf [192]byte
	u := append(buf[:0], c.base...)
	u, secrets := appendRoute(v, u, r.route, r.path)
	pathEnd := len(u)
	secrets = append(st.secretsBuf[:0], secrets...)
	secrets = append(secrets, r.secrets...)
	if tok := credentialToken(c.cred); tok != "" {
		secrets = append(secrets, tok)
	}
	st.secrets = secrets
	if ro.hasReason && !r.auditLog {
		v.Add("reason", wire.CodeNotAllowed, "%s %s does not accept an audit-log reason", r.method, r.route)
	}
	if r.query != nil {
		var ok bool
		if u, ok = appendQuery(u, r.query); !ok {
			q, err := query.Values(r.query)
			if err != nil {
				v.Add("query", wire.CodeInvalid, "%v", err)
			} else if len(q) > 0 {
				u = append(u, '?')
				u = append(u, q.Encode()...)
			}
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if r.auth == authCredential && c.cred == nil {
		return nil, &noCredentialError{method: r.method, route: r.route}
	}
	fullURL := string(u)
	path := fullURL[len(c.base):pathEnd]

	var body any
	var contentType []string
	switch {
	case len(r.parts) > 0:
		var payload []byte
		if r.body != nil {
			var err error
			if payload, err = jsonenc.Marshal(r.body); err != nil {
				return nil, fmt.Errorf("guildkit: %s %s: encoding payload_json: %w", r.method, r.route, err)
			}
		}
		mp, err := newMultipartBody(payload, r.parts)
		if err != nil {
			return nil, fmt.Errorf("guildkit: %s %s: %w", r.method, r.route, err)
		}
		body = retryablehttp.ReaderFunc(mp.reader)
		contentType = mp.contentType[:]
		st.replayable = mp.replayable
	case r.body != nil:
		b, err := jsonenc.Marshal(r.body)
		if err != nil {
			return nil, fmt.Errorf("guildkit: %s %s: encoding body: %w", r.method, r.route, err)
		}
		body = b
		contentType = jsonContentType
	}

	st.rl = ratelimit.Request{Method: r.method, Route: r.route, Major: majorParam(r.route, path), NoWait: ro.noRateLimitRetry,
		NoGlobal: isInteractionRoute(r.route)}
	if c.observer != nil {
		ctx, st.ob = c.startObservation(ctx, r, fullURL, st.rl.Major, secrets)
		defer func() { resp = st.ob.finish(st, resp, err) }()
	}
	st.rl.Call = st
	ctx = ratelimit.NewContext(ctx, &st.rl)
	req, err := retryablehttp.NewRequestWithContext(ctx, r.method, fullURL, body)
	if err != nil {
		return nil, &RequestError{Method: r.method, Route: r.route, Err: redactErr(err, secrets)}
	}
	for k, vals := range ro.header {
		req.Header[k] = vals
	}
	// The header values the client manages are slices shared by every
	// call (net/http only reads them; Set and Add replace them).
	req.Header["User-Agent"] = c.userAgentHeader
	if contentType != nil {
		req.Header["Content-Type"] = contentType
	}
	if r.auth == authCredential {
		req.Header["Authorization"] = c.cred.authorizationHeader()
	} else {
		delete(req.Header, "Authorization")
	}
	if ro.hasReason {
		req.Header.Set("X-Audit-Log-Reason", url.PathEscape(ro.reason))
	}

	start := time.Now()
	c.bindSender(ctx, st)
	resp, err = st.sender.Do(req)
	if err != nil {
		if resp != nil {
			resp.Body.Close()
		}
		var rl *RateLimitError
		if errors.As(err, &rl) {
			c.logDone(ctx, st, http.StatusTooManyRequests, start)
			return nil, rl
		}
		var we *ratelimit.WaitError
		if errors.As(err, &we) {
			// The bucket layer refused to wait: nothing was sent.
			c.logDone(ctx, st, 0, start)
			return nil, &RateLimitError{
				Method: r.method, Route: r.route, RetryAfter: we.Wait, Global: we.Global,
				Bucket: st.redact(we.Bucket), Reason: we.Reason, NotSent: true,
			}
		}
		return nil, &RequestError{Method: r.method, Route: r.route, Err: redactErr(unwrapURLError(err), secrets)}
	}
	c.logDone(ctx, st, resp.StatusCode, start)
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxErrorBody))
		return nil, &RedirectError{Status: resp.StatusCode, Method: r.method, Route: r.route, Host: redirectHost(req.URL, resp.Header.Get(locationHeader))}
	}
	if resp.StatusCode < 400 {
		return resp, nil
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	// A proxy or a server may echo the request in its answer: every secret
	// the client holds is taken out of the text before anything reads it.
	raw = redactBytes(raw, secrets)
	apiErr := &APIError{Status: resp.StatusCode, Method: r.method, Route: r.route,
		Header: safeHeader(resp.Header, secrets...)}
	if !apiErr.parseErrorBody(raw) && resp.StatusCode == http.StatusNotFound {
		apiErr.Hint = c.baseURLHint("the answer is not the interface's error body")
	}
	if resp.StatusCode == http.StatusUnauthorized {
		apiErr.Hint = "check the webhook token: the last segment of the webhook URL"
		if r.auth == authCredential {
			apiErr.Hint = c.tokenHint()
		}
	}
	if resp.StatusCode == http.StatusTooManyRequests {
		lim := limitOf(st, resp.Header, raw)
		apiErr.RetryAfter = lim.RetryAfter
		reason := "retries used up"
		switch {
		case st.rl.NoWait:
			reason = "automatic retry turned off for this call"
		case !st.replayable:
			reason = "the request body cannot be sent again"
		}
		return nil, &RateLimitError{
			Method: r.method, Route: r.route, RetryAfter: lim.RetryAfter, Global: lim.Global,
			Bucket: st.redact(lim.Bucket), Scope: st.redact(lim.Scope), Reason: reason, Response: apiErr,
		}
	}
	apiErr.RetryAfter, _ = parseRetryAfterHeader(resp.Header.Get("Retry-After"))
	return nil, apiErr
}

// baseURLHint says the base URL may be wrong, naming its host and path
// prefix (a base URL holds no token).
func (c *Client) baseURLHint(why string) string {
	prefix := c.baseURL.Path
	if prefix == "" {
		prefix = "/"
	}
	return fmt.Sprintf("%s: is the base URL right? host %s, path prefix %s", why, c.baseURL.Host, prefix)
}

// tokenHint says what to check after a 401.
func (c *Client) tokenHint() string {
	switch cr := c.cred.(type) {
	case nil:
		return "the client has no credential: give New a BotToken or a BearerToken"
	case credential:
		return fmt.Sprintf("check the token: it is sent as \"Authorization: %s <token>\"; pass the token alone to %sToken, without a scheme", cr.scheme, cr.scheme)
	}
	return "check the credential"
}

// contentTypeName is a content type for a message: "text/html", or "an
// answer without a content type".
func contentTypeName(ct string) string {
	if ct == "" {
		return "without a content type"
	}
	mt, _, _ := strings.Cut(ct, ";")
	return strings.TrimSpace(mt)
}

// RequestError reports a call that got no answer: the connection failed or
// broke, or the context ended. errors.Is(err, context.Canceled) and
// errors.Is(err, context.DeadlineExceeded) work through it. Its text names
// the route template, never the URL.
type RequestError struct {
	Method string
	Route  string
	Err    error
}

func (e *RequestError) Error() string {
	return fmt.Sprintf("guildkit: %s %s: %v", e.Method, e.Route, e.Err)
}

func (e *RequestError) Unwrap() error { return e.Err }

// unwrapURLError drops the *url.Error layer, whose text holds the URL.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// redactedError hides secrets in an error's text while still answering
// errors.Is for the error it hides (context.Canceled, for example).
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string        { return e.msg }
func (e *redactedError) Is(target error) bool { return errors.Is(e.err, target) }

// redactBytes replaces every secret (raw, or percent-encoded as in a path)
// in b with "<redacted>".
func redactBytes(b []byte, secrets []string) []byte {
	for _, s := range secrets {
		if s == "" {
			continue
		}
		b = bytes.ReplaceAll(b, []byte(s), []byte("<redacted>"))
		if e := url.PathEscape(s); e != s {
			b = bytes.ReplaceAll(b, []byte(e), []byte("<redacted>"))
		}
	}
	return b
}

// redactText is redactBytes for a string.
func redactText(s string, secrets []string) string {
	for _, sec := range secrets {
		if sec == "" {
			continue
		}
		s = strings.ReplaceAll(s, sec, "<redacted>")
		if e := url.PathEscape(sec); e != sec {
			s = strings.ReplaceAll(s, e, "<redacted>")
		}
	}
	return s
}

// redact hides the call's secrets in server-supplied text (a bucket id).
func (st *attempt) redact(s string) string { return redactText(s, st.secrets) }

func redactErr(err error, secrets []string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	red := msg
	for _, s := range secrets {
		if s != "" {
			red = strings.ReplaceAll(red, s, "<redacted>")
			red = strings.ReplaceAll(red, url.PathEscape(s), "<redacted>")
		}
	}
	if red == msg {
		return err
	}
	return &redactedError{msg: red, err: err}
}

// jsonContentType is the Content-Type header of a JSON body.
var jsonContentType = []string{"application/json"}

// appendRoute appends to dst the route with its placeholders filled with
// the escaped values, and reports an empty or zero value as a missing path
// parameter. Values of {*.token} placeholders are returned as secrets.
//
// The number of values must match the placeholders: a mismatch is a bug in
// the calling service method, and panics.
func appendRoute(v *ValidationError, dst []byte, route string, args []any) ([]byte, []string) {
	route0 := route
	b := dst
	var secrets []string
	i := 0
	for {
		open := strings.IndexByte(route, '{')
		if open < 0 {
			b = append(b, route...)
			break
		}
		end := strings.IndexByte(route[open:], '}') + open
		b = append(b, route[:open]...)
		name := route[open+1 : end]
		route = route[end+1:]
		var s string
		if i < len(args) {
			switch a := args[i].(type) {
			case Snowflake:
				if a != 0 {
					// Digits need no escaping: appended without a string.
					b = strconv.AppendUint(b, uint64(a), 10)
					i++
					continue
				}
			case string:
				s = a
			default:
				s = fmt.Sprint(a)
			}
		}
		i++
		if s == "" && i <= len(args) {
			v.Add(name, wire.CodeRequired, "required path parameter is empty")
		}
		if strings.HasSuffix(name, ".token") {
			secrets = append(secrets, s)
		}
		b = append(b, url.PathEscape(s)...)
	}
	if i != len(args) {
		// The service method and its route disagree: a bug in guildkit,
		// which every operation's test would meet at once.
		panic(fmt.Sprintf("guildkit: route %s has %d placeholders, given %d values", route0, i, len(args)))
	}
	return b, secrets
}

// majorParam returns the route's major parameter, which, with the route,
// picks its rate-limit bucket: the guild id of /guilds/{guild.id}/...
// routes, the channel id of /channels/{channel.id}/..., the webhook id
// and token of /webhooks/{webhook.id}/{webhook.token}/... (the id alone
// without a token), and the id and token of an interaction's routes. path is the expanded route.
func majorParam(route, path string) string {
	n := 0
	switch {
	case hasRoutePrefix(route, "/webhooks/{webhook.id}/{webhook.token}"),
		hasRoutePrefix(route, "/webhooks/{application.id}/{interaction.token}"),
		hasRoutePrefix(route, "/interactions/{interaction.id}/{interaction.token}"):
		n = 2
	case hasRoutePrefix(route, "/guilds/{guild.id}"), hasRoutePrefix(route, "/channels/{channel.id}"),
		hasRoutePrefix(route, "/webhooks/{webhook.id}"):
		n = 1
	default:
		return ""
	}
	// path is "/resource/a/b/...": skip the resource, keep n segments.
	rest := path[1:]
	i := strings.IndexByte(rest, '/')
	if i < 0 {
		return ""
	}
	rest = rest[i+1:]
	end := 0
	for k := 0; k < n; k++ {
		j := strings.IndexByte(rest[end:], '/')
		if j < 0 {
			return rest
		}
		end += j
		if k < n-1 {
			end++
		}
	}
	return rest[:end]
}

// isInteractionRoute reports whether route answers an interaction: the
// reference platform does not count these against the global rate limit,
// and they are not held by the global pause after a global 429 either (an
// answer is due within 3 seconds).
func isInteractionRoute(route string) bool {
	return hasRoutePrefix(route, "/interactions/{interaction.id}/{interaction.token}") ||
		hasRoutePrefix(route, "/webhooks/{application.id}/{interaction.token}")
}

func hasRoutePrefix(route, prefix string) bool {
	return strings.HasPrefix(route, prefix) && (len(route) == len(prefix) || route[len(prefix)] == '/')
}

// isIdempotent reports whether sending a request with this method twice has
// the same effect as sending it once.
func isIdempotent(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPut, http.MethodDelete, http.MethodOptions:
		return true
	}
	return false
}

// readAnswer reads the body of resp, at most maxResponseBody bytes, into a
// pooled buffer, which releaseAnswer gives back once the answer is decoded
// (nothing decoded refers to it).
func readAnswer(resp *http.Response) (body []byte, pooled *[]byte, err error) {
	pb := answerBuffers.Get().(*[]byte)
	buf := (*pb)[:0]
	if size := resp.ContentLength; size >= 0 && size < maxResponseBody && int(size) >= cap(buf) {
		buf = make([]byte, 0, size+1) // +1: the read that meets the end needs room
	}
	lr := limitedReader{r: resp.Body, n: maxResponseBody}
	buf, err = readInto(buf, &lr)
	return buf, pb, err
}

// releaseAnswer puts buf, read by readAnswer into pb, back in the pool. A
// buffer that grew past maxPooledAnswer is left to the collector.
func releaseAnswer(pb *[]byte, buf []byte) {
	if cap(buf) <= maxPooledAnswer {
		*pb = buf
		answerBuffers.Put(pb)
	}
}

// answerBuffers holds the buffers answers are read into.
var answerBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 32<<10); return &b }}

const maxPooledAnswer = 4 << 20

// readInto reads r to its end, appending to buf.
func readInto(buf []byte, r *limitedReader) ([]byte, error) {
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// decodeAnswer decodes body, a whole answer, into out: by jsondec when it
// can, else (empty, malformed, data after the first value, a value that
// does not fit) by json.Decoder as before, for its exact result, its errors
// and its tolerance of data after the first value.
func decodeAnswer(body []byte, out any) error {
	if jsondec.Decode(body, out) {
		return nil
	}
	return json.NewDecoder(bytes.NewReader(body)).Decode(out)
}

// decodeValue decodes b, one JSON value, into v: by jsondec when it can,
// else by encoding/json, for its verdict and its error.
func decodeValue(b []byte, v any) error {
	if jsondec.Decode(b, v) {
		return nil
	}
	return json.Unmarshal(b, v)
}

// limitedReader fails once more than n bytes are read, so that an oversized
// answer is an error rather than a silently truncated decode.
type limitedReader struct {
	r io.Reader
	n int64
}

var errResponseTooLarge = fmt.Errorf("response body larger than %d bytes", maxResponseBody)

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.n <= 0 {
		return 0, errResponseTooLarge
	}
	if int64(len(p)) > l.n {
		p = p[:l.n]
	}
	n, err := l.r.Read(p)
	l.n -= int64(n)
	return n, err
}

// bindSender sets up the go-retryablehttp client that sends one call, its
// hooks bound to the call's state (it lives in the state, so that costs no
// allocation of its own).
func (c *Client) bindSender(ctx context.Context, st *attempt) {
	st.sender = retryablehttp.Client{
		HTTPClient:   c.http,
		Logger:       nil, // its records print URLs, which hold webhook tokens
		RetryMax:     c.retry.max,
		RetryWaitMin: c.retry.minWait,
		RetryWaitMax: c.retry.maxWait,
		CheckRetry:   st.checkRetry,
		Backoff:      st.backoff,
		ErrorHandler: retryablehttp.PassthroughErrorHandler,
	}
	if c.logger.Enabled(ctx, slog.LevelDebug) {
		st.sender.RequestLogHook = st.logAttempt
	}
}

// logAttempt is the transport's hook before each attempt.
func (st *attempt) logAttempt(_ retryablehttp.Logger, r *http.Request, n int) {
	st.c.logger.LogAttrs(r.Context(), slog.LevelDebug, "guildkit: sending",
		slog.String("method", st.rl.Method), slog.String("route", st.rl.Route), slog.Int("attempt", n+1))
}

// logDone records the end of a call: route template, status (0 when nothing
// was sent), attempts, the time waited for the bucket and global limits, and
// the bucket id the service named (never the bucket's key, which may hold a
// webhook token).
func (c *Client) logDone(ctx context.Context, st *attempt, status int, start time.Time) {
	if !c.logger.Enabled(ctx, slog.LevelDebug) {
		return
	}
	c.logger.LogAttrs(ctx, slog.LevelDebug, "guildkit: done",
		slog.String("method", st.rl.Method), slog.String("route", st.rl.Route), slog.Int("status", status),
		slog.Int("attempts", max(st.tries, 1)), slog.Duration("elapsed", time.Since(start)),
		slog.Duration("bucket_wait", st.rl.Waited), slog.String("bucket", st.redact(st.rl.Bucket)))
}

// isPermanent reports transport errors that no retry can cure.
func isPermanent(err error) bool {
	var certErr *tls.CertificateVerificationError
	var waitErr *ratelimit.WaitError
	return errors.As(err, &certErr) || errors.As(err, &waitErr)
}
