package gateway

import (
	"bytes"
	"context"
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
// The same pass decodes a dispatch's d into its event where it lies (ev),
// when the event is one the SDK's decoder reads and its name is known on
// reaching d: t came before d (the platform's order), or the message ends
// in a plain "t" (the order op, d, s, t), which is taken as a guess and
// checked once the whole message is read. The decoder checks d as it reads
// it, so d is read once, not checked by the frame and then decoded. Where
// that cannot be (an event the decoder declines, a name not known in time,
// a guess the message belies), d is checked in the pass and ev is nil, and
// the caller decodes d (decodeEvent) as before.
//
// On a 1.6 MB GUILD_CREATE the frame's own work is a fraction of
// encoding/json's (which checks the whole message, then walks it again to
// copy d out).
func scanFrame(b []byte) (f frame, ev Event, ok bool) {
	var haveOp bool
	var evName string // the name ev was decoded as
	i := jsonscan.SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return frame{}, nil, false
	}
	i = jsonscan.SkipSpace(b, i+1)
	for closed := i < len(b) && b[i] == '}'; !closed; {
		if i >= len(b) || b[i] != '"' {
			return frame{}, nil, false
		}
		j, escaped, err := jsonscan.SkipString(b, i)
		if err != nil {
			return frame{}, nil, false
		}
		key := b[i+1 : j-1]
		if escaped {
			key = jsonscan.AppendUnquoted(nil, key)
		}
		if i = jsonscan.SkipSpace(b, j); i >= len(b) || b[i] != ':' {
			return frame{}, nil, false
		}
		i = jsonscan.SkipSpace(b, i+1)
		if string(key) == "d" {
			name := f.T
			if name == "" {
				name = tailName(b)
			}
			f.D, ev, evName = nil, nil, name
			if haveOp && f.Op != OpDispatch {
				evName = ""
			}
			if j, ev, ok = scanData(b, i, evName); !ok {
				return frame{}, nil, false
			}
			if !bytes.Equal(b[i:j], []byte("null")) {
				f.D = b[i:j]
			}
		} else {
			if j, err = jsonscan.SkipValue(b, i, 1); err != nil {
				return frame{}, nil, false
			}
			if !scanMember(&f, &haveOp, key, b[i:j]) {
				return frame{}, nil, false
			}
		}
		switch i = jsonscan.SkipSpace(b, j); {
		case i < len(b) && b[i] == ',':
			i = jsonscan.SkipSpace(b, i+1)
		case i < len(b) && b[i] == '}':
			closed = true
		default:
			return frame{}, nil, false
		}
	}
	if jsonscan.SkipSpace(b, i+1) != len(b) || !haveOp || f.Op == OpDispatch && f.T == "" {
		return frame{}, nil, false
	}
	if f.Op != OpDispatch || f.T != evName {
		ev = nil // decoded under a name or an op the message did not keep
	}
	return f, ev, true
}

// scanData reads d, the value that starts at b[i], and returns the index
// after it: decoded into the event named name where the SDK's decoder
// reads that event and takes d (ev non-nil), else checked. ok is false when
// d is not JSON.
func scanData(b []byte, i int, name string) (end int, ev Event, ok bool) {
	if dec, typed := eventDecodersAt[name]; typed && i < len(b) && b[i] != 'n' {
		if ev, end, ok = dec(b, i); ok {
			return end, ev, true
		}
	}
	end, err := jsonscan.SkipValue(b, i, 1)
	return end, nil, err == nil
}

// scanMember reads the member key (not d) of a message, whose value is
// value, into f; false declines the message.
func scanMember(f *frame, haveOp *bool, key, value []byte) bool {
	switch string(key) {
	case "op":
		n, err := strconv.Atoi(string(value))
		if err != nil {
			return false
		}
		f.Op, *haveOp = Opcode(n), true
	case "s":
		if value[0] == 'n' {
			f.S = 0
			return true
		}
		s, err := strconv.ParseInt(string(value), 10, 64)
		if err != nil || s < 0 {
			return false
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
			return false
		}
	default:
		if bytes.EqualFold(key, []byte("op")) || bytes.EqualFold(key, []byte("d")) ||
			bytes.EqualFold(key, []byte("s")) || bytes.EqualFold(key, []byte("t")) {
			return false // encoding/json would take it for that field
		}
	}
	return true
}

// tailName returns the event name a message ends with, `"t":"NAME"}` with
// NAME a name the SDK knows, or "": a guess at t for a message that has d
// before t, which scanFrame checks once it has read t.
func tailName(b []byte) string {
	i := len(b)
	back := func(c byte) bool {
		for i > 0 && (b[i-1] == ' ' || b[i-1] == '\t' || b[i-1] == '\r' || b[i-1] == '\n') {
			i--
		}
		if i == 0 || b[i-1] != c {
			return false
		}
		i--
		return true
	}
	if !back('}') || !back('"') {
		return ""
	}
	end := i
	for i > 0 && ('A' <= b[i-1] && b[i-1] <= 'Z' || b[i-1] == '_') {
		i--
	}
	name := b[i:end]
	if !back('"') || !back(':') || !back('"') || !back('t') || !back('"') {
		return ""
	}
	return eventNames[string(name)]
}

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
