package gateway

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/ratelimit"
)

// ShardState is where one shard of a [Manager] stands.
type ShardState struct {
	Shard  [2]int // [shard_id, num_shards]
	Status Status // connecting, identifying, resuming, ready, waiting (backing off or for the identify limiter), failed...
	// Err is why a failed shard stopped: a *[CloseError] (4004, 4010,
	// 4011, 4013, 4014...) or an error wrapping
	// [ratelimit.ErrIdentifyBudget]; for a shard still idle, why its Open
	// failed before it started (GET /gateway/bot did not answer); nil
	// otherwise.
	Err error
}

// ManagerOption configures a [Manager].
type ManagerOption func(*managerConfig) error

type managerConfig struct {
	count     int   // num_shards; 0: GET /gateway/bot's shards
	ids       []int // the shards this manager runs; nil: all
	shardOpts []Option
	sessions  map[int]Session
	onStatus  func(ShardState)
	policy    ReshardPolicy
}

// WithShardCount sets num_shards, the total across every process. Without
// it, Open takes GET /gateway/bot's recommended count (which needs
// [WithClient] among [WithShardOptions]).
func WithShardCount(n int) ManagerOption {
	return func(c *managerConfig) error {
		if n < 1 {
			return fmt.Errorf("gateway: WithShardCount(%d): must be at least 1", n)
		}
		c.count = n
		return nil
	}
}

// WithShardIDs sets the shards this manager runs, out of the total; all of
// them by default. Processes sharing a token each run a part (see
// [ShardRange]) and share one identify limiter (the Redis one).
func WithShardIDs(ids ...int) ManagerOption {
	return func(c *managerConfig) error {
		if len(ids) == 0 {
			return errors.New("gateway: WithShardIDs: no shard id")
		}
		c.ids = append([]int(nil), ids...)
		return nil
	}
}

// WithShardOptions sets options every shard is made with: the gateway's
// URL or REST client, the identify limiter, the clock, compression,
// intents, logger, observer... The manager sets each shard's id and count
// ([WithShard]), its handlers and its session itself.
func WithShardOptions(opts ...Option) ManagerOption {
	return func(c *managerConfig) error {
		c.shardOpts = append(c.shardOpts, opts...)
		return nil
	}
}

// WithSessions gives the sessions to resume (from [Manager.Close] of an
// earlier run): a shard whose [shard_id, num_shards] has one resumes it
// instead of identifying, so a redeploy spends no IDENTIFY.
func WithSessions(sessions []Session) ManagerOption {
	return func(c *managerConfig) error {
		c.sessions = make(map[int]Session, len(sessions))
		for _, s := range sessions {
			c.sessions[s.Shard[0]] = s
		}
		return nil
	}
}

// WithStatusObserver sets a function told each change of a shard's
// status (connecting, waiting for the backoff or the identify limiter,
// identifying, resuming, ready, failed with its error, closed), in order
// per shard. It runs on the shard's owner goroutine: keep it short.
func WithStatusObserver(f func(ShardState)) ManagerOption {
	return func(c *managerConfig) error { c.onStatus = f; return nil }
}

// Manager runs a set of gateway shards of one token: all of num_shards, or
// a part of them when processes split the work. It starts them bucket by
// bucket in the platform's order (shards [b×max_concurrency,
// (b+1)×max_concurrency) together, a bucket per 5 s, through one identify
// limiter), hands every shard's events to one set of handlers (each
// shard's in order), reports each shard's status, saves every shard's
// session on Close and resumes them on the next Open, and reshards without
// a gap (see [Manager.Reshard]), before the platform forces it (see
// [ReshardPolicy]).
//
// Register handlers on the manager (gateway.On(m, ...)) before Open.
type Manager struct {
	token    string
	cfg      managerConfig
	handlers *Mux
	base     config // the shard options applied, for what the manager reads of them

	mu      sync.Mutex
	opened  bool
	count   int
	maxConc int
	limiter ratelimit.IdentifyLimiter
	set     *shardSet // the set events come from
	next    *shardSet // during a reshard: the set taking over
	closed  bool
	route   *handoff                    // during a reshard: which set delivers each guild's events
	known   map[guildkit.Snowflake]bool // guilds whose GUILD_CREATE the handlers were given

	stats managerStats

	life     context.Context // ended by Close and End: bounds a reshard the manager starts itself
	endLife  context.CancelFunc
	auto     *autoReshard // the reshard a 4011 started, while it runs
	lastAuto *autoReshard // the last one
	autoWG   sync.WaitGroup
}

