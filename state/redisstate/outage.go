package redisstate

import (
	"context"
	"errors"
	"time"

	"github.com/seed012df1e9/guildkit/state"
)

// lose remembers the guilds of an event that could not be written, and
// starts the retries that mark them stale and rebuild them.
func (s *Store) lose(ups []state.Update) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range ups {
		u := &ups[i]
		if u.GuildID != 0 {
			s.lost[u.GuildID] = true
		}
		if u.Op == state.OpChannelPut && u.Channel != nil && u.Channel.GuildID != 0 {
			s.lost[u.Channel.GuildID] = true
		}
		for _, id := range u.IDs {
			if u.Op == state.OpSession {
				s.lost[id] = true
			}
		}
	}
	if len(s.lost) == 0 || s.retry || s.closed {
		return
	}
	s.retry = true
	s.stopped.Add(1)
	go s.retryLoop()
}

// retryLoop tries Redis again every RetryInterval until the lost guilds
// are recovered or the Store is closed.
func (s *Store) retryLoop() {
	defer s.stopped.Done()
	t := time.NewTicker(s.opts.RetryInterval)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			s.mu.Lock()
			s.retry = false
			s.mu.Unlock()
			return
		case <-t.C:
		}
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			select {
			case <-s.stop:
				cancel()
			case <-ctx.Done():
			}
		}()
		err := s.recover(ctx)
		cancel()
		s.mu.Lock()
		if err == nil && len(s.lost) == 0 {
			s.retry = false
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
	}
}

// found notes that a guild's state was written whole again (its
// GUILD_CREATE, or it is known unavailable): its lost writes no longer
// matter.
func (s *Store) found(guildID state.Snowflake, whole bool) {
	if !whole {
		return
	}
	s.mu.Lock()
	delete(s.lost, guildID)
	s.mu.Unlock()
}

// recover marks the lost guilds stale in Redis and rebuilds them through
// Options.Resync. It returns an error when Redis still cannot be reached.
// No event is applied meanwhile: a resync is not overtaken.
func (s *Store) recover(ctx context.Context) error {
	s.mu.Lock()
	n := len(s.lost)
	s.mu.Unlock()
	if n == 0 {
		return nil
	}
	s.gate.Lock()
	defer s.gate.Unlock()
	s.mu.Lock()
	ids := make([]state.Snowflake, 0, len(s.lost))
	for id := range s.lost {
		ids = append(ids, id)
	}
	s.mu.Unlock()
	for _, id := range ids {
		b := &guildBatch{id: id}
		b.op("GSTALE")
		if err := s.run(ctx, b); err != nil {
			return err
		}
		var err error
		if s.opts.Resync != nil {
			var ups []state.Update
			if ups, err = s.opts.Resync(ctx, id); err == nil {
				s.keepJoined(id, ups)
				if err = s.apply(ctx, ups); err != nil {
					return err // Redis went away again: still lost
				}
			}
		}
		s.mu.Lock()
		delete(s.lost, id)
		s.mu.Unlock()
		if s.opts.OnRecover != nil {
			s.opts.OnRecover(id, err)
		}
	}
	return nil
}

// Lost returns the guilds whose writes were lost and are not yet marked
// stale in Redis (Redis has not answered since).
func (s *Store) Lost() []state.Snowflake {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]state.Snowflake, 0, len(s.lost))
	for id := range s.lost {
		out = append(out, id)
	}
	return out
}

// keepJoined gives a resync's guild the fields only a GUILD_CREATE
// carries (when the bot joined, whether the guild is large) from what
// Redis holds.
func (s *Store) keepJoined(guildID state.Snowflake, ups []state.Update) {
	for i := range ups {
		if u := &ups[i]; u.Op == state.OpGuildCreate && u.Guild != nil && u.Guild.JoinedAt.IsZero() {
			if old, err := s.Guild(guildID); err == nil || errors.Is(err, state.ErrStale) {
				g := *u.Guild
				g.JoinedAt, g.Large = old.JoinedAt, old.Large
				if g.MemberCount == 0 {
					g.MemberCount = old.MemberCount
				}
				u.Guild = &g
			}
		}
	}
}

// errVanished: a guild this writer had written was not in Redis (a Redis
// restarted empty, a failover to a replica that had not caught up).
var errVanished = errors.New("redisstate: a guild this writer had written is gone from Redis; it will be rebuilt")

// missing notes whether b's guild is held after b, and reports a guild
// the writer had seen held that Redis no longer holds: its writes were
// lost, so it is rebuilt as after an outage.
func (s *Store) missing(b *guildBatch, held bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case held:
		s.known[b.id] = true
	case b.removed:
		delete(s.known, b.id)
	case s.known[b.id]:
		delete(s.known, b.id)
		return true
	}
	return false
}
