package gateway

import (
	"bytes"
	"compress/flate"
	"errors"
	"fmt"
	"io"
)

// zlibSuffix ends every gateway message of a zlib-stream connection: the
// empty stored block of a sync flush.
var zlibSuffix = []byte{0x00, 0x00, 0xff, 0xff}

const windowSize = 1 << 15 // deflate's window: the farthest a match reaches back

// zlibStream inflates one connection's zlib-stream: one deflate stream for
// the whole connection, each gateway message ended by a sync flush. A new
// connection gets a new zlibStream (the reset the platform asks for).
//
// One inflater reads the whole stream, kept from message to message: each
// message's bytes are read until none is left, which at the sync flush
// hands out all the message's output, so the inflater never asks for bytes
// the connection has not delivered. Except once in a while: when the output
// had been handed out before the sync flush (it reached the end of the
// inflater's window just then) the inflater asks past the message's end,
// and compress/flate's reader keeps that error. It is then reset at the
// message's end, a block boundary, with the last 32 KiB of the stream's
// output as its dictionary: exactly the state it had. The buffers are
// reused from message to message.
type zlibStream struct {
	pending []byte        // compressed bytes of the message being received
	header  bool          // the 2-byte zlib header was read
	fr      io.ReadCloser // the inflater
	reset   bool          // fr stopped on an error at the end of a message: reset it before the next
	src     bytes.Reader
	window  []byte // the last windowSize bytes of output (up to 2×, slid when full)
	out     []byte
	max     int // most bytes one message may inflate to
	maxIn   int // most compressed bytes one message may take
}

func newZlibStream(maxMessage int) *zlibStream {
	return &zlibStream{max: maxMessage, maxIn: maxMessage}
}

var errZlibHeader = errors.New("gateway: zlib-stream: bad zlib header")

// write takes one binary WebSocket message. When the bytes so far end a
// gateway message, it returns that message inflated (valid until the next
// call); else nil.
func (z *zlibStream) write(p []byte) ([]byte, error) {
	if len(z.pending)+len(p) > z.maxIn {
		return nil, fmt.Errorf("gateway: zlib-stream: a message over %d compressed bytes", z.maxIn)
	}
	z.pending = append(z.pending, p...)
	if !bytes.HasSuffix(z.pending, zlibSuffix) {
		return nil, nil
	}
	in := z.pending
	if !z.header {
		if len(in) < 2 {
			return nil, errZlibHeader
		}
		cmf, flg := in[0], in[1]
		if cmf&0x0f != 8 || cmf>>4 > 7 || (uint16(cmf)<<8|uint16(flg))%31 != 0 || flg&0x20 != 0 {
			return nil, errZlibHeader
		}
		z.header = true
		in = in[2:]
	}
	z.src.Reset(in)
	switch {
	case z.fr == nil:
		z.fr = flate.NewReaderDict(&z.src, z.dict())
	case z.reset:
		if err := z.fr.(flate.Resetter).Reset(&z.src, z.dict()); err != nil {
			return nil, err
		}
	}
	z.reset = false
	// Each read has room for more than the inflater's window, the most it
	// hands out at once, so that a read that leaves no input has handed
	// out all there is.
	out := roomToRead(z.out[:0])
	var err error
	for z.src.Len() > 0 && err == nil {
		out = roomToRead(out)
		var n int
		n, err = z.fr.Read(out[len(out):cap(out)])
		out = out[:len(out)+n]
		if len(out) > z.max {
			z.pending, z.out = z.pending[:0], out[:0]
			return nil, fmt.Errorf("gateway: zlib-stream: a message inflates to over %d bytes", z.max)
		}
	}
	z.pending, z.out = z.pending[:0], out
	switch {
	case err == nil:
	case err == io.EOF:
		// The stream's final block: the server ended the stream, which
		// the gateway never does; the message is whole all the same.
		z.reset = true
	case errors.Is(err, io.ErrUnexpectedEOF) && z.src.Len() == 0:
		// The inflater asked past the message's end, at a block
		// boundary: every byte of the message was inflated.
		z.reset = true
	default:
		return nil, fmt.Errorf("gateway: zlib-stream: %w", err)
	}
	z.slide(out)
	return out, nil
}

// roomToRead returns out with room for more than windowSize bytes after
// it, doubling its capacity when it grows (as bytes.Buffer does), so that
// a message of megabytes costs few copies.
func roomToRead(out []byte) []byte {
	if cap(out)-len(out) > windowSize {
		return out
	}
	grown := make([]byte, len(out), max(2*cap(out), len(out)+windowSize+1))
	copy(grown, out)
	return grown
}

// dict returns the last windowSize bytes of the stream's output.
func (z *zlibStream) dict() []byte {
	if len(z.window) > windowSize {
		return z.window[len(z.window)-windowSize:]
	}
	return z.window
}

// slide appends out to the window, keeping at least the last windowSize
// bytes of the stream's output.
func (z *zlibStream) slide(out []byte) {
	if len(out) >= windowSize {
		z.window = append(z.window[:0], out[len(out)-windowSize:]...)
		return
	}
	if len(z.window)+len(out) > 2*windowSize {
		keep := z.window[len(z.window)-(windowSize-len(out)):]
		z.window = append(z.window[:0], keep...)
	}
	z.window = append(z.window, out...)
}
