package state

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/gateway"
)

// Rebuild tells the application that a shard's guilds were rebuilt after a
// new session: every guild its READY listed has had its GUILD_CREATE (or
// is known to be unavailable), and guilds of the shard it did not list
// were dropped.
type Rebuild struct {
	Shard [2]int
	// Guilds is how many guilds the READY listed.
	Guilds int
	// AfterGap is true when the session replaced a lost one (events were
	// missed), false for the first session of the shard.
	AfterGap bool
}

// AttachOptions tune [Attach]. The zero value is ready to use.
type AttachOptions struct {
	// OnRebuild is called, on the shard's dispatch goroutine, when a new
	// session's guilds are all filled in. Nil for none.
	OnRebuild func(Rebuild)
	// OnMembers is called, on the shard's dispatch goroutine, when a
	// guild whose members the policy keeps wholesale holds them all: after
	// its GUILD_CREATE when that listed everyone, else once the answer to
	// the member-list request has been applied. Nil for none.
	OnMembers func(guildID Snowflake)
	// OnError is called when an event does not decode or the store
	// refuses it (a shared store that cannot be reached). Nil: ignored;
	// the store marks what it could not write stale.
	OnError func(event string, err error)
	// ChunkTimeout bounds each member-list request; 0 means two minutes.
	ChunkTimeout time.Duration
}

// Attach makes s follow the events of r, a [*gateway.Shard], a
// [*gateway.Manager] or a [*gateway.Mux] they share, and adds the intents
// s's policies need. s applies each event before any function registered
// with [gateway.On] or [gateway.OnAny] sees it ([gateway.First]): a
// handler reads the state after the event. When the member policy keeps
// a guild's members wholesale, s asks for the member list (op 8) after the
// guild's GUILD_CREATE if the GUILD_CREATE did not list everyone; this
// needs r to be a Shard or a Manager.
func Attach(r gateway.Registrar, s Store, o *AttachOptions) {
	a := &attachment{store: s, target: r, pending: make(map[[2]int]*rebuild)}
	if o != nil {
		a.opts = *o
	}
	if a.opts.ChunkTimeout <= 0 {
		a.opts.ChunkTimeout = 2 * time.Minute
	}
	gateway.First(r, s.Policies().Intents(), a.handle)
}

type attachment struct {
	store  Store
	target gateway.Registrar
	opts   AttachOptions

	mu      sync.Mutex
	pending map[[2]int]*rebuild           // by shard, until its guilds are filled
	lost    map[[2]int]bool               // shards whose last session was lost
	answers map[string][]bool             // whole-list answers coming, by nonce: the chunks seen
	cancels map[string]context.CancelFunc // requests waiting for their answer, by nonce
}

type rebuild struct {
	want   map[Snowflake]bool
	listed int
	gap    bool
}

func (a *attachment) handle(ctx context.Context, e gateway.Event) {
	if rl, ok := e.(*gateway.RateLimited); ok {
		a.rateLimited(ctx, rl)
		return
	}
	shard, _ := gateway.ShardOf(ctx)
	ups, err := Updates(shard, e)
	if err != nil {
		a.fail(e, err)
		return
	}
	if len(ups) == 0 {
		return
	}
	if err := a.store.Apply(ctx, ups); err != nil {
		a.fail(e, err)
	}
	a.after(ctx, shard, ups)
}

func (a *attachment) fail(e gateway.Event, err error) {
	if a.opts.OnError != nil {
		a.opts.OnError(e.EventName(), err)
	}
}

// after follows rebuilds and asks for member lists.
func (a *attachment) after(ctx context.Context, shard [2]int, ups []Update) {
	u := ups[0]
	switch u.Op {
	case OpSessionLost:
		a.mu.Lock()
		if a.lost == nil {
			a.lost = make(map[[2]int]bool)
		}
		a.lost[shard] = true
		a.mu.Unlock()
	case OpSession:
		rb := &rebuild{want: make(map[Snowflake]bool, len(u.IDs)), listed: len(u.IDs)}
		for _, id := range u.IDs {
			rb.want[id] = true
		}
		a.mu.Lock()
		rb.gap = a.lost[u.Shard]
		delete(a.lost, u.Shard)
		a.pending[u.Shard] = rb
		a.mu.Unlock()
		a.done(u.Shard, 0)
	case OpChunk:
		a.chunkDone(u)
	case OpGuildCreate, OpGuildUnavailable:
		a.done(shard, u.GuildID)
		if u.Op == OpGuildCreate {
			a.chunk(ctx, u.Guild, ups)
		}
	}
}

