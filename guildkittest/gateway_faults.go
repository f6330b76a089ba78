package guildkittest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/coder/websocket"
)

// FaultKind names a gateway fault.
type FaultKind string

// The gateway faults [Server.InjectGatewayFault] applies.
const (
	// FaultReconnect sends RECONNECT (op 7); the client should resume.
	FaultReconnect FaultKind = "reconnect"
	// FaultInvalidSession sends INVALID_SESSION with d = Resumable; when
	// false the session ends (a RESUME of it gets INVALID_SESSION false)
	// and the connection may IDENTIFY again.
	FaultInvalidSession FaultKind = "invalid_session"
	// FaultClose closes the connection with Code (default 4000); the
	// session is kept or ended as the code says (4003, 4007, 4009 and the
	// fatal codes end it).
	FaultClose FaultKind = "close"
	// FaultDrop cuts the TCP connection with no close frame; the session
	// stays resumable.
	FaultDrop FaultKind = "drop"
	// FaultWithholdAcks stops acknowledging heartbeats (a zombie
	// connection); everything else is still sent.
	FaultWithholdAcks FaultKind = "withhold_acks"
	// FaultSilence stops sending anything at all on the connection:
	// neither acks nor dispatches (they wait in the session's queue).
	FaultSilence FaultKind = "silence"
	// FaultRequestHeartbeat sends op 1: the client must beat at once.
	FaultRequestHeartbeat FaultKind = "request_heartbeat"
)

// GatewayFault is a fault for [Server.InjectGatewayFault].
type GatewayFault struct {
	Kind      FaultKind `json:"kind"`
	Resumable bool      `json:"resumable,omitempty"` // FaultInvalidSession
	Code      int       `json:"code,omitempty"`      // FaultClose: 4000 when 0

	takeover bool // a RESUME elsewhere takes the session over
}

// ErrNoGatewaySession is returned by [Server.InjectGatewayFault] for a
// session id that is not connected.
var ErrNoGatewaySession = errors.New("guildkittest: no connected gateway session with that id")

// faultKinds are the gateway faults, in the order messages list them.
var faultKinds = []FaultKind{FaultReconnect, FaultInvalidSession, FaultClose, FaultDrop, FaultWithholdAcks, FaultSilence, FaultRequestHeartbeat}

// known reports whether k is one of the gateway faults.
func (k FaultKind) known() bool { return slices.Contains(faultKinds, k) }

// faultKindList lists the gateway faults for a message, sep before the
// last (" or " gives "reconnect, invalid_session, ... or request_heartbeat").
func faultKindList(sep string) string {
	names := make([]string, len(faultKinds))
	for i, k := range faultKinds {
		names[i] = string(k)
	}
	n := len(names) - 1
	return strings.Join(names[:n], ", ") + sep + names[n]
}

// validate reports what is wrong with f.
func (f GatewayFault) validate() error {
	if !f.Kind.known() {
		return fmt.Errorf("guildkittest: unknown gateway fault kind %q (%s)", f.Kind, faultKindList(", "))
	}
	if f.Kind == FaultClose && f.Code != 0 && (f.Code < 1000 || f.Code > 4999 || f.Code == 1004 || f.Code == 1005 || f.Code == 1006 || f.Code == 1015) {
		return fmt.Errorf("guildkittest: close code %d cannot be sent in a close frame", f.Code)
	}
	return nil
}

// InjectGatewayFault applies f to the connected session sessionID, or to
// every connected session when sessionID is "", and returns once it is
// applied (the frame written, the connection closed or cut). It returns
// how many connections it applied to; [ErrNoGatewaySession] when sessionID
// names no connected session; ctx's error when ctx ends first.
func (s *Server) InjectGatewayFault(ctx context.Context, sessionID string, f GatewayFault) (int, error) {
	if err := f.validate(); err != nil {
		return 0, err
	}
	h := &s.gw
	h.mu.Lock()
	var targets []*gwConn
	if sessionID == "" {
		for _, sess := range h.sessions {
			if sess.conn != nil {
				targets = append(targets, sess.conn)
			}
		}
	} else if sess, ok := h.sessions[sessionID]; ok && sess.conn != nil {
		targets = append(targets, sess.conn)
	}
	h.mu.Unlock()
	if sessionID != "" && len(targets) == 0 {
		return 0, ErrNoGatewaySession
	}
	n := 0
	for _, c := range targets {
		done := make(chan struct{})
		if !c.request(gwCtl{fault: f, done: done}) {
			continue // it has ended
		}
		select {
		case <-done:
			n++
		case <-c.released: // it ended: by the fault, or before the fault's turn
			select {
			case <-done:
				n++
			default:
			}
		case <-ctx.Done():
			return n, ctx.Err()
		}
	}
	return n, nil
}

