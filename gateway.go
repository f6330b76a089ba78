package guildkit

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// GatewayService finds the real-time gateway: its URL and, for a bot, the
// recommended shard count and the identify budget. The gateway client
// itself is package github.com/seed012df1e9/guildkit/gateway.
//
// The two interface documents do not show these routes; they follow the
// reference platform's v10 gateway (spec/gateway.md §1.1).
type GatewayService service

// Gateway is the answer of GET /gateway.
type Gateway struct {
	// URL is the gateway's WebSocket address (wss://…); append the query
	// (?v=10&encoding=json…) to it. Cache it; fetch it again only when
	// connecting to it fails.
	URL string `json:"url"`
}

// GatewayBot is the answer of GET /gateway/bot.
type GatewayBot struct {
	URL string `json:"url"` // as [Gateway.URL]
	// Shards is the recommended shard count. It changes as the bot joins
	// and leaves guilds, so do not cache it for long.
	Shards int `json:"shards"`
	// SessionStartLimit is the identify budget of the token.
	SessionStartLimit SessionStartLimit `json:"session_start_limit"`
}

// SessionStartLimit is the token's identify budget: how many sessions it
// may start (IDENTIFYs; RESUMEs are free) before the window resets, and how
// many IDENTIFYs may start per 5 seconds. Spending the whole budget gets the
// token reset by the platform.
type SessionStartLimit struct {
	Total     int // session starts allowed per window, normally 1000
	Remaining int // starts left in the current window
	// ResetAfter is the time until Remaining returns to Total (the
	// platform sends milliseconds).
	ResetAfter time.Duration
	// MaxConcurrency is how many IDENTIFYs may start per 5 s, one per
	// rate-limit key shard_id % MaxConcurrency.
	MaxConcurrency int
}

type sessionStartLimitJSON struct {
	Total          int   `json:"total"`
	Remaining      int   `json:"remaining"`
	ResetAfter     int64 `json:"reset_after"`
	MaxConcurrency int   `json:"max_concurrency"`
}

// MarshalJSON encodes the limit as the platform does, ResetAfter in
// milliseconds.
func (l SessionStartLimit) MarshalJSON() ([]byte, error) {
	return json.Marshal(sessionStartLimitJSON{Total: l.Total, Remaining: l.Remaining,
		ResetAfter: l.ResetAfter.Milliseconds(), MaxConcurrency: l.MaxConcurrency})
}

// UnmarshalJSON decodes the platform's session_start_limit object.
func (l *SessionStartLimit) UnmarshalJSON(b []byte) error {
	var j sessionStartLimitJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	if j.Total < 0 || j.Remaining < 0 || j.ResetAfter < 0 || j.MaxConcurrency < 0 {
		return fmt.Errorf("guildkit: session_start_limit with a negative figure: %+v", j)
	}
	*l = SessionStartLimit{Total: j.Total, Remaining: j.Remaining,
		ResetAfter: time.Duration(j.ResetAfter) * time.Millisecond, MaxConcurrency: j.MaxConcurrency}
	return nil
}

// Get returns the gateway's URL. It needs no credential.
//
// Spec: "Get Gateway" — GET /gateway
func (s *GatewayService) Get(ctx context.Context, opts ...RequestOption) (*Gateway, error) {
	var g Gateway
	if _, err := s.c.do(ctx, &request{method: "GET", route: "/gateway", auth: authNone, opts: opts}, &g); err != nil {
		return nil, err
	}
	return &g, nil
}

// GetBot returns the gateway's URL, the recommended shard count and the
// token's identify budget. It needs a bot token (401 without). The shard
// count and the budget change over time: fetch it again before starting
// shards rather than keeping it.
//
// Spec: "Get Gateway Bot" — GET /gateway/bot
func (s *GatewayService) GetBot(ctx context.Context, opts ...RequestOption) (*GatewayBot, error) {
	var g GatewayBot
	if _, err := s.c.do(ctx, &request{method: "GET", route: "/gateway/bot", opts: opts}, &g); err != nil {
		return nil, err
	}
	return &g, nil
}

// GatewaySignal names what a [GatewayEvent] reports.
type GatewaySignal uint8

const (
	// GatewayConnected: a WebSocket to the gateway is open and HELLO came.
	GatewayConnected GatewaySignal = iota + 1
	// GatewayReady: READY came; a new session started (an IDENTIFY spent).
	GatewayReady
	// GatewayResumed: RESUMED came; Replayed events were replayed.
	GatewayResumed
	// GatewaySessionLost: the session could not be resumed and a new one
	// is being identified: the events between LastSequence and the new
	// READY are lost (a gap). Reconcile with REST.
	GatewaySessionLost
	// GatewayZombie: no ACK for the last heartbeat and nothing else
	// arrived; the connection is closed (4000-range) and resumed.
	GatewayZombie
	// GatewayBackoff: the next connection waits Wait (attempt Attempt).
	GatewayBackoff
	// GatewayFatal: the gateway closed with a code that forbids
	// reconnecting (Code), or the identify budget ran out; Err says what
	// to do. The shard stops.
	GatewayFatal
	// GatewayDisconnected: the connection closed (Code, 0 without a close
	// frame); Err says why. The shard reconnects unless a GatewayFatal
	// follows.
	GatewayDisconnected
)

// String returns the signal's name in snake case ("session_lost"), for a
// label.
func (s GatewaySignal) String() string {
	switch s {
	case GatewayConnected:
		return "connected"
	case GatewayReady:
		return "ready"
	case GatewayResumed:
		return "resumed"
	case GatewaySessionLost:
		return "session_lost"
	case GatewayZombie:
		return "zombie"
	case GatewayBackoff:
		return "backoff"
	case GatewayFatal:
		return "fatal"
	case GatewayDisconnected:
		return "disconnected"
	}
	return fmt.Sprintf("GatewaySignal(%d)", uint8(s))
}

// GatewayEvent is what a gateway shard tells [Observer.Gateway]. It never
// carries the token.
type GatewayEvent struct {
	Signal     GatewaySignal
	Shard      int // the shard's id
	ShardCount int // the shard count it was started with
	// SessionID is the session's id (not a secret: it resumes only with
	// the token), "" before READY.
	SessionID string
	// LastSequence is the last sequence number handed to the handlers.
	LastSequence int64
	Replayed     int           // GatewayResumed: how many events the resume replayed
	Attempt      int           // GatewayBackoff: the reconnect attempt, 1 for the first
	Wait         time.Duration // GatewayBackoff: how long until it
	Code         int           // GatewayFatal, GatewayDisconnected: the close code, 0 for none
	Err          error         // why, when the signal has a cause
	Time         time.Time     // when, on the shard's clock
}
