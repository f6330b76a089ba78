package guildkittest

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/klauspost/compress/zstd"
)

// Transport compression modes (the URL's compress parameter), and payload
// compression (IDENTIFY's compress: true without one of them).
const (
	compressZlibStream = "zlib-stream"
	compressZstdStream = "zstd-stream"
	compressPayload    = "payload"
)

// gatewayWriteTimeout bounds one write of real time: a peer that takes
// longer to accept a frame loses its connection (resumable, like a drop).
const gatewayWriteTimeout = 10 * time.Second

// sendWindow is the window of the per-connection send limit.
const sendWindow = 60 * time.Second

// gwIn is what the reader goroutine hands the connection's owner.
type gwIn struct {
	typ websocket.MessageType
	b   []byte
	err error
}

// gwCtl is a fault (or another request) for the connection's owner; done
// is closed once it is applied.
type gwCtl struct {
	fault GatewayFault
	done  chan struct{}
	from  *gwConn // the connection taking the session over, for a takeover
}

// gwConn is one WebSocket connection to the gateway. One goroutine at a
// time is its owner (see gateway_owner.go): it alone reads and changes
// the fields below "owner only", and alone writes to ws. The connection's
// own goroutine only reads from ws and hands each message over; the
// owner's work (a message, dispatches queued, the heartbeat timeout, a
// fault) is done by an owner goroutine, started when there is some and
// gone when there is none. An idle connection so costs one goroutine,
// blocked reading, with a small stack.
type gwConn struct {
	s         *Server
	ws        *websocket.Conn
	tcp       *corkConn // ws's connection: flush corks it
	version   string
	transport string // "", zlib-stream or zstd-stream
	url       string // "gateway" or "resume": which URL it came to
	remote    string
	ctx       context.Context
	cancel    context.CancelFunc

	released chan struct{} // closed once the connection has ended and handed its session back
	ctlSig   chan struct{} // a request was queued (takeOver waits on it)

	own      sync.Mutex // guards the fields below, up to kickOnce
	ownCond  sync.Cond  // a message was taken, or the owner is done
	owned    bool       // an owner goroutine runs
	finished bool       // the connection ended: no owner goroutine starts again
	started  bool       // the owner has sent HELLO
	message  *gwIn      // read, for the owner to handle
	wakeSet  bool       // new dispatches in the session's queue
	hbDueSet bool       // the heartbeat timeout passed
	requests []gwCtl    // faults and takeovers for the owner, in order

	kickOnce sync.Once

	// owner only
	sess       *gwSession // the session it carries, nil before IDENTIFY/RESUME; written under the hub's mu
	payload    bool       // payload compression
	zbuf       bytes.Buffer
	zw         *zlib.Writer
	zenc       *zstd.Encoder
	withhold   bool // withhold_acks
	silent     bool // silence
	corked     bool // flush is gathering writes in tcp
	sends      sendCounter
	helloAt    time.Time // when it sent HELLO, on the server's clock
	stopHB     func() bool
	interval   time.Duration
	closeCode  websocket.StatusCode // the code the server closed with; 0 when it did not
	clientCode websocket.StatusCode // the code the client closed with; -1 for none (a drop)
	prelog     []GatewayFrame       // frames before a session exists
}

func newGatewayConn(s *Server, ws *websocket.Conn, tcp *corkConn, version, transport, url, remote string) *gwConn {
	ctx, cancel := context.WithCancel(context.Background())
	return &gwConn{
		s: s, ws: ws, tcp: tcp, version: version, transport: transport, url: url, remote: remote,
		ctx: ctx, cancel: cancel,
		released: make(chan struct{}), ctlSig: make(chan struct{}, 1),
		clientCode: -1, sends: sendCounter{start: s.Now()},
	}
}

// shutdown cuts the connection at once (the server is closing).
func (c *gwConn) shutdown() {
	c.cancel()
	_ = c.ws.CloseNow()
}