// autoReshard is a reshard the manager started itself: after a 4011, or
// by its [ReshardPolicy].
type autoReshard struct {
	from *shardSet // the set it replaces
	done chan struct{}
	err  error
}

type managerStats struct {
	suppressed atomic.Uint64 // duplicates not delivered during reshards
	handedOver atomic.Uint64 // guilds moved to a new set
}

// shardSet is the shards of one num_shards.
type shardSet struct {
	count  int
	shards map[int]*Shard
	ids    []int
	states map[int]Status // last status reported, for the observer
	ready  map[int]bool   // shards whose READY or RESUMED came: they have a session
	// identified is when each shard last took its identify key, just before
	// its IDENTIFY: nothing delivered before can be in its session.
	identified map[int]time.Time
	carried    map[int]map[guildkit.Snowflake]struct{} // the guilds each shard carries
	nearing    bool                                    // a shard neared the guild limit: a reshard was started
}

// identifyMark wraps the manager's identify limiter: it notes when each
// shard took its key, just before it sends IDENTIFY.
type identifyMark struct {
	ratelimit.IdentifyLimiter
	m   *Manager
	set *shardSet
}

func (l identifyMark) Acquire(ctx context.Context, token string, shardID, maxConcurrency int) (func(), error) {
	done, err := l.IdentifyLimiter.Acquire(ctx, token, shardID, maxConcurrency)
	if err == nil {
		// Before the IDENTIFY goes: nothing delivered before this
		// instant can be in the session it starts.
		l.m.mu.Lock()
		l.set.identified[shardID] = time.Now()
		l.m.mu.Unlock()
	}
	return done, err
}

// NewManager returns a manager of token's shards (a bot token without the
// "Bot " prefix). It connects nothing until [Manager.Open].
func NewManager(token string, opts ...ManagerOption) (*Manager, error) {
	if token == "" {
		return nil, errors.New("gateway: NewManager: a bot token is required")
	}
	m := &Manager{token: token, handlers: NewMux(), known: make(map[guildkit.Snowflake]bool)}
	m.life, m.endLife = context.WithCancel(context.Background())
	for _, o := range opts {
		if err := o(&m.cfg); err != nil {
			return nil, err
		}
	}
	m.base = config{maxConcurrency: 0}
	for _, o := range m.cfg.shardOpts {
		if err := o(&m.base); err != nil {
			return nil, err
		}
	}
	if m.base.url == "" && m.base.rest == nil {
		return nil, errors.New("gateway: NewManager: WithURL or WithClient (in WithShardOptions) is required to find the gateway")
	}
	if m.cfg.count > 0 && m.cfg.ids != nil {
		if err := checkShardIDs(m.cfg.ids, m.cfg.count); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func (m *Manager) mux() *Mux { return m.handlers }

// String names the manager (never its token).
func (m *Manager) String() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	if m.set != nil {
		n = len(m.set.ids)
	}
	return fmt.Sprintf("gateway.Manager{%d of %d shards}", n, m.count)
}

// GoString is String, so that %#v shows no token either.
func (m *Manager) GoString() string { return m.String() }

// Format writes String for every verb: %d, %o or %x of the struct's
// fields would show the token otherwise.
func (m *Manager) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, m.String()) }

