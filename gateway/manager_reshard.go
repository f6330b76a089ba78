package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/seed012df1e9/guildkit"
)

// handoff is the routing of a reshard: the old set delivers each guild's
// events until the new set's shard owning the guild has it (its
// GUILD_CREATE came); then the new set does. During the overlap both sets
// receive the events of a guild; each event one set delivered is noted
// (by its name and content, per guild) so that the other set's copy is
// suppressed, not delivered twice.
type handoff struct {
	old, next *shardSet
	moved     map[guildkit.Snowflake]bool
	waiting   map[guildkit.Snowflake]bool // guilds of the new set's READYs not yet moved
	readyNew  map[int]bool                // new shards whose READY came
	oldSent   noted
	newSent   noted
	complete  chan struct{} // closed when every new shard is ready and has its guilds
	done      bool
	// matched holds the [old shard, new shard] pairs of which an event came
	// from both sets: the old shard then delivered every event its session
	// had from before the new one's began (a session's events come in
	// order). caughtUp is closed once every pair in lagging has matched.
	matched  map[[2]int]bool
	lagging  map[[2]int]bool
	caughtUp chan struct{}
}

// reshardGrace is how long after the old set ended a new set's events are
// still matched against what the old set delivered.
const reshardGrace = 5 * time.Second

// maxNoted bounds the events noted per guild and set during an overlap:
// past it the oldest counts are dropped (a later copy is then delivered
// twice rather than risk suppressing a new event).
const maxNoted = 4096

// noGuild stands for the events without a guild (DMs), which shard 0 of
// each set receives.
const noGuild guildkit.Snowflake = 0

// deliver hands ev, received by shard id of set, to the handlers, unless
// a reshard routes it to the other set or it is a copy of an event already
// delivered. It notes which shards had a session and which guilds the
// handlers were given, for the next reshard.
func (m *Manager) deliver(ctx context.Context, set *shardSet, id int, ev Event) {
	m.mu.Lock()
	switch ev.(type) {
	case *Ready, *Resumed:
		set.ready[id] = true
	}
	m.countGuildsLocked(set, id, ev)
	ok := true
	if h := m.route; h != nil && !h.done {
		ok = m.routeLocked(h, set, id, ev)
	}
	if ok {
		switch e := ev.(type) {
		case *GuildCreate:
			m.known[e.ID] = true
		case *GuildDelete:
			if !e.Unavailable {
				delete(m.known, e.ID)
			}
		}
	}
	m.mu.Unlock()
	if ok {
		m.handlers.dispatch(ctx, m.logger(), ev)
	}
}

// routeLocked decides whether ev, from shard id of set, is delivered.
func (m *Manager) routeLocked(h *handoff, set *shardSet, id int, ev Event) bool {
	fromNew := set == h.next
	switch e := ev.(type) {
	case *Ready:
		if fromNew {
			h.readyNew[id] = true
			// What the old set delivered before this shard sent its
			// IDENTIFY can never come from its session: forget it, so
			// that it is not taken for a later event of the same content.
			if at, ok := h.next.identified[id]; ok {
				for g := range h.oldSent {
					if ShardFor(g, h.next.count) == id {
						h.oldSent.prune(g, at)
					}
				}
			}
			for _, g := range e.Guilds {
				if !h.moved[g.ID] {
					h.waiting[g.ID] = true
				}
			}
			if id == 0 {
				m.moveLocked(h, noGuild)
			}
			m.checkCompleteLocked(h)
		}
		return true // each session's READY is its own
	case *Resumed:
		return true
	case *GuildCreate:
		if fromNew && !h.moved[e.ID] {
			m.moveLocked(h, e.ID)
			m.checkCompleteLocked(h)
			// When the handlers have the guild (from the old set), this
			// GUILD_CREATE only says the new shard carries it now.
			return !m.known[e.ID]
		}
	}
	g, _ := guildOf(ev)
	key := eventKey(ev)
	if !fromNew && !h.moved[g] {
		h.oldSent.note(g, key)
		return true
	}
	if fromNew && !h.moved[g] {
		if !m.oldCoversLocked(h, g) {
			m.moveLocked(h, g) // the old set has no live shard for it
		} else {
			// The old set delivers it (or did: then this copy is matched).
			if h.oldSent.take(g, key) {
				m.matchedLocked(h, g)
			}
			m.suppressed()
			return false
		}
	}
	// The guild moved: the new set delivers, the old set's copies are
	// matched against what the new set delivered, and the other way.
	if fromNew {
		if h.oldSent.take(g, key) {
			m.matchedLocked(h, g)
			m.suppressed()
			return false
		}
		h.newSent.note(g, key)
		return true
	}
	if h.newSent.take(g, key) {
		m.matchedLocked(h, g)
		m.suppressed()
		return false
	}
	h.oldSent.note(g, key)
	return true
}

