package gateway

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// Opcode is a gateway payload's op (gateway.md §2.2).
type Opcode int

// The opcodes of the v10 gateway.
const (
	OpDispatch            Opcode = 0  // server: an event, named by t and numbered by s
	OpHeartbeat           Opcode = 1  // both: a beat; from the server, "beat now"
	OpIdentify            Opcode = 2  // client: start a session
	OpPresenceUpdate      Opcode = 3  // client: set the bot's presence
	OpVoiceStateUpdate    Opcode = 4  // client: join, move or leave voice
	OpResume              Opcode = 6  // client: resume a session
	OpReconnect           Opcode = 7  // server: reconnect and resume
	OpRequestGuildMembers Opcode = 8  // client: ask for a guild's members
	OpInvalidSession      Opcode = 9  // server: the session is gone (d false) or may be resumed (d true)
	OpHello               Opcode = 10 // server: first message, with heartbeat_interval
	OpHeartbeatACK        Opcode = 11 // server: a beat was received
)

// String returns the opcode's name in the platform's docs ("Heartbeat ACK").
func (o Opcode) String() string {
	switch o {
	case OpDispatch:
		return "Dispatch"
	case OpHeartbeat:
		return "Heartbeat"
	case OpIdentify:
		return "Identify"
	case OpPresenceUpdate:
		return "Presence Update"
	case OpVoiceStateUpdate:
		return "Voice State Update"
	case OpResume:
		return "Resume"
	case OpReconnect:
		return "Reconnect"
	case OpRequestGuildMembers:
		return "Request Guild Members"
	case OpInvalidSession:
		return "Invalid Session"
	case OpHello:
		return "Hello"
	case OpHeartbeatACK:
		return "Heartbeat ACK"
	}
	return "Opcode(" + strconv.Itoa(int(o)) + ")"
}

// CloseCode is a WebSocket close code the gateway sends (gateway.md §2.3).
type CloseCode int

// The gateway's close codes. What the shard does on each is [the decision
// table] in the package doc.
const (
	CloseUnknownError         CloseCode = 4000
	CloseUnknownOpcode        CloseCode = 4001
	CloseDecodeError          CloseCode = 4002
	CloseNotAuthenticated     CloseCode = 4003
	CloseAuthenticationFailed CloseCode = 4004
	CloseAlreadyAuthenticated CloseCode = 4005
	CloseInvalidSeq           CloseCode = 4007
	CloseRateLimited          CloseCode = 4008
	CloseSessionTimedOut      CloseCode = 4009
	CloseInvalidShard         CloseCode = 4010
	CloseShardingRequired     CloseCode = 4011
	CloseInvalidAPIVersion    CloseCode = 4012
	CloseInvalidIntents       CloseCode = 4013
	CloseDisallowedIntents    CloseCode = 4014

	// closeResumable is the code the shard closes with when it means to
	// resume (a zombie, op 7, Close): any code but 1000/1001 keeps the
	// session; 4000 is the one the platform's own table calls
	// "reconnect, resume".
	closeResumable CloseCode = 4000
	// closeNormal ends the session for good (End).
	closeNormal CloseCode = 1000
)

// MaxPayload is the largest payload the gateway accepts from a client:
// 4096 bytes. A larger one closes the connection with 4002, so the shard
// refuses it first with a [*PayloadTooLargeError].
const MaxPayload = 4096

// frame is one gateway payload as received: {op, d, s, t}.
type frame struct {
	Op Opcode
	D  json.RawMessage // nil for null or absent
	S  int64           // 0 for null or absent (sequences start at 1)
	T  string
}

type rawFrame struct {
	Op *Opcode          `json:"op"`
	D  json.RawMessage  `json:"d"`
	S  *json.RawMessage `json:"s"`
	T  *string          `json:"t"`
}

var errNoOp = errors.New("gateway: payload without op")

// decodeFrame parses one gateway message, and with it, where scanFrame
// can, a dispatch's event (nil when the caller is to decode d). It never
// panics; a message that is not a payload is an error the caller logs and
// skips.
func decodeFrame(b []byte) (frame, Event, error) {
	if f, ev, ok := scanFrame(b); ok {
		return f, ev, nil
	}
	f, err := decodeFrameJSON(b)
	return f, nil, err
}

// decodeFrameJSON is decodeFrame by encoding/json, for what scanFrame
// declines.
func decodeFrameJSON(b []byte) (frame, error) {
	var r rawFrame
	if err := json.Unmarshal(b, &r); err != nil {
		return frame{}, fmt.Errorf("gateway: payload does not decode: %w", err)
	}
	if r.Op == nil {
		return frame{}, errNoOp
	}
	f := frame{Op: *r.Op}
	if len(r.D) > 0 && !bytes.Equal(r.D, []byte("null")) {
		f.D = r.D
	}
	if r.S != nil && !bytes.Equal(*r.S, []byte("null")) {
		s, err := strconv.ParseInt(string(*r.S), 10, 64)
		if err != nil || s < 0 {
			return frame{}, fmt.Errorf("gateway: payload's s %.20q is not a sequence number", *r.S)
		}
		f.S = s
	}
	if r.T != nil {
		f.T = *r.T
	}
	if f.Op == OpDispatch && f.T == "" {
		return frame{}, errors.New("gateway: dispatch without t")
	}
	return f, nil
}

// outbound is a payload the client sends.
type outbound struct {
	Op Opcode `json:"op"`
	D  any    `json:"d"`
}

// encodePayload encodes a payload and checks it against [MaxPayload].
func encodePayload(op Opcode, d any) ([]byte, error) {
	b, err := json.Marshal(outbound{Op: op, D: d})
	if err != nil {
		return nil, fmt.Errorf("gateway: encoding %s: %w", op, err)
	}
	if len(b) > MaxPayload {
		return nil, &PayloadTooLargeError{Op: op, Size: len(b)}
	}
	return b, nil
}

type helloData struct {
	HeartbeatInterval int64 `json:"heartbeat_interval"`
}

type identifyData struct {
	Token          string                `json:"token"`
	Properties     identifyProperties    `json:"properties"`
	Compress       bool                  `json:"compress"`
	LargeThreshold int                   `json:"large_threshold,omitempty"`
	Shard          [2]int                `json:"shard"`
	Presence       *PresenceUpdateParams `json:"presence,omitempty"`
	Intents        Intents               `json:"intents"`
}

type identifyProperties struct {
	OS      string `json:"os"`
	Browser string `json:"browser"`
	Device  string `json:"device"`
}

type resumeData struct {
	Token     string `json:"token"`
	SessionID string `json:"session_id"`
	Seq       int64  `json:"seq"`
}