// ShardCount returns num_shards of the set events come from (0 before
// Open).
func (m *Manager) ShardCount() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.count
}

// ShardFor returns the shard carrying guildID's events in the manager's
// current count.
func (m *Manager) ShardFor(guildID guildkit.Snowflake) int { return ShardFor(guildID, m.ShardCount()) }

// Shard returns the running shard id of the current set, or nil.
func (m *Manager) Shard(id int) *Shard {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.set == nil {
		return nil
	}
	return m.set.shards[id]
}

// States returns every shard's state, by id, for the current set (and,
// during a reshard, the new one after it).
func (m *Manager) States() []ShardState {
	m.mu.Lock()
	sets := []*shardSet{m.set, m.next}
	m.mu.Unlock()
	var out []ShardState
	for _, set := range sets {
		if set == nil {
			continue
		}
		for _, id := range set.ids {
			s := set.shards[id]
			err := s.Err()
			if err == nil {
				err = s.openFailure()
			}
			out = append(out, ShardState{Shard: s.ID(), Status: s.Status(), Err: err})
		}
	}
	return out
}

// Sessions returns a checkpoint of every running shard's session: as far
// as its handlers got. A process that saves it now and then (it holds no
// token) and dies without Close resumes from it with [WithSessions]: the
// events after the checkpoint are replayed, none lost (those handled after
// the checkpoint are handed again).
func (m *Manager) Sessions() []Session {
	m.mu.Lock()
	set := m.set
	m.mu.Unlock()
	if set == nil {
		return nil
	}
	var out []Session
	for _, id := range set.ids {
		sh := set.shards[id]
		sh.handledMu.Lock()
		s := sh.handled
		sh.handledMu.Unlock()
		if s.ID != "" {
			s.Shard = sh.ID()
			out = append(out, s)
		}
	}
	return out
}

// Stats is what a manager counted.
type Stats struct {
	// Suppressed is how many events both shard sets of a reshard received
	// and the manager delivered once.
	Suppressed uint64
	// HandedOver is how many guilds moved to a new shard set.
	HandedOver uint64
}

// Stats returns what the manager counted.
func (m *Manager) Stats() Stats {
	return Stats{Suppressed: m.stats.suppressed.Load(), HandedOver: m.stats.handedOver.Load()}
}

// resolve finds num_shards and max_concurrency: the options', else GET
// /gateway/bot's. It records the budget in the limiter.
func (m *Manager) resolve(ctx context.Context) error {
	m.count, m.maxConc = m.cfg.count, m.base.maxConcurrency
	m.limiter = m.base.limiter
	if m.limiter == nil {
		// One limiter for every shard: each shard's own would space
		// nothing.
		m.limiter = ratelimit.NewMemoryIdentifyLimiter(ratelimit.IdentifyOptions{Clock: m.base.clock,
			Window: ratelimit.IdentifyWindow + ratelimit.DefaultIdentifyMargin})
	}
	if m.base.rest != nil && (m.count == 0 || m.maxConc == 0) {
		gb, err := m.base.rest.Gateway.GetBot(ctx)
		if err != nil {
			return fmt.Errorf("gateway: finding the shard count: %w", err)
		}
		if m.count == 0 {
			m.count = gb.Shards
		}
		if m.maxConc == 0 {
			m.maxConc = gb.SessionStartLimit.MaxConcurrency
		}
		if gb.SessionStartLimit.Total > 0 {
			if err := m.limiter.SetLimit(ctx, m.token, sessionStart(gb.SessionStartLimit)); err != nil {
				// Its store is unavailable: each shard records the budget
				// before its first IDENTIFY, waiting for the store.
				m.logger().Warn("gateway: the identify limiter did not take the budget; the shards record it before identifying", slog.String("error", err.Error()))
			}
		}
	}
	if m.count < 1 {
		return errors.New("gateway: Manager.Open: no shard count: set WithShardCount, or WithClient so that GET /gateway/bot says")
	}
	if m.maxConc < 1 {
		m.maxConc = 1
	}
	if m.cfg.ids != nil {
		return checkShardIDs(m.cfg.ids, m.count)
	}
	return nil
}

