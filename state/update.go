package state

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/gateway"
)

// Op is what an [Update] does.
type Op uint8

// The operations events are made of. Each names the fields of [Update] it
// reads.
const (
	// OpSession: a new session's READY. Shard; IDs: the guilds it lists;
	// User: the bot. Guilds of that shard held but not listed are dropped
	// with everything under them; those listed are marked stale until
	// their GUILD_CREATE (or GUILD_DELETE unavailable) comes.
	OpSession Op = iota + 1
	// OpSessionLost: the shard lost its session (events were missed):
	// Shard. Its guilds are marked stale until the new session's
	// GUILD_CREATEs.
	OpSessionLost
	// OpGuildCreate: Guild, whole. Replace the guild's fields and drop
	// everything under it; the updates that follow (roles, channels,
	// emojis, stickers, members, presences, voice states) refill it.
	OpGuildCreate
	// OpGuildUpdate: Guild. Replace the guild's own fields, keeping
	// JoinedAt, Large and MemberCount and everything under it.
	OpGuildUpdate
	// OpGuildUnavailable: GuildID. Keep what is held, mark it unavailable
	// and stale; a guild not held is added as an empty unavailable one.
	OpGuildUnavailable
	// OpGuildRemove: GuildID. Drop the guild and everything under it.
	OpGuildRemove
	// OpChannelPut: Channel, whole (a channel or a thread).
	OpChannelPut
	// OpChannelRemove: GuildID, ID. Drop the channel and its threads.
	OpChannelRemove
	// OpThreadsReset: GuildID; IDs: parent channels whose active threads
	// are dropped (nil: every thread of the guild). THREAD_LIST_SYNC;
	// OpChannelPuts of the threads follow.
	OpThreadsReset
	// OpChannelPins: ID (channel), Time (zero: none).
	OpChannelPins
	// OpChannelStatus: ID (voice channel), Text (its status).
	OpChannelStatus
	// OpRolePut: Role, whole.
	OpRolePut
	// OpRoleRemove: GuildID, ID. Also strips the role from members.
	OpRoleRemove
	// OpRolesReset: GuildID. Drop every role but before a whole list
	// (GUILD_UPDATE with roles) of OpRolePuts.
	OpRolesReset
	// OpMemberPut: Member (with its user), Source: add or replace per the
	// member policy; the shared user is refreshed.
	OpMemberPut
	// OpMemberRemove: GuildID, ID (user); the guild's MemberCount goes
	// down by one.
	OpMemberRemove
	// OpUserPut: User, whole: refresh the shared copy if held.
	OpUserPut
	// OpUserPatch: User, partial (a presence's): merge its non-empty
	// fields into the shared copy if held.
	OpUserPatch
	// OpSelf: User, the bot's own (USER_UPDATE).
	OpSelf
	// OpEmojis: GuildID, Emojis: the whole list.
	OpEmojis
	// OpStickers: GuildID, Stickers: the whole list.
	OpStickers
	// OpPresencePut: Presence.
	OpPresencePut
	// OpVoicePut: Voice (ChannelID 0: the member left voice: remove).
	OpVoicePut
	// OpChunk: GuildID, Chunk: one GUILD_MEMBERS_CHUNK's place in its
	// answer, before the OpMemberPuts of its members. When the last chunk of
	// an answer to a whole-list request comes, members not in any of its
	// chunks are dropped (they left while the cache was not listening).
	OpChunk
)

// Source says where a member came from; policies decide on it.
type Source uint8

// Member sources.
const (
	SourceList        Source = iota + 1 // a GUILD_CREATE's member list
	SourceChunk                         // a GUILD_MEMBERS_CHUNK
	SourceEvent                         // GUILD_MEMBER_UPDATE
	SourceJoin                          // GUILD_MEMBER_ADD: also counts a member when it is new
	SourceActivity                      // a message, voice state, reaction or typing: the member acted
	SourceInteraction                   // an interaction's member or resolved data
	SourceREST                          // a REST answer
	// SourceResolved is an interaction's resolved member: partial (no
	// deaf or mute), so it is added when not held and never replaces one.
	SourceResolved
)

