package guildkittest

import (
	"errors"
	"net/http"

	"github.com/seed012df1e9/guildkit"
)

// The control API's scene routes: the verbs of scene.go (create a role,
// give and take a member's role, join, leave), for the page and for bots
// in any language. Each emits the events the platform would.

func (s *Server) controlSceneRoutes(api func(pattern string, h func(w http.ResponseWriter, r *http.Request))) {
	api("POST guilds/{guild_id}/roles", s.controlCreateRole)
	api("POST guilds/{guild_id}/members", s.controlJoin)
	api("DELETE guilds/{guild_id}/members/{user_id}", func(w http.ResponseWriter, r *http.Request) {
		ids, ok := pathIDs(w, r, "guild_id", "user_id")
		if !ok {
			return
		}
		s.mu.Lock()
		err := s.leaveLocked(ids[0], ids[1])
		s.mu.Unlock()
		sceneAnswer(w, err, http.StatusNoContent, nil)
	})
	role := func(give bool) func(w http.ResponseWriter, r *http.Request) {
		return func(w http.ResponseWriter, r *http.Request) {
			ids, ok := pathIDs(w, r, "guild_id", "user_id", "role_id")
			if !ok {
				return
			}
			s.mu.Lock()
			err := s.setRoleLocked(ids[0], ids[1], ids[2], give)
			s.mu.Unlock()
			sceneAnswer(w, err, http.StatusNoContent, nil)
		}
	}
	api("PUT guilds/{guild_id}/members/{user_id}/roles/{role_id}", role(true))
	api("DELETE guilds/{guild_id}/members/{user_id}/roles/{role_id}", role(false))
}

// controlCreateRole creates a role: {"name": "Moderators", "permissions":
// "1099511627776", "color": 3447003, "hoist": true, "mentionable": true}.
func (s *Server) controlCreateRole(w http.ResponseWriter, r *http.Request) {
	ids, ok := pathIDs(w, r, "guild_id")
	if !ok {
		return
	}
	var body struct {
		Name        string               `json:"name"`
		Permissions guildkit.Permissions `json:"permissions"`
		Color       int                  `json:"color"`
		Hoist       bool                 `json:"hoist"`
		Mentionable bool                 `json:"mentionable"`
		Position    int                  `json:"position"`
	}
	if !controlDecode(w, r, &body) {
		return
	}
	if n := len([]rune(body.Name)); n < 1 || n > 100 {
		controlError(w, http.StatusBadRequest, "name: 1-100 characters")
		return
	}
	if body.Color < 0 || body.Color > 0xFFFFFF || body.Position < 0 {
		controlError(w, http.StatusBadRequest, "color: 0-16777215; position: 0 or more")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	gs, ok := s.controlGuildLocked(w, ids[0])
	if !ok {
		return
	}
	role := s.createRoleLocked(gs, guildkit.Role{Name: body.Name, Permissions: body.Permissions, Color: body.Color,
		Hoist: body.Hoist, Mentionable: body.Mentionable, Position: body.Position,
		Icon: guildkit.Null[string](), UnicodeEmoji: guildkit.Null[string]()})
	controlJSON(w, http.StatusCreated, shaped(*role))
}

// controlJoin makes a user join: {"user_id": "..."} for a known user, or
// {"username": "..."} for a new one.
func (s *Server) controlJoin(w http.ResponseWriter, r *http.Request) {
	ids, ok := pathIDs(w, r, "guild_id")
	if !ok {
		return
	}
	var body struct {
		UserID   guildkit.Snowflake `json:"user_id"`
		Username string             `json:"username"`
	}
	if !controlDecode(w, r, &body) {
		return
	}
	if (body.UserID == 0) == (body.Username == "") {
		controlError(w, http.StatusBadRequest, "give user_id (a known user) or username (a new one), not both")
		return
	}
	if n := len([]rune(body.Username)); body.Username != "" && (n < 2 || n > 32) {
		controlError(w, http.StatusBadRequest, "username: 2-32 characters")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	gs, ok := s.controlGuildLocked(w, ids[0])
	if !ok {
		return
	}
	if body.Username != "" {
		body.UserID = s.addUserLocked(guildkit.User{Username: body.Username}).ID
	}
	if _, ok := s.users[body.UserID]; !ok {
		controlError(w, http.StatusNotFound, "user_id: no user "+body.UserID.String())
		return
	}
	if _, ok := gs.members[body.UserID]; ok {
		controlError(w, http.StatusConflict, "user_id: "+body.UserID.String()+" already is a member")
		return
	}
	controlJSON(w, http.StatusCreated, copyMember(s.joinLocked(gs, body.UserID).member))
}

// controlGuildLocked returns the guild id names, answering 404 when there
// is none.
func (s *Server) controlGuildLocked(w http.ResponseWriter, id guildkit.Snowflake) (*guildState, bool) {
	gs, ok := s.guilds[id]
	if !ok {
		controlError(w, http.StatusNotFound, "guild_id: no guild "+id.String())
	}
	return gs, ok
}

// pathIDs parses the path's snowflake wildcards, answering 400 for one
// that does not parse.
func pathIDs(w http.ResponseWriter, r *http.Request, names ...string) ([]guildkit.Snowflake, bool) {
	out := make([]guildkit.Snowflake, len(names))
	for i, n := range names {
		id, err := guildkit.ParseSnowflake(r.PathValue(n))
		if err != nil || id == 0 {
			controlError(w, http.StatusBadRequest, n+": not a snowflake")
			return nil, false
		}
		out[i] = id
	}
	return out, true
}

// sceneAnswer answers a scene verb's result: 404 for what it did not
// find, 400 for what the platform refuses, else status with v.
func sceneAnswer(w http.ResponseWriter, err error, status int, v any) {
	switch {
	case errors.Is(err, errSceneNotFound):
		controlError(w, http.StatusNotFound, err.Error())
	case err != nil:
		controlError(w, http.StatusBadRequest, err.Error())
	case status == http.StatusNoContent:
		w.WriteHeader(status)
	default:
		controlJSON(w, status, v)
	}
}
