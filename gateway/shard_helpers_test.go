package gateway

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/ratelimit"
)

const testToken = "secret-bot-token.AbC"

// wait bounds how long a test waits for something the code under test
// must do; it is a failure bound, never a sleep.
const wait = 10 * time.Second

// manualClock moves only when the test says so. AfterFunc functions run in
// the goroutine of Advance.
type manualClock struct {
	mu      sync.Mutex
	now     time.Time
	timers  []*manualTimer
	changed chan struct{} // closed and replaced when a timer is added
}

type manualTimer struct {
	at   time.Time
	d    time.Duration
	f    func()
	done bool
}

func newManualClock() *manualClock {
	return &manualClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), changed: make(chan struct{})}
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) AfterFunc(d time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &manualTimer{at: c.now.Add(d), d: d, f: f}
	c.timers = append(c.timers, t)
	close(c.changed)
	c.changed = make(chan struct{})
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		was := !t.done
		t.done = true
		return was
	}
}

// Advance moves the clock by d, running the functions that come due.
func (c *manualClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []*manualTimer
	for _, t := range c.timers {
		if !t.done && !t.at.After(c.now) {
			t.done = true
			due = append(due, t)
		}
	}
	sort.SliceStable(due, func(i, j int) bool { return due[i].at.Before(due[j].at) })
	c.mu.Unlock()
	for _, t := range due {
		t.f()
	}
}

// waitTimer waits until a pending timer of duration d exists (the code
// under test armed it), and returns it.
func (c *manualClock) waitTimer(t *testing.T, d time.Duration) {
	t.Helper()
	c.waitTimers(t, d, 1)
}

// waitTimers waits until n pending timers of duration d exist.
func (c *manualClock) waitTimers(t *testing.T, d time.Duration, n int) {
	t.Helper()
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	for {
		c.mu.Lock()
		k := 0
		for _, tm := range c.timers {
			if !tm.done && tm.d == d {
				k++
			}
		}
		if k >= n {
			c.mu.Unlock()
			return
		}
		ch := c.changed
		c.mu.Unlock()
		select {
		case <-ch:
		case <-deadline.C:
			t.Fatalf("no timer of %v was armed", d)
		}
	}
}

// fakeGateway is a WebSocket server the test drives frame by frame.
type fakeGateway struct {
	t      *testing.T
	srv    *httptest.Server
	conns  chan *fakeConn
	refuse chan int // a status to refuse the next upgrade with
	mu     sync.Mutex
	urls   []string // every connection's URL, in order
}

func newFakeGateway(t *testing.T) *fakeGateway {
	g := &fakeGateway{t: t, conns: make(chan *fakeConn, 16), refuse: make(chan int, 16)}
	g.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case code := <-g.refuse:
			http.Error(w, "no", code)
			return
		default:
		}
		g.mu.Lock()
		g.urls = append(g.urls, r.URL.String())
		g.mu.Unlock()
		ws, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		c := &fakeConn{t: t, ws: ws, url: r.URL, frames: make(chan map[string]any, 256), closed: make(chan struct{})}
		if r.URL.Query().Get("compress") == "zlib-stream" {
			c.zw = &zlibWriter{}
			c.zw.w = zlib.NewWriter(&c.zw.buf)
		}
		go c.read()
		g.conns <- c
		<-c.closed
	}))
	t.Cleanup(g.srv.Close)
	return g
}

func (g *fakeGateway) url() string { return "ws" + strings.TrimPrefix(g.srv.URL, "http") }

// next waits for the shard's next connection.
func (g *fakeGateway) next() *fakeConn {
	g.t.Helper()
	select {
	case c := <-g.conns:
		g.t.Cleanup(func() { _ = c.ws.CloseNow() })
		return c
	case <-time.After(wait):
		g.t.Fatal("the shard did not connect")
		return nil
	}
}

// count returns how many connections were made.
func (g *fakeGateway) count() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.urls)
}

type fakeConn struct {
	t      *testing.T
	ws     *websocket.Conn
	url    *url.URL
	zw     *zlibWriter
	frames chan map[string]any
	closed chan struct{}
	code   websocket.StatusCode // the close code the shard sent, -1 for none; valid after closed
	wmu    sync.Mutex
}

