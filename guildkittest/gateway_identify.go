package guildkittest

import (
	"time"
)

// identifyWindow is the identify concurrency window: max_concurrency
// IDENTIFYs per 5 s, one per rate-limit key.
const identifyWindow = 5 * time.Second

// sessionStartWindow is the daily session-start budget's window.
const sessionStartWindow = 24 * time.Hour

// maxIdentifyTimes bounds the identify times kept for IdentifyStats.
const maxIdentifyTimes = 100000

// identifyLedger counts IDENTIFYs: the concurrency window per rate-limit
// key, the daily budget, and what was refused. Guarded by gatewayHub.mu.
type identifyLedger struct {
	byKey      map[int]time.Time // rate-limit key → its last accepted IDENTIFY
	times      []time.Time       // accepted IDENTIFYs, oldest first (bounded)
	dayStart   time.Time         // start of the budget's current window
	dayCount   int               // IDENTIFYs in it
	total      int               // IDENTIFYs ever accepted
	refused    int               // IDENTIFYs refused with INVALID_SESSION for concurrency
	overBudget int               // IDENTIFYs beyond the daily budget (counted, never punished)
}

// admit decides an IDENTIFY of shardID at now: false when its rate-limit
// key already identified within the last 5 s (the caller sends INVALID_SESSION
// false). An admitted IDENTIFY counts against the daily budget.
func (l *identifyLedger) admit(now time.Time, shardID, maxConcurrency, budget int) bool {
	if l.byKey == nil {
		l.byKey = make(map[int]time.Time)
	}
	key := shardID % max(1, maxConcurrency)
	if last, ok := l.byKey[key]; ok && now.Sub(last) < identifyWindow {
		l.refused++
		return false
	}
	l.byKey[key] = now
	if len(l.times) >= maxIdentifyTimes {
		l.times = append(l.times[:0], l.times[len(l.times)/2:]...)
	}
	l.times = append(l.times, now)
	l.total++
	l.roll(now)
	l.dayCount++
	if l.dayCount > budget {
		l.overBudget++
	}
	return true
}

// roll starts a new budget window when the current one is over.
func (l *identifyLedger) roll(now time.Time) {
	if l.dayStart.IsZero() || now.Sub(l.dayStart) >= sessionStartWindow {
		l.dayStart, l.dayCount = now, 0
	}
}

// budget returns session_start_limit's total, remaining and reset_after.
func (l *identifyLedger) budget(now time.Time, total int) (int, int, time.Duration) {
	if l.dayStart.IsZero() || now.Sub(l.dayStart) >= sessionStartWindow {
		return total, total, sessionStartWindow
	}
	return total, max(0, total-l.dayCount), l.dayStart.Add(sessionStartWindow).Sub(now)
}

// IdentifyStats counts the IDENTIFYs the gateway received, for sharding
// tests: none should be refused when shards start as the platform allows.
type IdentifyStats struct {
	// Total is every IDENTIFY accepted (READY sent or a close for a bad
	// identify such as 4011 after the concurrency check).
	Total int
	// MaxPerWindow is the most IDENTIFYs accepted within any 5 s of the
	// server's clock.
	MaxPerWindow int
	// Refused counts IDENTIFYs answered with INVALID_SESSION false
	// because their rate-limit key (shard_id % max_concurrency) had already
	// identified within 5 s.
	Refused int
	// Remaining is session_start_limit.remaining; OverBudget counts the
	// IDENTIFYs beyond the daily total (the platform would reset the
	// token; the server only counts them).
	Remaining, OverBudget int
	// InvalidSessions counts every INVALID_SESSION the server sent, for
	// any reason.
	InvalidSessions int
}

// IdentifyStats returns the gateway's identify counters.
func (s *Server) IdentifyStats() IdentifyStats {
	h := &s.gw
	h.mu.Lock()
	defer h.mu.Unlock()
	l := &h.idents
	_, remaining, _ := l.budget(s.Now(), h.settings.SessionStartTotal)
	st := IdentifyStats{Total: l.total, Refused: l.refused, Remaining: remaining, OverBudget: l.overBudget, InvalidSessions: h.invalidSessions}
	j := 0
	for i, t := range l.times {
		for t.Sub(l.times[j]) >= identifyWindow {
			j++
		}
		st.MaxPerWindow = max(st.MaxPerWindow, i-j+1)
	}
	return st
}
