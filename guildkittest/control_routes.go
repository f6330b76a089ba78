package guildkittest

import (
	"net/http"

	"github.com/seed012df1e9/guildkit"
)

// ControlRoute is one route of the control API, as its list
// (GET /_guildkit/api/) gives it.
type ControlRoute struct {
	Method      string `json:"method"`
	Path        string `json:"path"`
	Description string `json:"description"`
}

// ControlRoutes are the control API's routes, as [ControlPrefix] lists
// them.
var ControlRoutes = []ControlRoute{
	{"GET", ControlPrefix + "api/", "this list"},
	{"GET", ControlPrefix + "api/state", "everything the server keeps, as SaveState writes it (it holds every token)"},
	{"GET", ControlPrefix + "api/events", "the event log"},
	{"GET", ControlPrefix + "api/events/stream", "the events, live, as Server-Sent Events"},
	{"GET", ControlPrefix + "api/requests", "the request log (no Authorization value)"},
	{"GET", ControlPrefix + "api/requests/stream", "the requests, live, as Server-Sent Events"},
	{"GET", ControlPrefix + "api/feed", "events and requests, live, as Server-Sent Events named event and request"},
	{"POST", ControlPrefix + "api/reset", "empty the server (the bot and its token stay)"},
	{"POST", ControlPrefix + "api/seed", "add a seed (the seed file's format); answers the guilds and webhooks made"},
	{"POST", ControlPrefix + "api/access-tokens", `{"user_id": "..."}: mint an OAuth2 access token of the user, for Add Guild Member and "Authorization: Bearer"`},
	{"GET", ControlPrefix + "api/clock", `{"now": ...}: the server's clock`},
	{"POST", ControlPrefix + "api/clock", `{"advance": "1h"}: move the clock forward`},
	{"GET", ControlPrefix + "api/faults", "the faults waiting for requests"},
	{"POST", ControlPrefix + "api/faults", `{"route": "GET /guilds/{guild.id}", "count": 2, "status": 503}: inject a fault`},
	{"DELETE", ControlPrefix + "api/faults", "remove every fault"},
}

// controlExtraRoutes registers the control routes beyond state, logs,
// reset, seed, clock and faults.
func (s *Server) controlExtraRoutes(api func(pattern string, h func(w http.ResponseWriter, r *http.Request))) {
	api("GET {$}", func(w http.ResponseWriter, r *http.Request) { controlJSON(w, http.StatusOK, ControlRoutes) })
	api("POST access-tokens", func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			UserID guildkit.Snowflake `json:"user_id"`
		}
		if !controlDecode(w, r, &body) {
			return
		}
		s.mu.Lock()
		_, known := s.users[body.UserID]
		var tok string
		if known {
			tok = s.newTokenLocked(accessTokenPrefix, body.UserID)
		}
		s.mu.Unlock()
		if !known {
			controlError(w, http.StatusNotFound, "user_id: no user "+body.UserID.String()+" (add one with POST "+ControlPrefix+"api/seed)")
			return
		}
		controlJSON(w, http.StatusCreated, map[string]any{"user_id": body.UserID, "access_token": tok, "token_type": "Bearer", "scope": "guilds.join"})
	})
}
