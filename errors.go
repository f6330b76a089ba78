package guildkit

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/seed012df1e9/guildkit/wire"
)

// Sentinel errors matched with errors.Is against an [*APIError] or a
// [*RateLimitError]:
//
//	if errors.Is(err, guildkit.ErrNotFound) { ... } // 404
var (
	ErrBadRequest   = errors.New("guildkit: bad request")   // status 400
	ErrUnauthorized = errors.New("guildkit: unauthorized")  // status 401
	ErrForbidden    = errors.New("guildkit: forbidden")     // status 403
	ErrNotFound     = errors.New("guildkit: not found")     // status 404
	ErrRateLimited  = errors.New("guildkit: rate limited")  // status 429, or a wait refused before sending
	ErrServer       = errors.New("guildkit: server error")  // status 5xx
	ErrNoCredential = errors.New("guildkit: no credential") // a bot or bearer call on a client made without one

	// ErrBulkBanFailed matches the [*APIError] of a [BanService.Bulk] call
	// that could ban none of the users: error code [CodeFailedToBanUsers]
	// (500000, "failed to ban users").
	ErrBulkBanFailed = errors.New("guildkit: failed to ban users")

	// ErrUnknownInteraction matches an answer to an interaction that is
	// unknown or expired: error code [CodeUnknownInteraction] (10062),
	// answered when the initial response comes after the 3 seconds or a
	// follow-up after the token's 15 minutes.
	ErrUnknownInteraction = errors.New("guildkit: unknown interaction")
	// ErrInteractionAcknowledged matches a second initial response to an
	// interaction: error code [CodeInteractionAcknowledged] (40060), from
	// the service or found before sending by package interactions.
	ErrInteractionAcknowledged = errors.New("guildkit: interaction has already been acknowledged")

	// ErrUnknownChannel matches error code [CodeUnknownChannel] (10003): the
	// channel does not exist, or the bot cannot see that it does.
	ErrUnknownChannel = errors.New("guildkit: unknown channel")
	// ErrUnknownMessage matches error code [CodeUnknownMessage] (10008): the
	// message does not exist (also a reply to a missing message, unless
	// fail_if_not_exists is false).
	ErrUnknownMessage = errors.New("guildkit: unknown message")
	// ErrMissingPermissions matches error code [CodeMissingPermissions]
	// (50013): the bot lacks a permission the operation needs.
	ErrMissingPermissions = errors.New("guildkit: missing permissions")
	// ErrCannotSendToUser matches error code [CodeCannotSendToUser] (50007):
	// the user does not take direct messages from the bot (privacy
	// settings, a block, a bot as recipient).
	ErrCannotSendToUser = errors.New("guildkit: cannot send messages to this user")
	// ErrMessageTooOld matches error code [CodeMessageTooOldToBulkDelete]
	// (50034): a bulk delete named a message older than 14 days. The
	// client refuses such ids before sending when their snowflakes say so.
	ErrMessageTooOld = errors.New("guildkit: a message is too old to bulk delete")
)

// ErrorCode is the interface's numeric error code, carried in the "code" field
// of an error body. The interface's documents do not list the codes ("not
// shown"); the constants are the reference platform's for the conditions the
// documents describe.
type ErrorCode int

