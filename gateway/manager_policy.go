package gateway

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/seed012df1e9/guildkit"
)

// Defaults of a [ReshardPolicy].
const (
	// DefaultReshardInterval is how often a manager asks GET /gateway/bot
	// for the recommended shard count.
	DefaultReshardInterval = time.Hour
	// DefaultGuildLimit is how many guilds one session may carry on the
	// platform; a session that would carry more is closed with 4011.
	DefaultGuildLimit = 2500
	// DefaultReshardNear is the share of the guild limit past which a
	// shard is taken to near it: 90%, 2250 guilds.
	DefaultReshardNear = 0.9
)

// ReshardPolicy says when a [Manager] reshards before the platform forces
// it. A 4011 close (sharding required) ends the shard's session: its
// guilds' events are lost until the new shard owning them identifies. A
// reshard the manager starts itself has no such gap: the new set runs
// alongside the old one until it carries every guild ([Manager.Reshard]).
// So the manager reshards, to the larger of GET /gateway/bot's
// recommendation and twice the count, when
//   - GET /gateway/bot, asked every Interval, recommends more shards than
//     run (it needs [WithClient] among the shard options), or
//   - a shard carries more than Near × GuildLimit guilds (counted from its
//     READY and, with the GUILDS intent, its GUILD_CREATE and GUILD_DELETE
//     events).
//
// A 4011 then is the fallback for a bot that joins guilds faster than the
// policy looks. What it costs: one GET /gateway/bot per Interval; and per
// reshard, one IDENTIFY per new shard from the daily budget, the new
// shards' start (a bucket per 5.5 s), and both sets' connections and
// events (each delivered once) during the overlap. A manager that runs a
// part of the shards ([WithShardIDs]) cannot reshard, and does not try.
type ReshardPolicy struct {
	// Interval is how often GET /gateway/bot is asked, on the shards'
	// clock: [DefaultReshardInterval] when 0; never when negative.
	Interval time.Duration
	// GuildLimit is how many guilds one session may carry:
	// [DefaultGuildLimit] when 0.
	GuildLimit int
	// Near is the share of GuildLimit past which a shard is resharded:
	// [DefaultReshardNear] when 0.
	Near float64
	// Off turns proactive resharding off: only a 4011 reshards.
	Off bool
}

// WithReshardPolicy sets when the manager reshards before the platform
// forces it; the zero policy's defaults apply without it.
func WithReshardPolicy(p ReshardPolicy) ManagerOption {
	return func(c *managerConfig) error {
		if p.GuildLimit < 0 || p.Near < 0 || p.Near > 1 {
			return fmt.Errorf("gateway: WithReshardPolicy: GuildLimit %d must not be negative, Near %v must be in [0, 1]", p.GuildLimit, p.Near)
		}
		c.policy = p
		return nil
	}
}

// policy returns the reshard policy with its defaults.
func (m *Manager) policy() ReshardPolicy {
	p := m.cfg.policy
	if p.Interval == 0 {
		p.Interval = DefaultReshardInterval
	}
	if p.GuildLimit == 0 {
		p.GuildLimit = DefaultGuildLimit
	}
	if p.Near == 0 {
		p.Near = DefaultReshardNear
	}
	return p
}

// proactive reports whether the manager reshards by its policy.
func (m *Manager) proactive() bool {
	return !m.cfg.policy.Off && m.cfg.ids == nil
}

// countGuildsLocked keeps the guilds each shard of set carries, from its
// events, and reshards when one nears the guild limit.
func (m *Manager) countGuildsLocked(set *shardSet, id int, ev Event) {
	carried := set.carried[id]
	switch e := ev.(type) {
	case *Ready:
		carried = make(map[guildkit.Snowflake]struct{}, len(e.Guilds))
		for _, g := range e.Guilds {
			carried[g.ID] = struct{}{}
		}
		set.carried[id] = carried
	case *GuildCreate:
		if carried == nil {
			carried = make(map[guildkit.Snowflake]struct{})
			set.carried[id] = carried
		}
		carried[e.ID] = struct{}{}
	case *GuildDelete:
		if !e.Unavailable {
			delete(carried, e.ID)
		}
		return
	default:
		return
	}
	p := m.policy()
	if !m.proactive() || set.nearing || float64(len(carried)) <= p.Near*float64(p.GuildLimit) {
		return
	}
	if m.set != set || m.next != nil || m.auto != nil || m.closed {
		return
	}
	set.nearing = true // once per set: a failed reshard is not retried at every guild
	n := len(carried)
	m.startAutoLocked(set, fmt.Sprintf("shard %d carries %d guilds, near the limit of %d", id, n, p.GuildLimit), m.grownCount)
}

// watchRecommendation asks GET /gateway/bot every Interval and reshards
// when it recommends more shards than run, until the manager closes.
func (m *Manager) watchRecommendation() {
	p := m.policy()
	if !m.proactive() || p.Interval < 0 || m.base.rest == nil {
		return
	}
	m.autoWG.Add(1)
	go func() {
		defer m.autoWG.Done()
		for {
			tick := make(chan struct{})
			stop := m.clock().AfterFunc(p.Interval, func() { close(tick) })
			select {
			case <-tick:
			case <-m.life.Done():
				stop()
				return
			}
			gb, err := m.base.rest.Gateway.GetBot(m.life)
			if err != nil {
				if m.life.Err() == nil {
					m.logger().Warn("gateway: asking GET /gateway/bot for the shard count failed", slog.String("error", err.Error()))
				}
				continue
			}
			m.mu.Lock()
			if set := m.set; set != nil && gb.Shards > set.count && m.next == nil && m.auto == nil && !m.closed {
				want := gb.Shards
				m.startAutoLocked(set, fmt.Sprintf("GET /gateway/bot recommends %d shards, %d run", want, set.count),
					func(context.Context) int { return want })
			}
			m.mu.Unlock()
		}
	}()
}

// startAutoLocked starts a reshard of set to count(ctx) in the background,
// unless one runs already; it returns the running one. The caller holds
// m.mu.
func (m *Manager) startAutoLocked(set *shardSet, reason string, count func(context.Context) int) *autoReshard {
	if m.auto != nil {
		return m.auto
	}
	a := &autoReshard{done: make(chan struct{}), from: set}
	m.auto, m.lastAuto = a, a
	m.autoWG.Add(1)
	go func() {
		defer m.autoWG.Done()
		n := count(m.life)
		m.logger().Info("gateway: resharding", slog.String("why", reason), slog.Int("from", set.count), slog.Int("to", n))
		a.err = m.Reshard(m.life, n)
		if a.err != nil && m.life.Err() == nil {
			m.logger().Warn("gateway: resharding failed", slog.String("why", reason), slog.String("error", a.err.Error()))
		}
		m.mu.Lock()
		m.auto = nil
		m.mu.Unlock()
		close(a.done)
	}()
	return a
}
