package guildkittest

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/seed012df1e9/guildkit"
)

// Bounds on what one request may cost the server. A body is read, and
// bounded, before the server takes its lock, so a large or slow body holds
// up only its own request; the request and event logs are rings.
const (
	// MaxJSONBody is the largest JSON body a route accepts, in bytes; a
	// larger one is answered 413 (code 40005). The interface's documents
	// state no limit and the reference platform publishes none for JSON;
	// 1 MiB is far above any valid body but an image upload's.
	MaxJSONBody = 1 << 20

	// MaxImageBody is the largest JSON body of the routes that carry an
	// image as a data URI (Modify Guild, Modify Current Member, Create and
	// Modify Guild Role, Create and Modify Webhook): the reference
	// platform's 10 MiB image limit, base64-encoded, with room for the rest.
	MaxImageBody = 14 << 20

	// MaxUploadBody is the largest Execute Webhook or Edit Webhook Message
	// body with files, in bytes: the reference platform's default upload
	// limit per request, 25 MiB. A larger one is answered 413 (code 40005).
	MaxUploadBody = 25 << 20

	// MaxMessageFiles is how many files[n] parts, and how many attachments
	// entries, one message may carry, as on the reference platform; more
	// is a 400.
	MaxMessageFiles = 10

	// DefaultRequestLogSize is how many requests [Server.Requests] keeps
	// unless [WithRequestLogSize] says otherwise.
	DefaultRequestLogSize = 4096

	// DefaultEventLogSize is how many events [Server.Events] keeps unless
	// [WithEventLogSize] says otherwise.
	DefaultEventLogSize = 16384

	// maxLoggedBody is the largest body the request log keeps; a larger
	// one is logged without its body.
	maxLoggedBody = 64 << 10

	// requestLogBytesPerEntry is the request log's byte budget per entry:
	// the log holds at most n entries and n × this many bytes of bodies,
	// headers, paths and queries, the oldest dropped first.
	requestLogBytesPerEntry = 4 << 10

	// codeEntityTooLarge is the reference platform's code for a body over
	// its limit.
	codeEntityTooLarge guildkit.ErrorCode = 40005
)

// The HTTP server's timeouts and header limit, as a public deployment
// needs: a client that never finishes its headers, or leaves a connection
// idle, does not keep it forever.
const (
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultIdleTimeout       = 2 * time.Minute
	// DefaultBodyTimeout bounds how long one request may take to send its
	// body: a 25 MiB upload at 256 KiB/s still fits.
	DefaultBodyTimeout = 2 * time.Minute
	maxHeaderBytes     = 64 << 10
)

// WithRequestLogSize sets how many requests [Server.Requests] keeps (the
// most recent; default [DefaultRequestLogSize]). The log also keeps at most
// n × 4 KiB of bodies and headers, dropping the oldest requests first, and
// never an Authorization header's value. 0 keeps none.
func WithRequestLogSize(n int) Option { return func(s *Server) { s.requests.max = max(n, 0) } }

// WithEventLogSize sets how many events [Server.Events] keeps (the most
// recent; default [DefaultEventLogSize]). 0 keeps none.
func WithEventLogSize(n int) Option { return func(s *Server) { s.events.max = max(n, 0) } }

// WithHTTPTimeouts sets the HTTP server's ReadHeaderTimeout, IdleTimeout
// and the time a request may take to send its body (defaults
// [DefaultReadHeaderTimeout], [DefaultIdleTimeout], [DefaultBodyTimeout]).
// A zero duration keeps the default.
func WithHTTPTimeouts(readHeader, idle, body time.Duration) Option {
	return func(s *Server) {
		s.timeouts = httpTimeouts{
			readHeader: cmpOr(readHeader, DefaultReadHeaderTimeout),
			idle:       cmpOr(idle, DefaultIdleTimeout),
			body:       cmpOr(body, DefaultBodyTimeout),
		}
	}
}

func cmpOr(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

type httpTimeouts struct{ readHeader, idle, body time.Duration }

// configure applies the timeouts and header limit to hs.
func (t httpTimeouts) configure(hs *http.Server) {
	hs.ReadHeaderTimeout = t.readHeader
	hs.IdleTimeout = t.idle
	hs.MaxHeaderBytes = maxHeaderBytes
}

// routeOption adjusts how a route reads its body.
type routeOption func(*routeConfig)

type routeConfig struct {
	limit int64 // the largest body accepted, in bytes
	// stream, when set, reads the body itself (a multipart upload, parsed
	// as it arrives) instead of buffering it; it runs before the server's
	// lock, touches no server state, and answers and returns false on a bad
	// body.
	stream func(*call) bool
}

// bodyLimit sets a route's body limit.
func bodyLimit(n int64) routeOption { return func(rc *routeConfig) { rc.limit = n } }

// streamBody makes a route read its body with read, within limit.
func streamBody(limit int64, read func(*call) bool) routeOption {
	return func(rc *routeConfig) { rc.limit, rc.stream = limit, read }
}

// readBody reads and bounds the request's body before the server's lock.
// A buffered body becomes c.r.Body again (and c.logBody when it is JSON and
// small). It answers 413 for a body over the limit and 400 for one that
// cannot be read, and returns false then.
func (c *call) readBody(rc routeConfig) bool {
	if c.s.timeouts.body > 0 {
		_ = http.NewResponseController(c.w).SetReadDeadline(time.Now().Add(c.s.timeouts.body))
	}
	c.r.Body = http.MaxBytesReader(c.w, c.r.Body, rc.limit)
	if rc.stream != nil {
		return rc.stream(c)
	}
	b, err := io.ReadAll(c.r.Body)
	if err != nil {
		c.bodyError(err)
		return false
	}
	c.r.Body = io.NopCloser(bytes.NewReader(b))
	c.body = b
	if mt, _, _ := mime.ParseMediaType(c.r.Header.Get("Content-Type")); mt == "application/json" && len(b) <= maxLoggedBody {
		c.logBody = b
	}
	return true
}

// bodyError answers a body that could not be read: 413 when it is over
// the route's limit, 400 otherwise (a client that went away, a deadline).
func (c *call) bodyError(err error) {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		c.error(http.StatusRequestEntityTooLarge, codeEntityTooLarge, "Request entity too large")
		return
	}
	c.error(http.StatusBadRequest, guildkit.CodeInvalidFormBody, "The request body could not be read.")
}