// apply applies a fault in the connection's owner and closes done once it
// is applied (for a close, once the session is handed back and just before
// the close handshake, which may wait for the peer); true ends the
// connection.
func (c *gwConn) apply(f GatewayFault, done chan struct{}) (stop bool) {
	defer func() {
		if !stop {
			close(done)
		}
	}()
	c.log(GatewayFrame{Direction: FrameOut, Op: -1, Note: "fault: " + string(f.Kind)})
	switch f.Kind {
	case FaultReconnect:
		_ = c.send(opReconnect, nil, 0, "")
	case FaultInvalidSession:
		if !f.Resumable {
			h := &c.s.gw
			h.mu.Lock()
			if sess := c.sess; sess != nil && sess.conn == c {
				c.s.endSessionLocked(sess)
			}
			c.sess = nil
			h.mu.Unlock()
		}
		c.invalidSession(f.Resumable)
	case FaultClose:
		code := websocket.StatusCode(f.Code)
		if code == 0 {
			code = closeUnknownError
		}
		if f.takeover {
			h := &c.s.gw
			h.mu.Lock()
			if sess := c.sess; sess != nil && sess.conn == c {
				sess.conn = nil
			}
			c.sess = nil
			h.mu.Unlock()
			close(done)
			c.closeWith(code, "Session resumed on another connection.", nil)
			return true
		}
		c.closeWith(code, "Closed by an injected fault.", done)
		return true
	case FaultDrop:
		_ = c.ws.CloseNow()
		c.releaseSession()
		close(done)
		return true
	case FaultWithholdAcks:
		c.withhold = true
	case FaultSilence:
		c.silent = true
	case FaultRequestHeartbeat:
		_ = c.send(opHeartbeat, nil, 0, "")
	}
	return false
}

// Frame directions in a [GatewayFrame].
const (
	FrameIn      = "in"       // from the client
	FrameOut     = "out"      // to the client
	FrameNotSent = "not sent" // a dispatch the session did not get (intents, shard, permissions)
)

// GatewayFrame is one entry of a session's frame log: a payload in or
// out, decompressed, tokens redacted; a dispatch not sent, with why; or a
// note (a close, a fault).
type GatewayFrame struct {
	At        time.Time       `json:"at"`
	Direction string          `json:"direction"`
	Op        int             `json:"op"` // -1 for a note
	Seq       int64           `json:"s,omitempty"`
	Name      string          `json:"t,omitempty"`
	Data      json.RawMessage `json:"d,omitempty"` // the payload's d (a client payload whole), at most 4 KiB
	Truncated bool            `json:"truncated,omitempty"`
	Note      string          `json:"note,omitempty"` // why not sent; a close; a fault

	data []byte // shared with the session's queue; Data is made from it on reading
	size int    // the payload's size when data, too big to show, is not kept
}

// maxFrameData is how much of a payload GatewayFrames returns.
const maxFrameData = 4096

