package guildkittest

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/coder/websocket"
)

// Gateway opcodes.
const (
	opDispatch            = 0
	opHeartbeat           = 1
	opIdentify            = 2
	opPresenceUpdate      = 3
	opVoiceStateUpdate    = 4
	opResume              = 6
	opReconnect           = 7
	opRequestGuildMembers = 8
	opInvalidSession      = 9
	opHello               = 10
	opHeartbeatACK        = 11
	opRequestSoundboard   = 31
	opRequestChannelInfo  = 43
)

// The close codes the server sends (spec §2.3). It never sends 4006.
const (
	closeUnknownError         websocket.StatusCode = 4000
	closeUnknownOpcode        websocket.StatusCode = 4001
	closeDecodeError          websocket.StatusCode = 4002
	closeNotAuthenticated     websocket.StatusCode = 4003
	closeAuthenticationFailed websocket.StatusCode = 4004
	closeAlreadyAuthenticated websocket.StatusCode = 4005
	closeInvalidSeq           websocket.StatusCode = 4007
	closeRateLimited          websocket.StatusCode = 4008
	closeSessionTimedOut      websocket.StatusCode = 4009
	closeInvalidShard         websocket.StatusCode = 4010
	closeShardingRequired     websocket.StatusCode = 4011
	closeInvalidAPIVersion    websocket.StatusCode = 4012
	closeInvalidIntents       websocket.StatusCode = 4013
	closeDisallowedIntents    websocket.StatusCode = 4014
)

// endsSession reports whether a close with code, sent by the server, ends
// the session (no resume): 4003, 4007, 4009 and the fatal codes 4004 and
// 4010–4014. The others (4000, 4001, 4002, 4005, 4008) keep it.
func endsSession(code websocket.StatusCode) bool {
	switch code {
	case closeUnknownError, closeUnknownOpcode, closeDecodeError, closeAlreadyAuthenticated, closeRateLimited:
		return false
	}
	return code >= 4000 || code == websocket.StatusNormalClosure || code == websocket.StatusGoingAway
}

// maxPayload is the largest payload a client may send (4096 bytes); a
// larger one closes 4002. gatewayReadLimit is what the server reads before
// its WebSocket library refuses a message itself (1009).
const (
	maxPayload       = 4096
	gatewayReadLimit = 16 << 10
)

// clientFrame is a payload from the client, decoded far enough to route
// it.
type clientFrame struct {
	Op int
	D  json.RawMessage // "null" when absent
}

// decodeClientFrame decodes a client's payload, as the server reads it:
// over 4096 bytes, not a text frame or not a JSON object is a decode error
// (4002); a missing op, or one that is not an integer, is 4001. It never
// panics and allocates in proportion to b.
func decodeClientFrame(typ websocket.MessageType, b []byte) (clientFrame, websocket.StatusCode, string) {
	if len(b) > maxPayload {
		return clientFrame{}, closeDecodeError, "Payload too large: more than 4096 bytes."
	}
	if typ != websocket.MessageText {
		return clientFrame{}, closeDecodeError, "Decode error: payloads are JSON text frames."
	}
	var raw struct {
		Op *json.RawMessage `json:"op"`
		D  json.RawMessage  `json:"d"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return clientFrame{}, closeDecodeError, "Decode error: the payload is not a JSON object."
	}
	if raw.Op == nil {
		return clientFrame{}, closeUnknownOpcode, "Unknown opcode: the payload has no op."
	}
	op, err := strconv.Atoi(string(bytes.TrimSpace(*raw.Op)))
	if err != nil {
		return clientFrame{}, closeUnknownOpcode, "Unknown opcode: op must be an integer."
	}
	d := raw.D
	if len(bytes.TrimSpace(d)) == 0 {
		d = json.RawMessage("null")
	}
	return clientFrame{Op: op, D: d}, 0, ""
}

// encodeFrame writes a server payload with all four keys, null where
// empty: {"op": op, "d": d, "s": s or null, "t": t or null}.
func encodeFrame(op int, d []byte, seq int64, name string) []byte {
	return appendFrame(make([]byte, 0, len(d)+len(name)+48), op, d, seq, name)
}

// appendFrame appends the payload encodeFrame returns to b.
func appendFrame(b []byte, op int, d []byte, seq int64, name string) []byte {
	if len(d) == 0 {
		d = []byte("null")
	}
	b = append(b, `{"op":`...)
	b = strconv.AppendInt(b, int64(op), 10)
	b = append(b, `,"d":`...)
	b = append(b, d...)
	b = append(b, `,"s":`...)
	if seq > 0 {
		b = strconv.AppendInt(b, seq, 10)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"t":`...)
	if name != "" {
		b = strconv.AppendQuote(b, name)
	} else {
		b = append(b, "null"...)
	}
	return append(b, '}')
}
