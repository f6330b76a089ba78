package state

import (
	"context"
	"iter"
	"strings"
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
// a guild all or not at all. Shared users have their own lock, which a
// member read also holds to copy the member's user.
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
	c.users.m = make(map[Snowflake]*userRec)
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
	presences map[Snowflake]presenceRec
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

// memberRec is a member as kept: 64 bytes, and its strings. Its user is
// found by id in the cache's user table (the id is the map key), so that a
// user's change shows in every guild at once.
type memberRec struct {
	// strs holds the flags, the bits and the lengths of the nick and the
	// avatar, then the nick, avatar and banner: see memberStrs.
	strs    string
	roles   unique.Handle[string] // packed ids, shared by members with the same roles
	deco    unique.Handle[AvatarDecoration]
	joined  int64 // Unix nanoseconds; 0 for none
	premium int64
	timeout int64
	tick    uint32 // last written, for the LRU
	gen     uint32 // the member list or chunk answer that last named it
}

const (
	memberDeaf uint8 = 1 << iota
	memberMute
	memberPending
)

// A member's strs: its bits (memberDeaf...), its flags (two bytes, little
// endian; the platform's go up to bit 10), then the lengths of the nick and
// the avatar, then the nick, the avatar and the banner.
const memberHead = 3

// presenceRec is a presence as kept, by value in its guild's map (its user
// id is the key): 16 bytes. A single activity is interned (the same game,
// the same custom status, are shared).
type presenceRec struct {
	acts                         *[]Activity // nil for none; never written once stored
	status, desktop, mobile, web uint8       // statusCode
	tick                         uint32
}

// userRec is one user as kept (32 bytes, and its strings), shared by every
// member of that user; a new one replaces it when the user changes.
type userRec struct {
	// strs holds the bits (userBot, userSystem), the public flags (four
	// bytes, little endian), the lengths of the username, global name,
	// discriminator and avatar, then those and the banner.
	strs   string
	deco   unique.Handle[AvatarDecoration]
	accent int32
	refs   int32 // guarded by userTable.mu; readers never read it
}

const (
	userBot uint8 = 1 << iota
	userSystem
)

const userHead = 5

// userTable holds the users of every member kept, one record each,
// counted by the members that hold them.
type userTable struct {
	mu sync.RWMutex
	m  map[Snowflake]*userRec
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

// maxField is the longest string a record keeps of one field: its length
// is one byte. No field the platform sends comes near (names are at most
// 32 characters, hashes 34 bytes); a longer one is cut.
const maxField = 255

// packStrs returns, in one allocation, head, then the length of each of ss
// but the last (one byte each), then ss one after the other.
func packStrs(head []byte, ss ...string) string {
	n := len(head) + len(ss) - 1
	for _, s := range ss {
		n += min(len(s), maxField)
	}
	var b strings.Builder
	b.Grow(n)
	b.Write(head)
	for _, s := range ss[:len(ss)-1] {
		b.WriteByte(byte(min(len(s), maxField)))
	}
	for _, s := range ss {
		b.WriteString(s[:min(len(s), maxField)])
	}
	return b.String()
}

// field returns string i of k packed by packStrs after a head of h bytes.
func field(s string, h, k, i int) string {
	off := h + k - 1
	for j := range i {
		off += int(s[h+j])
	}
	if i == k-1 {
		return s[off:]
	}
	return s[off : off+int(s[h+i])]
}

func recOfUser(u *User) *userRec {
	var bits uint8
	if u.Bot {
		bits |= userBot
	}
	if u.System {
		bits |= userSystem
	}
	pf := uint32(int32(u.PublicFlags))
	head := [userHead]byte{bits, byte(pf), byte(pf >> 8), byte(pf >> 16), byte(pf >> 24)}
	return &userRec{strs: packStrs(head[:], u.Username, u.GlobalName, u.Discriminator, u.Avatar, u.Banner),
		deco: unique.Make(u.AvatarDecoration), accent: int32(u.AccentColor)}
}

func (r *userRec) value(id Snowflake) User {
	s := r.strs
	pf := int32(uint32(s[1]) | uint32(s[2])<<8 | uint32(s[3])<<16 | uint32(s[4])<<24)
	return User{ID: id, Username: field(s, userHead, 5, 0), GlobalName: field(s, userHead, 5, 1),
		Discriminator: field(s, userHead, 5, 2), Avatar: field(s, userHead, 5, 3), Banner: field(s, userHead, 5, 4),
		AccentColor: int(r.accent), PublicFlags: int(pf),
		Bot: s[0]&userBot != 0, System: s[0]&userSystem != 0, AvatarDecoration: r.deco.Value()}
}

// acquire creates or refreshes the record of u, with one more reference.
func (t *userTable) acquire(u *User) {
	t.mu.Lock()
	defer t.mu.Unlock()
	r := t.m[u.ID]
	if r == nil {
		r = recOfUser(u)
		t.m[u.ID] = r
	} else if r.value(u.ID) != *u {
		n := recOfUser(u)
		n.refs = r.refs
		t.m[u.ID] = n
		r = n
	}
	r.refs++
}

// release drops a reference to the user id.
func (t *userTable) release(id Snowflake) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if r := t.m[id]; r != nil {
		if r.refs--; r.refs <= 0 {
			delete(t.m, id)
		}
	}
}

// refresh replaces the user's fields when held; patch keeps those u
// leaves empty.
func (t *userTable) refresh(u *User, patch bool) (old User, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	r := t.m[u.ID]
	if r == nil {
		return User{}, false
	}
	old = r.value(u.ID)
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
		n := recOfUser(&v)
		n.refs = r.refs
		t.m[u.ID] = n
	}
	return old, true
}

