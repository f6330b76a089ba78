package gateway

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"sync"
	"sync/atomic"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/ratelimit"
)

// Status is where a shard stands.
type Status int32

const (
	StatusIdle        Status = iota // not opened
	StatusWaiting                   // backing off, or waiting for the identify limiter
	StatusConnecting                // connecting, or waiting for HELLO
	StatusIdentifying               // IDENTIFY sent, waiting for READY
	StatusResuming                  // RESUME sent, receiving the replay
	StatusReady                     // READY or RESUMED came: events flow
	StatusClosed                    // Close or End returned
	StatusFailed                    // stopped by a fatal close code or the identify budget: see Err
)

func (s Status) String() string {
	switch s {
	case StatusIdle:
		return "idle"
	case StatusWaiting:
		return "waiting"
	case StatusConnecting:
		return "connecting"
	case StatusIdentifying:
		return "identifying"
	case StatusResuming:
		return "resuming"
	case StatusReady:
		return "ready"
	case StatusClosed:
		return "closed"
	case StatusFailed:
		return "failed"
	}
	return fmt.Sprintf("Status(%d)", int32(s))
}

// Shard is one gateway connection and its session: see the package doc.
// Make it with [NewShard], register handlers with [On], then Open it.
// Its methods are safe for concurrent use.
type Shard struct {
	token    string
	cfg      config
	handlers *Mux
	logger   *slog.Logger

	// Channels to the owner goroutine (run), the only one that touches
	// the connection's state.
	sendc chan *sendReq
	// sendQueued, when set (by tests, before the shard opens), is called
	// once a payload is in the owner's queue.
	sendQueued func()
	closec     chan closeCode
	timerc     chan timerMsg
	dialc      chan dialResult
	acqc       chan acquireResult

	waitCtx    context.Context // canceled by Close and End: stops dials and limiter waits
	cancelWait context.CancelFunc
	started    atomic.Bool
	closing    sync.Once
	readyc     chan struct{} // closed at the first READY or RESUMED
	readyOnce  sync.Once
	stopped    chan struct{} // closed when run's loop ends
	done       chan struct{} // closed when run has cleaned up
	err        error         // why run stopped; read after done
	final      Session       // the session when run stopped; read after done
	status     atomic.Int32
	limiterErr atomic.Pointer[error] // why the identify limiter did not take the budget, while it does not
	openErr    atomic.Pointer[error] // why the last Open failed before the shard started (GET /gateway/bot)
	helpers    sync.WaitGroup        // dials, limiter waits, readers, closes

	queue        chan queued   // events to the handlers, in order; run sends, dispatch receives
	dispatchDone chan struct{} // closed when dispatch has returned
	handlerCtx   context.Context
	cancelHandle context.CancelFunc
	abandon      atomic.Bool // dispatch stops after the current event
	handledMu    sync.Mutex
	handled      Session       // the last event the handlers finished: its session and sequence
	handledc     chan struct{} // made by a WaitHandled that waits, closed (and dropped) when handled changes
	current      string        // the session READY last named (WaitHandled)

	o owner // run's state

	stallHook func() // tests: called by run when the full queue stops the reading
}

// NewShard returns a shard that connects with token (a bot token, without
// the "Bot " prefix). It does not connect until [Shard.Open].
func NewShard(token string, opts ...Option) (*Shard, error) {
	if token == "" {
		return nil, errors.New("gateway: NewShard: a bot token is required")
	}
	cfg := config{shard: [2]int{0, 1}, clock: systemClock{}, random: defaultRandom,
		logger: slog.Default(), queueSize: DefaultQueueSize, readLimit: DefaultReadLimit,
		backoffMin: DefaultBackoffMin, backoffMax: DefaultBackoffMax, helloTimeout: DefaultHelloTimeout,
		largeThreshold: DefaultLargeThreshold, maxConcurrency: 1}
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	if cfg.url == "" && cfg.rest == nil {
		return nil, errors.New("gateway: NewShard: WithURL or WithClient is required to find the gateway")
	}
	if cfg.limiter == nil {
		cfg.limiter = ratelimit.NewMemoryIdentifyLimiter(ratelimit.IdentifyOptions{Clock: cfg.clock})
	}
	if cfg.mux == nil {
		cfg.mux = NewMux()
	}
	s := &Shard{token: token, cfg: cfg, handlers: cfg.mux, logger: cfg.logger.With(slog.Int("shard", cfg.shard[0]), slog.Int("shards", cfg.shard[1])),
		sendc: make(chan *sendReq), closec: make(chan closeCode, 1), timerc: make(chan timerMsg, 16),
		dialc: make(chan dialResult), acqc: make(chan acquireResult),
		readyc: make(chan struct{}), stopped: make(chan struct{}), done: make(chan struct{}),
		queue: make(chan queued, cfg.queueSize), dispatchDone: make(chan struct{})}
	s.waitCtx, s.cancelWait = context.WithCancel(context.Background())
	s.handlerCtx, s.cancelHandle = context.WithCancel(context.WithValue(context.Background(), shardKey{}, cfg.shard))
	if cfg.session != nil {
		s.handled = *cfg.session
	}
	return s, nil
}

