package state

import (
	"context"
	"iter"
	"sync"
	"sync/atomic"
	"time"
	"unique"

	"github.com/seed012df1e9/guildkit/gateway"
)

// Options configure a [Cache]. The zero value (or nil) is ready to use.
type Options struct {
	// Policies say what is kept; nil means [DefaultPolicies].
	Policies *Policies
	// Now is the clock timeouts are compared with by the Cache's
	// permission methods; nil means time.Now.
	Now func() time.Time
}

// Cache is the in-memory [Store]: a cache of guild state in this process.
// Reads are safe from any goroutine while events are applied; each guild
// has its own lock, which a read holds only to copy one value out, and an
// event holds while it is applied, so a reader sees an event's changes to
// a guild all or not at all. Shared users have their own lock.
//
// It is a [Reader]; create it with [NewCache].
type Cache struct {
	pol Policies
	now func() time.Time

	mu     sync.RWMutex // guards guilds and self
	guilds map[Snowflake]*guildState
	self   User
	hasMe  bool

	chMu   sync.RWMutex            // guards chans
	chans  map[Snowflake]Snowflake // channel (thread) id → guild id
	users  userTable
	oldMu  sync.Mutex
	olds   map[[2]int]*prior // what the last event of each shard replaced
	events atomic.Uint64     // events applied
	selfID atomic.Uint64     // the bot's user id, from READY
}

// NewCache returns an empty cache.
func NewCache(o *Options) *Cache {
	c := &Cache{pol: DefaultPolicies(), now: time.Now, guilds: make(map[Snowflake]*guildState),
		chans: make(map[Snowflake]Snowflake), olds: make(map[[2]int]*prior)}
	c.users.m = make(map[Snowflake]*userEntry)
	if o != nil {
		if o.Policies != nil {
			c.pol = *o.Policies
		}
		if o.Now != nil {
			c.now = o.Now
		}
	}
	return c
}

// Attach makes the cache follow the events of r: see [Attach].
func (c *Cache) Attach(r gateway.Registrar, o *AttachOptions) { Attach(r, c, o) }

// Policies returns the cache's policies.
func (c *Cache) Policies() Policies { return c.pol }

// guildState is one guild and everything under it, behind its lock.
type guildState struct {
	mu        sync.RWMutex
	g         Guild
	roles     map[Snowflake]Role
	channels  map[Snowflake]Channel
	members   map[Snowflake]*memberRec
	emojis    []Emoji
	stickers  []Sticker
	presences map[Snowflake]*presenceRec
	voice     map[Snowflake]VoiceState

	tick     uint32 // member and presence LRU clock
	gen      uint32 // the generation of the last member list
	chunk    chunkState
	creating bool // a GUILD_CREATE is being applied
}

// chunkState follows the answer to the cache's whole-list request.
type chunkState struct {
	nonce string
	got   []bool
	left  int
	gen   uint32
}

// memberRec is a member as kept: 80 bytes.
type memberRec struct {
	user    *userEntry
	strs    string                // nick, avatar and banner, one after the other
	roles   unique.Handle[string] // packed ids, shared by members with the same roles
	deco    unique.Handle[AvatarDecoration]
	joined  int64 // Unix nanoseconds; 0 for none
	premium int64
	timeout int64
	nickEnd uint16 // strs[:nickEnd] is the nick
	avEnd   uint16 // strs[nickEnd:avEnd] the avatar, strs[avEnd:] the banner
	flags   uint16 // the member flags (the platform's go up to bit 10)
	bits    uint8
	tick    uint32 // last written, for the LRU
	gen     uint32 // the member list or chunk answer that last named it
}

const (
	memberDeaf uint8 = 1 << iota
	memberMute
	memberPending
)

// presenceRec is a presence as kept (its user id is the map key): 32
// bytes. A single activity is interned (the same game, the same custom
// status, are shared).
type presenceRec struct {
	acts                         []Activity
	status, desktop, mobile, web uint8 // statusCode
	tick                         uint32
}

// userEntry is one user, shared by every member of that user.
type userEntry struct {
	p    atomic.Pointer[userRec]
	refs int32 // guarded by userTable.mu
}