// kick closes a connection that fell too far behind with 4000 (resumable),
// from outside its owner: the owner may be blocked writing to a peer that
// does not read. The caller holds the hub's mu.
func (c *gwConn) kick(h *gatewayHub) {
	c.closeAsync(h, closeUnknownError, "Outbound queue full: the connection is not reading its events. Resume.")
}

// closeAsync closes the connection with code from outside its owner, once;
// a peer that does not take the close frame within a second has its TCP
// connection cut. The caller holds the hub's mu.
func (c *gwConn) closeAsync(h *gatewayHub, code websocket.StatusCode, reason string) {
	c.kickOnce.Do(func() {
		if h.closed {
			return
		}
		if sess := c.sess; sess != nil {
			sess.logLocked(GatewayFrame{At: c.s.Now(), Direction: FrameOut, Op: -1, Note: "close " + strconv.Itoa(int(code)) + ": " + reason})
		}
		h.wg.Add(1)
		go func() {
			defer h.wg.Done()
			// Cancelling the connection's context makes a write blocked on
			// the peer fail and the library close the connection (CloseNow
			// does nothing while Close is under way).
			cut := time.AfterFunc(time.Second, c.cancel)
			_ = c.ws.Close(code, reason)
			cut.Stop()
			c.cancel()
		}()
	})
}

// run serves the connection until it ends, then hands its session back to
// the hub (kept for a resume, or ended). Its goroutine reads; an owner
// goroutine sends HELLO and handles what it reads.
func (c *gwConn) run() {
	h := &c.s.gw
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		_ = c.ws.CloseNow()
		close(c.released)
		return
	}
	h.conns[c] = struct{}{}
	c.interval = h.settings.HeartbeatInterval
	h.mu.Unlock()

	c.ownCond.L = &c.own
	c.signal(nil) // HELLO
	for {
		typ, b, err := c.ws.Read(c.ctx)
		if !c.deliver(gwIn{typ, b, err}) || err != nil {
			break
		}
	}
	c.finish()
}

// start sets the connection up and sends HELLO: the first work of its
// first owner. false when HELLO could not be written.
func (c *gwConn) start() bool {
	switch c.transport {
	case compressZlibStream:
		c.zw, _ = zlib.NewWriterLevel(&c.zbuf, zlib.BestSpeed)
	case compressZstdStream:
		c.zenc, _ = zstd.NewWriter(&c.zbuf, zstd.WithEncoderLevel(zstd.SpeedFastest),
			zstd.WithEncoderConcurrency(1), zstd.WithWindowSize(1<<17), zstd.WithLowerEncoderMem(true))
	}
	hello := strconv.AppendInt([]byte(`{"heartbeat_interval":`), c.interval.Milliseconds(), 10)
	hello = append(hello, '}')
	c.helloAt = c.s.Now()
	if c.send(opHello, hello, 0, "") != nil {
		return false
	}
	c.armHeartbeat()
	return true
}

// received handles what the connection's goroutine read, true when it
// ends the connection.
func (c *gwConn) received(in gwIn) bool {
	if in.err != nil {
		c.readEnded(in.err)
		return true
	}
	if code, reason := c.handle(in.typ, in.b); code != 0 {
		c.closeWith(code, reason, nil)
		return true
	}
	return c.ctx.Err() != nil // closed while handling it (a RESUME's takeover)
}

func (c *gwConn) heartbeatTimeout() {
	c.closeWith(closeUnknownError, "Heartbeat timeout: no heartbeat for 1.5 intervals. Resume.", nil)
}

// readEnded records how the client ended the connection: 1000/1001 end
// the session; any other code, or none (a drop), keeps it.
func (c *gwConn) readEnded(err error) {
	if code := websocket.CloseStatus(err); code != -1 {
		c.clientCode = code
	} else if errors.Is(err, websocket.ErrMessageTooBig) {
		// Over the 16 KiB read limit the library closed with 1009 itself.
		c.closeCode = websocket.StatusMessageTooBig
	}
	c.log(GatewayFrame{Direction: FrameIn, Op: -1, Note: "connection ended: " + closeNote(c.clientCode)})
}

