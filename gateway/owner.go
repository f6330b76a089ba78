package gateway

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"time"

	"github.com/coder/websocket"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/ratelimit"
)

// owner is the state of a shard's connections. Only the owner goroutine
// (run) reads or writes it; everything else talks to it through the
// Shard's channels. It holds no lock: nothing can be held across the
// network writes, the waits for the identify limiter or the backoff.
type owner struct {
	s              *Shard
	intents        Intents
	maxConcurrency int
	gatewayURL     string

	sess     Session // the session: id, resume URL, last sequence handed to the queue
	attempt  int     // reconnect attempts since the last READY/RESUMED
	gen      uint64  // the current connection's number; timers of older ones are stale
	c        *conn   // the current connection, nil between connections
	resuming bool    // the current connection is resuming sess
	replayed int     // events replayed so far by the current resume
	ready    bool    // READY or RESUMED came on the current connection
	hello    bool    // HELLO came on the current connection

	interval       time.Duration
	stopBeat       func() bool
	stopHello      func() bool
	stopBackoff    func() bool
	stopSendTimer  func() bool
	stopAcquire    func() // cancels the identify limiter wait of the current connection
	awaitingAck    bool   // a beat went and no ACK came yet
	heardSinceBeat bool   // some message arrived since the last beat

	pending *queued // an event the full queue did not take yet: reading waits

	window      []time.Time // when the current connection's payloads went (60 s and the margin)
	sends       []*sendReq  // application payloads waiting for READY or the limiter
	writeFailed bool        // a write failed on the current connection: no more application payloads on it

	chunks map[string]*chunkCollector // Request Guild Members answers, by nonce

	// limit is the budget GET /gateway/bot reported that the identify
	// limiter has not taken yet (its store was unavailable); nil once it
	// has.
	limit *ratelimit.SessionStartLimit

	fatal error
}

type timerKind uint8

const (
	timerConnect timerKind = iota + 1
	timerBeat
	timerHello
	timerSend
)

type timerMsg struct {
	kind timerKind
	gen  uint64
}

type closeCode CloseCode

type dialResult struct {
	ws     *websocket.Conn
	err    error
	url    string
	resume bool
	// fresh is GET /gateway's URL, asked again after the gateway's own URL
	// failed to connect ("" when not asked or unchanged).
	fresh string
}

type acquireResult struct {
	done     func()
	err      error
	gen      uint64 // the connection it was for
	recorded bool   // the budget of limit was recorded
}

// post arranges for t to reach the owner after d on the shard's clock.
func (o *owner) post(d time.Duration, t timerMsg) func() bool {
	s := o.s
	return s.cfg.clock.AfterFunc(d, func() {
		select {
		case s.timerc <- t:
		case <-s.stopped:
		}
	})
}

// findGateway asks GET /gateway/bot when the shard has a REST client.
func (o *owner) findGateway(ctx context.Context) error {
	s := o.s
	if s.cfg.rest == nil {
		return nil
	}
	gb, err := s.cfg.rest.Gateway.GetBot(ctx)
	if err != nil {
		return fmt.Errorf("gateway: finding the gateway: %w", err)
	}
	if o.gatewayURL == "" {
		o.gatewayURL = gb.URL
	}
	if mc := gb.SessionStartLimit.MaxConcurrency; mc > 0 {
		o.maxConcurrency = mc
	}
	if gb.SessionStartLimit.Total > 0 {
		l := sessionStart(gb.SessionStartLimit)
		if err := s.cfg.limiter.SetLimit(ctx, s.token, l); err != nil {
			// The limiter's store is unavailable (Redis down): the shard
			// records the budget before its first IDENTIFY, trying again
			// until the store serves (see recordLimit).
			s.logger.Warn("gateway: the identify limiter did not take the budget; it is tried again before the first IDENTIFY", slog.String("error", err.Error()))
			o.limit = &l
		}
	}
	return nil
}

