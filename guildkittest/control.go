package guildkittest

import (
	"bytes"
	"crypto/subtle"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strings"
	"time"

	"github.com/seed012df1e9/guildkit"
)

// ControlPrefix is the path under which a server answers its control API
// and serves its inspector page, apart from the interface's routes (which
// never start with it, at the root or under [APIPrefix]).
//
// The control API, all JSON:
//
//	GET    /_guildkit/api/state            everything the server keeps (as SaveState writes it)
//	GET    /_guildkit/api/events           the event log;   .../events/stream: live, as Server-Sent Events
//	GET    /_guildkit/api/requests         the request log; .../requests/stream: live, as Server-Sent Events
//	POST   /_guildkit/api/reset            empty the server (the bot and its token stay)
//	POST   /_guildkit/api/seed             add a seed (the seed file's format); answers what was made
//	GET    /_guildkit/api/clock            {"now": ...}
//	POST   /_guildkit/api/clock            {"advance": "1h"}: move the clock forward
//	GET    /_guildkit/api/faults           the faults waiting for requests
//	POST   /_guildkit/api/faults           {"route": "GET /guilds/{guild.id}", "count": 2, "status": 503, ...}: see [Fault]
//	DELETE /_guildkit/api/faults           remove every fault
//	POST   /_guildkit/api/access-tokens    {"user_id": "..."}: mint an OAuth2 access token of the user
//	GET    /_guildkit/api/application      {"id", "public_key", "interactions_url", "endpoint_check"}
//	POST   /_guildkit/api/application      {"interactions_url": "http://..."}: set the endpoint, check it
//	GET    /_guildkit/api/interactions     the deliveries, with their answers and timing; .../feed names them interaction
//	POST   /_guildkit/api/interactions     {"kind": "click", "user_id", "message_id", "custom_id"}: act as a user
//	                                       (click, select with "values", modal_submit with "modal_id" and
//	                                       "values", command with "channel_id", "name", "options");
//	                                       answers what the user saw: the outcome, as JSON
//	GET    /_guildkit/api/gateway          the gateway: URLs, settings, identify counters, sessions, notes
//	GET    /_guildkit/api/gateway/sessions/{id}/frames
//	                                       a session's frames in and out (decompressed, tokens redacted)
//	POST   /_guildkit/api/gateway/faults   {"session": "...", "kind": "reconnect"}: inject a gateway fault
//	                                       (reconnect, invalid_session with "resumable", close with "code",
//	                                       drop, withhold_acks, silence, request_heartbeat); no "session":
//	                                       every connected one; answers once it is applied
//	GET    /_guildkit/api/runtime          the process: goroutines, heap_alloc, heap_inuse, stack_inuse,
//	                                       sys, heap_released, gc_cycles, rss (bytes; rss where /proc
//	                                       gives it); ?gc=1 runs a garbage collection first
//	GET    /_guildkit/api/                 this list, as JSON (the inspector page shows it too)
//
// The inspector page is at /_guildkit/. When the server has an admin token
// ([WithAdminToken]), every /_guildkit/api/ call must carry it, as
// "Authorization: Bearer <token>" or, for the page's live streams, a
// "token" query parameter.
const ControlPrefix = "/_guildkit/"

// WithAdminToken makes the control API refuse (401) callers without token.
// The standalone emulator sets one when it listens on an address other
// than loopback.
func WithAdminToken(token string) Option { return func(s *Server) { s.adminToken = token } }

//go:embed inspector
var inspectorFiles embed.FS

// maxControlBody bounds what the control API reads from a request.
const maxControlBody = 8 << 20

