package redisstate

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/seed012df1e9/guildkit/state"
)

// ErrUnavailable is what Apply returns while Redis has not answered since
// a write failed: the event's guilds will be marked stale and rebuilt when
// it does.
var ErrUnavailable = errors.New("redisstate: Redis is unreachable; the guilds of the event will be marked stale and rebuilt")

// Options configure a [Store]. The zero value is ready to use.
type Options struct {
	// Prefix starts every key; "guildkit:state" when empty. Processes that
	// share state use the same prefix. It must not contain '{'.
	Prefix string
	// Policies say what the writer keeps; nil means
	// [state.DefaultPolicies]. Readers do not use them.
	Policies *state.Policies
	// Resync returns the updates that rebuild a guild whose writes were
	// lost while Redis was unreachable, when it is back: [RESTResync] reads
	// them through REST. Nil: such a guild stays marked stale until its
	// next GUILD_CREATE (a new session, or the guild's next outage).
	Resync func(ctx context.Context, guildID state.Snowflake) ([]state.Update, error)
	// UserTTL is how long a user is kept for [Store.User] after a member
	// event last wrote it; 24 hours when 0.
	UserTTL time.Duration
	// Timeout bounds each Redis operation of a read, and each step of a
	// write; 2s when 0.
	Timeout time.Duration
	// RetryInterval is how often a writer that lost writes tries Redis
	// again when no event comes to try it; 1s when 0.
	RetryInterval time.Duration
	// OnRecover is called when a guild whose writes were lost has been
	// marked stale in Redis again and, with Resync, rebuilt: err is nil,
	// or why the resync failed (the guild stays stale). Nil for none.
	OnRecover func(guildID state.Snowflake, err error)
}

// Store is guild state kept in Redis: a [state.Store] for the processes
// that run shards (writers) and a [state.Reader] for any number of
// processes that read. Create it with [New]; a writer stops with
// [Store.Close].
type Store struct {
	rdb  redis.UniversalClient
	pre  string
	pol  state.Policies
	opts Options

	gate    sync.RWMutex // events hold it to read, a recovery to write
	mu      sync.Mutex
	self    state.Snowflake
	lost    map[state.Snowflake]bool // guilds whose writes were lost
	known   map[state.Snowflake]bool // guilds this writer has seen held in Redis
	retry   bool                     // the retry loop runs
	closed  bool
	stop    chan struct{}
	stopped sync.WaitGroup
}

var (
	_ state.Store  = (*Store)(nil)
	_ state.Reader = (*Store)(nil)
)

// New returns a Store on rdb, a *redis.Client or a *redis.ClusterClient
// (or a Ring: every key of a guild shares its hash tag).
func New(rdb redis.UniversalClient, o Options) *Store {
	if o.Prefix == "" {
		o.Prefix = "guildkit:state"
	}
	if o.UserTTL <= 0 {
		o.UserTTL = 24 * time.Hour
	}
	if o.Timeout <= 0 {
		o.Timeout = 2 * time.Second
	}
	if o.RetryInterval <= 0 {
		o.RetryInterval = time.Second
	}
	s := &Store{rdb: rdb, pre: o.Prefix, pol: state.DefaultPolicies(), opts: o,
		lost: make(map[state.Snowflake]bool), known: make(map[state.Snowflake]bool), stop: make(chan struct{})}
	if o.Policies != nil {
		s.pol = *o.Policies
	}
	return s
}

// Policies implements [state.Store].
func (s *Store) Policies() state.Policies { return s.pol }

// Close stops the writer's retries of lost writes. It does not close the
// Redis client.
func (s *Store) Close() error {
	s.mu.Lock()
	if !s.closed {
		s.closed = true
		close(s.stop)
	}
	s.mu.Unlock()
	s.stopped.Wait()
	return nil
}