// GatewaySession describes a session, for tests and the control API.
type GatewaySession struct {
	ID          string            `json:"id"`
	Shard       [2]int            `json:"shard"`
	Intents     uint64            `json:"intents"`
	IntentNames []string          `json:"intent_names"`
	Properties  map[string]string `json:"properties"` // IDENTIFY's: os, browser (the library), device
	// Compression is zlib-stream, zstd-stream, payload or "".
	Compression string `json:"compression"`
	Version     string `json:"version"`
	Sequence    int64  `json:"sequence"` // the last sequence number given
	Written     int64  `json:"written"`  // the last written to a connection
	Queued      int    `json:"queued"`   // dispatches kept (not yet acknowledged)
	Connected   bool   `json:"connected"`
	Ended       bool   `json:"ended"`
	// URL is where its current (or last) connection came: "gateway" (the
	// ordinary URL) or "resume" (resume_gateway_url). ResumedTo lists the
	// URL of each resume, oldest first.
	URL       string   `json:"url"`
	ResumedTo []string `json:"resumed_to"`
	Resumes   int      `json:"resumes"`
	// HeartbeatInterval is HELLO's; LastHeartbeat the server's time of the
	// last beat (zero before one); Heartbeats counts them.
	HeartbeatInterval time.Duration `json:"heartbeat_interval"`
	LastHeartbeat     time.Time     `json:"last_heartbeat"`
	// Hello is the server's time of HELLO on its current (or last)
	// connection, from which the server's heartbeat timeout runs until the
	// first beat on it.
	Hello      time.Time `json:"hello"`
	Heartbeats int       `json:"heartbeats"`
	Identifies int       `json:"identifies"`
	Created    time.Time `json:"created"`
}

// GatewaySessions returns the gateway's sessions: the live ones (connected
// or waiting for a resume) by creation time, then the most recently ended.
func (s *Server) GatewaySessions() []GatewaySession {
	h := &s.gw
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []GatewaySession
	for _, sess := range h.sessions {
		out = append(out, sess.describe())
	}
	slices.SortFunc(out, func(a, b GatewaySession) int { return a.Created.Compare(b.Created) })
	for _, id := range h.endedOrder {
		if sess, ok := h.ended[id]; ok {
			out = append(out, sess.describe())
		}
	}
	return out
}

func (sess *gwSession) describe() GatewaySession {
	return GatewaySession{
		ID: sess.id, Shard: [2]int{sess.shardID, sess.numShards}, Intents: sess.intents,
		IntentNames: intentNames(sess.intents), Properties: maps.Clone(sess.properties),
		Compression: sess.compression, Version: sess.version, Sequence: sess.seq, Written: sess.written,
		Queued: len(sess.buf), Connected: sess.conn != nil, Ended: sess.ended, URL: sess.url,
		ResumedTo: slices.Clone(sess.resumedTo), Resumes: sess.resumes,
		HeartbeatInterval: sess.interval, LastHeartbeat: sess.lastBeat, Hello: sess.helloAt, Heartbeats: sess.beats,
		Identifies: sess.identifies, Created: sess.created,
	}
}

// GatewayFrames returns a session's frame log, oldest first: the last
// FrameLogSize frames (and at most FrameLogBytes) in and out, decompressed,
// with tokens redacted, and the dispatches the session did not get
// (intents, shard, permissions).
func (s *Server) GatewayFrames(sessionID string) []GatewayFrame {
	h := &s.gw
	h.mu.Lock()
	sess, ok := h.sessions[sessionID]
	if !ok {
		sess, ok = h.ended[sessionID]
	}
	var frames []GatewayFrame
	if ok {
		records := sess.log.all()
		frames = make([]GatewayFrame, len(records))
		for i, r := range records {
			frames[i] = r.frame()
		}
	}
	h.mu.Unlock()
	for i := range frames {
		f := &frames[i]
		d := f.data
		if n := max(len(d), f.size); f.size > 0 || n > maxFrameData {
			d, f.Truncated = nil, true
			f.Note = strings.TrimSpace(f.Note + fmt.Sprintf(" (%d bytes, not kept)", n))
		}
		if len(d) > 0 {
			f.Data = json.RawMessage(redactFrame(d))
		}
		f.data = nil
	}
	return frames
}

// redactFrame replaces the value of every "token" key of a JSON payload
// (IDENTIFY's, RESUME's, an interaction's) with "[redacted]".
func redactFrame(b []byte) []byte {
	if !strings.Contains(string(b), `"token"`) {
		return b
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return []byte(`"[undecodable payload with a token, redacted]"`)
	}
	redactTokens(v, 0)
	out, err := json.Marshal(v)
	if err != nil {
		return []byte(`"[redacted]"`)
	}
	return out
}

func redactTokens(v any, depth int) {
	if depth > 32 {
		return
	}
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if k == "token" {
				v[k] = "[redacted]"
				continue
			}
			redactTokens(x, depth+1)
		}
	case []any:
		for _, x := range v {
			redactTokens(x, depth+1)
		}
	}
}