// userRec is a user as kept (56 bytes); a new one replaces it when the
// user changes.
type userRec struct {
	id          Snowflake
	strs        string // username, global name, avatar, banner
	disc        unique.Handle[string]
	deco        unique.Handle[AvatarDecoration]
	accent      int32
	publicFlags int32
	ends        [3]uint16 // where the first three strings of strs end
	bot, system bool
}

type userTable struct {
	mu sync.RWMutex
	m  map[Snowflake]*userEntry
}

var nanoMax = time.Unix(0, 1<<63-1)

func nanos(t time.Time) int64 {
	if t.IsZero() || t.Before(time.Unix(0, 1)) || t.After(nanoMax) {
		return 0
	}
	return t.UnixNano()
}

func fromNanos(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

// joinStrs returns the strings one after the other, and where each but
// the last ends; a string longer than 64 KiB in all is cut (no field the
// platform sends comes near).
func joinStrs(ss ...string) (string, [3]uint16) {
	var ends [3]uint16
	n := 0
	for _, s := range ss {
		n += len(s)
	}
	b := make([]byte, 0, min(n, 1<<16-1))
	for i, s := range ss {
		b = append(b, s[:min(len(s), cap(b)-len(b))]...)
		if i < len(ends) {
			ends[i] = uint16(len(b))
		}
	}
	return string(b), ends
}

func recOfUser(u *User) *userRec {
	strs, ends := joinStrs(u.Username, u.GlobalName, u.Avatar, u.Banner)
	return &userRec{id: u.ID, strs: strs, ends: ends,
		disc: unique.Make(u.Discriminator), deco: unique.Make(u.AvatarDecoration), accent: int32(u.AccentColor),
		publicFlags: int32(u.PublicFlags), bot: u.Bot, system: u.System}
}

func (r *userRec) value() User {
	return User{ID: r.id, Username: r.strs[:r.ends[0]], GlobalName: r.strs[r.ends[0]:r.ends[1]],
		Discriminator: r.disc.Value(), Avatar: r.strs[r.ends[1]:r.ends[2]], Banner: r.strs[r.ends[2]:],
		AccentColor: int(r.accent), PublicFlags: int(r.publicFlags),
		Bot: r.bot, System: r.system, AvatarDecoration: r.deco.Value()}
}

// acquire returns the entry of u, created or refreshed, with one more
// reference.
func (t *userTable) acquire(u *User) *userEntry {
	t.mu.Lock()
	defer t.mu.Unlock()
	e := t.m[u.ID]
	if e == nil {
		e = &userEntry{}
		e.p.Store(recOfUser(u))
		t.m[u.ID] = e
	} else if cur := e.p.Load(); cur.value() != *u {
		e.p.Store(recOfUser(u))
	}
	e.refs++
	return e
}

// release drops a reference to e.
func (t *userTable) release(e *userEntry) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if e.refs--; e.refs <= 0 {
		if cur := t.m[e.p.Load().id]; cur == e {
			delete(t.m, e.p.Load().id)
		}
	}
}

// refresh replaces the user's fields when held; patch keeps those u
// leaves empty.
func (t *userTable) refresh(u *User, patch bool) (old User, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e := t.m[u.ID]
	if e == nil {
		return User{}, false
	}
	old = e.p.Load().value()
	v := *u
	if patch {
		v = old
		if u.Username != "" {
			v.Username = u.Username
		}
		if u.GlobalName != "" {
			v.GlobalName = u.GlobalName
		}
		if u.Discriminator != "" {
			v.Discriminator = u.Discriminator
		}
		if u.Avatar != "" {
			v.Avatar = u.Avatar
		}
	}
	if v != old {
		e.p.Store(recOfUser(&v))
	}
	return old, true
}

func (t *userTable) get(id Snowflake) (User, bool) {
	t.mu.RLock()
	e := t.m[id]
	t.mu.RUnlock()
	if e == nil {
		return User{}, false
	}
	return e.p.Load().value(), true
}