// newSet makes the shards ids of count (not opened), resuming the sessions
// given for that count.
func (m *Manager) newSet(count int, ids []int, sessions map[int]Session) (*shardSet, error) {
	set := &shardSet{count: count, shards: make(map[int]*Shard, len(ids)), ids: ids,
		states: make(map[int]Status), ready: make(map[int]bool), identified: make(map[int]time.Time),
		carried: make(map[int]map[guildkit.Snowflake]struct{})}
	intents := m.base.intents
	if !m.base.intentsSet {
		intents = m.handlers.Intents()
	}
	for _, id := range ids {
		own := NewMux()
		OnAny(own, func(ctx context.Context, ev Event) { m.deliver(ctx, set, id, ev) })
		opts := append([]Option(nil), m.cfg.shardOpts...)
		opts = append(opts, WithShard(id, count), WithMux(own), WithIntents(intents),
			WithIdentifyLimiter(identifyMark{m.limiter, m, set}), WithMaxConcurrency(m.maxConc), m.observer(set),
			withStatusHook(func(st Status, err error) { m.report(set, id, st, err) }))
		if s, ok := sessions[id]; ok && s.Shard[1] == count {
			opts = append(opts, WithSession(&s))
		}
		sh, err := NewShard(m.token, opts...)
		if err != nil {
			return nil, err
		}
		set.shards[id] = sh
	}
	return set, nil
}

// observer wraps the shards' observer: a fatal 4011 starts a reshard.
func (m *Manager) observer(set *shardSet) Option {
	user := m.base.observer
	return WithObserver(guildkit.Observer{Gateway: func(ctx context.Context, e guildkit.GatewayEvent) {
		if user != nil && user.Gateway != nil {
			user.Gateway(ctx, e)
		}
		if e.Signal == guildkit.GatewayFatal && e.Code == int(CloseShardingRequired) {
			m.shardingRequired(set)
		}
	}})
}

// report tells the status observer of a change of shard id's status: the
// shard's status hook, on the shard's owner goroutine, in order.
func (m *Manager) report(set *shardSet, id int, st Status, err error) {
	if m.cfg.onStatus == nil {
		return
	}
	m.mu.Lock()
	changed := set.states[id] != st
	set.states[id] = st
	m.mu.Unlock()
	if changed {
		m.cfg.onStatus(ShardState{Shard: [2]int{id, set.count}, Status: st, Err: err})
	}
}

