package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"time"

	"github.com/coder/websocket"
)

// conn is one WebSocket connection: the owner writes to it; its reader
// goroutine reads, inflates and decodes, and hands each message over in.
// in holds up to readAhead messages, so that a burst of small events costs
// the owner one wake-up for all that are queued instead of one each; when
// the owner stops taking (the handlers' queue is full), the reader stops
// reading once in is full, and the platform buffers.
type conn struct {
	ws     *websocket.Conn
	gen    uint64
	in     chan inbound
	ctx    context.Context // the reader's; cancel closes the connection at once
	cancel context.CancelFunc
}

// readAhead is how many messages the reader may read ahead of the owner.
// Small: each holds its decoded event, and a message the owner has not
// taken is not yet handed to the queue (a resume asks for it again).
const readAhead = 16

// inbound is one message read, decoded as far as the owner needs, or the
// error that ended the connection.
type inbound struct {
	f         frame
	ev        Event         // the decoded event of a dispatch
	decodeErr error         // a dispatch whose d does not decode: skipped
	interval  time.Duration // HELLO's heartbeat_interval
	resumable bool          // op 9's d
	skip      error         // a message that is not a payload: skipped
	err       error         // the connection ended
	badStream bool          // err is the zlib stream's
}

func newConn(s *Shard, ws *websocket.Conn, gen uint64) *conn {
	c := &conn{ws: ws, gen: gen, in: make(chan inbound, readAhead)}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	var z *zlibStream
	if s.cfg.compression == CompressionZlibStream {
		z = newZlibStream(int(s.cfg.readLimit))
	}
	s.helpers.Add(1)
	go func() {
		defer s.helpers.Done()
		c.read(z)
	}()
	return c
}

// read is the reader goroutine.
func (c *conn) read(z *zlibStream) {
	defer c.cancel()
	var mr messageReader
	for {
		m := receive(c.ctx, c.ws, &mr, z)
		if !c.post(m) || m.err != nil {
			return
		}
	}
}

// receive reads the connection until one gateway message is whole (with
// zlib-stream, until a message ends in the sync flush) and decodes it; an
// inbound with err set ends the connection. The benchmarks measure it.
func receive(ctx context.Context, ws *websocket.Conn, mr *messageReader, z *zlibStream) inbound {
	for {
		typ, data, err := mr.read(ctx, ws)
		if err != nil {
			return inbound{err: err}
		}
		msg := data
		if z != nil && typ == websocket.MessageBinary {
			out, err := z.write(data)
			if err != nil {
				return inbound{err: err, badStream: true}
			}
			if out == nil {
				continue
			}
			msg = out
		}
		// msg is the reader's or the inflater's buffer, reused for the
		// next message: readMessage decodes all it needs here, and the
		// event refers to none of it; the frame's d, which does, stays
		// behind.
		m := readMessage(msg)
		m.f.D = nil
		return m
	}
}

// readMessage decodes one gateway message.
func readMessage(msg []byte) inbound {
	f, ev, err := decodeFrame(msg)
	if err != nil {
		return inbound{skip: err}
	}
	m := inbound{f: f, ev: ev}
	switch f.Op {
	case OpDispatch:
		if m.ev == nil { // not decoded with the frame
			m.ev, m.decodeErr = decodeEvent(f.T, f.D)
		}
		if m.decodeErr == nil && m.ev == nil {
			m.decodeErr = errors.New("no event")
		}
	case OpHello:
		var h helloData
		if err := json.Unmarshal(f.D, &h); err != nil || h.HeartbeatInterval <= 0 {
			m.interval = 0
		} else {
			m.interval = time.Duration(h.HeartbeatInterval) * time.Millisecond
		}
	case OpInvalidSession:
		m.resumable = bytes.Equal(bytes.TrimSpace(f.D), []byte("true"))
	}
	return m
}

func (c *conn) post(m inbound) bool {
	select {
	case c.in <- m:
		return true
	case <-c.ctx.Done():
		return false
	}
}

// writeTimeout bounds one write: a peer that takes nothing for this long
// is gone.
const writeTimeout = 10 * time.Second

func (c *conn) write(b []byte) error {
	ctx, cancel := context.WithTimeout(c.ctx, writeTimeout)
	defer cancel()
	return c.ws.Write(ctx, websocket.MessageText, b)
}

var urlQuery = regexp.MustCompile(`\?[^\s"]*`)

// redactURL drops URL queries from an error's text.
func redactURL(s string) string { return urlQuery.ReplaceAllString(s, "") }
