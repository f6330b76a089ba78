package gateway

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
)

// strictWindow counts a connection's payloads as a strict server does:
// each when the test takes it (its arrival, on the test's clock), at most
// 120 arriving within any 60 s; one more closes the connection with 4008
// and fails the test.
type strictWindow struct {
	t       *testing.T
	clock   *manualClock
	c       *fakeConn
	arrived []time.Time
}

func newStrictWindow(t *testing.T, clock *manualClock, c *fakeConn, arrived ...time.Time) *strictWindow {
	return &strictWindow{t: t, clock: clock, c: c, arrived: arrived}
}

// take receives the next n payloads and counts them, arrived transit
// after the clock's now; it returns their ops.
func (w *strictWindow) take(n int, transit time.Duration) []Opcode {
	w.t.Helper()
	var ops []Opcode
	for range n {
		m := w.c.next()
		ops = append(ops, Opcode(m["op"].(float64)))
		at := w.clock.Now().Add(transit)
		w.arrived = append(w.arrived, at)
		in := 0
		for _, a := range w.arrived {
			if at.Sub(a) < 60*time.Second {
				in++
			}
		}
		if in > 120 {
			_ = w.c.ws.Close(4008, "rate limited")
			w.t.Fatalf("%d payloads arrived within 60 s: the server closed with 4008", in)
		}
	}
	return ops
}

// floodPresence calls UpdatePresence n times at once; the channel gets
// each call's error.
func floodPresence(s *Shard, n int) <-chan error {
	errs := make(chan error, n)
	for range n {
		go func() {
			errs <- s.UpdatePresence(context.Background(), &PresenceUpdateParams{Status: "online"})
		}()
	}
	return errs
}

// results waits for n calls' errors.
func results(t *testing.T, errs <-chan error, n int) []error {
	t.Helper()
	var out []error
	for range n {
		select {
		case err := <-errs:
			out = append(out, err)
		case <-time.After(wait):
			t.Fatalf("only %d of %d calls returned", len(out), n)
		}
	}
	return out
}

// waitLongTimer waits until a timer of at least d is pending and returns
// when it is due.
func (c *manualClock) waitLongTimer(t *testing.T, d time.Duration) time.Time {
	t.Helper()
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	for {
		c.mu.Lock()
		for _, tm := range c.timers {
			if !tm.done && tm.d >= d {
				c.mu.Unlock()
				return tm.at
			}
		}
		ch := c.changed
		c.mu.Unlock()
		select {
		case <-ch:
		case <-deadline.C:
			t.Fatalf("no timer of %v or more was armed", d)
		}
	}
}

// TestSendWindowKeepsAMargin: a burst that took half a second to arrive
// is still in the server's 60 s window when the next burst goes 60 s after
// the first was written; the shard keeps a margin, so the server never
// counts more than 120, and the heartbeat goes while the sends wait.
func TestSendWindowKeepsAMargin(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	c := r.startHello(45 * time.Second) // beats at 22.5 s, 67.5 s
	t0 := r.clock.Now()
	w := newStrictWindow(t, r.clock, c, t0) // the IDENTIFY
	const n = 2 * (sendBudget - 1)
	errs := floodPresence(r.shard, n)
	// The first burst, written at t0, is slow to arrive.
	for _, op := range w.take(sendBudget-1, 500*time.Millisecond) {
		require.Equal(t, OpPresenceUpdate, op)
	}
	due := r.clock.waitLongTimer(t, 50*time.Second) // the rest wait for the window
	r.clock.Advance(22500 * time.Millisecond)
	assert.Equal(t, []Opcode{OpHeartbeat}, w.take(1, 0), "the heartbeat goes while the sends wait")
	assert.LessOrEqual(t, due.Sub(t0), 62*time.Second, "the sends wait no longer than the window and a margin")
	r.clock.Advance(due.Sub(r.clock.Now()))
	for _, op := range w.take(sendBudget-1, 0) {
		require.Equal(t, OpPresenceUpdate, op)
	}
	for _, err := range results(t, errs, n) {
		require.NoError(t, err)
	}
}

