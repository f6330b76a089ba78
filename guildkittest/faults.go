package guildkittest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Fault is a failure the server plays instead of (or before) answering a
// request, so a bot's error handling can be tested. Set it up with
// [Server.InjectFault]; the emulator's control API takes the same fields as
// JSON.
//
// The kinds combine as a real deployment's failures do: Delay is waited
// first (ending early when the client gives up); then Drop closes the
// connection without an answer, or Status answers with Body (the
// interface's error body for the status when Body is empty), or, when
// neither is set, the request goes on to its handler after the delay.
type Fault struct {
	// Status is the HTTP status to answer, 0 for none. With 429 the answer
	// carries RetryAfter and Scope as the platform's rate-limit answers do.
	Status int `json:"status,omitempty"`
	// Body is the answer's body, JSON; empty gives the interface's error
	// body ({"code": 0, "message": "<status> <text>"}).
	Body json.RawMessage `json:"body,omitempty"`
	// Delay is how long to wait before answering or handling.
	Delay Duration `json:"delay,omitzero"`
	// Drop closes the connection with no answer.
	Drop bool `json:"drop,omitempty"`
	// RetryAfter is the 429 answer's wait (retry_after, Retry-After and
	// X-RateLimit-Reset-After); 1 s when zero.
	RetryAfter Duration `json:"retry_after,omitzero"`
	// Scope is the 429 answer's X-RateLimit-Scope: "user" (the default),
	// "global" (also sets X-RateLimit-Global and "global": true) or "shared".
	Scope string `json:"scope,omitempty"`
}

// Duration is a time.Duration that reads and writes JSON as a Go duration
// string ("1.5s", "250ms") or a number of seconds.
type Duration time.Duration

// MarshalJSON writes the duration as a Go duration string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// UnmarshalJSON reads "1.5s" or 1.5 (seconds).
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		v, err := time.ParseDuration(s)
		if err != nil {
			return fmt.Errorf("not a duration: %q (use a form such as \"1.5s\" or \"250ms\")", s)
		}
		*d = Duration(v)
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return errors.New("a duration is a string such as \"1.5s\" or a number of seconds")
	}
	*d = Duration(f * float64(time.Second))
	return nil
}