// The keys. A guild's all share the hash tag {<guild id>}.
const (
	kG = iota
	kCH
	kCHP
	kCHS
	kCHPIN
	kRO
	kM
	kMR
	kMG
	kML
	kEM
	kST
	kPR
	kPL
	kVO
	kCK
	kCKG
	nKeys
)

var keyNames = [nKeys]string{"g", "ch", "chp", "chs", "chpin", "ro", "m", "mr", "mg", "ml", "em", "st", "pr", "pl", "vo", "ck", "ckg"}

// guildKeys returns a guild's keys, in the order of the k constants.
func (s *Store) guildKeys(guildID state.Snowflake) []string {
	base := s.guildBase(guildID)
	out := make([]string, nKeys)
	for i, n := range keyNames {
		out[i] = base + n
	}
	return out
}

// key returns one of a guild's keys.
func (s *Store) key(guildID state.Snowflake, k int) string {
	return s.guildBase(guildID) + keyNames[k]
}

// guildBase is what every key of a guild starts with: the prefix and the
// guild's hash tag.
func (s *Store) guildBase(guildID state.Snowflake) string {
	return s.pre + ":{" + idString(guildID) + "}:"
}

// The cross-guild keys: the set of guild ids, channel id → guild id, the
// bot's user, and one key per user.
func (s *Store) guildsKey() string   { return s.pre + ":guilds" }
func (s *Store) channelsKey() string { return s.pre + ":channels" }
func (s *Store) selfKey() string     { return s.pre + ":self" }
func (s *Store) userKey(id state.Snowflake) string {
	return s.pre + ":user:" + idString(id)
}

// guildBatch is the script operations of one event for one guild.
type guildBatch struct {
	id       state.Snowflake
	args     []any
	hasGuild bool // a GUILD_CREATE or unavailable guild: the guild is listed
	removed  bool // the guild is dropped
	users    []memberUser
}

// memberUser is the user of a member put, written to the shared users
// when the member is stored, and refreshed when held otherwise.
type memberUser struct {
	u        *state.User
	resolved bool // an interaction's resolved member: never refreshes a held one
}

func (b *guildBatch) op(args ...any) { b.args = append(b.args, args...) }

// Apply implements [state.Store]: it applies the updates of one event.
// What the event changes in one guild is one script, so a reader sees all
// of it or none; the cross-guild indexes (the guild list, channel ids,
// users) are written after it. When Redis cannot be reached, the guilds
// the event touches are remembered as lost: they are marked stale in
// Redis, and rebuilt through [Options.Resync], as soon as it answers again
// (by a retry every [Options.RetryInterval]), and Apply returns the error.
// Until then Apply does not wait on Redis: it remembers the event's guilds
// and returns [ErrUnavailable].
func (s *Store) Apply(ctx context.Context, ups []state.Update) error {
	s.mu.Lock()
	// The retry loop runs on a moment after it recovered the last lost
	// guild (and called OnRecover): Redis answered, so events go to it.
	down := s.retry && len(s.lost) > 0
	s.mu.Unlock()
	if down {
		// Redis did not answer a write: until the retries find it again,
		// events are not held up by it, only remembered.
		s.lose(ups)
		return ErrUnavailable
	}
	if err := s.recover(ctx); err != nil {
		s.lose(ups)
		return err
	}
	s.gate.RLock()
	err := s.apply(ctx, ups)
	s.gate.RUnlock()
	if err != nil {
		s.lose(ups)
		return err
	}
	return nil
}

