package guildkittest

import (
	"cmp"
	"fmt"
	"net/http"
	"slices"

	"github.com/seed012df1e9/guildkit"
)

func (s *Server) banRoutes(reg registrar) {
	reg("GET /guilds/{guild_id}/bans", authRequired, s.listBans)
	reg("GET /guilds/{guild_id}/bans/{user_id}", authRequired, s.getBan)
	reg("PUT /guilds/{guild_id}/bans/{user_id}", authRequired, s.createBan)
	reg("DELETE /guilds/{guild_id}/bans/{user_id}", authRequired, s.removeBan)
	reg("POST /guilds/{guild_id}/bulk-ban", authRequired, s.bulkBan)
}

// banMap returns the guild's bans by user id, making the map on first use.
func (gs *guildState) banMap() map[guildkit.Snowflake]*guildkit.Ban {
	if gs.bans == nil {
		gs.bans = make(map[guildkit.Snowflake]*guildkit.Ban)
	}
	return gs.bans
}

// AddBan bans a user as set-up, without an event: b.User is required (an
// unknown user is added, as by AddUser) and a member is removed from the
// guild. It returns the ban as stored.
func (s *Server) AddBan(guildID guildkit.Snowflake, b guildkit.Ban) guildkit.Ban {
	s.mu.Lock()
	defer s.mu.Unlock()
	gs := s.mustGuild(guildID)
	u := b.User
	if u.ID == 0 {
		u.ID = s.newID()
	}
	if _, ok := s.users[u.ID]; !ok {
		if u.Username == "" {
			u.Username = "user" + u.ID.String()
		}
		if u.Discriminator == "" {
			u.Discriminator = "0"
		}
		cp := u
		s.users[u.ID] = &cp
	}
	b.User = *s.users[u.ID]
	delete(gs.members, u.ID)
	cp := b
	gs.banMap()[u.ID] = &cp
	return shaped(b)
}

// Ban returns the ban of userID in the guild, and false when there is none.
func (s *Server) Ban(guildID, userID guildkit.Snowflake) (guildkit.Ban, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	gs, ok := s.guilds[guildID]
	if !ok {
		return guildkit.Ban{}, false
	}
	b, ok := gs.banMap()[userID]
	if !ok {
		return guildkit.Ban{}, false
	}
	return shaped(*b), true
}

// sortedBans returns copies of the bans in ascending user-id order.
func (gs *guildState) sortedBans() []guildkit.Ban {
	out := make([]guildkit.Ban, 0, len(gs.bans))
	for _, b := range gs.bans {
		out = append(out, *b)
	}
	slices.SortFunc(out, func(a, b guildkit.Ban) int { return cmp.Compare(a.User.ID, b.User.ID) })
	return out
}

// listBans: Get Guild Bans, ascending by user id. With before, the page is
// the limit bans closest below it (still ascending); when both before and
// after are given only before applies.
func (s *Server) listBans(c *call) {
	gs, ok := c.guild()
	if !ok || !c.require(gs, guildkit.PermissionBanMembers) {
		return
	}
	problems := map[string]string{}
	limit := c.queryInt(problems, "limit", 1000, 1, 1000)
	before := c.querySnowflake(problems, "before")
	after := c.querySnowflake(problems, "after")
	if len(problems) > 0 {
		c.formError(problems)
		return
	}
	all := gs.sortedBans()
	var page []guildkit.Ban
	if c.r.URL.Query().Has("before") {
		i, _ := slices.BinarySearchFunc(all, before, func(b guildkit.Ban, id guildkit.Snowflake) int { return cmp.Compare(b.User.ID, id) })
		page = all[max(0, i-limit):i]
	} else {
		i, found := slices.BinarySearchFunc(all, after, func(b guildkit.Ban, id guildkit.Snowflake) int { return cmp.Compare(b.User.ID, id) })
		if found {
			i++
		}
		page = all[i:min(len(all), i+limit)]
	}
	if page == nil {
		page = []guildkit.Ban{}
	}
	c.json(http.StatusOK, page)
}

// getBan: Get Guild Ban, 404 Unknown Ban when the user is not banned.
func (s *Server) getBan(c *call) {
	if _, b, ok := c.ban(); ok {
		c.json(http.StatusOK, *b)
	}
}

// ban resolves {guild_id} and {user_id} to a ban the caller may see: the
// guild checks, 403 without BAN_MEMBERS, 404 Unknown Ban when the user is
// not banned.
func (c *call) ban() (*guildState, *guildkit.Ban, bool) {
	gs, ok := c.guild()
	if !ok || !c.require(gs, guildkit.PermissionBanMembers) {
		return nil, nil, false
	}
	uid, ok := c.id("user_id", guildkit.CodeUnknownBan, "Ban")
	if !ok {
		return nil, nil, false
	}
	b, ok := gs.banMap()[uid]
	if !ok {
		c.error(http.StatusNotFound, guildkit.CodeUnknownBan, "Unknown Ban")
		return nil, nil, false
	}
	return gs, b, true
}

