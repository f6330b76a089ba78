package guildkittest

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/seed012df1e9/guildkit"
)

// pruneCandidates returns, in user-id order, the members inactive for days
// that prune may remove: never the owner or the caller; a member with no
// role; with include, a member whose roles are all in include.
func (s *Server) pruneCandidates(gs *guildState, caller guildkit.Snowflake, days int, include []guildkit.Snowflake) []*memberState {
	cutoff := s.now().Add(-time.Duration(days) * 24 * time.Hour)
	var out []*memberState
	for _, ms := range gs.sortedMembers() {
		id := ms.member.User.ID
		if id == gs.guild.OwnerID || id == caller || !ms.lastActive.Before(cutoff) {
			continue
		}
		subset := true
		for _, r := range ms.member.Roles {
			if !slices.Contains(include, r) {
				subset = false
				break
			}
		}
		if subset {
			out = append(out, ms)
		}
	}
	return out
}

// pruneCount: Get Guild Prune Count.
func (s *Server) pruneCount(c *call) {
	gs, ok := c.guild()
	if !ok || !c.require(gs, guildkit.PermissionManageGuild|guildkit.PermissionKickMembers) {
		return
	}
	problems := map[string]string{}
	days := c.queryInt(problems, "days", 7, 1, 30)
	var include []guildkit.Snowflake
	if raw := c.r.URL.Query().Get("include_roles"); raw != "" {
		for _, part := range strings.Split(raw, ",") {
			id, err := guildkit.ParseSnowflake(strings.TrimSpace(part))
			if err != nil {
				problems["include_roles"] = "Value is not snowflake."
				break
			}
			include = append(include, id)
		}
	}
	if len(problems) > 0 {
		c.formError(problems)
		return
	}
	c.json(http.StatusOK, map[string]int{"pruned": len(s.pruneCandidates(gs, c.user, days, include))})
}

// beginPrune: Begin Guild Prune, one GUILD_MEMBER_REMOVE per member removed.
func (s *Server) beginPrune(c *call) {
	gs, ok := c.guild()
	if !ok || !c.require(gs, guildkit.PermissionManageGuild|guildkit.PermissionKickMembers) {
		return
	}
	var body struct {
		Days         guildkit.Opt[int]                  `json:"days"`
		Compute      guildkit.Opt[bool]                 `json:"compute_prune_count"`
		IncludeRoles guildkit.Opt[[]guildkit.Snowflake] `json:"include_roles"`
		Reason       guildkit.Opt[string]               `json:"reason"`
	}
	if !c.decodeOptional(&body) {
		return
	}
	problems := map[string]string{}
	days := body.Days.Or(7)
	if body.Days.IsNull() || days < 1 || days > 30 {
		problems["days"] = "Must be between 1 and 30."
	}
	if len(problems) > 0 {
		c.formError(problems)
		return
	}
	include, _ := body.IncludeRoles.Get()
	pruned := s.pruneCandidates(gs, c.user, days, include)
	for _, ms := range pruned {
		s.removeMemberLocked(gs, ms)
	}
	if !body.Compute.Or(true) {
		c.json(http.StatusOK, map[string]*int{"pruned": nil})
		return
	}
	n := len(pruned)
	c.json(http.StatusOK, map[string]*int{"pruned": &n})
}
