package redisstate

import (
	"context"
	"errors"
	"iter"
	"strconv"

	"github.com/redis/go-redis/v9"

	"github.com/seed012df1e9/guildkit/state"
)

// Reads: each is one script (or one command) in Redis, so what it returns
// of a guild is what one moment held, never half an event.

func (s *Store) readCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), s.opts.Timeout)
}

// entry reads field of the guild's hashes ks: their values ("" for none),
// and ErrStale when the guild is marked so; ErrNotFound when the guild is
// not held.
func (s *Store) entry(guildID state.Snowflake, field string, ks ...int) ([]string, error) {
	keys := make([]string, 0, len(ks)+1)
	keys = append(keys, s.key(guildID, kG))
	for _, k := range ks {
		keys = append(keys, s.key(guildID, k))
	}
	ctx, cancel := s.readCtx()
	defer cancel()
	res, err := readScript.Run(ctx, s.rdb, keys, field).Slice()
	if errors.Is(err, redis.Nil) {
		return nil, state.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	out := make([]string, len(ks))
	for i := range out {
		out[i], _ = res[i+1].(string)
	}
	if n, _ := res[0].(int64); n == 1 {
		return out, state.ErrStale
	}
	return out, nil
}

// entries reads the guild's hashes ks whole, as maps.
func (s *Store) entries(guildID state.Snowflake, ks ...int) ([]map[string]string, error) {
	keys := make([]string, 0, len(ks)+1)
	keys = append(keys, s.key(guildID, kG))
	for _, k := range ks {
		keys = append(keys, s.key(guildID, k))
	}
	ctx, cancel := s.readCtx()
	defer cancel()
	res, err := readAllScript.Run(ctx, s.rdb, keys).Slice()
	if errors.Is(err, redis.Nil) {
		return nil, state.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	out := make([]map[string]string, len(ks))
	for i := range out {
		l, _ := res[i+1].([]any)
		m := make(map[string]string, len(l)/2)
		for j := 0; j+1 < len(l); j += 2 {
			k, _ := l[j].(string)
			v, _ := l[j+1].(string)
			m[k] = v
		}
		out[i] = m
	}
	if n, _ := res[0].(int64); n == 1 {
		return out, state.ErrStale
	}
	return out, nil
}

// one reads one entry and decodes it.
func one[T any](s *Store, guildID, id state.Snowflake, dec func(v []string) (T, error), ks ...int) (T, error) {
	var zero T
	vals, err := s.entry(guildID, idString(id), ks...)
	if err != nil && !errors.Is(err, state.ErrStale) {
		return zero, err
	}
	if vals[0] == "" {
		return zero, state.ErrNotFound
	}
	v, derr := dec(vals)
	if derr != nil {
		return zero, derr
	}
	return v, err
}

// all yields the entries of a guild: a store error or ErrStale first,
// then (for ErrStale too) the values.
func all[T any](s *Store, guildID state.Snowflake, dec func(id string, maps []map[string]string) (T, error), ks ...int) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		maps, err := s.entries(guildID, ks...)
		if errors.Is(err, state.ErrNotFound) {
			return
		}
		if err != nil {
			if !yield(zero, err) || !errors.Is(err, state.ErrStale) {
				return
			}
		}
		for id := range maps[0] {
			v, err := dec(id, maps)
			if err != nil {
				if !yield(zero, err) {
					return
				}
				continue
			}
			if !yield(v, nil) {
				return
			}
		}
	}
}

func decodeOne[T any](dec func(string) (T, error)) func([]string) (T, error) {
	return func(v []string) (T, error) { return dec(v[0]) }
}

func decodeAll[T any](dec func(string) (T, error)) func(string, []map[string]string) (T, error) {
	return func(id string, maps []map[string]string) (T, error) { return dec(maps[0][id]) }
}

// CurrentUser implements [state.Reader].
func (s *Store) CurrentUser() (state.User, error) {
	ctx, cancel := s.readCtx()
	defer cancel()
	v, err := s.rdb.Get(ctx, s.selfKey()).Result()
	if errors.Is(err, redis.Nil) {
		return state.User{}, state.ErrNotFound
	}
	if err != nil {
		return state.User{}, err
	}
	return decPlain[state.User](v)
}

// Guild implements [state.Reader].
func (s *Store) Guild(guildID state.Snowflake) (state.Guild, error) {
	ctx, cancel := s.readCtx()
	defer cancel()
	f, err := s.rdb.HMGet(ctx, s.key(guildID, kG), "v", "joined", "large", "count", "unavail", "stale").Result()
	if err != nil {
		return state.Guild{}, err
	}
	str := func(i int) string { v, _ := f[i].(string); return v }
	if f[4] == nil {
		return state.Guild{}, state.ErrNotFound
	}
	g := state.Guild{ID: guildID}
	if v := str(0); v != "" {
		if g, err = decGuild(v); err != nil {
			return state.Guild{}, err
		}
	}
	if g.JoinedAt, err = decTime(str(1)); err != nil {
		return state.Guild{}, err
	}
	g.Large = str(2) == "1"
	g.MemberCount, _ = strconv.Atoi(str(3))
	g.Unavailable, g.Stale = str(4) == "1", str(5) == "1"
	if g.Unavailable || g.Stale {
		return g, state.ErrStale
	}
	return g, nil
}