func (m *memberRec) value(guildID Snowflake) Member {
	v := Member{
		GuildID:                    guildID,
		User:                       m.user.p.Load().value(),
		Nick:                       m.strs[:m.nickEnd],
		Avatar:                     m.strs[m.nickEnd:m.avEnd],
		Banner:                     m.strs[m.avEnd:],
		Roles:                      IDs{b: m.roles.Value()},
		JoinedAt:                   fromNanos(m.joined),
		PremiumSince:               fromNanos(m.premium),
		CommunicationDisabledUntil: fromNanos(m.timeout),
		Flags:                      memberFlags(m.flags),
		Deaf:                       m.bits&memberDeaf != 0,
		Mute:                       m.bits&memberMute != 0,
		Pending:                    m.bits&memberPending != 0,
		AvatarDecoration:           m.deco.Value(),
	}
	return v
}

func (p *presenceRec) value(guildID, userID Snowflake) Presence {
	v := Presence{GuildID: guildID, UserID: userID, Status: statusOf(p.status), Activities: List[Activity]{s: p.acts}}
	v.ClientStatus.Desktop = statusOf(p.desktop)
	v.ClientStatus.Mobile = statusOf(p.mobile)
	v.ClientStatus.Web = statusOf(p.web)
	return v
}

// prior is what the last event of a shard replaced or removed.
type prior struct {
	guild    Guild
	channel  Channel
	role     Role
	member   Member
	user     User
	presence Presence
	voice    VoiceState
	has      uint8
}

const (
	hasGuild uint8 = 1 << iota
	hasChannel
	hasRole
	hasMember
	hasUser
	hasPresence
	hasVoice
)

// priorOf returns the record of what the shard of ctx last replaced; a
// fresh one, kept nowhere, for a write from outside a shard (REST).
func (c *Cache) priorOf(ctx context.Context) *prior {
	shard, ok := gateway.ShardOf(ctx)
	if !ok {
		return new(prior)
	}
	c.oldMu.Lock()
	defer c.oldMu.Unlock()
	p := c.olds[shard]
	if p == nil {
		p = new(prior)
		c.olds[shard] = p
	}
	return p
}

// OldGuild returns the guild's own fields as they were before the event
// being handled on ctx's shard (GUILD_UPDATE, GUILD_DELETE, GUILD_CREATE of
// a guild held): call it from a handler of that event.
func (c *Cache) OldGuild(ctx context.Context) (Guild, bool) {
	p := c.priorOf(ctx)
	return p.guild, p.has&hasGuild != 0
}

// OldChannel returns the channel or thread the event being handled
// replaced or deleted (CHANNEL_UPDATE, CHANNEL_DELETE, THREAD_UPDATE,
// THREAD_DELETE).
func (c *Cache) OldChannel(ctx context.Context) (Channel, bool) {
	p := c.priorOf(ctx)
	return p.channel, p.has&hasChannel != 0
}

// OldRole returns the role the event being handled replaced or deleted.
func (c *Cache) OldRole(ctx context.Context) (Role, bool) {
	p := c.priorOf(ctx)
	return p.role, p.has&hasRole != 0
}

// OldMember returns the member the event being handled replaced or removed
// (GUILD_MEMBER_UPDATE: the old roles and nick; GUILD_MEMBER_REMOVE: who
// left), when the cache held it.
func (c *Cache) OldMember(ctx context.Context) (Member, bool) {
	p := c.priorOf(ctx)
	return p.member, p.has&hasMember != 0
}

// OldUser returns the user the event being handled changed (USER_UPDATE, a
// presence's user), when the cache held it.
func (c *Cache) OldUser(ctx context.Context) (User, bool) {
	p := c.priorOf(ctx)
	return p.user, p.has&hasUser != 0
}

// OldPresence returns the presence the event being handled replaced.
func (c *Cache) OldPresence(ctx context.Context) (Presence, bool) {
	p := c.priorOf(ctx)
	return p.presence, p.has&hasPresence != 0
}

// OldVoiceState returns the voice state the event being handled replaced
// or removed (a move shows the old channel).
func (c *Cache) OldVoiceState(ctx context.Context) (VoiceState, bool) {
	p := c.priorOf(ctx)
	return p.voice, p.has&hasVoice != 0
}

// Stats counts what a cache holds.
type Stats struct {
	Guilds, Channels, Roles, Members, Users, Emojis, Stickers, Presences, VoiceStates int
	// Events is how many events (update lists) were applied.
	Events uint64
}

