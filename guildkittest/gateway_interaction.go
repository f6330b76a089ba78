package guildkittest

import "slices"

// Interactions over the gateway (gateway.md §9): an application without an
// interactions endpoint URL receives its interactions as INTERACTION_CREATE
// dispatches on its connected sessions. The dispatch needs no intent and is
// routed like any event, by the guild's shard ((guild_id >> 22) %
// num_shards), to shard 0 without a guild. The answer never goes over the
// gateway: the bot calls the callback route, held to the rules of an HTTP
// delivery answered 202 (3 seconds, one answer, the token for 15 minutes).
// The platform's documents do not say whether an interaction reaches every
// session that covers its shard when several overlap; the server sends it
// to each of them, and the first answer counts.

// gatewayUndelivered is an interaction no gateway session could receive.
type gatewayUndelivered struct {
	anySession bool // some session is connected, none of the guild's shard
}

func (e *gatewayUndelivered) Error() string {
	if e.anySession {
		return "the application has no interactions endpoint URL, and none of its connected gateway sessions carries the shard of the interaction's guild to receive INTERACTION_CREATE"
	}
	return "the application has no interactions endpoint URL, and no gateway session is connected to receive INTERACTION_CREATE"
}

// sendOverGateway dispatches st's interaction as INTERACTION_CREATE to the
// bot's sessions that carry its guild's shard, when at least one of them
// is connected (a session waiting for a resume gets it too, in its
// replay); it returns the connected sessions it went to, or a
// *gatewayUndelivered error.
func (s *Server) sendOverGateway(st *interactionState) delivered {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := &s.gw
	h.mu.Lock()
	defer h.mu.Unlock()
	var to []string
	connected := false
	for _, sess := range h.sessions {
		if sess.conn == nil {
			continue
		}
		connected = true
		if shardOf(st.guildID, sess.numShards) == sess.shardID {
			to = append(to, sess.id)
		}
	}
	if len(to) == 0 {
		return delivered{err: &gatewayUndelivered{anySession: connected}}
	}
	slices.Sort(to)
	s.fanOutLocked(gwEvent{name: "INTERACTION_CREATE", guildID: st.guildID, d: st.body})
	return delivered{callback: true, sessions: to}
}
