package redisstate

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/state"
)

// How values are kept: JSON of the state package's values, whose
// immutable lists ([state.IDs], [state.List]) are written as plain arrays
// by the wrappers below. A member's roles are kept beside it (",id,id,"),
// so that deleting a role strips it from members without decoding them.

type guildRec struct {
	state.Guild
	Features []guildkit.GuildFeature `json:",omitempty"`
}

type channelRec struct {
	state.Channel
	Overwrites  []guildkit.PermissionOverwrite `json:",omitempty"`
	AppliedTags []state.Snowflake              `json:",omitempty"`
}

type memberRec struct {
	state.Member
	Roles []state.Snowflake `json:",omitempty"` // never written: kept in mr
}

type emojiRec struct {
	state.Emoji
	Roles []state.Snowflake `json:",omitempty"`
}

type presenceRec struct {
	state.Presence
	Activities []state.Activity `json:",omitempty"`
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		// The values are plain data: they always encode.
		panic("redisstate: " + err.Error())
	}
	return string(b)
}

func encGuild(g *state.Guild) string {
	return mustJSON(guildRec{Guild: *g, Features: g.Features.Slice()})
}

func encChannel(c *state.Channel) string {
	return mustJSON(channelRec{Channel: *c, Overwrites: c.Overwrites.Slice(), AppliedTags: c.AppliedTags.Slice()})
}

func encMember(m *state.Member) string { return mustJSON(memberRec{Member: *m}) }

func encEmoji(e *state.Emoji) string { return mustJSON(emojiRec{Emoji: *e, Roles: e.Roles.Slice()}) }

func encPresence(p *state.Presence) string {
	return mustJSON(presenceRec{Presence: *p, Activities: p.Activities.Slice()})
}

// encRoles returns ",id,id," for a member's roles.
func encRoles(ids state.IDs) string {
	var b strings.Builder
	b.WriteByte(',')
	for id := range ids.All() {
		b.WriteString(strconv.FormatUint(uint64(id), 10))
		b.WriteByte(',')
	}
	return b.String()
}

func decRoles(s string) (state.IDs, error) {
	var ids []state.Snowflake
	for f := range strings.SplitSeq(strings.Trim(s, ","), ",") {
		if f == "" {
			continue
		}
		n, err := strconv.ParseUint(f, 10, 64)
		if err != nil {
			return state.IDs{}, err
		}
		ids = append(ids, state.Snowflake(n))
	}
	return state.NewIDs(ids...), nil
}

func decGuild(s string) (state.Guild, error) {
	var r guildRec
	err := json.Unmarshal([]byte(s), &r)
	r.Guild.Features = state.ListOf(r.Features...)
	return r.Guild, err
}

func decChannel(s string) (state.Channel, error) {
	var r channelRec
	err := json.Unmarshal([]byte(s), &r)
	r.Channel.Overwrites = state.ListOf(r.Overwrites...)
	r.Channel.AppliedTags = state.NewIDs(r.AppliedTags...)
	return r.Channel, err
}

func decMember(s, roles string) (state.Member, error) {
	var r memberRec
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		return state.Member{}, err
	}
	ids, err := decRoles(roles)
	r.Member.Roles = ids
	return r.Member, err
}

func decEmoji(s string) (state.Emoji, error) {
	var r emojiRec
	err := json.Unmarshal([]byte(s), &r)
	r.Emoji.Roles = state.NewIDs(r.Roles...)
	return r.Emoji, err
}

func decPresence(s string) (state.Presence, error) {
	var r presenceRec
	err := json.Unmarshal([]byte(s), &r)
	r.Presence.Activities = state.ListOf(r.Activities...)
	return r.Presence, err
}

func decPlain[T any](s string) (T, error) {
	var v T
	err := json.Unmarshal([]byte(s), &v)
	return v, err
}

// encTime writes a time for a hash field; "" for the zero time.
func encTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339Nano)
}

func decTime(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	return time.Parse(time.RFC3339Nano, s)
}

// userPatch returns the JSON of the fields of a presence's partial user
// that are set: those a patch merges (as [state.Cache] does).
func userPatch(u *state.User) string {
	m := make(map[string]string, 4)
	if u.Username != "" {
		m["Username"] = u.Username
	}
	if u.GlobalName != "" {
		m["GlobalName"] = u.GlobalName
	}
	if u.Discriminator != "" {
		m["Discriminator"] = u.Discriminator
	}
	if u.Avatar != "" {
		m["Avatar"] = u.Avatar
	}
	return mustJSON(m)
}

// patchUser merges a presence's partial user into u.
func patchUser(u *state.User, p *state.User) {
	if p.Username != "" {
		u.Username = p.Username
	}
	if p.GlobalName != "" {
		u.GlobalName = p.GlobalName
	}
	if p.Discriminator != "" {
		u.Discriminator = p.Discriminator
	}
	if p.Avatar != "" {
		u.Avatar = p.Avatar
	}
}