// Chunk is one GUILD_MEMBERS_CHUNK's place in its answer.
type Chunk struct {
	Nonce string
	Index int
	Count int
	// Whole is true when the answer is to a request for every member
	// (the cache's own re-chunking, recognised by its nonce prefix).
	Whole bool
}

// Update is one change to a cache. Every event the cache applies is turned
// into a short sequence of Updates by [Updates]; a [Store] applies the
// sequence of one event as one change.
type Update struct {
	Op       Op
	Shard    [2]int
	GuildID  Snowflake
	ID       Snowflake
	IDs      []Snowflake
	Source   Source
	Time     time.Time
	Text     string
	Guild    *Guild
	Channel  *Channel
	Role     *Role
	Member   *Member
	User     *User
	Emojis   []Emoji
	Stickers []Sticker
	Presence *Presence
	Voice    *VoiceState
	Chunk    *Chunk
}

// Store is a cache's write side: what [Attach] feeds. [*Cache] is one;
// state/redisstate is another.
type Store interface {
	Reader
	// Apply applies the updates of one event as one change: a reader sees
	// all of them or none. It is called from one goroutine per shard.
	Apply(ctx context.Context, updates []Update) error
	// Policies returns the store's policies.
	Policies() Policies
}

// ChunkNoncePrefix starts the nonce of every whole-list member request the
// cache makes, so that its chunks are known for what they are.
const ChunkNoncePrefix = "gkstate:"

// Updates returns the updates event e makes, in order (nil for an event
// that changes nothing a cache holds). shard is the [shard_id, num_shards]
// of the shard e came from (gateway.ShardOf). Events the gateway package
// delivers raw (threads, presences, voice states, emojis, stickers, USER_UPDATE,
// pins, voice channel status) are decoded here; one that does not decode
// is an error and changes nothing.
func Updates(shard [2]int, e gateway.Event) ([]Update, error) {
	switch e := e.(type) {
	case *gateway.Ready:
		ids := make([]Snowflake, len(e.Guilds))
		for i, g := range e.Guilds {
			ids[i] = g.ID
		}
		u := UserOf(&e.User)
		if e.Shard != nil {
			shard = *e.Shard
		}
		return []Update{{Op: OpSession, Shard: shard, IDs: ids, User: &u}}, nil
	case *gateway.SessionLost:
		return []Update{{Op: OpSessionLost, Shard: shard}}, nil
	case *gateway.GuildCreate:
		return guildCreateUpdates(shard, e), nil
	case *gateway.GuildUpdate:
		g := GuildOf(&e.Guild)
		out := []Update{{Op: OpGuildUpdate, Shard: shard, GuildID: g.ID, Guild: &g}}
		if len(e.Roles) > 0 {
			out = append(out, Update{Op: OpRolesReset, GuildID: g.ID})
			for i := range e.Roles {
				r := RoleOf(g.ID, &e.Roles[i])
				out = append(out, Update{Op: OpRolePut, GuildID: g.ID, Role: &r})
			}
		}
		return out, nil
	case *gateway.GuildDelete:
		if e.Unavailable {
			return []Update{{Op: OpGuildUnavailable, Shard: shard, GuildID: e.ID}}, nil
		}
		return []Update{{Op: OpGuildRemove, Shard: shard, GuildID: e.ID}}, nil
	case *gateway.ChannelCreate:
		return channelPut(&e.Channel), nil
	case *gateway.ChannelUpdate:
		return channelPut(&e.Channel), nil
	case *gateway.ChannelDelete:
		return []Update{{Op: OpChannelRemove, GuildID: e.GuildID, ID: e.ID}}, nil
	case *gateway.GuildRoleCreate:
		r := RoleOf(e.GuildID, &e.Role)
		return []Update{{Op: OpRolePut, GuildID: e.GuildID, Role: &r}}, nil
	case *gateway.GuildRoleUpdate:
		r := RoleOf(e.GuildID, &e.Role)
		return []Update{{Op: OpRolePut, GuildID: e.GuildID, Role: &r}}, nil
	case *gateway.GuildRoleDelete:
		return []Update{{Op: OpRoleRemove, GuildID: e.GuildID, ID: e.RoleID}}, nil
	case *gateway.GuildMemberAdd:
		return memberPut(e.GuildID, &e.Member, nil, SourceJoin), nil
	case *gateway.GuildMemberUpdate:
		return memberPut(e.GuildID, &e.Member, nil, SourceEvent), nil
	case *gateway.GuildMemberRemove:
		return []Update{{Op: OpMemberRemove, GuildID: e.GuildID, ID: e.User.ID}}, nil
	case *gateway.GuildMembersChunk:
		out := make([]Update, 0, len(e.Members)+len(e.Presences)+1)
		out = append(out, Update{Op: OpChunk, GuildID: e.GuildID, Chunk: &Chunk{
			Nonce: e.Nonce, Index: e.ChunkIndex, Count: e.ChunkCount,
			Whole: strings.HasPrefix(e.Nonce, ChunkNoncePrefix),
		}})
		for i := range e.Members {
			out = append(out, memberPut(e.GuildID, &e.Members[i], nil, SourceChunk)...)
		}
		for i := range e.Presences {
			p := PresenceOf(e.GuildID, &e.Presences[i])
			out = append(out, Update{Op: OpPresencePut, GuildID: e.GuildID, Presence: &p})
		}
		return out, nil
	case *gateway.MessageCreate:
		if e.GuildID == nil || e.Member == nil || e.Author == nil || e.WebhookID != nil {
			return nil, nil
		}
		return memberPut(*e.GuildID, e.Member, e.Author, SourceActivity), nil
	case *gateway.InteractionCreate:
		return InteractionUpdates(e.Interaction), nil
	case *gateway.RawEvent:
		return rawUpdates(shard, e)
	}
	return nil, nil
}