func (s *Shard) mux() *Mux { return s.handlers }

// String names the shard (never its token).
func (s *Shard) String() string {
	return fmt.Sprintf("gateway.Shard{%d/%d %s}", s.cfg.shard[0], s.cfg.shard[1], s.Status())
}

// GoString is String, so that %#v shows no token either.
func (s *Shard) GoString() string { return s.String() }

// Format writes String for every verb: %d, %o or %x of the struct's
// fields would show the token otherwise.
func (s *Shard) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, s.String()) }

// ID returns [shard_id, num_shards].
func (s *Shard) ID() [2]int { return s.cfg.shard }

// Status returns where the shard stands now.
func (s *Shard) Status() Status { return Status(s.status.Load()) }

// setStatus records a change of status and tells the status hook (a
// manager's [WithStatusObserver]). The owner goroutine makes every change
// but the one of a shard closed before it was opened, so the hook hears
// them in order.
func (s *Shard) setStatus(st Status, err error) {
	if Status(s.status.Swap(int32(st))) == st {
		return
	}
	if h := s.cfg.statusHook; h != nil {
		h(st, err)
	}
}

// Intents returns the intents IDENTIFY asks for: the ones set with
// [WithIntents], else the ones the registered handlers need.
func (s *Shard) Intents() Intents {
	if s.cfg.intentsSet {
		return s.cfg.intents
	}
	return s.handlers.Intents()
}

// openFailure returns why the last Open failed before the shard started,
// while it stays idle; nil otherwise.
func (s *Shard) openFailure() error {
	if le := s.openErr.Load(); le != nil && s.Status() == StatusIdle {
		return *le
	}
	return nil
}

// Done is closed when the shard has stopped: closed, or failed ([Shard.Err]).
func (s *Shard) Done() <-chan struct{} { return s.done }

// Err returns why the shard stopped: a [*CloseError] for a fatal close
// code, an error wrapping [ratelimit.ErrIdentifyBudget] when the identify
// budget ran low; nil while it runs or after Close and End.
func (s *Shard) Err() error {
	select {
	case <-s.done:
		return s.err
	default:
		return nil
	}
}

// Open connects, identifies (or resumes the session of [WithSession]) and
// returns once READY or RESUMED came, or with the error that stopped the
// shard (a [*CloseError], the identify budget). If ctx ends first, Open
// returns ctx's error and the shard keeps trying in the background: call
// Close or End to stop it. The shard runs until Close or End, reconnecting
// as the package doc's table says.
//
// Open asks GET /gateway/bot when the shard has a client ([WithClient]),
// and hands its identify budget to the identify limiter. When the
// limiter's store is unavailable (Redis down), the shard does not give
// up: it waits (StatusWaiting) and asks the limiter again every second
// until it takes the budget, then identifies; if ctx ends meanwhile,
// Open's error says that the shard waits for the limiter, and why.
// It warns (in the log) of every handler whose event needs an intent the
// shard does not ask for, and of every handler registered with
// [ReadsContent] when it does not ask for MESSAGE_CONTENT.
func (s *Shard) Open(ctx context.Context) error {
	if !s.started.CompareAndSwap(false, true) {
		return errors.New("gateway: Open: the shard was opened already")
	}
	s.o = owner{s: s, intents: s.Intents(), maxConcurrency: s.cfg.maxConcurrency, gatewayURL: s.cfg.url}
	if err := s.o.findGateway(ctx); err != nil {
		s.openErr.Store(&err)
		s.started.Store(false)
		return err
	}
	s.openErr.Store(nil)
	if missing := s.handlers.missingIntents(s.o.intents); len(missing) > 0 {
		for _, m := range missing {
			s.logger.Warn("gateway: a handler's event will not arrive: its intent is not asked for", slog.String("event", m), slog.String("intents", s.o.intents.String()))
		}
	}
	for _, m := range s.handlers.missingContent(s.o.intents) {
		s.logger.Warn("gateway: a handler reads message content, which arrives empty without MESSAGE_CONTENT (except in DMs, the bot's own messages and messages mentioning it)",
			slog.String("event", m), slog.String("intents", s.o.intents.String()))
	}
	if p := s.o.intents.Privileged(); p != 0 {
		// Debug, not Info: a bot asks for them on purpose, every start; a
		// refusal (4014) is a *CloseError that names them and says what to do.
		s.logger.Debug("gateway: asking for privileged intents (enable them in the developer portal)", slog.String("intents", p.String()))
	}
	if sess := s.cfg.session; sess != nil {
		s.o.sess = *sess
		s.o.sess.Shard = s.cfg.shard
	}
	go s.dispatch()
	go s.o.run()
	select {
	case <-s.readyc:
		return nil
	case <-s.done:
		if s.err == nil {
			return ErrClosed // Close or End came first
		}
		return s.err
	case <-ctx.Done():
		if le := s.limiterErr.Load(); le != nil {
			return fmt.Errorf("gateway: Open: %w; the shard waits for the identify limiter, which is unavailable: %w", ctx.Err(), *le)
		}
		return ctx.Err()
	}
}