// apply applies ups, in order, a guild's run of updates in one script.
func (s *Store) apply(ctx context.Context, ups []state.Update) error {
	var (
		b     *guildBatch
		patch *state.User // a presence's partial user, for the guild that follows
	)
	flush := func() error {
		if b == nil {
			return nil
		}
		err := s.run(ctx, b)
		b = nil
		return err
	}
	for i := range ups {
		u := &ups[i]
		switch u.Op {
		case state.OpSession, state.OpSessionLost:
			if err := flush(); err != nil {
				return err
			}
			if err := s.session(ctx, u); err != nil {
				return err
			}
			continue
		case state.OpSelf:
			if err := flush(); err != nil {
				return err
			}
			if err := s.setSelf(ctx, u.User); err != nil {
				return err
			}
			continue
		case state.OpUserPut, state.OpUserPatch:
			if err := flush(); err != nil {
				return err
			}
			if err := s.refreshUser(ctx, u.User, u.Op == state.OpUserPatch); err != nil {
				return err
			}
			if u.Op == state.OpUserPatch {
				patch = u.User
			}
			continue
		}
		gid := u.GuildID
		if u.Op == state.OpChannelPut && gid == 0 {
			gid = u.Channel.GuildID
		}
		if gid == 0 {
			continue
		}
		if b == nil || b.id != gid {
			if err := flush(); err != nil {
				return err
			}
			b = &guildBatch{id: gid}
			if patch != nil {
				if p := userPatch(patch); p != "{}" {
					b.op("UPATCH", idString(patch.ID), p)
				}
				patch = nil
			}
		}
		s.encode(b, u)
	}
	return flush()
}

func idString(id state.Snowflake) string { return strconv.FormatUint(uint64(id), 10) }

// encode adds the script operations of u to b.
func (s *Store) encode(b *guildBatch, u *state.Update) {
	gid := b.id
	switch u.Op {
	case state.OpGuildCreate:
		g := *u.Guild
		large := "0"
		if g.Large {
			large = "1"
		}
		b.op("GSET", encGuild(&g), encTime(g.JoinedAt), large, strconv.Itoa(g.MemberCount))
		b.hasGuild = true
	case state.OpGuildUpdate:
		b.op("GUPD", encGuild(u.Guild))
	case state.OpGuildUnavailable:
		b.op("GUNAV")
		b.hasGuild = true
	case state.OpGuildRemove:
		b.op("GDEL")
		b.removed = true
	case state.OpChannelPut:
		c := *u.Channel
		c.GuildID = gid
		parent := ""
		if c.IsThread() {
			parent = idString(c.ParentID)
		}
		b.op("CPUT", idString(c.ID), parent, encChannel(&c))
	case state.OpChannelRemove:
		b.op("CDEL", idString(u.ID))
	case state.OpThreadsReset:
		parents := "*"
		if u.IDs != nil {
			var sb strings.Builder
			sb.WriteByte(',')
			for _, id := range u.IDs {
				sb.WriteString(idString(id))
				sb.WriteByte(',')
			}
			parents = sb.String()
		}
		b.op("TRESET", parents)
	case state.OpChannelPins:
		b.op("CPINS", idString(u.ID), "p"+encTime(u.Time))
	case state.OpChannelStatus:
		b.op("CSTAT", idString(u.ID), u.Text)
	case state.OpRolePut:
		r := *u.Role
		r.GuildID = gid
		b.op("RPUT", idString(r.ID), mustJSON(r))
	case state.OpRoleRemove:
		b.op("RDEL", idString(u.ID))
	case state.OpRolesReset:
		b.op("RRESET")
	case state.OpMemberPut:
		m := *u.Member
		if m.User.ID == 0 {
			return
		}
		m.GuildID = gid
		pol := s.pol.Members
		var flags []byte
		if pol.Keeps(gid, u.Source) || u.Source == state.SourceResolved && pol.Keeps(gid, state.SourceInteraction) {
			flags = append(flags, 'k')
		}
		switch u.Source {
		case state.SourceJoin:
			flags = append(flags, 'j')
		case state.SourceResolved:
			flags = append(flags, 'r')
		case state.SourceList:
			flags = append(flags, 'l')
		case state.SourceChunk:
			flags = append(flags, 'c')
		}
		b.op("MPUT", idString(m.User.ID), encMember(&m), encRoles(m.Roles), string(flags))
		b.users = append(b.users, memberUser{&u.Member.User, u.Source == state.SourceResolved})
	case state.OpMemberRemove:
		b.op("MDEL", idString(u.ID))
	case state.OpEmojis:
		putList(b, "EMOJIS", s.pol.Emojis, u.Emojis, func(e *state.Emoji) (state.Snowflake, string) {
			e.GuildID = gid
			return e.ID, encEmoji(e)
		})
	case state.OpStickers:
		putList(b, "STICKERS", s.pol.Stickers, u.Stickers, func(st *state.Sticker) (state.Snowflake, string) {
			st.GuildID = gid
			return st.ID, mustJSON(st)
		})
	case state.OpPresencePut:
		p := *u.Presence
		p.GuildID = gid
		if p.Status == "offline" || p.Status == "" || !s.pol.Presences.Keeps(gid, state.SourceActivity) {
			b.op("PDEL", idString(p.UserID))
			return
		}
		b.op("PPUT", idString(p.UserID), encPresence(&p))
	case state.OpVoicePut:
		v := *u.Voice
		v.GuildID = gid
		switch {
		case v.ChannelID == 0:
			b.op("VDEL", idString(v.UserID))
		case s.pol.VoiceStates.Keeps(gid, state.SourceActivity):
			v.SessionID = ""
			b.op("VPUT", idString(v.UserID), mustJSON(v))
		}
	case state.OpChunk:
		ch := u.Chunk
		if ch.Whole && ch.Count > 0 && ch.Index >= 0 && ch.Index < ch.Count {
			b.op("CHUNK", ch.Nonce, strconv.Itoa(ch.Index), strconv.Itoa(ch.Count))
		}
	}
}

