package guildkittest

import (
	"encoding/json"
	"net/http"
	"strings"

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
	{"GET", ControlPrefix + "api/permissions", "the permission bits and their names, for showing a role's permissions"},
	{"GET", ControlPrefix + "api/clock", `{"now": ...}: the server's clock`},
	{"POST", ControlPrefix + "api/clock", `{"advance": "1h"}: move the clock forward`},
	{"GET", ControlPrefix + "api/faults", "the faults waiting for requests"},
	{"POST", ControlPrefix + "api/faults", `{"route": "GET /guilds/{guild.id}", "count": 2, "status": 503}: inject a fault`},
	{"DELETE", ControlPrefix + "api/faults", "remove every fault"},
	{"GET", ControlPrefix + "api/application", "the application: id, public_key, interactions_url and the endpoint's latest check"},
	{"POST", ControlPrefix + "api/application", `{"interactions_url": "http://..."}: set the interactions endpoint and check it (PING, bad signature); {} checks it again`},
	{"GET", ControlPrefix + "api/interactions", "the interactions delivered, with their answers and timing (no token)"},
	{"POST", ControlPrefix + "api/interactions", `{"kind": "click", "user_id": "...", "message_id": "...", "custom_id": "..."}: act as a user (click, select, modal_submit, command, autocomplete); answers what the user saw`},
	{"GET", ControlPrefix + "api/commands", "?guild_id=: the application's commands there (the guild's and the global ones); with &user_id=&channel_id=, why that member could not use each (\"unusable\")"},
	{"POST", ControlPrefix + "api/messages", `{"user_id": "...", "channel_id": "...", "content": "!ping"}: a member posts (also "embeds", "reply_to", "mention_replied", "nonce"), checked against the member's permissions; answers the message, or the platform's status and code`},
	{"GET", ControlPrefix + "api/dms", "the bot's DM channels, each with its recipient"},
	{"GET", ControlPrefix + "api/channels/{id}/messages", "?user_id=: the channel as that member reads it: its messages oldest first (none without READ_MESSAGE_HISTORY), why it cannot, whether it may post"},
	{"POST", ControlPrefix + "api/guilds/{guild_id}/roles", `{"name": "Moderators", "permissions": "1099511627776"}: create a role (GUILD_ROLE_CREATE); also "color", "hoist", "mentionable", "position"`},
	{"PUT", ControlPrefix + "api/guilds/{guild_id}/members/{user_id}/roles/{role_id}", "give a member a role (GUILD_MEMBER_UPDATE)"},
	{"DELETE", ControlPrefix + "api/guilds/{guild_id}/members/{user_id}/roles/{role_id}", "take a role from a member (GUILD_MEMBER_UPDATE)"},
	{"POST", ControlPrefix + "api/guilds/{guild_id}/members", `{"user_id": "..."} or {"username": "..."} (a new user): make a user join (GUILD_MEMBER_ADD)`},
	{"DELETE", ControlPrefix + "api/guilds/{guild_id}/members/{user_id}", "make a member leave (GUILD_MEMBER_REMOVE); the owner cannot"},
	{"GET", ControlPrefix + "api/gateway", "the gateway: its URLs, settings and identify counters, every session (shard, intents, library, compression, sequence, heartbeats) and notes on what bots did that the platform would punish"},
	{"GET", ControlPrefix + "api/gateway/sessions/{id}/frames", "a session's frames in and out, decompressed, tokens redacted; dispatches it did not get marked \"not sent\""},
	{"POST", ControlPrefix + "api/gateway/faults", `{"session": "...", "kind": "reconnect"}: inject a gateway fault (reconnect, invalid_session with "resumable", close with "code", drop, withhold_acks, silence, request_heartbeat); no session: every connected one`},
	{"GET", ControlPrefix + "api/runtime", `the serving process: goroutines, heap_alloc, heap_inuse, stack_inuse, sys, heap_released, gc_cycles and rss (resident bytes, where /proc gives it); ?gc=1 collects garbage first`},
}

// controlExtraRoutes registers the control routes beyond state, logs,
// reset, seed, clock and faults.
func (s *Server) controlExtraRoutes(api func(pattern string, h func(w http.ResponseWriter, r *http.Request))) {
	s.controlInteractionRoutes(api)
	s.controlCommandRoutes(api)
	s.controlGatewayRoutes(api)
	s.controlMessageRoutes(api)
	s.controlSceneRoutes(api)
	s.controlRuntimeRoutes(api)
	api("GET {$}", func(w http.ResponseWriter, r *http.Request) { controlJSON(w, http.StatusOK, ControlRoutes) })
	api("GET permissions", func(w http.ResponseWriter, r *http.Request) {
		type bit struct {
			Bit  int    `json:"bit"`
			Name string `json:"name"`
		}
		out := []bit{}
		for i := range 64 {
			if name := guildkit.Permissions(1 << i).String(); !strings.HasPrefix(name, "1<<") {
				out = append(out, bit{i, name})
			}
		}
		controlJSON(w, http.StatusOK, out)
	})
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

// redactedBody is a JSON body as the control API shows it: the values of
// members that hold credentials (access_token, token, client_secret,
// password, at any depth) replaced.
func redactedBody(body []byte) []byte {
	var v any
	if json.Unmarshal(body, &v) != nil {
		return body
	}
	var walk func(v any) bool
	walk = func(v any) bool {
		changed := false
		switch x := v.(type) {
		case map[string]any:
			for k, m := range x {
				switch strings.ToLower(k) {
				case "access_token", "token", "client_secret", "password", "refresh_token":
					x[k] = "[redacted]"
					changed = true
				default:
					changed = walk(m) || changed
				}
			}
		case []any:
			for _, m := range x {
				changed = walk(m) || changed
			}
		}
		return changed
	}
	if !walk(v) {
		return body
	}
	b, err := json.Marshal(v)
	if err != nil {
		return body
	}
	return b
}
