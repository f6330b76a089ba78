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
// compress/flate's reader keeps the first error it meets, so it cannot wait
// for more input in the middle of a stream. Every message ends on a block
// boundary (the sync flush), so each message is inflated by the reader
// reset at that boundary with the last 32 KiB of the stream's output as
// its dictionary: exactly the state the one long-lived inflater would have.
// The reader, its window and the buffers are reused from message to
// message.
type zlibStream struct {
	pending []byte        // compressed bytes of the message being received
	header  bool          // the 2-byte zlib header was read
	fr      io.ReadCloser // the inflater, reset per message
	src     bytes.Reader
	lim     io.LimitedReader // over fr, reused
	window  []byte           // the last windowSize bytes of output (up to 2×, slid when full)
	out     bytes.Buffer
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
	dict := z.window
	if len(dict) > windowSize {
		dict = dict[len(dict)-windowSize:]
	}
	if z.fr == nil {
		z.fr = flate.NewReaderDict(&z.src, dict)
	} else if err := z.fr.(flate.Resetter).Reset(&z.src, dict); err != nil {
		return nil, err
	}
	z.out.Reset()
	z.lim = io.LimitedReader{R: z.fr, N: int64(z.max) + 1}
	n, err := z.out.ReadFrom(&z.lim)
	z.pending = z.pending[:0]
	switch {
	case n > int64(z.max):
		return nil, fmt.Errorf("gateway: zlib-stream: a message inflates to over %d bytes", z.max)
	case err == nil:
		// The stream's final block: the server ended the stream, which
		// the gateway never does; the message is whole all the same.
	case errors.Is(err, io.ErrUnexpectedEOF) && z.src.Len() == 0:
		// The input ran out at the sync flush's block boundary, as it
		// should: every byte of the message was inflated.
	default:
		return nil, fmt.Errorf("gateway: zlib-stream: %w", err)
	}
	out := z.out.Bytes()
	z.slide(out)
	return out, nil
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