func (s *Server) controlHandler() http.Handler {
	m := http.NewServeMux()
	page, _ := fs.Sub(inspectorFiles, "inspector")
	m.Handle("GET "+ControlPrefix+"{$}", http.StripPrefix(ControlPrefix, http.FileServerFS(page)))
	m.Handle("GET "+ControlPrefix+"static/", http.StripPrefix(ControlPrefix+"static/", http.FileServerFS(page)))
	api := func(pattern string, h func(w http.ResponseWriter, r *http.Request)) {
		method, path, _ := strings.Cut(pattern, " ")
		m.HandleFunc(method+" "+ControlPrefix+"api/"+path, func(w http.ResponseWriter, r *http.Request) {
			if !s.controlAuthorized(r) {
				controlError(w, http.StatusUnauthorized, "this emulator's control API needs its admin token: \"Authorization: Bearer <token>\" or ?token=")
				return
			}
			h(w, r)
		})
	}
	api("GET state", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		st := s.snapshotLocked()
		s.mu.Unlock()
		st.ApplicationKey = "" // a private key: only the state file keeps it
		controlJSON(w, http.StatusOK, st)
	})
	api("GET events", func(w http.ResponseWriter, r *http.Request) { controlJSON(w, http.StatusOK, s.eventsJSON()) })
	api("GET requests", func(w http.ResponseWriter, r *http.Request) {
		reqs := s.Requests()
		if reqs == nil {
			reqs = []Request{}
		}
		controlJSON(w, http.StatusOK, reqs)
	})
	api("GET events/stream", func(w http.ResponseWriter, r *http.Request) { s.stream(w, r, "event") })
	api("GET requests/stream", func(w http.ResponseWriter, r *http.Request) { s.stream(w, r, "request") })
	api("GET feed", func(w http.ResponseWriter, r *http.Request) { s.stream(w, r, "") })
	api("POST reset", func(w http.ResponseWriter, r *http.Request) {
		s.Reset()
		controlJSON(w, http.StatusOK, map[string]string{"status": "reset"})
	})
	api("POST seed", func(w http.ResponseWriter, r *http.Request) {
		seed, err := ParseSeed(http.MaxBytesReader(w, r.Body, maxControlBody))
		if err != nil {
			controlError(w, http.StatusBadRequest, strings.TrimPrefix(err.Error(), "guildkittest: "))
			return
		}
		s.seedMu.Lock()
		defer s.seedMu.Unlock()
		if taken := s.seedConflicts(seed); len(taken) > 0 {
			controlError(w, http.StatusConflict, "seed: "+strings.Join(taken, "; "))
			return
		}
		controlJSON(w, http.StatusOK, s.ApplySeed(seed))
	})
	api("GET clock", func(w http.ResponseWriter, r *http.Request) {
		controlJSON(w, http.StatusOK, map[string]any{"now": s.Now().UTC()})
	})
	api("POST clock", func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Advance Duration `json:"advance"`
		}
		if !controlDecode(w, r, &body) {
			return
		}
		if body.Advance <= 0 {
			controlError(w, http.StatusBadRequest, "advance: give a positive duration such as \"90m\" (the clock only moves forward)")
			return
		}
		s.AdvanceClock(time.Duration(body.Advance))
		controlJSON(w, http.StatusOK, map[string]any{"now": s.Now().UTC()})
	})
	api("GET faults", func(w http.ResponseWriter, r *http.Request) { controlJSON(w, http.StatusOK, s.Faults()) })
	api("POST faults", func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Route string `json:"route"`
			Count int    `json:"count"`
			Fault
		}
		if !controlDecode(w, r, &body) {
			return
		}
		if body.Count == 0 {
			body.Count = 1
		}
		if err := s.InjectFault(body.Route, body.Count, body.Fault); err != nil {
			controlError(w, http.StatusBadRequest, strings.TrimPrefix(err.Error(), "guildkittest: "))
			return
		}
		controlJSON(w, http.StatusCreated, s.Faults())
	})
	api("DELETE faults", func(w http.ResponseWriter, r *http.Request) {
		s.ClearFaults()
		w.WriteHeader(http.StatusNoContent)
	})
	s.controlExtraRoutes(api)
	m.HandleFunc(ControlPrefix, func(w http.ResponseWriter, r *http.Request) {
		controlError(w, http.StatusNotFound, "no such control route: "+r.Method+" "+r.URL.Path+
			" (see the list at "+ControlPrefix+"api/, or on the inspector page at "+ControlPrefix+")")
	})
	return m
}

// controlAuthorized reports whether r may use the control API.
func (s *Server) controlAuthorized(r *http.Request) bool {
	if s.adminToken == "" {
		return true
	}
	given := r.URL.Query().Get("token")
	if h := r.Header.Get("Authorization"); h != "" {
		given = strings.TrimPrefix(h, "Bearer ")
	}
	return subtle.ConstantTimeCompare([]byte(given), []byte(s.adminToken)) == 1
}

// eventsJSON is the event log as the control API shows it.
func (s *Server) eventsJSON() []Event {
	ev := s.Events()
	if ev == nil {
		ev = []Event{}
	}
	return ev
}