func closeNote(code websocket.StatusCode) string {
	if code == -1 {
		return "no close frame (dropped)"
	}
	return "close " + strconv.Itoa(int(code))
}

// closeWith closes the connection with code, logged in its session's
// frames; the session is kept or ended as the code says (endsSession),
// before the close handshake, so that a client resuming at once finds it
// free. released, when not nil, is closed once the session is handed back.
func (c *gwConn) closeWith(code websocket.StatusCode, reason string, released chan struct{}) {
	c.closeCode = code
	c.log(GatewayFrame{Direction: FrameOut, Op: -1, Note: "close " + strconv.Itoa(int(code)) + ": " + reason})
	c.releaseSession()
	if released != nil {
		close(released)
	}
	_ = c.ws.Close(code, reason)
}

// release unregisters the connection and hands its session back.
func (c *gwConn) release() {
	h := &c.s.gw
	h.mu.Lock()
	delete(h.conns, c)
	h.mu.Unlock()
	c.releaseSession()
}

// releaseSession hands the connection's session back: ended when the
// server closed with a code that ends it or the client closed with
// 1000/1001; else kept for ResumeWindow.
func (c *gwConn) releaseSession() {
	h := &c.s.gw
	h.mu.Lock()
	defer h.mu.Unlock()
	sess := c.sess
	if sess == nil || sess.conn != c {
		return
	}
	if sess.ended {
		sess.conn = nil
		return
	}
	end := c.clientCode == websocket.StatusNormalClosure || c.clientCode == websocket.StatusGoingAway
	if c.closeCode != 0 && endsSession(c.closeCode) {
		end = true
	}
	if end {
		c.s.endSessionLocked(sess)
		return
	}
	c.s.detachLocked(sess)
}

// armHeartbeat (re)starts the heartbeat timeout: 1.5 intervals of the
// server's clock.
func (c *gwConn) armHeartbeat() {
	if c.stopHB != nil {
		c.stopHB()
	}
	c.stopHB = c.s.AfterFunc(c.interval*3/2, func() {
		c.signal(&c.hbDueSet)
	})
}

// send writes one payload (compressed as the connection asks) and logs it.
// Nothing is written while the connection is silenced.
func (c *gwConn) send(op int, d []byte, seq int64, name string) error {
	if c.silent {
		return nil
	}
	frame := encodeFrame(op, d, seq, name)
	c.log(GatewayFrame{Direction: FrameOut, Op: op, Seq: seq, Name: name, data: d})
	return c.write(frame, op == opDispatch && (name == "READY" || name == "GUILD_CREATE" || name == "GUILD_MEMBERS_CHUNK"))
}

// write writes frame as the connection's compression asks: a binary frame
// of the shared zlib or zstd stream, flushed; an independent zlib stream
// for payload compression (big payloads only); else a text frame.
func (c *gwConn) write(frame []byte, big bool) error {
	typ, out := websocket.MessageText, frame
	switch {
	case c.zw != nil:
		c.zbuf.Reset()
		_, _ = c.zw.Write(frame)
		_ = c.zw.Flush() // a sync flush: the message ends with 00 00 ff ff
		typ, out = websocket.MessageBinary, c.zbuf.Bytes()
	case c.zenc != nil:
		c.zbuf.Reset()
		_, _ = c.zenc.Write(frame)
		_ = c.zenc.Flush() // flushed, the zstd frame left open
		typ, out = websocket.MessageBinary, c.zbuf.Bytes()
	case c.payload && big:
		var b bytes.Buffer
		zw := zlib.NewWriter(&b)
		_, _ = zw.Write(frame)
		_ = zw.Close()
		typ, out = websocket.MessageBinary, b.Bytes()
	}
	if c.corked {
		// Gathered, not written: uncork's deadline bounds the write, and
		// the library needs no context to give up on (it would register
		// one per frame).
		return c.ws.Write(context.Background(), typ, out)
	}
	if c.tcp != nil {
		// One frame corked: the library's small buffer never splits it
		// into several writes.
		c.tcp.cork()
		err := c.ws.Write(context.Background(), typ, out)
		if uerr := c.tcp.uncork(gatewayWriteTimeout); err == nil {
			err = uerr
		}
		return err
	}
	ctx, cancel := context.WithTimeout(c.ctx, gatewayWriteTimeout)
	defer cancel()
	return c.ws.Write(ctx, typ, out)
}

