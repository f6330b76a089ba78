package gateway

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// DefaultGrace is how long [Shard.Run] and [Manager.Run] give the stop,
// once their context ends: the close handshake, the handlers finishing
// the events already received, [RunOptions].Wait and Save.
const DefaultGrace = 10 * time.Second

// Waiter is work Run waits for once the gateway is closed, such as the
// interactions package's Handler, whose Wait returns when the functions
// still answering have returned.
type Waiter interface {
	Wait(ctx context.Context) error
}

// RunOptions are the settings of [Shard.Run] and [Manager.Run]. A nil
// *RunOptions means every default.
type RunOptions struct {
	// Grace bounds the stop, from the moment the context ends (or the
	// shard stops by itself): the resumable close, the handlers finishing
	// the events already received, Wait, and Save. Zero means
	// [DefaultGrace].
	Grace time.Duration
	// Wait is more work to wait for, within Grace, after the close: the
	// interactions Handler a shard hands its interactions to
	// ([OnInteraction]), whose functions run in their own goroutines.
	Wait []Waiter
	// Save, when set, is given the sessions to resume from after the
	// resumable close: one for a shard, one per shard that had one for a
	// manager. Store them (they hold no token) and give them to
	// [WithSession] or [WithSessions] at the next start: no IDENTIFY is
	// spent and no event is lost. Save is not called when there is no
	// session (the shard never became ready, or its session ended).
	Save func([]Session) error
	// Ready, when set, is called once the shard (every shard of a manager)
	// is ready: READY or RESUMED came. Run's context is still running.
	Ready func()
}

func (o *RunOptions) grace() time.Duration {
	if o == nil || o.Grace <= 0 {
		return DefaultGrace
	}
	return o.Grace
}

// Run runs the shard until ctx ends (a signal: see
// signal.NotifyContext) or the shard stops by itself, then stops it the
// way a bot should: it opens the shard, calls opts.Ready, and once ctx
// is done closes it resumably ([Shard.Close]: the platform keeps the
// session), waits for the handlers to finish the events already received
// and for opts.Wait, gives the session to opts.Save — all within
// opts.Grace — and returns.
//
//	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
//	defer stop()
//	err := shard.Run(ctx, &gateway.RunOptions{Wait: []gateway.Waiter{h}})
//
// Run returns nil when ctx ended and the stop finished within Grace;
// the error that stopped the shard (a [*CloseError], the identify budget)
// when it stopped by itself, after waiting for opts.Wait; Open's error
// when the shard could not open; and what went wrong stopping (Grace ran
// out, Save failed) otherwise. A shard runs once: Run on a shard that was
// opened already fails, and leaves it running.
func (s *Shard) Run(ctx context.Context, opts *RunOptions) error {
	if s.started.Load() {
		return errors.New("gateway: Run: the shard was opened already") // and is left as it is
	}
	err := s.Open(ctx)
	switch {
	case err == nil:
		if opts != nil && opts.Ready != nil {
			opts.Ready()
		}
		select {
		case <-ctx.Done():
		case <-s.Done():
			err = s.Err()
		}
	case ctx.Err() != nil && errors.Is(err, ctx.Err()):
		err = nil // a signal while connecting: stop as usual
	case !s.started.Load():
		return err // Open refused before starting anything
	}
	stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), opts.grace())
	defer cancel()
	sess, cerr := s.Close(stopCtx)
	var sessions []Session
	if sess != nil {
		sessions = []Session{*sess}
	}
	return errors.Join(err, finishRun(stopCtx, cerr, sessions, opts))
}

// finishRun is the common end of the two Runs: the close's error, then
// Wait and Save.
func finishRun(ctx context.Context, closeErr error, sessions []Session, opts *RunOptions) error {
	var errs []error
	if closeErr != nil {
		errs = append(errs, fmt.Errorf("gateway: Run: closing: %w", closeErr))
	}
	if opts != nil {
		for _, w := range opts.Wait {
			if err := w.Wait(ctx); err != nil {
				errs = append(errs, fmt.Errorf("gateway: Run: waiting for the handlers: %w", err))
			}
		}
		if opts.Save != nil && len(sessions) > 0 {
			if err := opts.Save(sessions); err != nil {
				errs = append(errs, fmt.Errorf("gateway: Run: saving the sessions: %w", err))
			}
		}
	}
	return errors.Join(errs...)
}

// Run runs the manager's shards until ctx ends or every shard has stopped
// by itself, then stops them as [Shard.Run] stops one: a resumable close
// ([Manager.Close]), the handlers and opts.Wait waited for, the sessions
// given to opts.Save, all within opts.Grace. It returns nil when ctx
// ended and the stop finished within Grace; the errors of the shards
// that stopped by themselves when all of them did; Open's error when no
// shard could open; and what went wrong stopping otherwise. A shard that
// fails while others run does not stop Run: see [Manager.States].
func (m *Manager) Run(ctx context.Context, opts *RunOptions) error {
	m.mu.Lock()
	opened := m.opened
	m.mu.Unlock()
	if opened {
		return errors.New("gateway: Manager.Run: opened already") // and left as it is
	}
	err := m.Open(ctx)
	switch {
	case err == nil:
		if opts != nil && opts.Ready != nil {
			opts.Ready()
		}
	case ctx.Err() != nil && errors.Is(err, ctx.Err()):
		err = nil
	case m.running() == 0:
		_, cerr := m.Close(context.WithoutCancel(ctx))
		return errors.Join(err, cerr)
	default:
		err = nil // some shards run: Run goes on with them
	}
	if err == nil {
		err = m.untilStopped(ctx)
	}
	stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), opts.grace())
	defer cancel()
	sessions, cerr := m.Close(stopCtx)
	return errors.Join(err, finishRun(stopCtx, cerr, sessions, opts))
}

// running counts the shards of the current set that have not stopped.
func (m *Manager) running() int {
	n := 0
	for _, sh := range m.currentShards() {
		select {
		case <-sh.Done():
		default:
			n++
		}
	}
	return n
}

func (m *Manager) currentShards() []*Shard {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.set == nil {
		return nil
	}
	out := make([]*Shard, 0, len(m.set.ids))
	for _, id := range m.set.ids {
		out = append(out, m.set.shards[id])
	}
	return out
}

// untilStopped waits until ctx ends (nil) or every shard of the current
// set has stopped while no reshard replaced the set (their errors).
func (m *Manager) untilStopped(ctx context.Context) error {
	for {
		m.mu.Lock()
		set := m.set
		m.mu.Unlock()
		shards := m.currentShards()
		all := make(chan struct{})
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for _, sh := range shards {
			wg.Add(1)
			go func() {
				defer wg.Done()
				select {
				case <-sh.Done():
				case <-stop:
				}
			}()
		}
		go func() { wg.Wait(); close(all) }()
		select {
		case <-ctx.Done():
			close(stop)
			<-all
			return nil
		case <-all:
		}
		close(stop)
		m.mu.Lock()
		same := m.set == set && m.auto == nil
		m.mu.Unlock()
		if same {
			var errs []error
			for _, sh := range shards {
				if err := sh.Err(); err != nil {
					errs = append(errs, fmt.Errorf("shard %d/%d: %w", sh.ID()[0], sh.ID()[1], err))
				}
			}
			return errors.Join(errs...)
		}
		if a := m.autoRunning(); a != nil {
			select {
			case <-a.done:
			case <-ctx.Done():
				return nil
			}
		}
	}
}

func (m *Manager) autoRunning() *autoReshard {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.auto
}