func (m *Manager) suppressed() {
	m.stats.suppressed.Add(1)
}

// matchedLocked records that an event of guild g came from both sets.
func (m *Manager) matchedLocked(h *handoff, g guildkit.Snowflake) {
	p := [2]int{ShardFor(g, h.old.count), ShardFor(g, h.next.count)}
	h.matched[p] = true
	if h.lagging[p] {
		delete(h.lagging, p)
		if len(h.lagging) == 0 {
			close(h.caughtUp)
		}
	}
}

// awaitOldCaughtUp waits, before the old set ends, until each live old
// shard delivered what its session received before the new sessions
// began: those events are in the old sessions only, and ending an old
// shard that lags behind would lose the ones it had not read yet. An old
// shard has caught up with a new one once an event came from both; for a
// pair whose guilds are quiet, the wait ends after reshardGrace on the
// shards' clock (with nothing sent, nothing is in flight). It returns
// early when ctx ends.
func (m *Manager) awaitOldCaughtUp(ctx context.Context, h *handoff) {
	m.mu.Lock()
	h.lagging = make(map[[2]int]bool)
	for g := range m.known {
		p := [2]int{ShardFor(g, h.old.count), ShardFor(g, h.next.count)}
		if !h.matched[p] && m.oldCoversLocked(h, g) {
			h.lagging[p] = true
		}
	}
	if len(h.lagging) == 0 {
		close(h.caughtUp)
	}
	m.mu.Unlock()
	grace := make(chan struct{})
	stop := m.clock().AfterFunc(reshardGrace, func() { close(grace) })
	defer stop()
	select {
	case <-h.caughtUp:
	case <-grace:
	case <-ctx.Done():
	}
}

// moveLocked hands guild g to the new set.
func (m *Manager) moveLocked(h *handoff, g guildkit.Snowflake) {
	if h.moved[g] {
		return
	}
	h.moved[g] = true
	delete(h.waiting, g)
	if g != noGuild {
		m.stats.handedOver.Add(1)
	}
}

// oldCoversLocked reports whether the old set has a shard for g that will
// deliver g's events: one that had a session (READY or RESUMED came; a
// shard reconnecting resumes and replays) and has not failed or closed.
func (m *Manager) oldCoversLocked(h *handoff, g guildkit.Snowflake) bool {
	id := ShardFor(g, h.old.count)
	sh := h.old.shards[id]
	if sh == nil || !h.old.ready[id] {
		return false
	}
	switch sh.Status() {
	case StatusFailed, StatusClosed:
		return false
	}
	return true
}

// checkCompleteLocked closes complete once every new shard is ready and
// carries every guild its READY listed.
func (m *Manager) checkCompleteLocked(h *handoff) {
	if len(h.readyNew) < len(h.next.ids) || len(h.waiting) > 0 {
		return
	}
	select {
	case <-h.complete:
	default:
		close(h.complete)
	}
}

// noted is what one set delivered during an overlap, per guild and event
// key: when, oldest first.
type noted map[guildkit.Snowflake]map[string][]time.Time

func (n noted) note(g guildkit.Snowflake, key string) {
	keys := n[g]
	if keys == nil {
		keys = make(map[string][]time.Time)
		n[g] = keys
	}
	if len(keys) >= maxNoted && keys[key] == nil {
		for k := range keys { // drop one: bounded memory
			delete(keys, k)
			break
		}
	}
	if len(keys[key]) >= maxNoted {
		keys[key] = keys[key][1:]
	}
	keys[key] = append(keys[key], time.Now())
}

// take consumes the oldest note of key, reporting whether there was one.
func (n noted) take(g guildkit.Snowflake, key string) bool {
	keys := n[g]
	at := keys[key]
	if len(at) == 0 {
		return false
	}
	if len(at) == 1 {
		delete(keys, key)
	} else {
		keys[key] = at[1:]
	}
	return true
}

// prune forgets g's notes from before t.
func (n noted) prune(g guildkit.Snowflake, t time.Time) {
	for key, at := range n[g] {
		i := 0
		for i < len(at) && at[i].Before(t) {
			i++
		}
		if i == len(at) {
			delete(n[g], key)
		} else {
			n[g][key] = at[i:]
		}
	}
}

// eventKey names an event by its name and content: both sessions of an
// overlap receive the same payload for the same event.
func eventKey(ev Event) string {
	if raw, ok := ev.(*RawEvent); ok {
		return raw.Name + "\x00" + string(raw.Data)
	}
	b, err := json.Marshal(ev)
	if err != nil {
		return ev.EventName() + "\x00" + fmt.Sprintf("%p", ev)
	}
	return ev.EventName() + "\x00" + string(b)
}

var snowflakeType = reflect.TypeOf(guildkit.Snowflake(0))

