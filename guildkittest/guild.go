package guildkittest

import (
	"net/http"
)

func (s *Server) guildRoutes(reg registrar) {
	reg("GET /guilds/{guild_id}", authRequired, s.getGuild)
}

// getGuild: Get Guild, with approximate counts when with_counts is true.
func (s *Server) getGuild(c *call) {
	gs, ok := c.guild()
	if !ok {
		return
	}
	g := s.guildJSON(gs)
	if c.r.URL.Query().Get("with_counts") == "true" {
		members, online := len(gs.members), 0
		for _, m := range gs.members {
			if m.online {
				online++
			}
		}
		g.ApproximateMemberCount = &members
		g.ApproximatePresenceCount = &online
	}
	c.json(http.StatusOK, g)
}
