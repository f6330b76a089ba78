package state

import (
	"context"
	"slices"
	"unique"
)

// Apply implements [Store]: it applies the updates of one event. The
// updates of one guild are applied under that guild's lock, so a reader
// sees all of them or none; what they replaced or removed is kept for
// [Cache.OldMember] and its siblings until the next event of the shard.
func (c *Cache) Apply(ctx context.Context, ups []Update) error {
	c.events.Add(1)
	p := c.priorOf(ctx)
	*p = prior{}
	var (
		gs       *guildState
		chunkGen uint32
	)
	unlock := func() {
		if gs == nil {
			return
		}
		c.finish(gs)
		gs.mu.Unlock()
		gs = nil
	}
	defer unlock()
	for i := range ups {
		u := &ups[i]
		switch u.Op {
		case OpSession, OpSessionLost:
			unlock()
			c.applySession(u)
			continue
		case OpSelf:
			c.mu.Lock()
			if c.hasMe {
				p.user, p.has = c.self, p.has|hasUser
			}
			c.self, c.hasMe = *u.User, true
			c.mu.Unlock()
			c.selfID.Store(uint64(u.User.ID))
			c.users.refresh(u.User, false)
			continue
		case OpUserPut, OpUserPatch:
			if old, ok := c.users.refresh(u.User, u.Op == OpUserPatch); ok {
				p.user, p.has = old, p.has|hasUser
			}
			continue
		case OpGuildRemove:
			unlock()
			c.removeGuild(u.GuildID, p)
			continue
		}
		if gs == nil || gs.g.ID != u.GuildID {
			unlock()
			create := u.Op == OpGuildCreate || u.Op == OpGuildUnavailable
			if gs = c.lockGuild(u.GuildID, create); gs == nil {
				continue
			}
			chunkGen = 0
		}
		switch u.Op {
		case OpGuildCreate:
			c.createGuild(gs, u.Guild, p)
		case OpGuildUpdate:
			old := gs.g
			p.guild, p.has = old, p.has|hasGuild
			gs.g = *u.Guild
			gs.g.JoinedAt, gs.g.Large, gs.g.MemberCount = old.JoinedAt, old.Large, old.MemberCount
			gs.g.Unavailable, gs.g.Stale = old.Unavailable, old.Stale
		case OpGuildUnavailable:
			p.guild, p.has = gs.g, p.has|hasGuild
			gs.g.Unavailable, gs.g.Stale = true, true
		case OpChannelPut:
			c.putChannel(gs, u.Channel, p)
		case OpChannelRemove:
			c.removeChannel(gs, u.ID, p)
		case OpThreadsReset:
			for id, ch := range gs.channels {
				if ch.IsThread() && (u.IDs == nil || slices.Contains(u.IDs, ch.ParentID)) {
					c.dropChannel(gs, id)
				}
			}
		case OpChannelPins:
			if ch, ok := gs.channels[u.ID]; ok {
				p.channel, p.has = ch, p.has|hasChannel
				ch.LastPinTimestamp = u.Time
				gs.channels[u.ID] = ch
			}
		case OpChannelStatus:
			if ch, ok := gs.channels[u.ID]; ok {
				p.channel, p.has = ch, p.has|hasChannel
				ch.Status = u.Text
				gs.channels[u.ID] = ch
			}
		case OpRolePut:
			if old, ok := gs.roles[u.Role.ID]; ok {
				p.role, p.has = old, p.has|hasRole
			}
			r := *u.Role
			r.GuildID = gs.g.ID
			r.Name = unique.Make(r.Name).Value()
			gs.roles[r.ID] = r
		case OpRoleRemove:
			c.removeRole(gs, u.ID, p)
		case OpRolesReset:
			clear(gs.roles)
		case OpMemberPut:
			c.putMember(gs, u, chunkGen, p)
		case OpMemberRemove:
			if m, ok := gs.members[u.ID]; ok {
				p.member, p.has = c.member(gs, u.ID, m), p.has|hasMember
				delete(gs.members, u.ID)
				c.users.release(u.ID)
			}
			if gs.g.MemberCount > 0 {
				gs.g.MemberCount--
			}
			delete(gs.presences, u.ID)
		case OpEmojis:
			if c.pol.Emojis.holds(gs.g.ID) {
				gs.emojis = bounded(u.Emojis, c.pol.Emojis)
			}
		case OpStickers:
			if c.pol.Stickers.holds(gs.g.ID) {
				gs.stickers = bounded(u.Stickers, c.pol.Stickers)
			}
		case OpPresencePut:
			c.putPresence(gs, u.Presence, p)
		case OpVoicePut:
			v := *u.Voice
			if old, ok := gs.voice[v.UserID]; ok {
				p.voice, p.has = old, p.has|hasVoice
			}
			switch {
			case v.ChannelID == 0:
				delete(gs.voice, v.UserID)
			case c.pol.VoiceStates.holds(gs.g.ID):
				v.SessionID = ""
				gs.voice[v.UserID] = v
				if n := c.pol.VoiceStates.bound(); n > 0 && len(gs.voice) > n {
					for id := range gs.voice {
						if id != v.UserID {
							delete(gs.voice, id)
							break
						}
					}
				}
			}
		case OpChunk:
			chunkGen = c.chunk(gs, u.Chunk)
		}
	}
	return nil
}