func (c *fakeConn) read() {
	defer close(c.closed)
	for {
		_, b, err := c.ws.Read(context.Background())
		if err != nil {
			c.code = websocket.CloseStatus(err)
			return
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			c.t.Errorf("the shard sent a payload that is not JSON: %q", b)
			continue
		}
		if len(b) > MaxPayload {
			c.t.Errorf("the shard sent %d bytes", len(b))
		}
		c.frames <- m
	}
}

// send writes one payload as the platform does (all four keys).
func (c *fakeConn) send(op Opcode, d any, s int64, t string) {
	c.t.Helper()
	p := map[string]any{"op": op, "d": d, "s": nil, "t": nil}
	if op == OpDispatch {
		p["s"], p["t"] = s, t
	}
	b, err := json.Marshal(p)
	require.NoError(c.t, err)
	c.sendRaw(b)
}

func (c *fakeConn) sendRaw(b []byte) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	typ := websocket.MessageText
	if c.zw != nil {
		b, typ = c.zw.message(b), websocket.MessageBinary
	}
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	_ = c.ws.Write(ctx, typ, b)
}

func (c *fakeConn) hello(interval time.Duration) {
	c.send(OpHello, map[string]any{"heartbeat_interval": interval.Milliseconds()}, 0, "")
}

func (c *fakeConn) ready(sessionID, resumeURL string) {
	c.send(OpDispatch, map[string]any{"v": 10, "session_id": sessionID, "resume_gateway_url": resumeURL,
		"user": map[string]any{"id": "1", "username": "bot"}, "guilds": []any{}, "application": map[string]any{"id": "1", "flags": 0}}, 1, "READY")
}

// next waits for the shard's next payload, whatever its op.
func (c *fakeConn) next() map[string]any {
	c.t.Helper()
	select {
	case m := <-c.frames:
		return m
	case <-c.closed:
		c.t.Fatalf("the connection closed (%d) while waiting for a payload", c.code)
	case <-time.After(wait):
		c.t.Fatal("no payload came")
	}
	return nil
}

// expect waits for the shard's next payload and checks its op.
func (c *fakeConn) expect(op Opcode) map[string]any {
	c.t.Helper()
	select {
	case m := <-c.frames:
		require.EqualValues(c.t, op, m["op"], "payload %v", m)
		return m
	case <-c.closed:
		c.t.Fatalf("the connection closed (%d) while waiting for op %d", c.code, op)
	case <-time.After(wait):
		c.t.Fatalf("no op %d came", op)
	}
	return nil
}

// expectClosed waits for the shard to close the connection and returns
// its close code (-1 without a close frame).
func (c *fakeConn) expectClosed() websocket.StatusCode {
	c.t.Helper()
	select {
	case <-c.closed:
		return c.code
	case <-time.After(wait):
		c.t.Fatal("the shard did not close the connection")
		return 0
	}
}

// recorder collects what handlers and the observer are told.
type recorder struct {
	mu      sync.Mutex
	events  []Event
	signals []guildkit.GatewayEvent
	notify  chan struct{}
}

func newRecorder() *recorder { return &recorder{notify: make(chan struct{}, 1024)} }

func (r *recorder) event(_ context.Context, e Event) {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
	r.notify <- struct{}{}
}

func (r *recorder) observer() guildkit.Observer {
	return guildkit.Observer{Gateway: func(_ context.Context, e guildkit.GatewayEvent) {
		r.mu.Lock()
		r.signals = append(r.signals, e)
		r.mu.Unlock()
		select {
		case r.notify <- struct{}{}:
		default:
		}
	}}
}

// waitFor waits until cond holds over what was recorded.
func (r *recorder) waitFor(t *testing.T, what string, cond func(events []Event, signals []guildkit.GatewayEvent) bool) {
	t.Helper()
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	for {
		r.mu.Lock()
		ok := cond(r.events, r.signals)
		r.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-r.notify:
		case <-deadline.C:
			r.mu.Lock()
			defer r.mu.Unlock()
			t.Fatalf("%s: never happened; events %v, signals %v", what, names(r.events), r.signals)
		}
	}
}

