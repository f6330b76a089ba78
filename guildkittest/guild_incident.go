package guildkittest

import (
	"net/http"
	"time"

	"github.com/seed012df1e9/guildkit"
)

// modifyIncidentActions: Modify Guild Incident Actions. A time more than 24
// hours after the server's clock is refused; null lifts the action; an
// omitted field is left as it is.
func (s *Server) modifyIncidentActions(c *call) {
	gs, ok := c.guild()
	if !ok || !c.require(gs, guildkit.PermissionManageGuild) {
		return
	}
	var p guildkit.GuildIncidentActionsModifyParams
	if !c.decode(&p) {
		return
	}
	var data guildkit.IncidentsData
	if gs.guild.IncidentsData != nil {
		data = *gs.guild.IncidentsData
	}
	limit := s.now().Add(guildkit.MaxIncidentActionDuration)
	problems := map[string]string{}
	for _, f := range []struct {
		name string
		in   guildkit.Opt[time.Time]
		out  **time.Time
	}{
		{"invites_disabled_until", p.InvitesDisabledUntil, &data.InvitesDisabledUntil},
		{"dms_disabled_until", p.DMsDisabledUntil, &data.DMsDisabledUntil},
	} {
		if f.in.IsZero() {
			continue
		}
		if t, ok := f.in.Get(); ok && t.After(limit) {
			problems[f.name] = "Must be at most 24 hours in the future"
		}
		*f.out = ptrOf(f.in)
	}
	if len(problems) > 0 {
		c.formError(problems)
		return
	}
	gs.guild.IncidentsData = &data
	c.json(http.StatusOK, data)
}
