package guildkittest

import (
	"context"
	"fmt"
	"maps"
)

// A Settler is a bot Settle waits for: the gateway package's *Shard and
// *Manager are Settlers. WaitHandled waits until its handlers have
// finished the event numbered seq of the gateway session named session,
// or returns nil at once when the session is not its own.
type Settler interface {
	WaitHandled(ctx context.Context, session string, seq int64) error
}

// Settle waits until the bots' handlers have handled every gateway event
// the server has sent so far — the events the calls before it caused — and
// the events those handlers caused in turn: it waits again as long as
// the server sent more while it waited. It replaces a sleep or a polling
// loop in a test:
//
//	srv.JoinMember(guild.ID, user.ID)
//	if err := srv.Settle(ctx, shard); err != nil { ... }
//	// every handler of GUILD_MEMBER_ADD has returned
//
// It needs no clock and no timeout of its own; bound it with ctx. An
// event the server did not send a bot's session (a missing intent,
// another shard's guild) is not waited for: the bot never gets it.
// Interactions are not gateway events here: [Server.Click] and the
// others return once the bot has answered.
func (s *Server) Settle(ctx context.Context, bots ...Settler) error {
	var waited map[string]int64
	for {
		sent := s.sentSequences()
		if maps.Equal(sent, waited) {
			return nil
		}
		for id, seq := range sent {
			if waited[id] == seq {
				continue
			}
			for _, b := range bots {
				if err := b.WaitHandled(ctx, id, seq); err != nil {
					return fmt.Errorf("guildkittest: Settle: session %s, event %d: %w", id, seq, err)
				}
			}
		}
		waited = sent
	}
}

// sentSequences returns the last sequence number each live session was
// given.
func (s *Server) sentSequences() map[string]int64 {
	h := &s.gw
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make(map[string]int64, len(h.sessions))
	for id, sess := range h.sessions {
		if !sess.ended {
			out[id] = sess.seq
		}
	}
	return out
}