// holds reports whether a policy keeps anything of its kind in guildID.
func (p Policy) holds(guildID Snowflake) bool {
	switch p.mode {
	case modeOff:
		return false
	case modeGuilds:
		return p.guilds(guildID)
	}
	return true
}

func bounded[T any](s []T, p Policy) []T {
	if n := p.bound(); n > 0 && len(s) > n {
		return s[:n:n]
	}
	return s
}

// lockGuild returns guildID's state locked for writing; when create, an
// empty unavailable one is made for a guild not held; nil otherwise.
func (c *Cache) lockGuild(guildID Snowflake, create bool) *guildState {
	if guildID == 0 {
		return nil
	}
	gs := c.guild(guildID)
	if gs == nil {
		if !create {
			return nil
		}
		c.mu.Lock()
		if gs = c.guilds[guildID]; gs == nil {
			gs = newGuildState(guildID)
			c.guilds[guildID] = gs
		}
		c.mu.Unlock()
	}
	gs.mu.Lock()
	return gs
}

func newGuildState(id Snowflake) *guildState {
	return &guildState{
		g:         Guild{ID: id, Unavailable: true, Stale: true},
		roles:     make(map[Snowflake]Role),
		channels:  make(map[Snowflake]Channel),
		members:   make(map[Snowflake]*memberRec),
		presences: make(map[Snowflake]presenceRec),
		voice:     make(map[Snowflake]VoiceState),
	}
}

// shardOf returns the shard of guildID among n.
func shardOf(guildID Snowflake, n int) int {
	if n <= 1 {
		return 0
	}
	return int((uint64(guildID) >> 22) % uint64(n))
}

// applySession applies OpSession and OpSessionLost.
func (c *Cache) applySession(u *Update) {
	n := u.Shard[1]
	mine := func(id Snowflake) bool { return n <= 1 || shardOf(id, n) == u.Shard[0] }
	if u.Op == OpSessionLost {
		for _, gs := range c.guildList() {
			if mine(gs.g.ID) {
				gs.mu.Lock()
				gs.g.Stale = true
				gs.mu.Unlock()
			}
		}
		return
	}
	c.mu.Lock()
	c.self, c.hasMe = *u.User, true
	c.mu.Unlock()
	c.selfID.Store(uint64(u.User.ID))
	listed := make(map[Snowflake]bool, len(u.IDs))
	for _, id := range u.IDs {
		listed[id] = true
	}
	var dummy prior
	for _, gs := range c.guildList() {
		id := gs.g.ID
		switch {
		case listed[id]:
			gs.mu.Lock()
			gs.g.Stale = true
			gs.mu.Unlock()
			delete(listed, id)
		case mine(id):
			c.removeGuild(id, &dummy)
		}
	}
	for id := range listed {
		if gs := c.lockGuild(id, true); gs != nil {
			gs.mu.Unlock()
		}
	}
}

// removeGuild drops a guild and everything under it.
func (c *Cache) removeGuild(guildID Snowflake, p *prior) {
	c.mu.Lock()
	gs := c.guilds[guildID]
	delete(c.guilds, guildID)
	c.mu.Unlock()
	if gs == nil {
		return
	}
	gs.mu.Lock()
	defer gs.mu.Unlock()
	p.guild, p.has = gs.g, p.has|hasGuild
	c.chMu.Lock()
	for id := range gs.channels {
		delete(c.chans, id)
	}
	c.chMu.Unlock()
	for id := range gs.members {
		c.users.release(id)
	}
	// Readers that found gs before it left the map see it emptied.
	gs.g.Unavailable, gs.g.Stale = true, true
	clear(gs.members)
	clear(gs.channels)
	clear(gs.roles)
	clear(gs.presences)
	clear(gs.voice)
	gs.emojis, gs.stickers = nil, nil
}