// putList adds the operation replacing a guild's whole list of a kind
// (emojis, stickers) with list, as far as pol keeps it; enc sets a copy's
// guild and encodes it.
func putList[T any](b *guildBatch, op string, pol state.Policy, list []T, enc func(*T) (state.Snowflake, string)) {
	if !pol.Keeps(b.id, state.SourceActivity) {
		return
	}
	if n := pol.Limit(); n > 0 && len(list) > n {
		list = list[:n]
	}
	b.op(op, strconv.Itoa(len(list)))
	for i := range list {
		v := list[i]
		id, js := enc(&v)
		b.op(idString(id), js)
	}
}

// run runs b's script, then writes the cross-guild indexes.
func (s *Store) run(ctx context.Context, b *guildBatch) error {
	if len(b.args) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	defer cancel()
	if b.removed {
		// Out of the list first: a reader never finds a guild it
		// cannot read.
		if err := s.rdb.SRem(ctx, s.guildsKey(), idString(b.id)).Err(); err != nil {
			return err
		}
	}
	s.mu.Lock()
	self := s.self
	s.mu.Unlock()
	wholesale := "0"
	if s.pol.Members.Wholesale(b.id) {
		wholesale = "1"
	}
	head := []any{idString(self), strconv.Itoa(s.pol.Members.Limit()), wholesale,
		strconv.Itoa(s.pol.Presences.Limit()), strconv.Itoa(s.pol.VoiceStates.Limit())}
	res, err := applyScript.Run(ctx, s.rdb, s.guildKeys(b.id), append(head, b.args...)...).Slice()
	if err != nil {
		return err
	}
	if len(res) != 4 {
		return fmt.Errorf("redisstate: the apply script answered %d values", len(res))
	}
	added, removed, stored := strs(res[0]), strs(res[1]), strs(res[2])
	held, _ := res[3].(int64)
	gid := idString(b.id)
	_, err = s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		if held == 1 && b.hasGuild {
			p.SAdd(ctx, s.guildsKey(), gid)
		}
		if len(removed) > 0 {
			p.HDel(ctx, s.channelsKey(), removed...)
		}
		for _, id := range added {
			p.HSet(ctx, s.channelsKey(), id, gid)
		}
		kept := make(map[string]bool, len(stored))
		for _, id := range stored {
			kept[id] = true
		}
		for _, mu := range b.users {
			u := mu.u
			switch v := mustJSON(u); {
			case kept[idString(u.ID)]:
				p.Set(ctx, s.userKey(u.ID), v, s.opts.UserTTL)
			case !mu.resolved:
				p.SetArgs(ctx, s.userKey(u.ID), v, redis.SetArgs{Mode: "XX", KeepTTL: true})
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return err
	}
	s.found(b.id, b.hasGuild)
	if s.missing(b, held == 1) {
		return errVanished
	}
	return nil
}

func strs(v any) []string {
	l, _ := v.([]any)
	out := make([]string, 0, len(l))
	for _, x := range l {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// shardOf returns the shard of guildID among n shards.
func shardOf(guildID state.Snowflake, n int) int {
	if n <= 1 {
		return 0
	}
	return int((uint64(guildID) >> 22) % uint64(n))
}

// session applies OpSession and OpSessionLost: the guilds of the shard are
// marked stale (READY's) or dropped (those it no longer lists).
func (s *Store) session(ctx context.Context, u *state.Update) error {
	n := u.Shard[1]
	mine := func(id state.Snowflake) bool { return n <= 1 || shardOf(id, n) == u.Shard[0] }
	if u.Op == state.OpSession {
		if err := s.setSelf(ctx, u.User); err != nil {
			return err
		}
	}
	held, err := s.guildIDs(ctx)
	if err != nil {
		return err
	}
	listed := make(map[state.Snowflake]bool, len(u.IDs))
	for _, id := range u.IDs {
		listed[id] = true
	}
	for _, id := range held {
		b := &guildBatch{id: id}
		switch {
		case u.Op == state.OpSessionLost && mine(id), listed[id]:
			b.op("GSTALE")
		case u.Op == state.OpSession && mine(id):
			b.op("GDEL")
			b.removed = true
		}
		delete(listed, id)
		if err := s.run(ctx, b); err != nil {
			return err
		}
	}
	if u.Op == state.OpSession {
		for _, id := range u.IDs {
			if !listed[id] {
				continue
			}
			b := &guildBatch{id: id, hasGuild: true}
			b.op("GUNAV")
			if err := s.run(ctx, b); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *Store) guildIDs(ctx context.Context) ([]state.Snowflake, error) {
	ctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	defer cancel()
	l, err := s.rdb.SMembers(ctx, s.guildsKey()).Result()
	if err != nil {
		return nil, err
	}
	out := make([]state.Snowflake, 0, len(l))
	for _, v := range l {
		if n, err := strconv.ParseUint(v, 10, 64); err == nil {
			out = append(out, state.Snowflake(n))
		}
	}
	return out, nil
}

func (s *Store) setSelf(ctx context.Context, u *state.User) error {
	s.mu.Lock()
	s.self = u.ID
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	defer cancel()
	return s.rdb.Set(ctx, s.selfKey(), mustJSON(u), 0).Err()
}

// refreshUser refreshes the shared copy of a user, when held.
func (s *Store) refreshUser(ctx context.Context, u *state.User, patch bool) error {
	ctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	defer cancel()
	v := *u
	if patch {
		cur, err := s.rdb.Get(ctx, s.userKey(u.ID)).Result()
		if errors.Is(err, redis.Nil) {
			return nil
		}
		if err != nil {
			return err
		}
		if v, err = decPlain[state.User](cur); err != nil {
			return err
		}
		patchUser(&v, u)
	}
	err := s.rdb.SetArgs(ctx, s.userKey(u.ID), mustJSON(v), redis.SetArgs{Mode: "XX", KeepTTL: true}).Err()
	if errors.Is(err, redis.Nil) {
		return nil
	}
	return err
}