func guildCreateUpdates(shard [2]int, e *gateway.GuildCreate) []Update {
	if e.Unavailable {
		return []Update{{Op: OpGuildUnavailable, Shard: shard, GuildID: e.ID}}
	}
	g := GuildOf(&e.Guild)
	g.JoinedAt, g.Large, g.MemberCount = e.JoinedAt, e.Large, e.MemberCount
	id := g.ID
	n := 3 + len(e.Roles) + len(e.Channels) + len(e.Threads) + len(e.Members) + len(e.Presences) + len(e.VoiceStates)
	out := make([]Update, 0, n)
	out = append(out, Update{Op: OpGuildCreate, Shard: shard, GuildID: id, Guild: &g})
	roles := make([]Role, len(e.Roles))
	for i := range e.Roles {
		roles[i] = RoleOf(id, &e.Roles[i])
		out = append(out, Update{Op: OpRolePut, GuildID: id, Role: &roles[i]})
	}
	chans := make([]Channel, 0, len(e.Channels)+len(e.Threads))
	for _, list := range [][]guildkit.Channel{e.Channels, e.Threads} {
		for i := range list {
			c := ChannelOf(&list[i])
			c.GuildID = id
			chans = append(chans, c)
		}
	}
	for i := range chans {
		out = append(out, Update{Op: OpChannelPut, GuildID: id, Channel: &chans[i]})
	}
	out = append(out, emojisUpdate(id, e.Emojis), stickersUpdate(id, e.Stickers))
	members := make([]Member, len(e.Members))
	for i := range e.Members {
		if e.Members[i].User == nil {
			continue
		}
		members[i] = MemberOf(id, &e.Members[i], nil)
		out = append(out, Update{Op: OpMemberPut, GuildID: id, Member: &members[i], Source: SourceList})
	}
	pres := make([]Presence, len(e.Presences))
	for i := range e.Presences {
		pres[i] = PresenceOf(id, &e.Presences[i])
		out = append(out, Update{Op: OpPresencePut, GuildID: id, Presence: &pres[i]})
	}
	voice := make([]VoiceState, len(e.VoiceStates))
	for i := range e.VoiceStates {
		voice[i] = VoiceStateOf(id, &e.VoiceStates[i])
		out = append(out, Update{Op: OpVoicePut, GuildID: id, Voice: &voice[i]})
	}
	return out
}