// Stats counts what the cache holds now.
func (c *Cache) Stats() Stats {
	var s Stats
	for _, gs := range c.guildList() {
		gs.mu.RLock()
		s.Guilds++
		s.Channels += len(gs.channels)
		s.Roles += len(gs.roles)
		s.Members += len(gs.members)
		s.Emojis += len(gs.emojis)
		s.Stickers += len(gs.stickers)
		s.Presences += len(gs.presences)
		s.VoiceStates += len(gs.voice)
		gs.mu.RUnlock()
	}
	c.users.mu.RLock()
	s.Users = len(c.users.m)
	c.users.mu.RUnlock()
	s.Events = c.events.Load()
	return s
}

func (c *Cache) guildList() []*guildState {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]*guildState, 0, len(c.guilds))
	for _, gs := range c.guilds {
		out = append(out, gs)
	}
	return out
}

func (c *Cache) guild(id Snowflake) *guildState {
	c.mu.RLock()
	gs := c.guilds[id]
	c.mu.RUnlock()
	return gs
}

// staleErr is ErrStale for a guild marked stale or unavailable.
func (gs *guildState) staleErr() error {
	if gs.g.Stale || gs.g.Unavailable {
		return ErrStale
	}
	return nil
}

// CurrentUser implements [Reader].
func (c *Cache) CurrentUser() (User, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if !c.hasMe {
		return User{}, ErrNotFound
	}
	return c.self, nil
}

// Guild implements [Reader].
func (c *Cache) Guild(guildID Snowflake) (Guild, error) {
	gs := c.guild(guildID)
	if gs == nil {
		return Guild{}, ErrNotFound
	}
	gs.mu.RLock()
	defer gs.mu.RUnlock()
	return gs.g, gs.staleErr()
}

// Guilds implements [Reader].
func (c *Cache) Guilds() iter.Seq2[Guild, error] {
	return func(yield func(Guild, error) bool) {
		for _, gs := range c.guildList() {
			gs.mu.RLock()
			g := gs.g
			gs.mu.RUnlock()
			if !yield(g, nil) {
				return
			}
		}
	}
}

// Channel implements [Reader].
func (c *Cache) Channel(channelID Snowflake) (Channel, error) {
	c.chMu.RLock()
	gid, ok := c.chans[channelID]
	c.chMu.RUnlock()
	if !ok {
		return Channel{}, ErrNotFound
	}
	gs := c.guild(gid)
	if gs == nil {
		return Channel{}, ErrNotFound
	}
	gs.mu.RLock()
	defer gs.mu.RUnlock()
	ch, ok := gs.channels[channelID]
	if !ok {
		return Channel{}, ErrNotFound
	}
	return ch, gs.staleErr()
}

// snapshot yields what collect copies out of guildID under its read lock,
// ErrStale first when the guild is stale.
func snapshot[T any](c *Cache, guildID Snowflake, collect func(gs *guildState) []T) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		gs := c.guild(guildID)
		if gs == nil {
			return
		}
		gs.mu.RLock()
		stale := gs.staleErr()
		list := collect(gs)
		gs.mu.RUnlock()
		if stale != nil && !yield(zero, stale) {
			return
		}
		for _, v := range list {
			if !yield(v, nil) {
				return
			}
		}
	}
}