// done notes that guildID of shard is filled (0: none), and tells the
// application when the shard's rebuild is complete.
func (a *attachment) done(shard [2]int, guildID Snowflake) {
	a.mu.Lock()
	rb := a.pending[shard]
	if rb == nil {
		a.mu.Unlock()
		return
	}
	delete(rb.want, guildID)
	finished := len(rb.want) == 0
	if finished {
		delete(a.pending, shard)
	}
	a.mu.Unlock()
	if finished && a.opts.OnRebuild != nil {
		a.opts.OnRebuild(Rebuild{Shard: shard, Guilds: rb.listed, AfterGap: rb.gap})
	}
}

// chunkDone follows the answers to the cache's own member requests.
func (a *attachment) chunkDone(u Update) {
	ch := u.Chunk
	if !ch.Whole || ch.Count <= 0 || ch.Index < 0 || ch.Index >= ch.Count {
		return
	}
	a.mu.Lock()
	if a.answers == nil {
		a.answers = make(map[string][]bool)
	}
	got := a.answers[ch.Nonce]
	if len(got) != ch.Count {
		got = make([]bool, ch.Count)
		a.answers[ch.Nonce] = got
	}
	got[ch.Index] = true
	complete := !slices.Contains(got, false)
	if complete {
		delete(a.answers, ch.Nonce)
	}
	a.mu.Unlock()
	if complete && a.opts.OnMembers != nil {
		a.opts.OnMembers(u.GuildID)
	}
}

// chunk asks for g's whole member list (see request) when the policy
// wants it and the GUILD_CREATE did not list every member.
func (a *attachment) chunk(ctx context.Context, g *Guild, ups []Update) {
	if !a.store.Policies().Members.Wholesale(g.ID) {
		return
	}
	listed := 0
	for i := range ups {
		if ups[i].Op == OpMemberPut {
			listed++
		}
	}
	if !g.Large && listed >= g.MemberCount {
		if a.opts.OnMembers != nil {
			a.opts.OnMembers(g.ID)
		}
		return
	}
	a.request(ctx, g.ID, 0)
}

// request asks for guildID's whole member list after delay. The chunks
// come back through the dispatch goroutine, so the request waits on a
// goroutine of its own, which ends with the answer, the timeout or the
// shard.
func (a *attachment) request(ctx context.Context, guildID Snowflake, delay time.Duration) {
	var sh *gateway.Shard
	switch t := a.target.(type) {
	case *gateway.Shard:
		sh = t
	case *gateway.Manager:
		sh = t.Shard(t.ShardFor(guildID))
	}
	if sh == nil {
		return
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	p := &gateway.MemberRequestParams{GuildID: guildID, Query: guildkit.Some(""), Nonce: ChunkNoncePrefix + hex.EncodeToString(b[:]),
		Presences: a.store.Policies().Presences.mode != modeOff}
	go func() {
		if delay > 0 {
			t := time.NewTimer(delay)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				return
			}
		}
		ctx, cancel := context.WithTimeout(ctx, a.opts.ChunkTimeout)
		defer cancel()
		a.mu.Lock()
		if a.cancels == nil {
			a.cancels = make(map[string]context.CancelFunc)
		}
		a.cancels[p.Nonce] = cancel
		a.mu.Unlock()
		defer func() {
			a.mu.Lock()
			delete(a.cancels, p.Nonce)
			a.mu.Unlock()
		}()
		if _, err := sh.RequestGuildMembers(ctx, p); err != nil && !errors.Is(err, context.Canceled) {
			a.fail(&gateway.GuildMembersChunk{}, err)
		}
	}()
}

// rateLimited asks again, after the wait the platform gives, for a member
// list it refused (one whole list per guild per 30 s).
func (a *attachment) rateLimited(ctx context.Context, e *gateway.RateLimited) {
	if e.Opcode != 8 || !strings.HasPrefix(e.Meta.Nonce, ChunkNoncePrefix) {
		return
	}
	a.mu.Lock()
	cancel := a.cancels[e.Meta.Nonce]
	a.mu.Unlock()
	if cancel != nil {
		cancel() // no chunk will answer it
	}
	a.request(ctx, e.Meta.GuildID, e.Wait())
}