// Error codes, in numeric order.
const (
	CodeGeneral              ErrorCode = 0
	CodeUnknownChannel       ErrorCode = 10003
	CodeUnknownGuild         ErrorCode = 10004
	CodeUnknownIntegration   ErrorCode = 10005
	CodeUnknownInvite        ErrorCode = 10006
	CodeUnknownMember        ErrorCode = 10007
	CodeUnknownMessage       ErrorCode = 10008
	CodeUnknownRole          ErrorCode = 10011
	CodeUnknownUser          ErrorCode = 10013
	CodeUnknownEmoji         ErrorCode = 10014 // a reaction's emoji
	CodeUnknownWebhook       ErrorCode = 10015
	CodeUnknownBan           ErrorCode = 10026
	CodeUnknownInteraction   ErrorCode = 10062
	CodeMaximumReached       ErrorCode = 30000
	CodeUnauthorized         ErrorCode = 40001
	CodeTargetUserNotInVoice ErrorCode = 40032
	// CodeInteractionAcknowledged: the interaction already has its initial
	// response (the reference platform's 40060).
	CodeInteractionAcknowledged ErrorCode = 40060
	CodeMissingAccess           ErrorCode = 50001
	// CodeCannotEditOthersMessage: only a message's author may change
	// more than its flags.
	CodeCannotEditOthersMessage ErrorCode = 50005
	CodeEmptyMessage            ErrorCode = 50006 // a message with nothing to show
	CodeCannotSendToUser        ErrorCode = 50007 // the user takes no DMs from the bot
	CodeCannotSendInChannel     ErrorCode = 50008 // the channel holds no messages (a category)
	CodeMissingPermissions      ErrorCode = 50013
	// CodeBulkDeleteCount: a bulk delete of fewer than 2 or more than 100
	// messages.
	CodeBulkDeleteCount     ErrorCode = 50016
	CodeInvalidWebhookToken ErrorCode = 50027
	// CodeMessageTooOldToBulkDelete: a bulk delete named a message older
	// than 14 days.
	CodeMessageTooOldToBulkDelete ErrorCode = 50034
	CodeInvalidFormBody           ErrorCode = 50035
	CodeInvalidRequest            ErrorCode = 50109
	// CodeReplyWithoutHistory: a reply needs READ_MESSAGE_HISTORY.
	CodeReplyWithoutHistory ErrorCode = 160002
	CodeFailedToBanUsers    ErrorCode = 500000
)

// FieldError is one problem with one field, with its path ("roles[0]",
// "components[1].accessory.url"), a code ([wire.CodeRequired], ...) and a
// message; see [wire.FieldError].
type FieldError = wire.FieldError

// ValidationError lists every problem the client found in a request before
// sending it; nothing was sent. errors.As reaches each [FieldError]. Its
// field [wire.ValidationError.Problems] lists them; its methods are listed
// under package wire.
type ValidationError = wire.ValidationError

// APIError is an error answer from the service: any status of 400 or more
// that is not a rate limit the client waited out.
//
// Route is the route template ("/webhooks/{webhook.id}/{webhook.token}"),
// never the URL, so a webhook token cannot leak through an error string.
type APIError struct {
	Status  int          // HTTP status code
	Code    ErrorCode    // the interface's error code, 0 when the body has none
	Message string       // the body's message, or the status text when the body has none
	Errors  []FieldError // field problems flattened from the body's nested "errors" object
	Method  string       // HTTP method
	Route   string       // route template
	// RetryAfter is how long the service asked the caller to wait, when it
	// said (429 and some 5xx answers).
	RetryAfter time.Duration
	// Body is the raw response body, up to 64 KiB.
	Body []byte
	// Hint says what to check when the answer suggests a mistake in the
	// client's set-up rather than in the call: a 401 (the token and how it
	// is passed), or a 404 without the interface's error body (the base URL:
	// the host and path prefix are named, never a token). A code-less 404
	// still matches [ErrNotFound].
	Hint string
	// Header is the response's header (the rate-limit scope and bucket,
	// trace ids), without Set-Cookie and without any header whose value
	// holds a secret the client was given (see [safeHeader]); nil when the
	// error did not come from an answer.
	Header http.Header
}