func values[K comparable, V any](m map[K]V) []V {
	out := make([]V, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// Channels implements [Reader].
func (c *Cache) Channels(guildID Snowflake) iter.Seq2[Channel, error] {
	return snapshot(c, guildID, func(gs *guildState) []Channel { return values(gs.channels) })
}

// Role implements [Reader].
func (c *Cache) Role(guildID, roleID Snowflake) (Role, error) {
	gs := c.guild(guildID)
	if gs == nil {
		return Role{}, ErrNotFound
	}
	gs.mu.RLock()
	defer gs.mu.RUnlock()
	r, ok := gs.roles[roleID]
	if !ok {
		return Role{}, ErrNotFound
	}
	return r, gs.staleErr()
}

// Roles implements [Reader].
func (c *Cache) Roles(guildID Snowflake) iter.Seq2[Role, error] {
	return snapshot(c, guildID, func(gs *guildState) []Role { return values(gs.roles) })
}

// Member implements [Reader].
func (c *Cache) Member(guildID, userID Snowflake) (Member, error) {
	gs := c.guild(guildID)
	if gs == nil {
		return Member{}, ErrNotFound
	}
	gs.mu.RLock()
	defer gs.mu.RUnlock()
	m, ok := gs.members[userID]
	if !ok {
		return Member{}, ErrNotFound
	}
	return m.value(guildID), gs.staleErr()
}

// Members implements [Reader].
func (c *Cache) Members(guildID Snowflake) iter.Seq2[Member, error] {
	return snapshot(c, guildID, func(gs *guildState) []Member {
		out := make([]Member, 0, len(gs.members))
		for _, m := range gs.members {
			out = append(out, m.value(guildID))
		}
		return out
	})
}

// User implements [Reader].
func (c *Cache) User(userID Snowflake) (User, error) {
	if u, ok := c.users.get(userID); ok {
		return u, nil
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.hasMe && c.self.ID == userID {
		return c.self, nil
	}
	return User{}, ErrNotFound
}

// Emoji implements [Reader].
func (c *Cache) Emoji(guildID, emojiID Snowflake) (Emoji, error) {
	gs := c.guild(guildID)
	if gs == nil {
		return Emoji{}, ErrNotFound
	}
	gs.mu.RLock()
	defer gs.mu.RUnlock()
	for i := range gs.emojis {
		if gs.emojis[i].ID == emojiID {
			return gs.emojis[i], gs.staleErr()
		}
	}
	return Emoji{}, ErrNotFound
}

// Emojis implements [Reader].
func (c *Cache) Emojis(guildID Snowflake) iter.Seq2[Emoji, error] {
	return snapshot(c, guildID, func(gs *guildState) []Emoji { return gs.emojis }) // never written in place
}

// Sticker implements [Reader].
func (c *Cache) Sticker(guildID, stickerID Snowflake) (Sticker, error) {
	gs := c.guild(guildID)
	if gs == nil {
		return Sticker{}, ErrNotFound
	}
	gs.mu.RLock()
	defer gs.mu.RUnlock()
	for i := range gs.stickers {
		if gs.stickers[i].ID == stickerID {
			return gs.stickers[i], gs.staleErr()
		}
	}
	return Sticker{}, ErrNotFound
}

// Stickers implements [Reader].
func (c *Cache) Stickers(guildID Snowflake) iter.Seq2[Sticker, error] {
	return snapshot(c, guildID, func(gs *guildState) []Sticker { return gs.stickers })
}

// Presence implements [Reader].
func (c *Cache) Presence(guildID, userID Snowflake) (Presence, error) {
	gs := c.guild(guildID)
	if gs == nil {
		return Presence{}, ErrNotFound
	}
	gs.mu.RLock()
	defer gs.mu.RUnlock()
	p, ok := gs.presences[userID]
	if !ok {
		return Presence{}, ErrNotFound
	}
	return p.value(guildID, userID), gs.staleErr()
}

// VoiceState implements [Reader].
func (c *Cache) VoiceState(guildID, userID Snowflake) (VoiceState, error) {
	gs := c.guild(guildID)
	if gs == nil {
		return VoiceState{}, ErrNotFound
	}
	gs.mu.RLock()
	defer gs.mu.RUnlock()
	v, ok := gs.voice[userID]
	if !ok {
		return VoiceState{}, ErrNotFound
	}
	return v, gs.staleErr()
}

// VoiceStates implements [Reader].
func (c *Cache) VoiceStates(guildID Snowflake) iter.Seq2[VoiceState, error] {
	return snapshot(c, guildID, func(gs *guildState) []VoiceState { return values(gs.voice) })
}

// MemberPermissions is [MemberPermissions] on the cache, at the cache's
// clock.
func (c *Cache) MemberPermissions(guildID, userID Snowflake) (Permissions, error) {
	return MemberPermissions(c, guildID, userID, c.now())
}

// MemberPermissionsIn is [MemberPermissionsIn] on the cache, at the
// cache's clock.
func (c *Cache) MemberPermissionsIn(channelID, userID Snowflake) (Permissions, error) {
	return MemberPermissionsIn(c, channelID, userID, c.now())
}
