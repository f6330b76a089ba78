package guildkittest

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/seed012df1e9/guildkit"
)

// The current user's routes. The interface's documents name the user
// object only inside others; these two routes are the reference
// platform's (v10), served so that a bot in any language can learn who it
// is and where it is, as it does on the platform.

func (s *Server) userRoutes(reg registrar) {
	reg("GET /users/@me", authRequired, s.getCurrentUser)
	reg("GET /users/@me/guilds", authRequired, s.listCurrentUserGuilds)
}

// getCurrentUser: Get Current User. The caller's user object, with the
// fields the reference platform adds for the current user (mfa_enabled,
// locale, verified, email null for a bot, premium_type, banner_color).
func (s *Server) getCurrentUser(c *call) {
	u, ok := s.users[c.user]
	if !ok {
		c.error(http.StatusNotFound, guildkit.CodeUnknownUser, "Unknown User")
		return
	}
	b, err := json.Marshal(shaped(*u))
	if err != nil {
		c.error(http.StatusInternalServerError, 0, "500: Internal Server Error")
		return
	}
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	out["bot"] = u.Bot
	for k, v := range map[string]any{
		"mfa_enabled": false, "locale": "en-US", "verified": true, "email": nil,
		"premium_type": 0, "banner_color": nil, "clan": nil,
	} {
		if _, set := out[k]; !set {
			out[k] = v
		}
	}
	c.json(http.StatusOK, out)
}

// CurrentUserGuild is a guild of List Current User Guilds: the reference
// platform's partial guild with the caller's ownership and permissions.
type CurrentUserGuild struct {
	ID                       guildkit.Snowflake      `json:"id"`
	Name                     string                  `json:"name"`
	Icon                     *string                 `json:"icon"`   // nil when null
	Banner                   *string                 `json:"banner"` // nil when null
	Owner                    bool                    `json:"owner"`
	Permissions              guildkit.Permissions    `json:"permissions"`
	Features                 []guildkit.GuildFeature `json:"features"`
	ApproximateMemberCount   *int                    `json:"approximate_member_count,omitempty"`   // with with_counts
	ApproximatePresenceCount *int                    `json:"approximate_presence_count,omitempty"` // with with_counts
}

// listCurrentUserGuilds: List Current User Guilds, as the reference
// platform answers it: the caller's guilds by id, after or before an id,
// limit 1-200 (default 200), with approximate counts when with_counts is
// true.
func (s *Server) listCurrentUserGuilds(c *call) {
	q := c.r.URL.Query()
	limit := 200
	problems := map[string]string{}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 200 {
			problems["limit"] = "Must be between 1 and 200."
		}
		limit = n
	}
	var before, after guildkit.Snowflake
	for name, p := range map[string]*guildkit.Snowflake{"before": &before, "after": &after} {
		if v := q.Get(name); v != "" {
			id, err := guildkit.ParseSnowflake(v)
			if err != nil {
				problems[name] = "Value \"" + v + "\" is not snowflake."
			}
			*p = id
		}
	}
	if len(problems) > 0 {
		c.formError(problems)
		return
	}
	counts := q.Get("with_counts") == "true"
	out := []CurrentUserGuild{}
	var mine []*guildState
	for _, gs := range sortedByID(s.guilds) {
		if _, member := gs.members[c.user]; !member {
			continue
		}
		id := gs.guild.ID
		if (after != 0 && id <= after) || (before != 0 && id >= before) {
			continue
		}
		mine = append(mine, gs)
	}
	if before != 0 && after == 0 && len(mine) > limit {
		mine = mine[len(mine)-limit:] // the guilds just before, in id order
	}
	for _, gs := range mine {
		if len(out) == limit {
			break
		}
		g := gs.guild
		cg := CurrentUserGuild{
			ID: g.ID, Name: g.Name, Icon: g.Icon, Banner: g.Banner, Owner: g.OwnerID == c.user,
			Permissions: gs.permissions(c.user), Features: append([]guildkit.GuildFeature{}, g.Features...),
		}
		if counts {
			members, online := gs.counts()
			cg.ApproximateMemberCount, cg.ApproximatePresenceCount = &members, &online
		}
		out = append(out, cg)
	}
	c.json(http.StatusOK, out)
}

// Guilds returns every guild the server holds, by id.
func (s *Server) Guilds() []guildkit.Guild {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []guildkit.Guild{}
	for _, gs := range sortedByID(s.guilds) {
		out = append(out, shaped(s.guildJSON(gs)))
	}
	return out
}