// createGuild starts applying a GUILD_CREATE: the guild's fields, and
// nothing under it but its members, which stay until the event's end
// ([Cache.finish]) or the member list that follows it.
func (c *Cache) createGuild(gs *guildState, g *Guild, p *prior) {
	if !gs.g.Unavailable || gs.g.Name != "" {
		p.guild, p.has = gs.g, p.has|hasGuild
	}
	gs.g = *g
	gs.g.Unavailable, gs.g.Stale = false, false
	clear(gs.roles)
	c.chMu.Lock()
	for id := range gs.channels {
		delete(c.chans, id)
	}
	c.chMu.Unlock()
	clear(gs.channels)
	clear(gs.presences)
	clear(gs.voice)
	gs.emojis, gs.stickers = nil, nil
	gs.gen++
	gs.chunk = chunkState{}
	gs.creating = true
}

// finish ends an event's changes to gs: after a GUILD_CREATE, members it
// did not list are dropped unless a whole member list is coming.
func (c *Cache) finish(gs *guildState) {
	if gs.chunk.nonce != "" && gs.chunk.left == 0 {
		c.dropUnseen(gs, gs.chunk.gen)
		gs.chunk = chunkState{}
	}
	if !gs.creating {
		return
	}
	gs.creating = false
	listed := 0
	for _, m := range gs.members {
		if m.gen == gs.gen {
			listed++
		}
	}
	if c.pol.Members.Wholesale(gs.g.ID) && (gs.g.Large || listed < gs.g.MemberCount) {
		return // the chunks will say who is still a member
	}
	c.dropUnseen(gs, gs.gen)
}

// dropUnseen drops the members not named by generation gen, but the bot.
func (c *Cache) dropUnseen(gs *guildState, gen uint32) {
	self := Snowflake(c.selfID.Load())
	for id, m := range gs.members {
		if m.gen != gen && id != self {
			delete(gs.members, id)
			c.users.release(id)
		}
	}
}

// chunk notes a GUILD_MEMBERS_CHUNK and returns the generation its members
// get (0: keep theirs).
func (c *Cache) chunk(gs *guildState, ch *Chunk) uint32 {
	if !ch.Whole || ch.Count <= 0 || ch.Index < 0 || ch.Index >= ch.Count {
		return 0
	}
	if gs.chunk.nonce != ch.Nonce {
		gs.gen++
		gs.chunk = chunkState{nonce: ch.Nonce, got: make([]bool, ch.Count), left: ch.Count, gen: gs.gen}
	}
	if ch.Index < len(gs.chunk.got) && !gs.chunk.got[ch.Index] {
		gs.chunk.got[ch.Index] = true
		gs.chunk.left--
	}
	return gs.chunk.gen
}

func (c *Cache) putChannel(gs *guildState, ch *Channel, p *prior) {
	v := *ch
	v.GuildID = gs.g.ID
	if old, ok := gs.channels[v.ID]; ok {
		p.channel, p.has = old, p.has|hasChannel
		v.Status = old.Status
	} else {
		c.chMu.Lock()
		c.chans[v.ID] = gs.g.ID
		c.chMu.Unlock()
	}
	gs.channels[v.ID] = v
}

func (c *Cache) dropChannel(gs *guildState, id Snowflake) {
	delete(gs.channels, id)
	c.chMu.Lock()
	delete(c.chans, id)
	c.chMu.Unlock()
}

func (c *Cache) removeChannel(gs *guildState, id Snowflake, p *prior) {
	if old, ok := gs.channels[id]; ok {
		p.channel, p.has = old, p.has|hasChannel
	}
	c.dropChannel(gs, id)
	for tid, ch := range gs.channels {
		if ch.IsThread() && ch.ParentID == id {
			c.dropChannel(gs, tid)
		}
	}
}