// guildOf returns the guild an event belongs to: its GuildID field (or,
// for the guild events, the guild's ID), guild_id in a raw event's data;
// noGuild and false for an event without one (DMs).
func guildOf(ev Event) (guildkit.Snowflake, bool) {
	switch e := ev.(type) {
	case *GuildCreate:
		return e.ID, true
	case *GuildUpdate:
		return e.ID, true
	case *GuildDelete:
		return e.ID, true
	case *RawEvent:
		var d struct {
			GuildID *guildkit.Snowflake `json:"guild_id"`
		}
		if json.Unmarshal(e.Data, &d) == nil && d.GuildID != nil {
			return *d.GuildID, true
		}
		return noGuild, false
	}
	v := reflect.ValueOf(ev)
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return noGuild, false
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return noGuild, false
	}
	f := v.FieldByName("GuildID")
	switch {
	case !f.IsValid():
	case f.Type() == snowflakeType:
		return guildkit.Snowflake(f.Uint()), true
	case f.Kind() == reflect.Pointer && f.Type().Elem() == snowflakeType && !f.IsNil():
		return guildkit.Snowflake(f.Elem().Uint()), true
	}
	return noGuild, false
}

// Reshard moves the manager to count shards without a gap: it starts the
// new set alongside the old one (the platform allows overlapping sessions
// of different counts), bucket by bucket through the identify limiter;
// moves each guild's events to the new set once the new shard owning the
// guild has it (its GUILD_CREATE came), delivering each event once: an
// event both sets received is delivered by whichever came first and the
// other copy suppressed ([Stats].Suppressed); then, once each old shard
// has delivered what its session received before the new sessions began
// (an event came from both sets, or 5 s passed on the shards' clock), it
// ends the old set.
// A 4011 close makes Open reshard by itself.
//
// The manager must run every shard (no [WithShardIDs]): resharding a part
// of a token's shards in one process is not supported. Events are told
// apart by their content. Two events of one guild with the same content (a ban, an unban and the
// same ban again) in the moment between the new shard's READY and its
// GUILD_CREATE for the guild can be taken for one another; the old set
// then still delivers its copy, unless it ends first.
func (m *Manager) Reshard(ctx context.Context, count int) error {
	m.mu.Lock()
	switch {
	case m.cfg.ids != nil:
		m.mu.Unlock()
		return errors.New("gateway: Reshard: the manager runs a part of the shards (WithShardIDs)")
	case m.closed || m.set == nil:
		m.mu.Unlock()
		return errors.New("gateway: Reshard: the manager is not open")
	case m.next != nil:
		m.mu.Unlock()
		return errors.New("gateway: Reshard: a reshard is under way")
	case count < 1 || count == m.set.count:
		m.mu.Unlock()
		return fmt.Errorf("gateway: Reshard(%d): not a new shard count (now %d)", count, m.set.count)
	}
	old := m.set
	m.mu.Unlock()
	next, err := m.newSet(count, ShardRange(0, count), nil)
	if err != nil {
		return err
	}
	h := &handoff{old: old, next: next, moved: make(map[guildkit.Snowflake]bool),
		waiting: make(map[guildkit.Snowflake]bool), readyNew: make(map[int]bool),
		oldSent: make(noted), newSent: make(noted),
		complete: make(chan struct{}), matched: make(map[[2]int]bool), caughtUp: make(chan struct{})}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return errors.New("gateway: Reshard: the manager was closed")
	}
	m.next, m.route = next, h
	m.mu.Unlock()
	if err := m.openSet(ctx, next); err != nil {
		m.abandon(ctx, next)
		return fmt.Errorf("gateway: Reshard(%d): the new shards did not start: %w", count, err)
	}
	select {
	case <-h.complete:
	case <-ctx.Done():
		m.abandon(ctx, next)
		return ctx.Err()
	}
	m.awaitOldCaughtUp(ctx, h)
	// The old set's queued events still pass through the handoff while it
	// ends; then the new set alone delivers.
	endErr := endSet(ctx, old)
	m.mu.Lock()
	m.set, m.next, m.count = next, nil, count
	m.mu.Unlock()
	// The new shards may lag behind the old ones: what the old set
	// delivered last may still come from them. They are matched for a
	// while yet; then the new set alone delivers, unmatched.
	m.clock().AfterFunc(reshardGrace, func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		h.done = true
		if m.route == h {
			m.route = nil
		}
	})
	if endErr != nil {
		return fmt.Errorf("gateway: Reshard(%d): ending the old shards: %w", count, endErr)
	}
	return nil
}

// abandon ends a new set that did not take over; the old one goes on.
func (m *Manager) abandon(ctx context.Context, next *shardSet) {
	_ = endSet(context.WithoutCancel(ctx), next)
	m.mu.Lock()
	m.next, m.route = nil, nil
	m.mu.Unlock()
}