func (t *userTable) rec(id Snowflake) *userRec {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.m[id]
}

func (t *userTable) get(id Snowflake) (User, bool) {
	r := t.rec(id)
	if r == nil {
		return User{}, false
	}
	return r.value(id), true
}

// userOf returns the user of id from its record r; every member kept
// holds a reference to its user, so r is nil only for a record gone under
// a bug, and then the user has its id alone.
func userOf(r *userRec, id Snowflake) User {
	if r == nil {
		return User{ID: id}
	}
	return r.value(id)
}

func memberStrs(nick, avatar, banner string, flags uint16, bits uint8) string {
	return packStrs([]byte{bits, byte(flags), byte(flags >> 8)}, nick, avatar, banner)
}

// value returns the member, with its user u.
func (m *memberRec) value(guildID Snowflake, u User) Member {
	s := m.strs
	bits := s[0]
	v := Member{
		GuildID:                    guildID,
		User:                       u,
		Nick:                       field(s, memberHead, 3, 0),
		Avatar:                     field(s, memberHead, 3, 1),
		Banner:                     field(s, memberHead, 3, 2),
		Roles:                      IDs{b: m.roles.Value()},
		JoinedAt:                   fromNanos(m.joined),
		PremiumSince:               fromNanos(m.premium),
		CommunicationDisabledUntil: fromNanos(m.timeout),
		Flags:                      memberFlags(uint16(s[1]) | uint16(s[2])<<8),
		Deaf:                       bits&memberDeaf != 0,
		Mute:                       bits&memberMute != 0,
		Pending:                    bits&memberPending != 0,
		AvatarDecoration:           m.deco.Value(),
	}
	return v
}

// member returns the member held under userID in gs, with its user.
func (c *Cache) member(gs *guildState, userID Snowflake, m *memberRec) Member {
	return m.value(gs.g.ID, userOf(c.users.rec(userID), userID))
}

func (p *presenceRec) value(guildID, userID Snowflake) Presence {
	v := Presence{GuildID: guildID, UserID: userID, Status: statusOf(p.status)}
	if p.acts != nil {
		v.Activities = List[Activity]{s: *p.acts}
	}
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
	return c.member(gs, userID, m), gs.staleErr()
}

// Members implements [Reader].
func (c *Cache) Members(guildID Snowflake) iter.Seq2[Member, error] {
	return snapshot(c, guildID, func(gs *guildState) []Member {
		out := make([]Member, 0, len(gs.members))
		c.users.mu.RLock()
		defer c.users.mu.RUnlock()
		for id, m := range gs.members {
			out = append(out, m.value(guildID, userOf(c.users.m[id], id)))
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