func channelPut(ch *guildkit.Channel) []Update {
	c := ChannelOf(ch)
	return []Update{{Op: OpChannelPut, GuildID: c.GuildID, Channel: &c}}
}

// memberPut returns the put of m (whose user is m.User, or user when m has
// none); nothing when there is no user.
func memberPut(guildID Snowflake, m *guildkit.Member, user *guildkit.User, src Source) []Update {
	if m.User == nil && user == nil {
		return nil
	}
	v := MemberOf(guildID, m, user)
	return []Update{{Op: OpMemberPut, GuildID: guildID, Member: &v, Source: src}}
}

func emojisUpdate(guildID Snowflake, es []guildkit.Emoji) Update {
	out := make([]Emoji, 0, len(es))
	for i := range es {
		if es[i].ID != nil {
			out = append(out, EmojiOf(guildID, &es[i]))
		}
	}
	return Update{Op: OpEmojis, GuildID: guildID, Emojis: out}
}

func stickersUpdate(guildID Snowflake, ss []guildkit.Sticker) Update {
	out := make([]Sticker, len(ss))
	for i := range ss {
		out[i] = StickerOf(guildID, &ss[i])
	}
	return Update{Op: OpStickers, GuildID: guildID, Stickers: out}
}

// InteractionUpdates returns what an interaction teaches a cache: the
// invoking member, and the members, users, roles and channels of its
// resolved data.
func InteractionUpdates(it *guildkit.Interaction) []Update {
	if it == nil {
		return nil
	}
	g, ok := it.GuildID.Get()
	if !ok {
		return nil
	}
	var out []Update
	if it.Member != nil {
		out = append(out, memberPut(g, it.Member, nil, SourceInteraction)...)
	}
	if r := it.Resolved; r != nil {
		for id, role := range r.Roles {
			v := RoleOf(g, &role)
			v.ID = id
			out = append(out, Update{Op: OpRolePut, GuildID: g, Role: &v})
		}
		for id, m := range r.Members {
			u, ok := r.Users[id]
			if !ok {
				continue
			}
			out = append(out, memberPut(g, &m, &u, SourceResolved)...)
		}
	}
	return out
}

// raw payloads of the events the gateway package delivers raw.
type (
	rawThreadDelete struct {
		ID      Snowflake `json:"id"`
		GuildID Snowflake `json:"guild_id"`
	}
	rawThreadListSync struct {
		GuildID    Snowflake          `json:"guild_id"`
		ChannelIDs []Snowflake        `json:"channel_ids"`
		Threads    []guildkit.Channel `json:"threads"`
	}
	rawEmojis struct {
		GuildID Snowflake        `json:"guild_id"`
		Emojis  []guildkit.Emoji `json:"emojis"`
	}
	rawStickers struct {
		GuildID  Snowflake          `json:"guild_id"`
		Stickers []guildkit.Sticker `json:"stickers"`
	}
	rawPins struct {
		GuildID          Snowflake  `json:"guild_id"`
		ChannelID        Snowflake  `json:"channel_id"`
		LastPinTimestamp *time.Time `json:"last_pin_timestamp"`
	}
	rawStatus struct {
		ID      Snowflake `json:"id"`
		GuildID Snowflake `json:"guild_id"`
		Status  *string   `json:"status"`
	}
	rawMemberEvent struct { // TYPING_START, MESSAGE_REACTION_ADD
		GuildID *Snowflake       `json:"guild_id"`
		UserID  Snowflake        `json:"user_id"`
		Member  *guildkit.Member `json:"member"`
	}
)

