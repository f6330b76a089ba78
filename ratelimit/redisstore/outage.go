package redisstore

import (
	"context"
	"errors"
	"net"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/seed012df1e9/guildkit/ratelimit"
)

// ErrUnavailable is what the error a fallback reports (see
// [ratelimit.Reservation].FallbackErr and [Store.Down]) wraps: Redis could
// not be reached or refused for its own state. The error also wraps what
// go-redis returned and, when that does not say it, the last failed
// connection attempt.
var ErrUnavailable = errors.New("redisstore: redis unavailable")

// unavailableError is an ErrUnavailable with its causes.
type unavailableError struct {
	err   error // what the call returned
	cause error // the last failed connection attempt during the call, or nil
}

func (e *unavailableError) Error() string {
	msg := ErrUnavailable.Error() + ": " + e.err.Error()
	if e.cause != nil {
		msg += " (last connection attempt: " + e.cause.Error() + ")"
	}
	return msg
}

func (e *unavailableError) Unwrap() []error {
	if e.cause != nil {
		return []error{ErrUnavailable, e.err, e.cause}
	}
	return []error{ErrUnavailable, e.err}
}

// dialHook notes the store's client's failed connection attempts.
type dialHook struct{ s *Store }

func (h dialHook) DialHook(next redis.DialHook) redis.DialHook {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := next(ctx, network, addr)
		if err != nil {
			h.s.mu.Lock()
			h.s.dialErr, h.s.dialAt = err, time.Now()
			h.s.mu.Unlock()
		}
		return c, err
	}
}

func (dialHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook { return next }

func (dialHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

// useRedis reports whether to try Redis now: it serves, or it is time to
// try it again.
func (s *Store) useRedis() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down == nil {
		return true
	}
	now := time.Now()
	if now.Before(s.nextProbe) {
		return false
	}
	s.nextProbe = now.Add(s.o.RetryInterval) // one probe per interval
	return true
}

// stateReplies are the first words of the replies with which Redis refuses
// a call for its own state, not for the call: out of memory, a replica, a
// replica cut off, loading, a Cluster down or moving a slot, busy with a
// script, unable to persist, too many clients.
var stateReplies = []string{
	"OOM", "READONLY", "LOADING", "MASTERDOWN", "CLUSTERDOWN", "TRYAGAIN",
	"BUSY", "NOREPLICAS", "MISCONF", "MOVED", "ASK",
}

// storeError is an error of the store itself, found in a reply Redis gave.
type storeError struct{ msg string }

func (e *storeError) Error() string { return "redisstore: " + e.msg }

// unavailable reports whether err means that Redis did not serve the call:
// it could not be reached, or it refused for its own state. A script or
// argument error, and the caller giving up, are not. ctx is the caller's
// context, not the one bounded by the store's timeout: a call that ran out
// of the store's timeout found Redis silent, and that is unavailable.
func unavailable(ctx context.Context, err error) bool {
	var se *storeError
	if err == nil || ctx.Err() != nil || errors.As(err, &se) {
		return false
	}
	var re redis.Error
	if !errors.As(err, &re) || errors.Is(err, redis.ErrClosed) {
		return true // not a reply: Redis was not reached
	}
	msg := re.Error()
	if strings.HasPrefix(msg, "ERR max number of clients") {
		return true
	}
	for _, code := range stateReplies {
		// Older servers wrap a refusal met inside a script in a script
		// error: "ERR Error running script ...: -OOM command not allowed".
		if strings.HasPrefix(msg, code+" ") || strings.Contains(msg, "-"+code+" ") {
			return true
		}
	}
	return false
}

// result records how a Redis call begun at start went; it reports whether
// Redis was unavailable (as opposed to an error of the call, or the caller
// giving up). A success marks Redis back.
func (s *Store) result(ctx context.Context, err error, start time.Time) (fallback bool) {
	if err == nil {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.down != nil {
			s.down, s.upSince = nil, time.Now()
		}
		return false
	}
	return s.failed(ctx, err, start)
}

// failed is result for a call that failed, or whose success says nothing
// of whether Redis serves writes.
func (s *Store) failed(ctx context.Context, err error, start time.Time) (fallback bool) {
	if !unavailable(ctx, err) {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down == nil && start.Before(s.upSince) {
		// A call begun before Redis was found back failed late: it says
		// nothing of Redis now. This call falls back; the store stays up.
		return true
	}
	now := time.Now()
	if s.down == nil {
		s.outages++
		s.nextProbe = now.Add(s.o.RetryInterval)
		s.downSince = now
	}
	ue := &unavailableError{err: err}
	var re redis.Error
	if s.dialErr != nil && !s.dialAt.Before(start) && !errors.As(err, &re) && s.dialErr.Error() != err.Error() {
		ue.cause = s.dialErr
	}
	s.down = ue
	return true
}

// handover returns how long a send must wait when it changes between Redis
// and the fallback, or 0. Neither knows the sends the other admitted in the
// last window: on the way down, Redis may have admitted the whole global
// limit; on the way back, Redis (perhaps restarted empty) has not seen the
// fallback's sends. So the first window after each change admits nothing
// new, and the token's limit holds across the change.
func (s *Store) handover(g ratelimit.GlobalLimit, local bool) time.Duration {
	if g.Limit <= 0 {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	var until time.Time
	if local {
		until = s.downSince.Add(g.Window)
	} else if !s.lastLocal.IsZero() {
		until = s.lastLocal.Add(g.Window)
		if !now.Before(until) {
			s.lastLocal = time.Time{}
		}
	}
	if now.Before(until) {
		return until.Sub(now)
	}
	return 0
}

// epoch is the reservation epoch (see ratelimit.Reservation.Epoch) of an
// answer from Redis or, with fallback, from the fallback: 2k-1 during the
// k-th outage, 2k after it.
func (s *Store) epoch(fallback bool) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if fallback {
		return max(s.outages, 1)*2 - 1
	}
	return s.outages * 2
}

// Down returns why Redis was unavailable at the last try (an error wrapping
// [ErrUnavailable]), or nil while it serves.
func (s *Store) Down() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.down
}

// localTicket is a ticket of the fallback: the MemoryStore's own, in the
