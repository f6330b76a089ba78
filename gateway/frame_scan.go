package gateway

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strconv"

	"github.com/coder/websocket"

	"github.com/seed012df1e9/guildkit/internal/jsonscan"
)

// scanFrame is decodeFrame's fast path: one pass of the SDK's JSON scanner
// over the message, which checks it is JSON and finds op, d, s and t, with
// d left in place (a slice of b, not a copy). It declines (ok false) on
// anything it does not read exactly as encoding/json would (a key that
// matches only by case, an op or s that is not a plain integer, a missing
// op, a dispatch without t, nesting deeper than the scanner's limit), and
// decodeFrame then decodes b with encoding/json for its exact result or
// error. An escaped t, or one not UTF-8, is unquoted as encoding/json
// unquotes it.
//
// On a 1.6 MB GUILD_CREATE this takes a fraction of encoding/json's time
// (which checks the whole message, then walks it again to copy d out).
func scanFrame(b []byte) (f frame, ok bool) {
	var haveOp bool
	err := jsonscan.EachMember(b, func(key, _, value []byte) error {
		switch string(key) {
		case "op":
			n, err := strconv.Atoi(string(value))
			if err != nil {
				return errDecline
			}
			f.Op, haveOp = Opcode(n), true
		case "d":
			f.D = value
			if bytes.Equal(value, []byte("null")) {
				f.D = nil
			}
		case "s":
			if value[0] == 'n' {
				f.S = 0
				return nil
			}
			s, err := strconv.ParseInt(string(value), 10, 64)
			if err != nil || s < 0 {
				return errDecline
			}
			f.S = s
		case "t":
			switch value[0] {
			case 'n':
				f.T = ""
			case '"':
				name := value[1 : len(value)-1]
				if !jsonscan.Unquoted(name) {
					name = jsonscan.AppendUnquoted(nil, name) // as encoding/json reads it
				}
				if known, ok := eventNames[string(name)]; ok {
					f.T = known // no allocation for the names the SDK knows
				} else {
					f.T = string(name)
				}
			default:
				return errDecline
			}
		default:
			if bytes.EqualFold(key, []byte("op")) || bytes.EqualFold(key, []byte("d")) ||
				bytes.EqualFold(key, []byte("s")) || bytes.EqualFold(key, []byte("t")) {
				return errDecline // encoding/json would take it for that field
			}
		}
		return nil
	})
	if err != nil || !haveOp || f.Op == OpDispatch && f.T == "" {
		return frame{}, false
	}
	return f, true
}

var errDecline = errors.New("decline")

// eventNames holds the name of every event of §5's table and every typed
// event (decode.go's init adds those), to give scanFrame's t without
// allocating.
var eventNames = func() map[string]string {
	m := make(map[string]string, len(eventIntentTable)+len(eventDecoders))
	for name := range eventIntentTable {
		m[name] = name
	}
	return m
}()

// messageReader reads a connection's messages into one buffer, reused from
// message to message: nothing decoded from a message refers to it (the
// event decoders copy what they keep), so the buffer of a multi-megabyte
// GUILD_CREATE serves the next message instead of being garbage.
type messageReader struct {
	buf []byte
}

// maxKeptBuffer is the largest buffer a messageReader keeps for the next
// message; a larger one (a huge guild's GUILD_CREATE) is dropped once read.
const maxKeptBuffer = 4 << 20

// read reads the next message; its bytes are valid until the next call.
func (r *messageReader) read(ctx context.Context, ws *websocket.Conn) (websocket.MessageType, []byte, error) {
	typ, rd, err := ws.Reader(ctx)
	if err != nil {
		return 0, nil, err
	}
	if cap(r.buf) > maxKeptBuffer {
		r.buf = nil
	}
	b := r.buf[:0]
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := rd.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			r.buf = b
			return typ, b, nil
		}
		if err != nil {
			r.buf = b
			return 0, nil, err
		}
	}
}
