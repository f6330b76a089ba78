package gateway

import (
	"fmt"
	"time"
)

// Session is what resumes a gateway session: returned by [Shard.Close],
// given to a new shard with [WithSession] so that it resumes instead of
// identifying (no IDENTIFY spent, the events sent meanwhile replayed). It
// holds no token; it is safe to store (JSON) between runs. The platform
// keeps a session a few minutes after its connection closed.
type Session struct {
	ID        string `json:"id"`
	Sequence  int64  `json:"sequence"`   // the last event the handlers were handed
	ResumeURL string `json:"resume_url"` // READY's resume_gateway_url
	Shard     [2]int `json:"shard"`      // [shard_id, num_shards]
}

// String names the session without its URL's query.
func (s *Session) String() string {
	if s == nil {
		return "<no session>"
	}
	return fmt.Sprintf("session %s at %d (shard %d/%d)", s.ID, s.Sequence, s.Shard[0], s.Shard[1])
}

// SessionLost is delivered to handlers (in order, before the READY of the
// new session) when a session could not be resumed and the shard
// identified anew: the events after Sequence were never received. Reconcile
// what the application keeps with REST.
type SessionLost struct {
	SessionID string    // the session that was lost
	Sequence  int64     // the last event of it handed to the handlers
	Reason    string    // what ended it ("op 9 Invalid Session", "session timed out", ...)
	Time      time.Time // on the shard's clock
}

// EventName returns "GUILDKIT_SESSION_LOST", a name the platform never
// sends.
func (*SessionLost) EventName() string { return "GUILDKIT_SESSION_LOST" }
