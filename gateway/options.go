package gateway

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/ratelimit"
)

// Compression is the transport compression a shard asks for.
type Compression uint8

const (
	// CompressionZlibStream asks for compress=zlib-stream: one deflate
	// stream per connection, every message ended by a sync flush. The
	// default: a GUILD_CREATE shrinks several times.
	CompressionZlibStream Compression = iota
	// CompressionNone asks for no compression: one text frame per message.
	CompressionNone
)

// Defaults of a [Shard].
const (
	// DefaultQueueSize is how many events wait for the handlers before
	// the connection stops reading.
	DefaultQueueSize = 1024
	// DefaultReadLimit bounds one gateway message, inflated or not:
	// 64 MiB. A GUILD_CREATE of a large guild is megabytes; the
	// WebSocket library's own default (32 KiB) would close with 1009.
	DefaultReadLimit = 64 << 20
	// DefaultHelloTimeout is how long a new connection waits for HELLO.
	DefaultHelloTimeout = 60 * time.Second
	// DefaultLargeThreshold is IDENTIFY's large_threshold: the platform's
	// default, 50.
	DefaultLargeThreshold = 50
)

// Option configures a [Shard].
type Option func(*config) error

type config struct {
	url            string
	rest           *guildkit.Client
	shard          [2]int
	intents        Intents
	intentsSet     bool
	limiter        ratelimit.IdentifyLimiter
	maxConcurrency int
	clock          Clock
	random         func() float64
	compression    Compression
	logger         *slog.Logger
	observer       *guildkit.Observer
	session        *Session
	mux            *Mux
	queueSize      int
	readLimit      int64
	httpClient     *http.Client
	backoffMin     time.Duration
	backoffMax     time.Duration
	helloTimeout   time.Duration
	largeThreshold int
	presence       *PresenceUpdateParams
	statusHook     func(Status, error) // a manager's: told each change of status, with the error of StatusFailed
}

// withStatusHook sets the function a shard tells each change of its
// status.
func withStatusHook(f func(Status, error)) Option {
	return func(c *config) error { c.statusHook = f; return nil }
}

// WithURL sets the gateway's URL (GET /gateway's url, ws:// or wss://;
// its query is replaced). Without it, Open asks GET /gateway/bot through
// the client of [WithClient].
func WithURL(u string) Option {
	return func(c *config) error { c.url = u; return nil }
}

// WithClient sets the REST client Open asks GET /gateway/bot with: the
// gateway's URL (unless [WithURL] set one), max_concurrency and the
// identify budget, handed to the identify limiter's SetLimit.
func WithClient(rc *guildkit.Client) Option {
	return func(c *config) error {
		if rc == nil {
			return errors.New("gateway: WithClient(nil)")
		}
		c.rest = rc
		return nil
	}
}

// WithShard makes this shard id of count (IDENTIFY's shard). The default
// is shard 0 of 1. Events of a guild go to shard (guild_id >> 22) % count;
// DMs to shard 0.
func WithShard(id, count int) Option {
	return func(c *config) error {
		if count < 1 || id < 0 || id >= count {
			return fmt.Errorf("gateway: WithShard(%d, %d): the id must be in [0, count)", id, count)
		}
		c.shard = [2]int{id, count}
		return nil
	}
}

// WithIntents sets the intents IDENTIFY asks for, instead of the ones the
// registered handlers need. A handler whose event needs an intent not in
// i is logged as a warning when the shard opens.
func WithIntents(i Intents) Option {
	return func(c *config) error { c.intents, c.intentsSet = i, true; return nil }
}

// WithIdentifyLimiter sets the limiter IDENTIFYs wait on (one per
// shard_id % max_concurrency per 5 s, and the daily budget). The default
// is a new [ratelimit.MemoryIdentifyLimiter] of the shard's own; shards of
// one token must share one (a manager gives them its own; processes share
// the Redis one).
func WithIdentifyLimiter(l ratelimit.IdentifyLimiter) Option {
	return func(c *config) error {
		if l == nil {
			return errors.New("gateway: WithIdentifyLimiter(nil)")
		}
		c.limiter = l
		return nil
	}
}