// check reports what is wrong with f, in the control API's words.
func (f Fault) check() error {
	var problems []string
	if f.Status != 0 && (f.Status < 100 || f.Status > 599) {
		problems = append(problems, fmt.Sprintf("status %d is not an HTTP status", f.Status))
	}
	if f.Drop && f.Status != 0 {
		problems = append(problems, "drop and status exclude each other")
	}
	if f.Delay < 0 || f.RetryAfter < 0 {
		problems = append(problems, "delay and retry_after cannot be negative")
	}
	if time.Duration(f.Delay) > 10*time.Minute {
		problems = append(problems, "delay is at most 10m")
	}
	switch f.Scope {
	case "", "user", "global", "shared":
	default:
		problems = append(problems, fmt.Sprintf("scope %q is not user, global or shared", f.Scope))
	}
	if len(f.Body) > 0 && !json.Valid(f.Body) {
		problems = append(problems, "body is not valid JSON")
	}
	if (f.Scope != "" || f.RetryAfter != 0) && f.Status != http.StatusTooManyRequests {
		problems = append(problems, "scope and retry_after go with status 429")
	}
	if f.Status == 0 && !f.Drop && f.Delay == 0 {
		problems = append(problems, "a fault needs a status, drop or a delay")
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

// InjectedFault is a fault waiting for its requests, as [Server.Faults]
// lists it.
type InjectedFault struct {
	// Route is "METHOD /template" in the interface's notation
	// ("GET /guilds/{guild.id}"), or "*" for every route.
	Route string `json:"route"`
	// Remaining is how many more requests the fault applies to.
	Remaining int `json:"remaining"`
	Fault
}

// faults is the server's list of injected faults; it has its own lock, so
// a fault is played before the request takes the server's lock.
type faults struct {
	mu   sync.Mutex
	list []*InjectedFault
}

// InjectFault plays f on the next n requests to route, given as the method
// and the interface's template ("GET /guilds/{guild.id}"), or "*" for any
// route. Faults on one route apply in the order they were injected. It
// returns an error for a route the server does not serve, n < 1 or a fault
// whose fields do not fit together.
func (s *Server) InjectFault(route string, n int, f Fault) error {
	if n < 1 {
		return fmt.Errorf("guildkittest: a fault applies to at least 1 request, got %d", n)
	}
	if route != "*" && !s.knownRoute(route) {
		return fmt.Errorf("guildkittest: no route %q (give the method and the interface's template, as \"GET /guilds/{guild.id}\", or \"*\")", route)
	}
	if err := f.check(); err != nil {
		return fmt.Errorf("guildkittest: %w", err)
	}
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	s.faults.list = append(s.faults.list, &InjectedFault{Route: route, Remaining: n, Fault: f})
	return nil
}

// Faults returns the injected faults that still wait for requests.
func (s *Server) Faults() []InjectedFault {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	out := make([]InjectedFault, 0, len(s.faults.list))
	for _, f := range s.faults.list {
		out = append(out, *f)
	}
	return out
}

// ClearFaults removes every injected fault.
func (s *Server) ClearFaults() {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	s.faults.list = nil
}

// take returns the fault for a request to key ("METHOD /template"), using
// one of its requests, or nil.
func (fs *faults) take(key string) *Fault {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for i, f := range fs.list {
		if f.Route != "*" && f.Route != key {
			continue
		}
		f.Remaining--
		if f.Remaining == 0 {
			fs.list = append(fs.list[:i], fs.list[i+1:]...)
		}
		cp := f.Fault
		return &cp
	}
	return nil
}

// playFault plays the fault injected for the request, if any. It reports
// true when the fault answered (or dropped) the request, so the handler
// must not run.
func (s *Server) playFault(w http.ResponseWriter, r *http.Request, route string) bool {
	f := s.faults.take(r.Method + " " + route)
	if f == nil {
		return false
	}
	if f.Delay > 0 {
		// Read (up to 1 MiB of) the body first: net/http notices a client
		// that goes away only once the body is read, and the handler still
		// gets the whole body afterwards.
		if r.Body != nil && r.Body != http.NoBody {
			head, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
			r.Body = struct {
				io.Reader
				io.Closer
			}{io.MultiReader(bytes.NewReader(head), r.Body), r.Body}
		}
		t := time.NewTimer(time.Duration(f.Delay))
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			s.recordUnlocked(r, route, 499)
			return true
		case <-s.closing:
			t.Stop()
			s.recordUnlocked(r, route, 503)
			w.WriteHeader(http.StatusServiceUnavailable)
			return true
		}
	}
	switch {
	case f.Drop:
		s.recordUnlocked(r, route, 0)
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				_ = conn.Close()
				return true
			}
		}
		panic(http.ErrAbortHandler) // closes the connection without an answer
	case f.Status == 0:
		return false
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	body := []byte(f.Body)
	if f.Status == http.StatusTooManyRequests {
		wait := time.Duration(f.RetryAfter)
		if wait == 0 {
			wait = time.Second
		}
		scope := f.Scope
		if scope == "" {
			scope = "user"
		}
		h.Set("Retry-After", strconv.Itoa(int((wait+time.Second-1)/time.Second)))
		h.Set("X-RateLimit-Reset-After", secondsString(wait))
		h.Set("X-RateLimit-Scope", scope)
		if scope == "global" {
			h.Set("X-RateLimit-Global", "true")
		}
		if len(body) == 0 {
			body, _ = json.Marshal(map[string]any{
				"message": "You are being rate limited.", "retry_after": wait.Seconds(), "global": scope == "global",
			})
		}
	}
	if len(body) == 0 {
		body, _ = json.Marshal(map[string]any{"code": 0, "message": fmt.Sprintf("%d: %s", f.Status, http.StatusText(f.Status))})
	}
	w.WriteHeader(f.Status)
	_, _ = w.Write(body)
	s.recordUnlocked(r, route, f.Status)
	return true
}

// recordUnlocked records a request the handler never saw.
func (s *Server) recordUnlocked(r *http.Request, route string, status int) {
	s.record(r, route, nil, status)
}

// knownRoute reports whether the server serves key ("METHOD /template").
func (s *Server) knownRoute(key string) bool {
	_, ok := s.routeSet[key]
	return ok
}