func (r *recorder) waitSignal(t *testing.T, sig guildkit.GatewaySignal, n int) guildkit.GatewayEvent {
	t.Helper()
	var got guildkit.GatewayEvent
	r.waitFor(t, sig.String(), func(_ []Event, ss []guildkit.GatewayEvent) bool {
		k := 0
		for _, s := range ss {
			if s.Signal == sig {
				k++
				if k == n {
					got = s
					return true
				}
			}
		}
		return false
	})
	return got
}

func (r *recorder) eventNames() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return names(r.events)
}

func names(evs []Event) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.EventName())
	}
	return out
}

// logBuffer is a slog handler's output, safe for concurrent writes.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// rig is a shard on a manual clock against a fake gateway.
type rig struct {
	t     *testing.T
	gw    *fakeGateway
	clock *manualClock
	rec   *recorder
	logs  *logBuffer
	shard *Shard
}

func newRig(t *testing.T, opts ...Option) *rig {
	r := &rig{t: t, gw: newFakeGateway(t), clock: newManualClock(), rec: newRecorder(), logs: &logBuffer{}}
	base := []Option{WithURL(r.gw.url()), WithClock(r.clock), WithRandom(func() float64 { return 0.5 }),
		WithObserver(r.rec.observer()), WithLogger(slog.New(slog.NewTextHandler(r.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))),
		WithIdentifyLimiter(ratelimit.NewMemoryIdentifyLimiter(ratelimit.IdentifyOptions{Clock: r.clock}))}
	s, err := NewShard(testToken, append(base, opts...)...)
	require.NoError(t, err)
	r.shard = s
	OnAny(s, r.rec.event)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		_ = s.End(ctx)
		if strings.Contains(r.logs.String(), testToken) {
			t.Error("the token is in the log")
		}
		r.rec.mu.Lock()
		defer r.rec.mu.Unlock()
		for _, sig := range r.rec.signals {
			if sig.Err != nil && strings.Contains(sig.Err.Error(), testToken) {
				t.Error("the token is in a signal")
			}
		}
	})
	return r
}

// open starts Open in the background; the returned channel gets its error.
func (r *rig) open() <-chan error {
	errc := make(chan error, 1)
	go func() { errc <- r.shard.Open(context.Background()) }()
	return errc
}

// start opens the shard and takes it to READY on its first connection.
func (r *rig) start() *fakeConn {
	r.t.Helper()
	return r.startHello(40 * time.Second)
}

// startHello is start with HELLO's heartbeat interval.
func (r *rig) startHello(interval time.Duration) *fakeConn {
	r.t.Helper()
	errc := r.open()
	c := r.gw.next()
	c.hello(interval)
	id := c.expect(OpIdentify)
	require.Equal(r.t, testToken, id["d"].(map[string]any)["token"])
	c.ready("sess-1", r.gw.url()+"/resume")
	select {
	case err := <-errc:
		require.NoError(r.t, err)
	case <-time.After(wait):
		r.t.Fatal("Open did not return after READY")
	}
	return c
}

// reconnect advances the backoff of attempt n (random 0.5 → half the
// ceiling) and returns the new connection.
func (r *rig) reconnect(n int) *fakeConn {
	r.t.Helper()
	d := backoff(n, DefaultBackoffMin, DefaultBackoffMax, func() float64 { return 0.5 })
	r.clock.waitTimer(r.t, d)
	r.clock.Advance(d)
	return r.gw.next()
}

// reconnectIdentify is reconnect for a new session: after HELLO, the
// identify limiter holds the key for the window after the first IDENTIFY.
// The returned connection had its HELLO.
func (r *rig) reconnectIdentify(n int) *fakeConn {
	r.t.Helper()
	d := backoff(n, DefaultBackoffMin, DefaultBackoffMax, func() float64 { return 0.5 })
	c := r.reconnect(n)
	c.hello(40 * time.Second)
	r.clock.waitTimer(r.t, ratelimit.IdentifyWindow-d)
	r.clock.Advance(ratelimit.IdentifyWindow - d)
	return c
}
