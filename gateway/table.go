package gateway

import "fmt"

// cause is what ended (or is ending) a connection: a close code from the
// server, an opcode, or a drop without a close frame.
type cause struct {
	kind causeKind
	code int // the close code, for causeClose
}

type causeKind uint8

const (
	causeClose            causeKind = iota + 1 // a close frame with code
	causeDrop                                  // the connection broke without a close frame (1006)
	causeReconnect                             // op 7
	causeInvalidResumable                      // op 9, d true
	causeInvalidSession                        // op 9, d false
	causeZombie                                // no ACK for the last beat and nothing else arrived
	causeHelloTimeout                          // no HELLO in time after connecting
	causeBadStream                             // the zlib stream broke: the connection's bytes are lost
)

// action is what the shard does after a cause.
type action uint8

const (
	actResume   action = iota + 1 // reconnect (resume URL) and RESUME
	actIdentify                   // forget the session, reconnect (ordinary URL) and IDENTIFY: a gap
	actStop                       // fatal: no reconnect, a *CloseError
)

func (a action) String() string {
	switch a {
	case actResume:
		return "resume"
	case actIdentify:
		return "identify"
	case actStop:
		return "stop"
	}
	return fmt.Sprintf("action(%d)", uint8(a))
}

// decision is one row of the table.
type decision struct {
	name   string // the platform's meaning
	then   action
	advice string // for fatal codes: what the operator must do
}

// closeTable decides every close code the platform documents
// (opcodes-and-status-codes.mdx, gateway.md §2.3); [decide] adds the
// opcodes and the drop. A code not listed (1000, 1001, 1011, a proxy's
// code) is resumable: the platform keeps the session for every code it
// does not list as ending it, and an unresumable session answers RESUME
// with op 9 false, which then identifies.
var closeTable = map[int]decision{
	4000: {"unknown error", actResume, ""},
	4001: {"unknown opcode", actResume, ""},
	4002: {"decode error", actResume, ""},
	// The platform's table says "reconnect" for 4003; the session it
	// names was never made or was invalidated, so only a new one helps.
	4003: {"not authenticated", actIdentify, ""},
	4004: {"authentication failed", actStop, "the token is wrong or was reset: get a new one from the developer portal"},
	4005: {"already authenticated", actResume, ""},
	4007: {"invalid seq", actIdentify, ""},
	4008: {"rate limited", actResume, ""},
	4009: {"session timed out", actIdentify, ""},
	4010: {"invalid shard", actStop, "the shard id must be below the shard count, and the count a multiple of the one the platform assigned"},
	4011: {"sharding required", actStop, "the session would carry too many guilds: start more shards (GET /gateway/bot says how many)"},
	4012: {"invalid API version", actStop, "the gateway does not serve this API version (v10)"},
	4013: {"invalid intents", actStop, "the intents value has a bit the platform does not know: check WithIntents"},
	4014: {"disallowed intents", actStop, "a privileged intent asked for is not enabled for the application: enable it in the developer portal (and be approved once verified), or stop asking for it"},
}

// opTable decides the opcodes and events that end a connection.
var opTable = map[causeKind]decision{
	causeDrop:             {"connection dropped without a close frame", actResume, ""},
	causeReconnect:        {"op 7 Reconnect", actResume, ""},
	causeInvalidResumable: {"op 9 Invalid Session (resumable)", actResume, ""},
	causeInvalidSession:   {"op 9 Invalid Session", actIdentify, ""},
	causeZombie:           {"no heartbeat ACK (zombie connection)", actResume, ""},
	causeHelloTimeout:     {"no HELLO", actResume, ""},
	causeBadStream:        {"the zlib stream does not inflate", actResume, ""},
}

// decide looks a cause up in the table.
func decide(c cause) decision {
	if c.kind == causeClose {
		if d, ok := closeTable[c.code]; ok {
			return d
		}
		return decision{name: fmt.Sprintf("close code %d", c.code), then: actResume}
	}
	if d, ok := opTable[c.kind]; ok {
		return d
	}
	return decision{name: "unknown cause", then: actResume}
}