// WithMaxConcurrency sets max_concurrency when GET /gateway/bot is not
// asked (no [WithClient]); 1 by default.
func WithMaxConcurrency(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("gateway: WithMaxConcurrency(%d): must be at least 1", n)
		}
		c.maxConcurrency = n
		return nil
	}
}

// WithClock sets the shard's clock (the system's by default): heartbeats,
// backoff and the HELLO timeout run on it.
func WithClock(cl Clock) Option {
	return func(c *config) error {
		if cl == nil {
			return errors.New("gateway: WithClock(nil)")
		}
		c.clock = cl
		return nil
	}
}

// WithRandom sets the source of the first heartbeat's jitter and of the
// backoff's: a function returning a value in [0, 1) (math/rand/v2's
// Float64 by default).
func WithRandom(f func() float64) Option {
	return func(c *config) error {
		if f == nil {
			return errors.New("gateway: WithRandom(nil)")
		}
		c.random = f
		return nil
	}
}

// WithCompression sets the transport compression ([CompressionZlibStream]
// by default).
func WithCompression(m Compression) Option {
	return func(c *config) error {
		if m != CompressionZlibStream && m != CompressionNone {
			return fmt.Errorf("gateway: unknown compression %d", m)
		}
		c.compression = m
		return nil
	}
}

// WithLogger sets where the shard logs (slog.Default by default). It never
// logs the token.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) error {
		if l == nil {
			return errors.New("gateway: WithLogger(nil)")
		}
		c.logger = l
		return nil
	}
}

// WithObserver sets the observer whose Gateway function is told the
// shard's signals ([guildkit.GatewayEvent]); the same observer a
// [guildkit.Client] takes.
func WithObserver(o guildkit.Observer) Option {
	return func(c *config) error {
		if o.Gateway != nil {
			c.observer = &o
		}
		return nil
	}
}

// WithSession makes the shard resume s (from [Shard.Close]) instead of
// identifying. If the platform no longer has it, the shard identifies and
// delivers a [SessionLost].
func WithSession(s *Session) Option {
	return func(c *config) error {
		if s != nil && s.ID != "" {
			cp := *s
			c.session = &cp
		}
		return nil
	}
}

// WithMux sets the handlers' [Mux], shared with other shards.
func WithMux(m *Mux) Option {
	return func(c *config) error {
		if m == nil {
			return errors.New("gateway: WithMux(nil)")
		}
		c.mux = m
		return nil
	}
}

// WithQueueSize sets how many received events may wait for the handlers
// ([DefaultQueueSize]). When the queue is full the shard stops reading the
// connection (the platform buffers), and keeps heartbeating; it never
// drops an event.
func WithQueueSize(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("gateway: WithQueueSize(%d): must be at least 1", n)
		}
		c.queueSize = n
		return nil
	}
}

// WithReadLimit bounds one message, compressed or inflated
// ([DefaultReadLimit]).
func WithReadLimit(n int64) Option {
	return func(c *config) error {
		if n < 4096 {
			return fmt.Errorf("gateway: WithReadLimit(%d): too small for the gateway's messages", n)
		}
		c.readLimit = n
		return nil
	}
}

// WithHTTPClient sets the client the WebSocket handshake goes through.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *config) error { c.httpClient = hc; return nil }
}

// WithBackoff sets the reconnect backoff's first ceiling and cap
// ([DefaultBackoffMin], [DefaultBackoffMax]).
func WithBackoff(lo, hi time.Duration) Option {
	return func(c *config) error {
		if lo <= 0 || hi < lo {
			return fmt.Errorf("gateway: WithBackoff(%v, %v): need 0 < min <= max", lo, hi)
		}
		c.backoffMin, c.backoffMax = lo, hi
		return nil
	}
}

// WithLargeThreshold sets IDENTIFY's large_threshold, 50-250
// ([DefaultLargeThreshold]).
func WithLargeThreshold(n int) Option {
	return func(c *config) error {
		if n < 50 || n > 250 {
			return fmt.Errorf("gateway: WithLargeThreshold(%d): must be 50-250", n)
		}
		c.largeThreshold = n
		return nil
	}
}

// WithPresence sets the presence IDENTIFY starts with.
func WithPresence(p *PresenceUpdateParams) Option {
	return func(c *config) error {
		if err := p.validate(); err != nil {
			return err
		}
		c.presence = p
		return nil
	}
}