// Close closes the connection without ending the session (a 4000 close
// frame: the platform keeps the session a few minutes), waits for the
// handlers to finish the events already received, and returns the
// session: give it to a new shard ([WithSession]) to resume where this one
// stopped, with no IDENTIFY and no event lost. The waits are bounded by
// ctx; when ctx ends first, Close returns the session as far as the
// handlers got (an event whose handler was still running is replayed to
// the next shard) and ctx's error.
func (s *Shard) Close(ctx context.Context) (*Session, error) {
	return s.shutdown(ctx, closeResumable)
}

// End closes the connection with 1000, which ends the session for good
// (the bot shows offline at once), and waits for the handlers as Close
// does.
func (s *Shard) End(ctx context.Context) error {
	_, err := s.shutdown(ctx, closeNormal)
	return err
}

func (s *Shard) shutdown(ctx context.Context, code CloseCode) (*Session, error) {
	first := false
	s.closing.Do(func() { first = true })
	if !s.started.Load() {
		if first {
			s.setStatus(StatusClosed, nil)
		}
		if sess := s.cfg.session; sess != nil && code != closeNormal {
			cp := *sess
			return &cp, nil
		}
		return nil, nil
	}
	if first {
		s.cancelWait()
		select {
		case s.closec <- closeCode(code):
		case <-s.stopped:
		}
	}
	var err error
	select {
	case <-s.done:
	case <-ctx.Done():
		err = ctx.Err()
	}
	if err == nil {
		select {
		case <-s.dispatchDone:
		case <-ctx.Done():
			err = ctx.Err()
		}
	}
	s.abandon.Store(true)
	if err == nil {
		waited := make(chan struct{})
		go func() { s.helpers.Wait(); close(waited) }()
		select {
		case <-waited:
		case <-ctx.Done():
			err = ctx.Err()
		}
	}
	s.cancelHandle()
	if code == closeNormal {
		return nil, err
	}
	s.handledMu.Lock()
	sess := s.handled
	s.handledMu.Unlock()
	if sess.ID == "" {
		return nil, err
	}
	sess.Shard = s.cfg.shard
	select {
	case <-s.done:
		if s.final.ID == sess.ID && s.final.ResumeURL != "" {
			sess.ResumeURL = s.final.ResumeURL
		}
	default:
	}
	return &sess, err
}

// queued is one event on its way to the handlers.
type queued struct {
	ev      Event
	session string // the session it belongs to ("" for SessionLost)
	seq     int64  // its sequence number, 0 for none
	resume  string // the session's resume URL, for the handled record
}

// dispatch hands the queued events to the handlers, one at a time, in
// order, until the queue is closed and drained (or abandoned).
func (s *Shard) dispatch() {
	defer close(s.dispatchDone)
	for q := range s.queue {
		if s.abandon.Load() {
			continue
		}
		if q.ev != nil { // nil: an event that did not decode, skipped
			s.handlers.dispatch(s.handlerCtx, s.logger, q.ev)
		}
		if q.seq > 0 {
			s.noteHandled(q)
		}
	}
}

// withQuery returns u with the gateway's query: v=10, encoding=json and
// the compression.
func (s *Shard) withQuery(u string) (string, error) {
	p, err := url.Parse(u)
	if err != nil {
		return "", fmt.Errorf("gateway: the gateway URL does not parse: %w", err)
	}
	switch p.Scheme {
	case "ws", "wss":
	case "http":
		p.Scheme = "ws"
	case "https":
		p.Scheme = "wss"
	default:
		return "", fmt.Errorf("gateway: the gateway URL's scheme %q is not ws or wss", p.Scheme)
	}
	q := url.Values{"v": {"10"}, "encoding": {"json"}}
	if s.cfg.compression == CompressionZlibStream {
		q.Set("compress", "zlib-stream")
	}
	p.RawQuery = q.Encode()
	p.User = nil
	return p.String(), nil
}

// sessionStart turns the REST answer into the limiter's.
func sessionStart(l guildkit.SessionStartLimit) ratelimit.SessionStartLimit {
	return ratelimit.SessionStartLimit{Total: l.Total, Remaining: l.Remaining, ResetAfter: l.ResetAfter, MaxConcurrency: l.MaxConcurrency}
}