// breakableDialer makes the shard's connections, and breaks their writes
// when told: a connection whose peer reset it.
type breakableDialer struct {
	mu    sync.Mutex
	conns []*breakableConn
}

type breakableConn struct {
	net.Conn
	broken atomic.Bool
}

func (c *breakableConn) Write(p []byte) (int, error) {
	if c.broken.Load() {
		return 0, errors.New("connection reset by peer")
	}
	return c.Conn.Write(p)
}

func (d *breakableDialer) client(t *testing.T) *http.Client {
	tr := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		var nd net.Dialer
		nc, err := nd.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		bc := &breakableConn{Conn: nc}
		d.mu.Lock()
		d.conns = append(d.conns, bc)
		d.mu.Unlock()
		return bc, nil
	}}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

// breakLast breaks the writes of the last connection made.
func (d *breakableDialer) breakLast() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.conns[len(d.conns)-1].broken.Store(true)
}

// TestSendsQueuedAcrossAReconnectGoOut: sends waiting for the window when
// the connection breaks under them are not failed: they go out on the
// resumed connection, within its window.
func TestSendsQueuedAcrossAReconnectGoOut(t *testing.T) {
	t.Parallel()
	var d breakableDialer
	r := newRig(t, WithHTTPClient(d.client(t)))
	c := r.startHello(45 * time.Second)
	w := newStrictWindow(t, r.clock, c, r.clock.Now())
	const waiting = 20
	const n = sendBudget - 1 + waiting
	errs := floodPresence(r.shard, n)
	w.take(sendBudget-1, 0)
	due := r.clock.waitLongTimer(t, 50*time.Second)
	d.breakLast()
	r.clock.Advance(due.Sub(r.clock.Now())) // the writes fail
	c2 := r.reconnect(1)
	c2.hello(45 * time.Second)
	assert.Equal(t, "sess-1", c2.expect(OpResume)["d"].(map[string]any)["session_id"])
	c2.send(OpDispatch, map[string]any{}, 2, "RESUMED")
	w2 := newStrictWindow(t, r.clock, c2, r.clock.Now())
	for _, op := range w2.take(waiting, 0) {
		require.Equal(t, OpPresenceUpdate, op)
	}
	for _, err := range results(t, errs, n) {
		require.NoError(t, err)
	}
}

// TestSendsQueuedWhenTheSessionIsLostSaySo: when the session cannot be
// resumed, the sends waiting for it, and a member request waiting for its
// chunks, fail with ErrSessionLost rather than go out on the new session.
func TestSendsQueuedWhenTheSessionIsLostSaySo(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	queued := make(chan struct{}, 1+sendBudget+20)
	r.shard.sendQueued = func() { queued <- struct{}{} }
	c := r.startHello(45 * time.Second)
	chunks := make(chan error, 1)
	go func() {
		_, err := r.shard.RequestGuildMembers(context.Background(), &MemberRequestParams{GuildID: 10, UserIDs: []guildkit.Snowflake{5}})
		chunks <- err
	}()
	c.expect(OpRequestGuildMembers)
	const waiting = 20
	const n = sendBudget - 2 + waiting // IDENTIFY and the request took two
	errs := floodPresence(r.shard, n)
	for range sendBudget - 2 {
		c.expect(OpPresenceUpdate)
	}
	r.clock.waitLongTimer(t, 50*time.Second) // the rest wait for the window
	// Every call is in the session's queue (not still on its way to it,
	// when it would belong to the next session) before the session is
	// lost.
	for i := range 1 + n {
		select {
		case <-queued:
		case <-time.After(wait):
			t.Fatalf("only %d of %d calls queued", i, 1+n)
		}
	}
	c.send(OpInvalidSession, false, 0, "")
	lost := 0
	for _, err := range results(t, errs, n) {
		if err != nil {
			require.ErrorIs(t, err, ErrSessionLost)
			lost++
		}
	}
	assert.Equal(t, waiting, lost)
	select {
	case err := <-chunks:
		require.ErrorIs(t, err, ErrSessionLost)
		assert.Contains(t, err.Error(), "op 9 Invalid Session")
	case <-time.After(wait):
		t.Fatal("the member request kept waiting for its chunks")
	}
}