// Open starts the shards bucket by bucket and returns when every one of
// them is ready (READY or RESUMED), or with the errors of the shards that
// failed (the others keep running; see [Manager.States]). A shard that
// fails with 4011 (sharding required) makes Open reshard to GET
// /gateway/bot's count, or twice the count without a client. If ctx ends
// first, Open returns its error and the shards opened so far keep running:
// call Close or End.
func (m *Manager) Open(ctx context.Context) error {
	m.mu.Lock()
	if m.opened {
		m.mu.Unlock()
		return errors.New("gateway: Manager.Open: opened already")
	}
	m.opened = true
	m.mu.Unlock()
	if err := m.resolve(ctx); err != nil {
		return err
	}
	ids := m.cfg.ids
	if ids == nil {
		ids = ShardRange(0, m.count)
	}
	set, err := m.newSet(m.count, ids, m.cfg.sessions)
	if err != nil {
		return err
	}
	m.mu.Lock()
	m.set = set
	m.mu.Unlock()
	m.watchRecommendation()
	err = m.openSet(ctx, set)
	var ce *CloseError
	if errors.As(err, &ce) && ce.Code == CloseShardingRequired && m.cfg.ids == nil {
		if a := m.shardingRequired(set); a != nil {
			select {
			case <-a.done:
				return a.err
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	return err
}

// shardingRequired starts a reshard to a larger count after a shard of set
// was closed with 4011 (at IDENTIFY, or live, when the bot joined guilds),
// unless one runs already; it returns the running one. A manager that runs
// a part of the shards cannot reshard: the shard stays failed (see
// [Manager.States]).
func (m *Manager) shardingRequired(set *shardSet) *autoReshard {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.auto != nil {
		return m.auto
	}
	if m.set != set && m.lastAuto != nil && m.lastAuto.from == set {
		return m.lastAuto // done already: set was replaced
	}
	if m.closed || m.cfg.ids != nil || m.next != nil || m.set != set {
		return nil
	}
	return m.startAutoLocked(set, "a shard was closed with 4011 (sharding required)", m.grownCount)
}

// openSet opens set's shards bucket by bucket: every shard of a bucket at
// once, the next bucket when the last one's shards are ready or failed
// (the identify limiter spaces the buckets' IDENTIFYs by its window).
func (m *Manager) openSet(ctx context.Context, set *shardSet) error {
	var errs []error
	for _, bucket := range Buckets(set.ids, m.maxConc) {
		var wg sync.WaitGroup
		bucketErrs := make([]error, len(bucket))
		for i, id := range bucket {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := set.shards[id].Open(ctx); err != nil {
					bucketErrs[i] = fmt.Errorf("shard %d/%d: %w", id, set.count, err)
				}
			}()
		}
		wg.Wait()
		if err := ctx.Err(); err != nil {
			return err
		}
		errs = append(errs, bucketErrs...)
	}
	return errors.Join(errs...)
}

// grownCount is the count to reshard to after a 4011: GET /gateway/bot's
// recommendation when it is larger, else twice the current count.
func (m *Manager) grownCount(ctx context.Context) int {
	n := 2 * m.ShardCount()
	if m.base.rest != nil {
		if gb, err := m.base.rest.Gateway.GetBot(ctx); err == nil && gb.Shards > m.ShardCount() {
			n = gb.Shards
		}
	}
	return n
}

// Close closes every shard without ending its session and returns the
// sessions (one per shard that had one): give them to [WithSessions] on
// the next run to resume, spending no IDENTIFY. The sessions hold no token.
func (m *Manager) Close(ctx context.Context) ([]Session, error) {
	sets := m.stop()
	defer m.autoWG.Wait()
	var out []Session
	var errs []error
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, set := range sets {
		for _, id := range set.ids {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s, err := set.shards[id].Close(ctx)
				mu.Lock()
				defer mu.Unlock()
				if s != nil {
					out = append(out, *s)
				}
				if err != nil {
					errs = append(errs, err)
				}
			}()
		}
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

// End closes every shard with 1000, ending the sessions for good.
func (m *Manager) End(ctx context.Context) error {
	defer m.autoWG.Wait()
	var errs []error
	for _, set := range m.stop() {
		errs = append(errs, endSet(ctx, set))
	}
	return errors.Join(errs...)
}

func endSet(ctx context.Context, set *shardSet) error {
	var wg sync.WaitGroup
	errs := make([]error, len(set.ids))
	for i, id := range set.ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = set.shards[id].End(ctx)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// stop marks the manager closed, ends a reshard it started itself, and
// returns its sets.
func (m *Manager) stop() []*shardSet {
	m.endLife()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	var sets []*shardSet
	for _, s := range []*shardSet{m.set, m.next} {
		if s != nil {
			sets = append(sets, s)
		}
	}
	return sets
}

// clock is the shards' clock.
func (m *Manager) clock() Clock {
	if m.base.clock != nil {
		return m.base.clock
	}
	return systemClock{}
}

// logger is where the manager logs a handler's panic.
func (m *Manager) logger() *slog.Logger {
	if m.base.logger != nil {
		return m.base.logger
	}
	return slog.Default()
}