// allowHandler answers a request that matched no route: 405 with Allow
// when its path is a route's under another method (as the reference
// platform answers), 404 otherwise. Both are the interface's error body.
func (s *Server) allowHandler(m *http.ServeMux) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var allow []string
		for _, method := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
			probe := r.Clone(r.Context())
			probe.Method = method
			if _, pattern := m.Handler(probe); pattern != "/" && pattern != "" {
				allow = append(allow, method)
			}
		}
		_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, MaxJSONBody))
		if len(allow) == 0 {
			s.record(r, "", nil, http.StatusNotFound)
			writeError(w, http.StatusNotFound, 0, "404: Not Found")
			return
		}
		sort.Strings(allow)
		w.Header().Set("Allow", strings.Join(allow, ", "))
		s.record(r, "", nil, http.StatusMethodNotAllowed)
		writeError(w, http.StatusMethodNotAllowed, 0, "405: Method Not Allowed")
	}
}

// ring keeps the most recent max items, and with a budget at most budget
// bytes of them (by the sizes given to push), dropping the oldest first.
// It grows as items come, up to max. The zero value keeps nothing.
type ring[T any] struct {
	buf    []T
	sizes  []int32
	head   int // index of the oldest item
	n      int // items held
	bytes  int
	max    int
	budget int // 0: no byte budget
}

func (r *ring[T]) push(v T, size int) {
	if r.max <= 0 {
		return
	}
	for r.n > 0 && (r.n >= r.max || (r.budget > 0 && r.bytes+size > r.budget)) {
		r.dropOldest()
	}
	if len(r.buf) > 16 && r.n <= len(r.buf)/4 {
		r.compact() // big items pushed out many small ones: give the room back
	}
	if r.n == len(r.buf) { // full for its length: grow, oldest first
		if r.head != 0 || r.n == cap(r.buf) {
			r.compact()
		}
		r.buf = append(r.buf, v)
		r.sizes = append(r.sizes, int32(size))
	} else {
		i := (r.head + r.n) % len(r.buf)
		r.buf[i], r.sizes[i] = v, int32(size)
	}
	r.n++
	r.bytes += size
}

func (r *ring[T]) dropOldest() {
	var zero T
	r.buf[r.head] = zero // let it be collected
	r.bytes -= int(r.sizes[r.head])
	r.head = (r.head + 1) % len(r.buf)
	r.n--
}

// compact moves the items, oldest first, to arrays of room for twice as
// many (at most max).
func (r *ring[T]) compact() {
	room := min(max(2*r.n, 8), r.max)
	buf, sizes := make([]T, r.n, room), make([]int32, r.n, room)
	for i := range r.n {
		j := (r.head + i) % len(r.buf)
		buf[i], sizes[i] = r.buf[j], r.sizes[j]
	}
	r.buf, r.sizes, r.head = buf, sizes, 0
}

// all returns the items, oldest first.
func (r *ring[T]) all() []T {
	if r.n == 0 {
		return nil
	}
	out := make([]T, 0, r.n)
	for i := range r.n {
		out = append(out, r.buf[(r.head+i)%len(r.buf)])
	}
	return out
}

// last returns the newest item.
func (r *ring[T]) last() (T, bool) {
	if r.n == 0 {
		var zero T
		return zero, false
	}
	return r.buf[(r.head+r.n-1)%len(r.buf)], true
}

// reset empties the ring, keeping its bounds.
func (r *ring[T]) reset() {
	r.buf, r.sizes, r.head, r.n, r.bytes = nil, nil, 0, 0, 0
}

// redactedHeader returns a copy of h without any Authorization value: the
// scheme stays ("Bot [redacted]"), the credential never does.
func redactedHeader(h http.Header) http.Header {
	out := h.Clone()
	if vs, ok := out["Authorization"]; ok {
		red := make([]string, len(vs))
		for i, v := range vs {
			scheme, _, _ := strings.Cut(v, " ")
			if scheme == "Bot" || scheme == "Bearer" {
				red[i] = scheme + " [redacted]"
			} else {
				red[i] = "[redacted]"
			}
		}
		out["Authorization"] = red
	}
	return out
}

// requestSize is what a logged request costs the log, roughly.
func requestSize(rec *Request) int {
	n := len(rec.Method) + len(rec.Route) + len(rec.Path) + len(rec.Body) + 128
	for k, vs := range rec.Header {
		n += len(k)
		for _, v := range vs {
			n += len(v)
		}
	}
	for k, vs := range rec.Query {
		n += len(k)
		for _, v := range vs {
			n += len(v)
		}
	}
	return n
}