// Guilds implements [state.Reader].
func (s *Store) Guilds() iter.Seq2[state.Guild, error] {
	return func(yield func(state.Guild, error) bool) {
		ctx, cancel := s.readCtx()
		ids, err := s.guildIDs(ctx)
		cancel()
		if err != nil {
			yield(state.Guild{}, err)
			return
		}
		for _, id := range ids {
			g, err := s.Guild(id)
			switch {
			case errors.Is(err, state.ErrNotFound):
				continue
			case err != nil && !errors.Is(err, state.ErrStale):
				if !yield(state.Guild{}, err) {
					return
				}
				continue
			}
			if !yield(g, nil) {
				return
			}
		}
	}
}

// channel decodes a channel with its status and pin time kept beside it
// (the pin time starts with "p" when set: "p" alone for none).
func channel(js, status, pins string) (state.Channel, error) {
	c, err := decChannel(js)
	if err != nil {
		return c, err
	}
	c.Status = status
	if pins != "" {
		c.LastPinTimestamp, err = decTime(pins[1:])
	}
	return c, err
}

// Channel implements [state.Reader].
func (s *Store) Channel(channelID state.Snowflake) (state.Channel, error) {
	ctx, cancel := s.readCtx()
	g, err := s.rdb.HGet(ctx, s.channelsKey(), idString(channelID)).Result()
	cancel()
	if errors.Is(err, redis.Nil) {
		return state.Channel{}, state.ErrNotFound
	}
	if err != nil {
		return state.Channel{}, err
	}
	gid, err := strconv.ParseUint(g, 10, 64)
	if err != nil {
		return state.Channel{}, state.ErrNotFound
	}
	return one(s, state.Snowflake(gid), channelID, func(v []string) (state.Channel, error) {
		return channel(v[0], v[1], v[2])
	}, kCH, kCHS, kCHPIN)
}

// Channels implements [state.Reader].
func (s *Store) Channels(guildID state.Snowflake) iter.Seq2[state.Channel, error] {
	return all(s, guildID, func(id string, m []map[string]string) (state.Channel, error) {
		return channel(m[0][id], m[1][id], m[2][id])
	}, kCH, kCHS, kCHPIN)
}

// Role implements [state.Reader].
func (s *Store) Role(guildID, roleID state.Snowflake) (state.Role, error) {
	return one(s, guildID, roleID, decodeOne(decPlain[state.Role]), kRO)
}

// Roles implements [state.Reader].
func (s *Store) Roles(guildID state.Snowflake) iter.Seq2[state.Role, error] {
	return all(s, guildID, decodeAll(decPlain[state.Role]), kRO)
}

// Member implements [state.Reader].
func (s *Store) Member(guildID, userID state.Snowflake) (state.Member, error) {
	return one(s, guildID, userID, func(v []string) (state.Member, error) { return decMember(v[0], v[1]) }, kM, kMR)
}

// Members implements [state.Reader].
func (s *Store) Members(guildID state.Snowflake) iter.Seq2[state.Member, error] {
	return all(s, guildID, func(id string, m []map[string]string) (state.Member, error) {
		return decMember(m[0][id], m[1][id])
	}, kM, kMR)
}

// User implements [state.Reader]: the bot's own user, or a user a member
// event wrote in the last [Options.UserTTL].
func (s *Store) User(userID state.Snowflake) (state.User, error) {
	ctx, cancel := s.readCtx()
	defer cancel()
	v, err := s.rdb.Get(ctx, s.userKey(userID)).Result()
	if errors.Is(err, redis.Nil) {
		if me, err := s.CurrentUser(); err == nil && me.ID == userID {
			return me, nil
		}
		return state.User{}, state.ErrNotFound
	}
	if err != nil {
		return state.User{}, err
	}
	return decPlain[state.User](v)
}

// Emoji implements [state.Reader].
func (s *Store) Emoji(guildID, emojiID state.Snowflake) (state.Emoji, error) {
	return one(s, guildID, emojiID, decodeOne(decEmoji), kEM)
}

// Emojis implements [state.Reader].
func (s *Store) Emojis(guildID state.Snowflake) iter.Seq2[state.Emoji, error] {
	return all(s, guildID, decodeAll(decEmoji), kEM)
}

// Sticker implements [state.Reader].
func (s *Store) Sticker(guildID, stickerID state.Snowflake) (state.Sticker, error) {
	return one(s, guildID, stickerID, decodeOne(decPlain[state.Sticker]), kST)
}

// Stickers implements [state.Reader].
func (s *Store) Stickers(guildID state.Snowflake) iter.Seq2[state.Sticker, error] {
	return all(s, guildID, decodeAll(decPlain[state.Sticker]), kST)
}

// Presence implements [state.Reader].
func (s *Store) Presence(guildID, userID state.Snowflake) (state.Presence, error) {
	return one(s, guildID, userID, decodeOne(decPresence), kPR)
}

// VoiceState implements [state.Reader].
func (s *Store) VoiceState(guildID, userID state.Snowflake) (state.VoiceState, error) {
	return one(s, guildID, userID, decodeOne(decPlain[state.VoiceState]), kVO)
}

// VoiceStates implements [state.Reader].
func (s *Store) VoiceStates(guildID state.Snowflake) iter.Seq2[state.VoiceState, error] {
	return all(s, guildID, decodeAll(decPlain[state.VoiceState]), kVO)
}