// Error formats the error as
// "guildkit: PATCH /guilds/{guild.id}/members/{user.id}: 403 Forbidden: Missing Permissions (50013)",
// followed by the field problems.
func (e *APIError) Error() string {
	var b strings.Builder
	b.WriteString("guildkit: ")
	if e.Method != "" {
		b.WriteString(e.Method)
		b.WriteByte(' ')
		b.WriteString(e.Route)
		b.WriteString(": ")
	}
	b.WriteString(strconv.Itoa(e.Status))
	if t := http.StatusText(e.Status); t != "" {
		b.WriteByte(' ')
		b.WriteString(t)
	}
	if e.Message != "" && e.Message != http.StatusText(e.Status) {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if e.Code != 0 {
		fmt.Fprintf(&b, " (%d)", int(e.Code))
	}
	if e.Hint != "" {
		b.WriteString(" (")
		b.WriteString(e.Hint)
		b.WriteByte(')')
	}
	for i, fe := range e.Errors {
		switch {
		case len(e.Errors) > 1:
			// Several problems: one a line.
			b.WriteString("\n\t")
		case i == 0:
			b.WriteString(": ")
		}
		b.WriteString(fe.Error())
		if fe.Code != "" && fe.Message != "" {
			b.WriteString(" (")
			b.WriteString(fe.Code)
			b.WriteByte(')')
		}
	}
	return b.String()
}

// Is matches the sentinel for the status: [ErrBadRequest], [ErrUnauthorized],
// [ErrForbidden], [ErrNotFound], [ErrRateLimited] or [ErrServer]; and
// [ErrBulkBanFailed], [ErrUnknownInteraction],
// [ErrInteractionAcknowledged], [ErrUnknownChannel], [ErrUnknownMessage],
// [ErrMissingPermissions], [ErrCannotSendToUser] and [ErrMessageTooOld] by
// their codes.
func (e *APIError) Is(target error) bool {
	switch target {
	case ErrBadRequest:
		return e.Status == http.StatusBadRequest
	case ErrUnauthorized:
		return e.Status == http.StatusUnauthorized
	case ErrForbidden:
		return e.Status == http.StatusForbidden
	case ErrNotFound:
		return e.Status == http.StatusNotFound
	case ErrRateLimited:
		return e.Status == http.StatusTooManyRequests
	case ErrServer:
		return e.Status >= 500
	case ErrBulkBanFailed:
		return e.Code == CodeFailedToBanUsers
	case ErrUnknownInteraction:
		return e.Code == CodeUnknownInteraction
	case ErrInteractionAcknowledged:
		return e.Code == CodeInteractionAcknowledged
	case ErrUnknownChannel:
		return e.Code == CodeUnknownChannel
	case ErrUnknownMessage:
		return e.Code == CodeUnknownMessage
	case ErrMissingPermissions:
		return e.Code == CodeMissingPermissions
	case ErrCannotSendToUser:
		return e.Code == CodeCannotSendToUser
	case ErrMessageTooOld:
		return e.Code == CodeMessageTooOldToBulkDelete
	}
	return false
}

// noCredentialError is a call that needs a credential on a client made
// without one; it matches [ErrNoCredential].
type noCredentialError struct{ method, route string }

func (e *noCredentialError) Error() string {
	return fmt.Sprintf("guildkit: %s %s: no credential: this operation needs a bot or bearer token (see New)", e.method, e.route)
}

func (e *noCredentialError) Is(target error) bool { return target == ErrNoCredential }

// RedirectError reports a 3xx answer. The interface never redirects a call,
// so the client does not follow one: a redirect would carry the credential,
// a body's access token or a webhook token to wherever it points. Host is
// the host the Location header names (the request's own when it names
// none); the path is left out, since it may hold a token.
type RedirectError struct {
	Status int
	Method string
	Route  string // route template
	Host   string
}

func (e *RedirectError) Error() string {
	host := e.Host
	if host == "" {
		host = "an unnamed location"
	}
	return fmt.Sprintf("guildkit: %s %s: %d %s: the answer redirects to %s; the client does not follow redirects (is the base URL right?)",
		e.Method, e.Route, e.Status, http.StatusText(e.Status), host)
}

// redirectGuard keeps net/http from acting on a 3xx answer's Location
// header at all: http.Client parses it before it asks CheckRedirect, and
// fails with the Location's text (which may hold a token) when it does not
// parse. The header is moved to locationHeader, for the *RedirectError.
type redirectGuard struct {
	next    http.RoundTripper
	timeout time.Duration // the caller's http.Client.Timeout, per attempt; 0 for none
}

const locationHeader = "Guildkit-Redirect-Location"

func (g redirectGuard) RoundTrip(r *http.Request) (*http.Response, error) {
	next := g.next
	if next == nil {
		next = http.DefaultTransport
	}
	var cancel context.CancelFunc
	if g.timeout > 0 {
		var ctx context.Context
		ctx, cancel = context.WithTimeout(r.Context(), g.timeout)
		r = r.WithContext(ctx)
	}
	resp, err := next.RoundTrip(r)
	if cancel != nil {
		if err != nil {
			cancel()
		} else {
			resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
		}
	}
	if err == nil && resp.StatusCode >= 300 && resp.StatusCode < 400 {
		if loc, ok := resp.Header["Location"]; ok {
			resp.Header = resp.Header.Clone()
			resp.Header[locationHeader] = loc
			delete(resp.Header, "Location")
		}
	}
	return resp, err
}

// cancelOnClose ends an attempt's timeout when its body is closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelOnClose) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

// redirectHost returns the host a Location value points at, resolved
// against the request's URL, or "".
func redirectHost(base *url.URL, location string) string {
	if location == "" {
		return ""
	}
	u, err := base.Parse(location)
	if err != nil {
		return ""
	}
	return u.Host
}

// safeHeader returns a copy of h for an [APIError]: cookies are left out,
// and so is any header whose value holds one of the secrets (the token of
// the credential, a webhook token of the path), since a proxy may echo the
// request's headers in its answer.
func safeHeader(h http.Header, secrets ...string) http.Header {
	out := make(http.Header, len(h))
next:
	for k, vs := range h {
		if k == "Set-Cookie" || k == "Authorization" || k == "Proxy-Authorization" {
			continue
		}
		for _, v := range vs {
			if redactText(v, secrets) != v {
				continue next
			}
		}
		out[k] = slices.Clone(vs)
	}
	return out
}

// RateLimitError reports a rate limit the client did not wait out: retries
// were used up, the wait would have outlasted the context's deadline or the
// longest wait the client accepts, or the call asked for no automatic retry.
// errors.Is(err, ErrRateLimited) is true.
type RateLimitError struct {
	Method     string
	Route      string        // route template
	RetryAfter time.Duration // how long the service asked to wait
	Global     bool          // the limit is the global one, not a route's
	Bucket     string        // the X-RateLimit-Bucket the service named, if any
	Scope      string        // the X-RateLimit-Scope: "user", "global" or "shared"
	Reason     string        // why the client gave up waiting
	// Response is the service's 429 answer, when there was one.
	Response *APIError
	// NotSent is true when the client refused to wait before sending (the
	// bucket was used up or the global limit paused, and the wait would
	// have outlasted the deadline or the longest accepted wait, or the call
	// asked not to wait): the last attempt never reached the service, and
	// RetryAfter is the wait the client would have made.
	NotSent bool
}

// Error formats the error as
// "guildkit: POST /guilds/{guild.id}/roles: rate limited (global): retry after 1.5s: retries used up".
func (e *RateLimitError) Error() string {
	var b strings.Builder
	b.WriteString("guildkit: ")
	if e.Method != "" {
		b.WriteString(e.Method + " " + e.Route + ": ")
	}
	b.WriteString("rate limited")
	if e.Global {
		b.WriteString(" (global)")
	}
	if e.RetryAfter > 0 {
		b.WriteString(": retry after " + waitText(e.RetryAfter))
	}
	if e.Reason != "" {
		b.WriteString(": " + e.Reason)
	}
	return b.String()
}

// waitText is a rate-limit wait for a person: milliseconds below ten
// seconds ("1.5s", "250ms"), rounded like other durations above.
func waitText(d time.Duration) string {
	if d < 10*time.Second {
		return d.Round(time.Millisecond).String()
	}
	return roundDuration(d)
}

// Is matches [ErrRateLimited].
func (e *RateLimitError) Is(target error) bool { return target == ErrRateLimited }

// Unwrap returns the service's 429 answer, when there was one.
func (e *RateLimitError) Unwrap() error {
	if e.Response == nil {
		return nil
	}
	return e.Response
}

// DecodeError reports a successful status whose body could not be decoded
// into the documented shape.
type DecodeError struct {
	Method string
	Route  string // route template
	Status int
	Err    error
	// Hint names what to check when the answer was not JSON at all (an
	// HTML page): the base URL's host and path prefix.
	Hint string
}

func (e *DecodeError) Error() string {
	s := fmt.Sprintf("guildkit: %s %s: decoding %d response: %v", e.Method, e.Route, e.Status, e.Err)
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	return s
}

func (e *DecodeError) Unwrap() error { return e.Err }

// maxErrorBody bounds how much of an error body is read and kept.
const maxErrorBody = 64 << 10

// parseErrorBody fills e from an error body of the interface's shape:
//
//	{"code": 50035, "message": "Invalid Form Body",
//	 "errors": {"roles": {"0": {"_errors": [{"code": "X", "message": "Y"}]}}}}
//
// and from the target-users form {"target_users_file": ["line 2: ...", ...]}.
// A body that is not a JSON object (an HTML page from a proxy) leaves the
// status text as the message.
func (e *APIError) parseErrorBody(body []byte) (interfaceShape bool) {
	e.Body = body
	e.Message = http.StatusText(e.Status)
	var top map[string]json.RawMessage
	if json.Unmarshal(body, &top) != nil {
		return false
	}
	_, interfaceShape = top["code"]
	if raw, ok := top["code"]; ok {
		var code int
		if json.Unmarshal(raw, &code) == nil {
			e.Code = ErrorCode(code)
		}
	}
	if raw, ok := top["message"]; ok {
		var msg string
		if json.Unmarshal(raw, &msg) == nil && msg != "" {
			e.Message = msg
		}
	}
	for _, k := range sortedKeys(top) {
		switch k {
		case "code", "message", "retry_after", "global":
			continue
		case "errors":
			e.Errors = flattenErrors(e.Errors, "", top[k])
		default:
			e.Errors = flattenErrors(e.Errors, k, top[k])
		}
	}
	return interfaceShape
}

// flattenErrors walks the nested error object, appending one FieldError per
// leaf message with the keys joined by dots as its path.
func flattenErrors(out []FieldError, path string, raw json.RawMessage) []FieldError {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return out
	}
	switch raw[0] {
	case '{':
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			return out
		}
		for _, k := range sortedKeys(obj) {
			if k == "_errors" {
				out = appendLeafErrors(out, path, obj[k])
				continue
			}
			key := k
			if isIndex(k) {
				// An index reads as the client's own paths do: roles[0].
				key = "[" + k + "]"
			}
			out = flattenErrors(out, wire.JoinPath(path, key), obj[k])
		}
	case '[':
		out = appendLeafErrors(out, path, raw)
	case '"':
		var s string
		if json.Unmarshal(raw, &s) == nil {
			out = append(out, FieldError{Path: path, Message: s})
		}
	}
	return out
}

// isIndex reports whether k is a list index: decimal digits only.
func isIndex(k string) bool {
	if k == "" {
		return false
	}
	for _, r := range k {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// appendLeafErrors reads an array of {"code","message"} objects or of strings.
func appendLeafErrors(out []FieldError, path string, raw json.RawMessage) []FieldError {
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return out
	}
	for _, it := range items {
		var s string
		if json.Unmarshal(it, &s) == nil {
			out = append(out, FieldError{Path: path, Message: s})
			continue
		}
		var leaf struct {
			Code    json.RawMessage `json:"code"`
			Message string          `json:"message"`
		}
		if json.Unmarshal(it, &leaf) == nil {
			code := string(bytes.Trim(leaf.Code, `"`))
			out = append(out, FieldError{Path: path, Code: code, Message: leaf.Message})
		}
	}
	return out
}

// sortedKeys returns the keys of m with numbers in numeric order before
// words in lexical order, so "2" comes before "10".
func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		na, ea := strconv.Atoi(a)
		nb, eb := strconv.Atoi(b)
		switch {
		case ea == nil && eb == nil:
			return cmp.Compare(na, nb)
		case ea == nil:
			return -1
		case eb == nil:
			return 1
		}
		return strings.Compare(a, b)
	})
	return keys
}
