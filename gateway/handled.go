package gateway

import "context"

// WaitHandled waits until the shard's handlers have finished the event
// numbered seq of the gateway session named session, or a later event of
// it: what a test waits for after a call that made the server send
// events (guildkittest's Server.Settle asks every session it sent to).
// It returns nil at once when session is not the shard's (another
// shard's, or one the shard has left), [ErrClosed] when the shard stopped
// handing events to its handlers first, and ctx's error when ctx ends
// first.
//
// An event that does not decode counts as handled once it is skipped.
func (s *Shard) WaitHandled(ctx context.Context, session string, seq int64) error {
	for {
		s.handledMu.Lock()
		if s.handledc == nil {
			s.handledc = make(chan struct{})
		}
		h, current, changed := s.handled, s.current, s.handledc
		s.handledMu.Unlock()
		if session == "" || (session != current && session != h.ID) {
			return nil
		}
		if h.ID == session && h.Sequence >= seq {
			return nil
		}
		if !s.started.Load() {
			return ErrClosed
		}
		select {
		case <-changed:
		case <-s.dispatchDone:
			s.handledMu.Lock()
			h = s.handled
			s.handledMu.Unlock()
			if h.ID == session && h.Sequence >= seq {
				return nil
			}
			return ErrClosed
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// WaitHandled waits until the handlers have finished the event numbered
// seq of the gateway session named session, on whichever of the
// manager's shards holds it: see [Shard.WaitHandled]. It returns nil at
// once when no shard holds it.
func (m *Manager) WaitHandled(ctx context.Context, session string, seq int64) error {
	m.mu.Lock()
	var shards []*Shard
	for _, set := range []*shardSet{m.set, m.next} {
		if set != nil {
			for _, id := range set.ids {
				shards = append(shards, set.shards[id])
			}
		}
	}
	m.mu.Unlock()
	for _, sh := range shards {
		if err := sh.WaitHandled(ctx, session, seq); err != nil {
			return err
		}
	}
	return nil
}

// noteSession records the session the owner is on (READY came), for
// WaitHandled to tell the shard's sessions from others'.
func (s *Shard) noteSession(id string) {
	s.handledMu.Lock()
	s.current = id
	s.handledMu.Unlock()
}

// noteHandled records that the handlers finished q. It runs for every
// event, so it wakes WaitHandled's callers only when one waits: the
// channel they wait on is made by them, not here.
func (s *Shard) noteHandled(q queued) {
	s.handledMu.Lock()
	defer s.handledMu.Unlock()
	s.handled = Session{ID: q.session, Sequence: q.seq, ResumeURL: q.resume}
	if s.handledc != nil {
		close(s.handledc)
		s.handledc = nil
	}
}
