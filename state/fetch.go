package state

import (
	"context"
	"errors"
	"sync"

	"github.com/seed012df1e9/guildkit"
)

// Fetcher reads through a cache to REST: a read the cache answers costs
// nothing; a miss (or a stale entry) is fetched through the client (and
// its rate limiter), stored per the store's policies, and returned.
// Concurrent misses for the same entry wait for one request. It is safe
// for concurrent use.
type Fetcher struct {
	store Store
	rest  *guildkit.Client

	mu      sync.Mutex
	flights map[flightKey]*flight
}

type flightKey struct {
	kind uint8
	a, b Snowflake
}

const (
	fetchMember uint8 = iota + 1
	fetchRoles
)

// flight is one request in progress; its waiters read val and err once
// done is closed.
type flight struct {
	done    chan struct{}
	waiters int // callers waiting besides the one asking, under Fetcher.mu
	val     any
	err     error
}

// NewFetcher returns a Fetcher over s that fetches with rest.
func NewFetcher(s Store, rest *guildkit.Client) *Fetcher {
	return &Fetcher{store: s, rest: rest, flights: make(map[flightKey]*flight)}
}

// do runs fn once for all the callers of key that overlap it. fn runs
// under the context of the caller that started it; when that caller's
// context ends the request fails with its error, and a waiter whose own
// context is still live asks again instead of taking that error.
func (f *Fetcher) do(ctx context.Context, key flightKey, fn func() (any, error)) (any, error) {
	f.mu.Lock()
	for {
		fl, ok := f.flights[key]
		if !ok {
			break
		}
		fl.waiters++
		f.mu.Unlock()
		select {
		case <-fl.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if !isContextErr(fl.err) || ctx.Err() != nil {
			return fl.val, fl.err
		}
		f.mu.Lock()
	}
	fl := &flight{done: make(chan struct{})}
	f.flights[key] = fl
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		delete(f.flights, key)
		f.mu.Unlock()
		close(fl.done)
	}()
	fl.val, fl.err = fn()
	return fl.val, fl.err
}

// isContextErr reports whether err is a context's end rather than the
// answer to the request.
func isContextErr(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// Member returns the member from the cache, or from Get Guild Member on a
// miss (an error matching [guildkit.ErrNotFound] when the user is not a
// member).
func (f *Fetcher) Member(ctx context.Context, guildID, userID Snowflake) (Member, error) {
	if m, err := f.store.Member(guildID, userID); err == nil {
		return m, nil
	}
	v, err := f.do(ctx, flightKey{fetchMember, guildID, userID}, func() (any, error) {
		m, err := f.rest.Members.Get(ctx, guildID, userID)
		if err != nil {
			return nil, err
		}
		v := MemberOf(guildID, m, nil)
		// Answered even when it could not be stored.
		_ = f.store.Apply(ctx, []Update{{Op: OpMemberPut, GuildID: guildID, Member: &v, Source: SourceREST}})
		return v, nil
	})
	if err != nil {
		return Member{}, err
	}
	return v.(Member), nil
}

// Role returns the role from the cache, or from Get Guild Roles on a miss
// (all the guild's roles are stored): [ErrNotFound] when the guild has no
// such role.
func (f *Fetcher) Role(ctx context.Context, guildID, roleID Snowflake) (Role, error) {
	if r, err := f.store.Role(guildID, roleID); err == nil {
		return r, nil
	}
	v, err := f.do(ctx, flightKey{fetchRoles, guildID, 0}, func() (any, error) {
		roles, err := f.rest.Roles.List(ctx, guildID)
		if err != nil {
			return nil, err
		}
		out := make([]Role, len(roles))
		ups := make([]Update, len(roles))
		for i := range roles {
			out[i] = RoleOf(guildID, &roles[i])
			ups[i] = Update{Op: OpRolePut, GuildID: guildID, Role: &out[i]}
		}
		_ = f.store.Apply(ctx, ups)
		return out, nil
	})
	if err != nil {
		return Role{}, err
	}
	for _, r := range v.([]Role) {
		if r.ID == roleID {
			return r, nil
		}
	}
	return Role{}, ErrNotFound
}

// Learn stores what a REST answer or an interaction says, per the store's
// policies: v is a *guildkit.Member (with GuildID), *guildkit.Role (with
// GuildID), *guildkit.Channel, or *guildkit.Interaction (its member and
// resolved data).
func Learn(ctx context.Context, s Store, guildID Snowflake, v any) error {
	var ups []Update
	switch v := v.(type) {
	case *guildkit.Member:
		if v.User == nil {
			return errors.New("state: Learn: a member without its user")
		}
		m := MemberOf(guildID, v, nil)
		ups = []Update{{Op: OpMemberPut, GuildID: guildID, Member: &m, Source: SourceREST}}
	case *guildkit.Role:
		r := RoleOf(guildID, v)
		ups = []Update{{Op: OpRolePut, GuildID: guildID, Role: &r}}
	case *guildkit.Channel:
		c := ChannelOf(v)
		if c.GuildID == 0 {
			c.GuildID = guildID
		}
		ups = []Update{{Op: OpChannelPut, GuildID: c.GuildID, Channel: &c}}
	case *guildkit.Interaction:
		ups = InteractionUpdates(v)
	default:
		return errors.New("state: Learn: a value of a kind the cache does not keep")
	}
	if len(ups) == 0 {
		return nil
	}
	return s.Apply(ctx, ups)
}
