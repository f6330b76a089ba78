package guildkittest

import (
	"bufio"
	"net"
	"net/http"
	"sync"
	"time"
)

// corkConn is a gateway connection's TCP connection, which its owner can
// cork: while corked, what the WebSocket library writes (whole frames,
// each flushed) is gathered, and uncork writes it all with one write and
// one deadline. A flush of many queued dispatches then costs one system
// call instead of one per frame; each dispatch is still its own WebSocket
// message. Writes from elsewhere (the library's pongs and close frames)
// go through mu too, so that frames never interleave.
type corkConn struct {
	net.Conn
	mu       sync.Mutex
	corked   bool
	buf      *[]byte   // while corked, from writeBuffers
	deadline time.Time // the write deadline set last
}

// refreshDeadline makes the write deadline at least half of timeout away:
// a write that the peer does not accept within it fails. It is set once
// every few seconds, not twice per write (each costs the runtime's timer
// work). The caller holds mu.
func (c *corkConn) refreshDeadline(timeout time.Duration) {
	now := time.Now()
	if c.deadline.Sub(now) >= timeout/2 {
		return
	}
	c.deadline = now.Add(timeout)
	_ = c.Conn.SetWriteDeadline(c.deadline)
}

// writeBuffers are the buffers of flushes under way, shared by every
// connection: an idle connection holds none, a busy one allocates none.
var writeBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// getWriteBuffer returns an empty buffer of writeBuffers.
func getWriteBuffer() *[]byte {
	b := writeBuffers.Get().(*[]byte)
	*b = (*b)[:0]
	return b
}

// putWriteBuffer gives b back, unless a burst made it too big to keep.
func putWriteBuffer(b *[]byte) {
	if cap(*b) <= maxKeptWriteBuffer {
		writeBuffers.Put(b)
	}
}

// maxKeptWriteBuffer is the largest buffer writeBuffers keeps: a bigger
// one (a huge GUILD_CREATE, a long batch) is dropped once used.
const maxKeptWriteBuffer = 1 << 20

func (c *corkConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.corked {
		*c.buf = append(*c.buf, p...)
		return len(p), nil
	}
	c.refreshDeadline(gatewayWriteTimeout)
	return c.Conn.Write(p)
}

// cork starts gathering writes.
func (c *corkConn) cork() {
	c.mu.Lock()
	c.corked = true
	c.buf = getWriteBuffer()
	c.mu.Unlock()
}

// uncork writes what was gathered, failing when the peer takes longer
// than timeout (at least half of it) to accept it, and stops gathering.
func (c *corkConn) uncork(timeout time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.corked = false
	buf := c.buf
	c.buf = nil
	defer putWriteBuffer(buf)
	if len(*buf) == 0 {
		return nil
	}
	c.refreshDeadline(timeout)
	_, err := c.Conn.Write(*buf)
	return err
}

// corkingWriter hands the WebSocket library a corkConn when it hijacks
// the connection.
type corkingWriter struct {
	http.ResponseWriter
	conn *corkConn
}

func (w *corkingWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, brw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	w.conn = &corkConn{Conn: conn}
	// The handshake's answer is flushed by now. The library gets buffers
	// of its own, small ones, instead of the HTTP server's 4 KiB each: a
	// connection keeps them for its life, idle or not. Writing needs
	// little buffering (a flush gathers whole frames in the corkConn), nor
	// does reading (clients send small payloads; a bigger one is read
	// straight into the library's buffer).
	if brw.Reader.Buffered() > 0 {
		// The client sent before the handshake's answer: its bytes are in
		// the HTTP server's buffer, which the library reads first.
		brw.Writer.Reset(w.conn)
		return w.conn, brw, nil
	}
	return w.conn, bufio.NewReadWriter(bufio.NewReaderSize(w.conn, gatewayReadBuffer), bufio.NewWriterSize(w.conn, gatewayWriteBuffer)), nil
}

// The WebSocket library's buffers on a gateway connection.
const (
	gatewayReadBuffer  = 256
	gatewayWriteBuffer = 64
)