// flush writes the session's dispatches not yet written, in order: each
// its own WebSocket message, a batch of them (up to flushBatch) logged
// under one lock and written to the connection in one write, with one
// deadline (gatewayWriteTimeout).
func (c *gwConn) flush() error {
	h := &c.s.gw
	for {
		h.mu.Lock()
		sess := c.sess
		if c.silent || sess == nil || sess.conn != c || len(sess.buf) == 0 {
			h.mu.Unlock()
			return nil
		}
		first := sess.buf[0].seq
		i := int(sess.written + 1 - first)
		if i < 0 {
			i = 0
		}
		if i >= len(sess.buf) {
			h.mu.Unlock()
			return nil
		}
		batch := flushBatches.Get().(*[flushBatch]gwEntry)
		n := copy(batch[:], sess.buf[i:])
		sess.written = batch[n-1].seq
		sess.trimReplayLocked(h.settings.ReplayBytes)
		now := c.s.Now()
		for _, e := range batch[:n] {
			sess.logLocked(GatewayFrame{At: now, Direction: FrameOut, Op: opDispatch, Seq: e.seq, Name: e.name, data: e.d})
		}
		h.mu.Unlock()
		err := c.writeBatch(batch[:n])
		clear(batch[:n]) // the payloads are the session's to drop
		flushBatches.Put(batch)
		if err != nil {
			return err
		}
	}
}

// flushBatch is the most dispatches flush writes at once.
const flushBatch = 64

// flushBatches are the batches of flushes under way, shared by every
// connection (a batch on the stack would grow each owner goroutine's).
var flushBatches = sync.Pool{New: func() any { return new([flushBatch]gwEntry) }}

// writeBatch writes the dispatches batch, corked: one write of all.
func (c *gwConn) writeBatch(batch []gwEntry) (err error) {
	if c.tcp != nil {
		c.tcp.cork()
		c.corked = true
		defer func() {
			c.corked = false
			if uerr := c.tcp.uncork(gatewayWriteTimeout); err == nil {
				err = uerr
			}
		}()
	}
	frame := getWriteBuffer()
	defer putWriteBuffer(frame)
	for _, e := range batch {
		*frame = appendFrame((*frame)[:0], opDispatch, e.d, e.seq, e.name)
		if err := c.write(*frame, e.name == "READY" || e.name == "GUILD_CREATE" || e.name == "GUILD_MEMBERS_CHUNK"); err != nil {
			return err
		}
	}
	return nil
}

// allowSend counts a client payload against the send limit (SendLimit per
// 60 s of the server's clock, heartbeats included; see sendCounter): false
// when over it.
func (c *gwConn) allowSend(limit int, strict bool) bool {
	return c.sends.allow(c.s.Now(), limit, strict)
}