// limitRetry is how often a shard asks the identify limiter again to record
// the budget while its store is unavailable: as often as the Redis limiter
// tries Redis.
const limitRetry = time.Second

// recordLimit records l in the identify limiter, asking again every
// limitRetry until it takes it or ctx ends. It runs in the identify
// helper goroutine, before Acquire: no IDENTIFY goes before the limiter
// knows the budget. The last failure is kept for Open's error.
func (s *Shard) recordLimit(ctx context.Context, l ratelimit.SessionStartLimit) error {
	for n := 0; ; n++ {
		err := s.cfg.limiter.SetLimit(ctx, s.token, l)
		if err == nil {
			s.limiterErr.Store(nil)
			if n > 0 {
				s.logger.Info("gateway: the identify limiter took the budget")
			}
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		s.limiterErr.Store(&err)
		wake := make(chan struct{})
		stop := s.cfg.clock.AfterFunc(limitRetry, func() { close(wake) })
		select {
		case <-wake:
		case <-ctx.Done():
			stop()
			return ctx.Err()
		}
	}
}

// run is the owner goroutine.
func (o *owner) run() {
	s := o.s
	defer o.cleanup()
	o.connect()
	for o.fatal == nil {
		var in <-chan inbound
		if o.c != nil && o.pending == nil {
			in = o.c.in
		}
		var queue chan<- queued
		var next queued
		if o.pending != nil {
			queue, next = s.queue, *o.pending
		}
		select {
		case m := <-in:
			o.inbound(m)
		case queue <- next:
			o.pending = nil
			o.handed(next)
		case t := <-s.timerc:
			o.timer(t)
		case r := <-s.sendc:
			o.sends = append(o.sends, r)
			o.flushSends()
		case r := <-s.dialc:
			o.dialed(r)
		case r := <-s.acqc:
			o.acquired(r)
		case code := <-s.closec:
			o.close(CloseCode(code))
			s.setStatus(StatusClosed, nil)
			return
		}
	}
}

// cleanup runs when the loop ends: timers stopped, waiting senders told,
// the queue closed so that dispatch drains it.
func (o *owner) cleanup() {
	s := o.s
	close(s.stopped)
	for _, stop := range []func() bool{o.stopBeat, o.stopHello, o.stopBackoff, o.stopSendTimer} {
		if stop != nil {
			stop()
		}
	}
	if o.stopAcquire != nil {
		o.stopAcquire()
	}
	if o.c != nil {
		o.drop(o.c, closeResumable, "shard stopped")
	}
	o.failSends(ErrClosed)
	if o.fatal != nil {
		s.err = o.fatal
		s.setStatus(StatusFailed, o.fatal)
	}
	s.final = o.sess
	close(s.queue)
	close(s.done)
}

// connect starts a connection attempt: a resume when there is a session,
// else a new session (whose IDENTIFY waits for the identify limiter once
// HELLO came).
func (o *owner) connect() {
	o.stopBackoff = nil
	o.dial(o.sess.ID != "")
}

// acquire waits for the identify limiter in a helper goroutine, on the
// connection's context: a connection lost meanwhile stops the wait and
// spends no session start. The connection keeps heartbeating meanwhile.
func (o *owner) acquire(c *conn) {
	s := o.s
	s.setStatus(StatusWaiting, nil)
	ctx, cancel := context.WithCancel(s.waitCtx)
	o.stopAcquire = cancel
	limit, maxConcurrency := o.limit, o.maxConcurrency
	s.helpers.Add(1)
	go func() {
		defer s.helpers.Done()
		defer cancel()
		var done func()
		var err error
		recorded := false
		if limit != nil {
			err = s.recordLimit(ctx, *limit)
			recorded = err == nil
		}
		if err == nil {
			done, err = s.cfg.limiter.Acquire(ctx, s.token, s.cfg.shard[0], maxConcurrency)
		}
		select {
		case s.acqc <- acquireResult{done: done, err: err, gen: c.gen, recorded: recorded}:
		case <-s.stopped:
			if done != nil {
				done()
			}
		}
	}()
}

func (o *owner) acquired(r acquireResult) {
	s := o.s
	o.stopAcquire = nil
	if r.recorded {
		o.limit = nil
	}
	if r.gen != o.gen || o.c == nil {
		// The connection it was for is gone.
		if r.done != nil {
			r.done()
		}
		return
	}
	if r.err != nil {
		if errors.Is(r.err, ratelimit.ErrIdentifyBudget) {
			o.fail(0, fmt.Errorf("gateway: not identifying again: %w; resume a saved session or wait for the reset", r.err))
			return
		}
		if s.waitCtx.Err() != nil {
			return // closing: closec comes next
		}
		s.logger.Warn("gateway: the identify limiter failed", slog.String("error", r.err.Error()))
		o.lost(cause{kind: causeClose, code: int(closeResumable)}, r.err)
		return
	}
	o.identify(r.done)
}

// identify sends IDENTIFY, then tells the limiter it went.
func (o *owner) identify(done func()) {
	s := o.s
	if done != nil {
		defer done()
	}
	d := identifyData{Token: s.token, Properties: identifyProperties{OS: runtime.GOOS, Browser: "guildkit", Device: "guildkit"},
		LargeThreshold: s.cfg.largeThreshold, Shard: s.cfg.shard, Presence: s.cfg.presence, Intents: o.intents}
	b, err := encodePayload(OpIdentify, d)
	if err != nil {
		o.fail(0, err)
		return
	}
	s.setStatus(StatusIdentifying, nil)
	_ = o.write(b)
}

// dial opens a connection in a helper goroutine: to the resume URL for a
// resume, else to the gateway's URL.
func (o *owner) dial(resume bool) {
	s := o.s
	s.setStatus(StatusConnecting, nil)
	u, gatewayURL := o.gatewayURL, o.gatewayURL
	if resume && o.sess.ResumeURL != "" {
		u = o.sess.ResumeURL
	}
	full, err := s.withQuery(u)
	if err != nil {
		o.fail(0, err)
		return
	}
	s.helpers.Add(1)
	go func() {
		defer s.helpers.Done()
		ctx, cancel := context.WithTimeout(s.waitCtx, 30*time.Second)
		defer cancel()
		ws, _, err := websocket.Dial(ctx, full, &websocket.DialOptions{HTTPClient: s.cfg.httpClient,
			HTTPHeader: map[string][]string{"User-Agent": {"guildkit-gateway"}}, CompressionMode: websocket.CompressionDisabled})
		r := dialResult{ws: ws, err: err, url: u, resume: resume}
		if err != nil && u == gatewayURL && s.cfg.rest != nil && s.cfg.url == "" {
			// The cached URL failed: the platform says to ask again.
			if g, gerr := s.cfg.rest.Gateway.Get(ctx); gerr == nil && g.URL != "" && g.URL != u {
				r.fresh = g.URL
			}
		}
		select {
		case s.dialc <- r:
		case <-s.stopped:
			if ws != nil {
				_ = ws.CloseNow()
			}
		}
	}()
}

func (o *owner) dialed(r dialResult) {
	s := o.s
	if r.err != nil {
		s.logger.Warn("gateway: connecting failed", slog.String("error", redactURL(r.err.Error())))
		if r.resume && r.url == o.sess.ResumeURL && r.url != "" {
			// A resume URL that does not connect is forgotten; the
			// next resume goes to the gateway's URL.
			o.sess.ResumeURL = ""
		}
		if r.fresh != "" {
			o.gatewayURL = r.fresh
		}
		o.backoff()
		return
	}
	r.ws.SetReadLimit(s.cfg.readLimit)
	o.gen++
	o.c = newConn(s, r.ws, o.gen)
	o.resuming, o.ready, o.hello, o.replayed = r.resume, false, false, 0
	o.awaitingAck, o.heardSinceBeat = false, false
	o.window, o.writeFailed = o.window[:0], false
	o.stopHello = o.post(s.cfg.helloTimeout, timerMsg{timerHello, o.gen})
}

// backoff waits before the next attempt: exponential, full jitter, capped.
func (o *owner) backoff() {
	s := o.s
	o.attempt++
	wait := backoff(o.attempt, s.cfg.backoffMin, s.cfg.backoffMax, s.cfg.random)
	s.setStatus(StatusWaiting, nil)
	o.stopBackoff = o.post(wait, timerMsg{kind: timerConnect})
	o.signal(guildkit.GatewayEvent{Signal: guildkit.GatewayBackoff, Attempt: o.attempt, Wait: wait})
}

func (o *owner) timer(t timerMsg) {
	switch t.kind {
	case timerConnect:
		if o.c == nil {
			o.connect()
		}
	case timerSend:
		o.stopSendTimer = nil
		o.flushSends()
	case timerHello:
		if t.gen == o.gen && o.c != nil && !o.hello {
			o.lost(cause{kind: causeHelloTimeout}, nil)
		}
	case timerBeat:
		if t.gen != o.gen || o.c == nil {
			return
		}
		if o.awaitingAck && !o.heardSinceBeat && o.pending == nil {
			// No ACK for the last beat and nothing else came: the
			// connection is dead. (While the queue is full the shard
			// is not reading, so silence proves nothing.)
			o.signal(guildkit.GatewayEvent{Signal: guildkit.GatewayZombie})
			o.lost(cause{kind: causeZombie}, nil)
			return
		}
		o.stopBeat = o.post(o.interval, timerMsg{timerBeat, o.gen})
		o.beat()
	}
}

// beat sends a heartbeat with the last sequence number (null before any).
func (o *owner) beat() {
	var d any
	if o.sess.Sequence > 0 {
		d = o.sess.Sequence
	}
	b, _ := encodePayload(OpHeartbeat, d)
	o.awaitingAck, o.heardSinceBeat = true, false
	o.write(b)
}

// write sends one payload on the current connection and counts it against
// the connection's 120 per 60 s, from when the write returned (a write
// that waited on a busy connection counts from when it went).
func (o *owner) write(b []byte) error {
	if o.c == nil {
		return ErrClosed
	}
	err := o.c.write(b)
	o.window = append(o.window, o.s.cfg.clock.Now())
	if err != nil && !o.writeFailed {
		o.writeBroke(err)
	}
	return err
}

// inbound handles one thing the reader sent.
func (o *owner) inbound(m inbound) {
	s := o.s
	if m.err != nil {
		code := websocket.CloseStatus(m.err)
		c := cause{kind: causeClose, code: int(code)}
		switch {
		case m.badStream:
			c = cause{kind: causeBadStream}
		case code == -1:
			c = cause{kind: causeDrop}
		}
		o.lost(c, m.err)
		return
	}
	o.heardSinceBeat = true
	if m.skip != nil {
		s.logger.Warn("gateway: a message that does not decode was skipped", slog.String("error", m.skip.Error()))
		return
	}
	f := m.f
	switch f.Op {
	case OpHello:
		o.onHello(m.interval)
	case OpHeartbeatACK:
		o.awaitingAck = false
	case OpHeartbeat:
		o.beat()
	case OpReconnect:
		o.lost(cause{kind: causeReconnect}, nil)
	case OpInvalidSession:
		if m.resumable {
			o.lost(cause{kind: causeInvalidResumable}, nil)
		} else {
			o.lost(cause{kind: causeInvalidSession}, nil)
		}
	case OpDispatch:
		o.onDispatch(m)
	default:
		s.logger.Debug("gateway: an opcode the client does not handle was ignored", slog.Int("op", int(f.Op)))
	}
}

func (o *owner) onHello(interval time.Duration) {
	s := o.s
	if o.hello {
		return
	}
	o.hello = true
	if o.stopHello != nil {
		o.stopHello()
	}
	if interval <= 0 {
		o.lost(cause{kind: causeClose, code: int(CloseDecodeError)}, errors.New("HELLO without a heartbeat interval"))
		return
	}
	o.interval = interval
	o.signal(guildkit.GatewayEvent{Signal: guildkit.GatewayConnected})
	// The first beat comes at interval × jitter, so that clients do not
	// beat in step.
	o.stopBeat = o.post(time.Duration(s.cfg.random()*float64(interval)), timerMsg{timerBeat, o.gen})
	if o.resuming {
		b, err := encodePayload(OpResume, resumeData{Token: s.token, SessionID: o.sess.ID, Seq: o.sess.Sequence})
		if err != nil {
			o.fail(0, err)
			return
		}
		s.setStatus(StatusResuming, nil)
		_ = o.write(b)
		return
	}
	o.acquire(o.c)
}

func (o *owner) onDispatch(m inbound) {
	s := o.s
	f := m.f
	switch f.T {
	case "READY":
		r, ok := m.ev.(*Ready)
		if !ok || r.SessionID == "" {
			s.logger.Error("gateway: READY without a session id", slog.Any("error", m.decodeErr))
			o.lost(cause{kind: causeClose, code: int(CloseDecodeError)}, errors.New("READY does not decode"))
			return
		}
		o.sess = Session{ID: r.SessionID, ResumeURL: r.ResumeGatewayURL, Shard: s.cfg.shard}
		s.noteSession(r.SessionID)
		o.becameReady()
		o.signal(guildkit.GatewayEvent{Signal: guildkit.GatewayReady})
	case "RESUMED":
		o.becameReady()
		o.signal(guildkit.GatewayEvent{Signal: guildkit.GatewayResumed, Replayed: o.replayed})
	}
	if f.S > 0 && f.S <= o.sess.Sequence && f.T != "READY" {
		return // handed to the queue already: exactly once
	}
	if o.resuming && !o.ready {
		o.replayed++
	}
	if m.decodeErr != nil {
		s.logger.Warn("gateway: an event that does not decode was skipped", slog.String("event", f.T), slog.Int64("s", f.S), slog.String("error", m.decodeErr.Error()))
		o.offer(queued{session: o.sess.ID, seq: f.S, resume: o.sess.ResumeURL}) // no event: counted as handled, in order
		return
	}
	if ch, ok := m.ev.(*GuildMembersChunk); ok {
		o.chunk(ch)
	}
	o.offer(queued{ev: m.ev, session: o.sess.ID, seq: f.S, resume: o.sess.ResumeURL})
}

func (o *owner) becameReady() {
	s := o.s
	o.ready = true
	o.attempt = 0
	s.setStatus(StatusReady, nil)
	s.readyOnce.Do(func() { close(s.readyc) })
	o.flushSends()
}

// offer hands q to the queue, or keeps it (and stops reading) when the
// queue is full.
func (o *owner) offer(q queued) {
	select {
	case o.s.queue <- q:
		o.handed(q)
	default:
		o.pending = &q
		if h := o.s.stallHook; h != nil {
			h()
		}
	}
}

// handed records that q is in the queue: its sequence number is the one a
// resume asks for.
func (o *owner) handed(q queued) {
	if q.seq > o.sess.Sequence && q.session == o.sess.ID {
		o.sess.Sequence = q.seq
	}
}

// lost ends the current connection for c and decides, by the table, what
// comes next.
func (o *owner) lost(c cause, err error) {
	s := o.s
	d := decide(c)
	if o.stopBeat != nil {
		o.stopBeat()
		o.stopBeat = nil
	}
	if o.stopHello != nil {
		o.stopHello()
		o.stopHello = nil
	}
	if o.stopAcquire != nil {
		o.stopAcquire()
		o.stopAcquire = nil
	}
	// An event the queue had no room for is dropped with the connection:
	// its sequence number was never handed on, so the resume replays it.
	o.pending = nil
	code := 0
	if c.kind == causeClose {
		code = c.code
	}
	if o.c != nil {
		o.drop(o.c, closeResumable, d.name)
		o.c = nil
	}
	o.ready = false
	ev := guildkit.GatewayEvent{Signal: guildkit.GatewayDisconnected, Code: code, Err: err}
	if ev.Err == nil {
		ev.Err = errors.New(d.name)
	}
	o.signal(ev)
	switch d.then {
	case actStop:
		o.fail(code, &CloseError{Code: CloseCode(code), Reason: closeReason(err), Meaning: d.name, Advice: d.advice, Intents: o.intents})
		return
	case actIdentify:
		if o.sess.ID != "" {
			lostSess := o.sess
			o.sess = Session{Shard: s.cfg.shard}
			o.failSends(fmt.Errorf("%w (%s): the payloads waiting for it were not sent", ErrSessionLost, d.name))
			o.signal(guildkit.GatewayEvent{Signal: guildkit.GatewaySessionLost, SessionID: lostSess.ID, LastSequence: lostSess.Sequence, Err: errors.New(d.name)})
			o.offer(queued{ev: &SessionLost{SessionID: lostSess.ID, Sequence: lostSess.Sequence, Reason: d.name, Time: s.cfg.clock.Now()}})
		}
	}
	o.backoff()
}

// fail stops the shard for good.
func (o *owner) fail(code int, err error) {
	o.fatal = err
	o.signal(guildkit.GatewayEvent{Signal: guildkit.GatewayFatal, Code: code, Err: err})
}

// close ends the shard on Close (4000, resumable) or End (1000).
func (o *owner) close(code CloseCode) {
	if o.c != nil {
		o.drop(o.c, code, "closing")
		o.c = nil
	}
	if code == closeNormal {
		o.sess = Session{Shard: o.s.cfg.shard}
	}
}

// drop closes c with code in a helper goroutine (the close handshake
// waits for the server), then stops its reader.
func (o *owner) drop(c *conn, code CloseCode, reason string) {
	s := o.s
	s.helpers.Add(1)
	go func() {
		defer s.helpers.Done()
		_ = c.ws.Close(websocket.StatusCode(code), truncate(reason, 120))
		c.cancel()
	}()
}

func closeReason(err error) string {
	var ce websocket.CloseError
	if errors.As(err, &ce) {
		return ce.Reason
	}
	return ""
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// signal tells the observer and the log.
func (o *owner) signal(e guildkit.GatewayEvent) {
	s := o.s
	e.Shard, e.ShardCount = s.cfg.shard[0], s.cfg.shard[1]
	if e.SessionID == "" {
		e.SessionID = o.sess.ID
	}
	if e.LastSequence == 0 {
		e.LastSequence = o.sess.Sequence
	}
	e.Time = s.cfg.clock.Now()
	attrs := []slog.Attr{slog.String("session", e.SessionID), slog.Int64("seq", e.LastSequence)}
	level := slog.LevelInfo
	switch e.Signal {
	case guildkit.GatewayConnected, guildkit.GatewayDisconnected:
		level = slog.LevelDebug
	case guildkit.GatewayResumed:
		attrs = append(attrs, slog.Int("replayed", e.Replayed))
	case guildkit.GatewayBackoff:
		level = slog.LevelDebug
		attrs = append(attrs, slog.Int("attempt", e.Attempt), slog.Duration("wait", e.Wait))
	case guildkit.GatewaySessionLost, guildkit.GatewayZombie:
		level = slog.LevelWarn
	case guildkit.GatewayFatal:
		level = slog.LevelError
	}
	if e.Code != 0 {
		attrs = append(attrs, slog.Int("code", e.Code))
	}
	if e.Err != nil {
		attrs = append(attrs, slog.String("error", e.Err.Error()))
	}
	s.logger.LogAttrs(context.Background(), level, "gateway: "+e.Signal.String(), attrs...)
	if ob := s.cfg.observer; ob != nil && ob.Gateway != nil {
		ob.Gateway(context.Background(), e)
	}
}