// ban bans u in gs with reason: a member is removed (GUILD_MEMBER_REMOVE, as
// the reference platform does) and GUILD_BAN_ADD is emitted.
func (s *Server) banLocked(gs *guildState, u guildkit.User, reason *string) {
	if ms, ok := gs.members[u.ID]; ok {
		s.removeMemberLocked(gs, ms)
	}
	gs.banMap()[u.ID] = &guildkit.Ban{User: u, Reason: reason}
	s.emit(guildkit.EventGuildBanAdd, gs.guild.ID, u)
}

// createBan: Create Guild Ban. The ban's reason is the audit-log reason. A
// user already banned keeps the ban and no event is emitted. The owner, and
// a member not below the caller, cannot be banned (403; hierarchy.go).
func (s *Server) createBan(c *call) {
	gs, ok := c.guild()
	if !ok || !c.require(gs, guildkit.PermissionBanMembers) {
		return
	}
	uid, ok := c.id("user_id", guildkit.CodeUnknownUser, "User")
	if !ok {
		return
	}
	var body struct {
		Days    guildkit.Opt[int] `json:"delete_message_days"`
		Seconds guildkit.Opt[int] `json:"delete_message_seconds"`
	}
	if !c.decodeOptional(&body) {
		return
	}
	problems := map[string]string{}
	if n := body.Days.Or(0); body.Days.IsNull() || n < 0 || n > 7 {
		problems["delete_message_days"] = "Must be between 0 and 7."
	}
	if n := body.Seconds.Or(0); body.Seconds.IsNull() || n < 0 || n > guildkit.MaxDeleteMessageSeconds {
		problems["delete_message_seconds"] = fmt.Sprintf("Must be between 0 and %d.", guildkit.MaxDeleteMessageSeconds)
	}
	if len(problems) > 0 {
		c.formError(problems)
		return
	}
	u, ok := s.users[uid]
	if !ok {
		c.error(http.StatusNotFound, guildkit.CodeUnknownUser, "Unknown User")
		return
	}
	if !gs.mayBan(c.user, uid) {
		c.forbidden()
		return
	}
	if _, banned := gs.banMap()[uid]; !banned {
		s.banLocked(gs, *u, c.auditReason())
	}
	c.noContent()
}

// removeBan: Remove Guild Ban, 404 Unknown Ban when the user is not banned.
func (s *Server) removeBan(c *call) {
	gs, b, ok := c.ban()
	if !ok {
		return
	}
	delete(gs.bans, b.User.ID)
	s.emit(guildkit.EventGuildBanRemove, gs.guild.ID, b.User)
	c.noContent()
}

// bulkBan: Bulk Guild Ban of at most 200 users. Unknown and already banned
// users fail, and so do the owner and members not below the caller (the
// role hierarchy); when every user fails the answer is 400 with error code
// 500000.
func (s *Server) bulkBan(c *call) {
	gs, ok := c.guild()
	if !ok || !c.require(gs, guildkit.PermissionBanMembers|guildkit.PermissionManageGuild) {
		return
	}
	var body struct {
		UserIDs guildkit.Opt[[]guildkit.Snowflake] `json:"user_ids"`
		Seconds guildkit.Opt[int]                  `json:"delete_message_seconds"`
	}
	if !c.decode(&body) {
		return
	}
	problems := map[string]string{}
	ids, _ := body.UserIDs.Get()
	switch {
	case len(ids) == 0:
		problems["user_ids"] = "This field is required"
	case len(ids) > guildkit.MaxBulkBanUsers:
		problems["user_ids"] = fmt.Sprintf("Must be %d or fewer in length.", guildkit.MaxBulkBanUsers)
	}
	if n := body.Seconds.Or(0); body.Seconds.IsNull() || n < 0 || n > guildkit.MaxDeleteMessageSeconds {
		problems["delete_message_seconds"] = fmt.Sprintf("Must be between 0 and %d.", guildkit.MaxDeleteMessageSeconds)
	}
	if len(problems) > 0 {
		c.formError(problems)
		return
	}
	res := guildkit.BulkBanResult{BannedUsers: []guildkit.Snowflake{}, FailedUsers: []guildkit.Snowflake{}}
	reason := c.auditReason()
	for _, id := range ids {
		u, known := s.users[id]
		_, banned := gs.banMap()[id]
		if !known || banned || !gs.mayBan(c.user, id) {
			res.FailedUsers = append(res.FailedUsers, id)
			continue
		}
		s.banLocked(gs, *u, reason)
		res.BannedUsers = append(res.BannedUsers, id)
	}
	if len(res.BannedUsers) == 0 {
		c.error(http.StatusBadRequest, guildkit.CodeFailedToBanUsers, "Failed to ban users")
		return
	}
	c.json(http.StatusOK, res)
}

// mayBan reports whether caller may ban the user target: never the owner;
// a member only below the caller (the role hierarchy, hierarchy.go); any
// other user.
func (gs *guildState) mayBan(caller, target guildkit.Snowflake) bool {
	if _, member := gs.members[target]; member || target == gs.guild.OwnerID {
		return gs.outranks(caller, target)
	}
	return true
}