func (c *Cache) removeRole(gs *guildState, id Snowflake, p *prior) {
	if old, ok := gs.roles[id]; ok {
		p.role, p.has = old, p.has|hasRole
	}
	delete(gs.roles, id)
	for _, m := range gs.members {
		ids := IDs{b: m.roles.Value()}
		if !ids.Has(id) {
			continue
		}
		rest := slices.DeleteFunc(ids.Slice(), func(x Snowflake) bool { return x == id })
		m.roles = unique.Make(packIDs(rest)) // in place: readers copy under the read lock
	}
}

func (c *Cache) putMember(gs *guildState, u *Update, chunkGen uint32, p *prior) {
	m := u.Member
	uid := m.User.ID
	if uid == 0 {
		return
	}
	old, held := gs.members[uid]
	if u.Source == SourceJoin && !held && !gs.creating {
		gs.g.MemberCount++
	}
	self := uid == Snowflake(c.selfID.Load())
	if !held && !self && !(c.pol.Members.keeps(gs.g.ID, u.Source) ||
		u.Source == SourceResolved && c.pol.Members.keeps(gs.g.ID, SourceInteraction)) {
		c.users.refresh(&m.User, false)
		return
	}
	if held && u.Source == SourceResolved {
		return
	}
	var bits uint8
	if m.Deaf {
		bits |= memberDeaf
	}
	if m.Mute {
		bits |= memberMute
	}
	if m.Pending {
		bits |= memberPending
	}
	rec := memberRec{
		strs:  memberStrs(m.Nick, m.Avatar, m.Banner, uint16(m.Flags), bits),
		roles: unique.Make(m.Roles.b), deco: unique.Make(m.AvatarDecoration),
		joined: nanos(m.JoinedAt), premium: nanos(m.PremiumSince), timeout: nanos(m.CommunicationDisabledUntil),
	}
	gs.tick++
	rec.tick = gs.tick
	switch {
	case u.Source == SourceList:
		rec.gen = gs.gen
	case u.Source == SourceChunk && chunkGen != 0:
		rec.gen = chunkGen
	case held:
		rec.gen = old.gen
	default:
		rec.gen = gs.gen
	}
	if held {
		p.member, p.has = c.member(gs, uid, old), p.has|hasMember
		c.users.refresh(&m.User, false)
	} else {
		c.users.acquire(&m.User)
	}
	gs.members[uid] = &rec
	if n := c.pol.Members.bound(); n > 0 && len(gs.members) > n {
		c.evict(gs, n)
	}
}

// evict drops the least recently written members of gs (never the bot)
// down to seven eighths of n, so that evictions come in batches.
func (c *Cache) evict(gs *guildState, n int) {
	self := Snowflake(c.selfID.Load())
	type aged struct {
		id   Snowflake
		tick uint32
	}
	all := make([]aged, 0, len(gs.members))
	for id, m := range gs.members {
		if id != self {
			all = append(all, aged{id, m.tick})
		}
	}
	slices.SortFunc(all, func(a, b aged) int { return int(int64(a.tick) - int64(b.tick)) })
	target := n - n/8
	for _, a := range all {
		if len(gs.members) <= target {
			break
		}
		delete(gs.members, a.id)
		c.users.release(a.id)
	}
}

func (c *Cache) putPresence(gs *guildState, v *Presence, p *prior) {
	if old, ok := gs.presences[v.UserID]; ok {
		p.presence, p.has = old.value(gs.g.ID, v.UserID), p.has|hasPresence
	}
	if v.Status == "offline" || v.Status == "" || !c.pol.Presences.holds(gs.g.ID) {
		delete(gs.presences, v.UserID)
		return
	}
	rec := presenceRec{status: statusCode(v.Status), desktop: statusCode(v.ClientStatus.Desktop),
		mobile: statusCode(v.ClientStatus.Mobile), web: statusCode(v.ClientStatus.Web)}
	switch n := v.Activities.Len(); n {
	case 0:
	case 1:
		rec.acts = internActivity(v.Activities.At(0))
	default:
		acts := make([]Activity, n)
		for i := range n {
			a := v.Activities.At(i)
			a.Name = unique.Make(a.Name).Value()
			acts[i] = a
		}
		rec.acts = &acts
	}
	gs.tick++
	rec.tick = gs.tick
	gs.presences[v.UserID] = rec
	if n := c.pol.Presences.bound(); n > 0 && len(gs.presences) > n {
		oldest, ot := Snowflake(0), ^uint32(0)
		for id, r := range gs.presences {
			if r.tick < ot {
				oldest, ot = id, r.tick
			}
		}
		delete(gs.presences, oldest)
	}
}