// stream serves the live feed as Server-Sent Events, of one kind or both
// (kind ""). Each item is an SSE event named by its kind, its data the
// item's JSON. It ends when the client goes away or the server closes.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, kind string) {
	rc := http.NewResponseController(w)
	items, stop := s.Subscribe()
	defer stop()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	_, _ = io.WriteString(w, ": guildkit emulator feed\n\n")
	if rc.Flush() != nil {
		return
	}
	keepAlive := time.NewTicker(15 * time.Second)
	defer keepAlive.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-keepAlive.C:
			_, _ = io.WriteString(w, ": keep-alive\n\n")
		case it, ok := <-items:
			if !ok {
				return
			}
			if kind != "" && it.Kind != kind {
				continue
			}
			var data any = it.Event
			switch it.Kind {
			case "request":
				data = it.Request
			case "interaction":
				data = it.Interaction
			}
			b, err := json.Marshal(data)
			if err != nil {
				continue
			}
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", it.Kind, b)
		}
		if rc.Flush() != nil {
			return
		}
	}
}

// seedConflicts lists the ids in seed that the server already uses.
func (s *Server) seedConflicts(seed *Seed) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var taken []string
	for i, u := range seed.Users {
		if _, ok := s.users[u.ID]; ok && u.ID != 0 {
			taken = append(taken, fmt.Sprintf("users[%d].id: %s is taken", i, u.ID))
		}
	}
	for i, g := range seed.Guilds {
		if _, ok := s.guilds[g.ID]; ok && g.ID != 0 {
			taken = append(taken, fmt.Sprintf("guilds[%d].id: %s is taken", i, g.ID))
		}
		for j, ch := range g.Channels {
			if gs, _ := s.webhookChannel(ch.ID); gs != nil && ch.ID != 0 {
				taken = append(taken, fmt.Sprintf("guilds[%d].channels[%d].id: %s is taken", i, j, ch.ID))
			}
		}
	}
	if seed.Bot != nil {
		if problem := s.botConflictLocked(seed.Bot.ID); problem != "" {
			taken = append(taken, problem)
		}
	}
	for i, at := range seed.AccessTokens {
		if _, ok := s.tokens[at.AccessToken]; ok {
			taken = append(taken, fmt.Sprintf("access_tokens[%d].access_token is taken", i))
		}
	}
	for _, g := range seed.Guilds {
		for _, inv := range g.Invites {
			if _, ok := s.invites[inv.Code]; ok && inv.Code != "" {
				taken = append(taken, fmt.Sprintf("invite code %q is taken", inv.Code))
			}
		}
	}
	return taken
}

// controlDecode reads a JSON body into v, answering 400 when it does not fit.
func controlDecode(w http.ResponseWriter, r *http.Request, v any) bool {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxControlBody))
	if err != nil {
		controlError(w, http.StatusRequestEntityTooLarge, "the body is larger than 8 MiB")
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		controlError(w, http.StatusBadRequest, jsonProblem(body, dec, err))
		return false
	}
	if dec.More() {
		controlError(w, http.StatusBadRequest, "data after the JSON object")
		return false
	}
	return true
}

func controlJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func controlError(w http.ResponseWriter, status int, msg string) {
	controlJSON(w, status, map[string]any{"error": msg, "status": status})
}

// MarshalJSON writes a request for the control API: lower-case names, the
// body as JSON when it is JSON, and no credential: no Authorization header
// value, no webhook token in the path, no access token or other token in
// the body.
func (r Request) MarshalJSON() ([]byte, error) {
	h := r.Header.Clone()
	if h.Get("Authorization") != "" {
		h.Set("Authorization", "[redacted]")
	}
	var body any
	if len(r.Body) > 0 {
		if json.Valid(r.Body) {
			body = json.RawMessage(redactedBody(r.Body))
		} else {
			body = string(r.Body)
		}
	}
	return json.Marshal(struct {
		Method string              `json:"method"`
		Route  string              `json:"route"`
		Path   string              `json:"path"`
		Query  map[string][]string `json:"query,omitempty"`
		Header http.Header         `json:"header,omitempty"`
		Body   any                 `json:"body,omitempty"`
		Status int                 `json:"status"`
	}{r.Method, r.Route, r.Path, r.Query, h, body, r.Status})
}

// MarshalJSON writes an event for the control API.
func (e Event) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Name    guildkit.EventName `json:"name"`
		GuildID guildkit.Snowflake `json:"guild_id,omitempty"`
		Data    any                `json:"data"`
	}{e.Name, e.GuildID, e.Data})
}