func rawUpdates(shard [2]int, e *gateway.RawEvent) ([]Update, error) {
	switch e.Name {
	case "THREAD_CREATE", "THREAD_UPDATE":
		var c guildkit.Channel
		if err := json.Unmarshal(e.Data, &c); err != nil {
			return nil, err
		}
		return channelPut(&c), nil
	case "THREAD_DELETE":
		var d rawThreadDelete
		if err := json.Unmarshal(e.Data, &d); err != nil {
			return nil, err
		}
		return []Update{{Op: OpChannelRemove, GuildID: d.GuildID, ID: d.ID}}, nil
	case "THREAD_LIST_SYNC":
		var d rawThreadListSync
		if err := json.Unmarshal(e.Data, &d); err != nil {
			return nil, err
		}
		out := []Update{{Op: OpThreadsReset, GuildID: d.GuildID, IDs: d.ChannelIDs}}
		for i := range d.Threads {
			d.Threads[i].GuildID = d.GuildID
			out = append(out, channelPut(&d.Threads[i])...)
		}
		return out, nil
	case "GUILD_EMOJIS_UPDATE":
		var d rawEmojis
		if err := json.Unmarshal(e.Data, &d); err != nil {
			return nil, err
		}
		return []Update{emojisUpdate(d.GuildID, d.Emojis)}, nil
	case "GUILD_STICKERS_UPDATE":
		var d rawStickers
		if err := json.Unmarshal(e.Data, &d); err != nil {
			return nil, err
		}
		return []Update{stickersUpdate(d.GuildID, d.Stickers)}, nil
	case "PRESENCE_UPDATE":
		var p guildkit.Presence
		if err := json.Unmarshal(e.Data, &p); err != nil {
			return nil, err
		}
		if p.GuildID == nil {
			return nil, nil
		}
		v := PresenceOf(*p.GuildID, &p)
		u := UserOf(&p.User)
		return []Update{{Op: OpUserPatch, User: &u}, {Op: OpPresencePut, GuildID: v.GuildID, Presence: &v}}, nil
	case "VOICE_STATE_UPDATE":
		var vs guildkit.VoiceState
		if err := json.Unmarshal(e.Data, &vs); err != nil {
			return nil, err
		}
		if vs.GuildID == nil {
			return nil, nil
		}
		v := VoiceStateOf(*vs.GuildID, &vs)
		var out []Update
		if vs.Member != nil && vs.ChannelID != nil {
			out = memberPut(v.GuildID, vs.Member, nil, SourceActivity)
		}
		return append(out, Update{Op: OpVoicePut, GuildID: v.GuildID, Voice: &v}), nil
	case "USER_UPDATE":
		var u guildkit.User
		if err := json.Unmarshal(e.Data, &u); err != nil {
			return nil, err
		}
		v := UserOf(&u)
		return []Update{{Op: OpSelf, User: &v}}, nil
	case "CHANNEL_PINS_UPDATE":
		var d rawPins
		if err := json.Unmarshal(e.Data, &d); err != nil {
			return nil, err
		}
		u := Update{Op: OpChannelPins, GuildID: d.GuildID, ID: d.ChannelID}
		if d.LastPinTimestamp != nil {
			u.Time = *d.LastPinTimestamp
		}
		return []Update{u}, nil
	case "VOICE_CHANNEL_STATUS_UPDATE":
		var d rawStatus
		if err := json.Unmarshal(e.Data, &d); err != nil {
			return nil, err
		}
		u := Update{Op: OpChannelStatus, GuildID: d.GuildID, ID: d.ID}
		if d.Status != nil {
			u.Text = *d.Status
		}
		return []Update{u}, nil
	case "TYPING_START", "MESSAGE_REACTION_ADD":
		var d rawMemberEvent
		if err := json.Unmarshal(e.Data, &d); err != nil {
			return nil, err
		}
		if d.GuildID == nil || d.Member == nil || d.Member.User == nil {
			return nil, nil
		}
		return memberPut(*d.GuildID, d.Member, nil, SourceActivity), nil
	}
	return nil, nil
}