// handle acts on one client payload; a non-zero code closes the
// connection with it.
func (c *gwConn) handle(typ websocket.MessageType, b []byte) (websocket.StatusCode, string) {
	f, code, reason := decodeClientFrame(typ, b)
	// The log keeps a copy its size: b's array has room for a bigger
	// message.
	c.log(GatewayFrame{Direction: FrameIn, Op: f.Op, data: bytes.Clone(redactFrame(b))})
	if code != 0 {
		return code, reason
	}
	h := &c.s.gw
	h.mu.Lock()
	limit, strict := h.settings.SendLimit, h.settings.StrictSendWindow
	h.mu.Unlock()
	if !c.allowSend(limit, strict) {
		return closeRateLimited, "Rate limited: more than " + strconv.Itoa(limit) + " payloads in 60 seconds."
	}
	switch f.Op {
	case opHeartbeat:
		return c.heartbeat(f.D)
	case opIdentify:
		return c.identify(f.D)
	case opResume:
		return c.resume(f.D)
	}
	if c.sess == nil {
		if knownClientOp(f.Op) {
			return closeNotAuthenticated, "Not authenticated: send IDENTIFY or RESUME first."
		}
		return closeUnknownOpcode, "Unknown opcode " + strconv.Itoa(f.Op) + "."
	}
	switch f.Op {
	case opPresenceUpdate:
		return c.presence(f.D)
	case opVoiceStateUpdate:
		return c.voiceState(f.D)
	case opRequestGuildMembers:
		return c.requestMembers(f.D)
	case opRequestSoundboard:
		return c.requestSoundboard(f.D)
	case opRequestChannelInfo:
		return c.requestChannelInfo(f.D)
	}
	return closeUnknownOpcode, "Unknown opcode " + strconv.Itoa(f.Op) + "."
}

func knownClientOp(op int) bool {
	switch op {
	case opPresenceUpdate, opVoiceStateUpdate, opRequestGuildMembers, opRequestSoundboard, opRequestChannelInfo:
		return true
	}
	return false
}

// heartbeat answers a beat (d null, 0 or the last sequence number) with
// op 11, unless acks are withheld, and restarts the timeout.
func (c *gwConn) heartbeat(d json.RawMessage) (websocket.StatusCode, string) {
	var seq *int64
	if err := json.Unmarshal(d, &seq); err != nil {
		return closeUnknownOpcode, "Invalid heartbeat: d must be null or the last sequence number."
	}
	c.armHeartbeat()
	h := &c.s.gw
	h.mu.Lock()
	if sess := c.sess; sess != nil && sess.conn == c {
		sess.lastBeat = c.s.Now()
		sess.beats++
		if seq != nil {
			sess.ackLocked(*seq)
		}
	}
	h.mu.Unlock()
	if !c.withhold {
		_ = c.send(opHeartbeatACK, nil, 0, "") // a failed write ends the connection on its next read
	}
	return 0, ""
}

// invalidSession sends op 9.
func (c *gwConn) invalidSession(resumable bool) {
	h := &c.s.gw
	h.mu.Lock()
	h.invalidSessions++
	h.mu.Unlock()
	d := []byte("false")
	if resumable {
		d = []byte("true")
	}
	_ = c.send(opInvalidSession, d, 0, "")
}

// presence accepts op 3 (an object); the emulator keeps no presence.
func (c *gwConn) presence(d json.RawMessage) (websocket.StatusCode, string) {
	var p struct {
		Since      *int64            `json:"since"`
		Activities []json.RawMessage `json:"activities"`
		Status     string            `json:"status"`
		AFK        bool              `json:"afk"`
	}
	if err := json.Unmarshal(d, &p); err != nil || string(d) == "null" {
		return closeUnknownOpcode, "Invalid presence update."
	}
	switch p.Status {
	case "", "online", "dnd", "idle", "invisible", "offline":
	default:
		return closeUnknownOpcode, "Invalid presence update: unknown status."
	}
	return 0, ""
}

// voiceState accepts op 4: the emulator has no voice.
func (c *gwConn) voiceState(d json.RawMessage) (websocket.StatusCode, string) {
	var v struct {
		GuildID   json.RawMessage `json:"guild_id"`
		ChannelID json.RawMessage `json:"channel_id"`
		SelfMute  bool            `json:"self_mute"`
		SelfDeaf  bool            `json:"self_deaf"`
	}
	if err := json.Unmarshal(d, &v); err != nil || string(d) == "null" || v.GuildID == nil {
		return closeUnknownOpcode, "Invalid voice state update."
	}
	return 0, ""
}
