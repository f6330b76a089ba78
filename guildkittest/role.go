package guildkittest

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/seed012df1e9/guildkit"
)

func (s *Server) roleRoutes(reg registrar) {
	reg("GET /guilds/{guild_id}/roles", authRequired, s.listRoles)
	reg("GET /guilds/{guild_id}/roles/member-counts", authRequired, s.roleMemberCounts)
	reg("GET /guilds/{guild_id}/roles/{role_id}", authRequired, s.getRole)
	reg("POST /guilds/{guild_id}/roles", authRequired, s.createRole, bodyLimit(MaxImageBody))
	reg("PATCH /guilds/{guild_id}/roles", authRequired, s.modifyRolePositions)
	reg("PATCH /guilds/{guild_id}/roles/{role_id}", authRequired, s.modifyRole, bodyLimit(MaxImageBody))
	reg("DELETE /guilds/{guild_id}/roles/{role_id}", authRequired, s.deleteRole)
}

// Role returns a role of the guild as the server holds it, and false when
// there is none.
func (s *Server) Role(guildID, roleID guildkit.Snowflake) (guildkit.Role, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	gs, ok := s.guilds[guildID]
	if !ok {
		return guildkit.Role{}, false
	}
	r, ok := gs.roles[roleID]
	if !ok {
		return guildkit.Role{}, false
	}
	return shaped(*r), true
}

// role resolves the {role_id} wildcard, answering 404 Unknown Role.
func (c *call) role(gs *guildState) (*guildkit.Role, bool) {
	id, ok := c.id("role_id", guildkit.CodeUnknownRole, "Role")
	if !ok {
		return nil, false
	}
	r, ok := gs.roles[id]
	if !ok {
		c.error(http.StatusNotFound, guildkit.CodeUnknownRole, "Unknown Role")
		return nil, false
	}
	return r, true
}

func (s *Server) listRoles(c *call) {
	gs, ok := c.guild()
	if !ok {
		return
	}
	c.json(http.StatusOK, gs.sortedRoles())
}

func (s *Server) getRole(c *call) {
	gs, ok := c.guild()
	if !ok {
		return
	}
	if r, ok := c.role(gs); ok {
		c.json(http.StatusOK, *r)
	}
}

// roleMemberCounts: every role but @everyone, with how many members hold it.
func (s *Server) roleMemberCounts(c *call) {
	gs, ok := c.guild()
	if !ok {
		return
	}
	counts := map[string]int{}
	for id := range gs.roles {
		if id != gs.guild.ID {
			counts[id.String()] = 0
		}
	}
	for _, ms := range gs.members {
		for _, id := range ms.member.Roles {
			if _, ok := counts[id.String()]; ok {
				counts[id.String()]++
			}
		}
	}
	c.json(http.StatusOK, counts)
}

// roleBody is the body of Create Guild Role and Modify Guild Role.
type roleBody struct {
	Name         guildkit.Opt[string]               `json:"name"`
	Permissions  guildkit.Opt[guildkit.Permissions] `json:"permissions"`
	Color        guildkit.Opt[int]                  `json:"color"`
	Colors       guildkit.Opt[guildkit.RoleColors]  `json:"colors"`
	Hoist        guildkit.Opt[bool]                 `json:"hoist"`
	Icon         guildkit.Opt[string]               `json:"icon"`
	UnicodeEmoji guildkit.Opt[string]               `json:"unicode_emoji"`
	Mentionable  guildkit.Opt[bool]                 `json:"mentionable"`
}

// check reports the body's problems; create refuses null where Create
// Guild Role's fields are not nullable.
func (b *roleBody) check(gs *guildState, create bool) map[string]string {
	problems := map[string]string{}
	if n, ok := b.Name.Get(); ok && utf8.RuneCountInString(n) > guildkit.MaxRoleNameLength {
		problems["name"] = fmt.Sprintf("Must be %d or fewer in length.", guildkit.MaxRoleNameLength)
	} else if ok && n != "" && strings.TrimSpace(n) == "" {
		// The reference platform refuses a name of white space only (the
		// interface's documents are silent).
		problems["name"] = "Must not be white space only."
	}
	if c, ok := b.Color.Get(); ok && (c < 0 || c > 0xFFFFFF) {
		problems["color"] = "Invalid color."
	}
	if v, ok := b.Icon.Get(); ok && !validImage(v) {
		problems["icon"] = "Invalid image data."
	}
	roleIcons := slices.Contains(gs.guild.Features, guildkit.FeatureRoleIcons)
	if !roleIcons {
		if b.Icon.IsSet() {
			problems["icon"] = "The guild needs the ROLE_ICONS feature."
		}
		if b.UnicodeEmoji.IsSet() {
			problems["unicode_emoji"] = "The guild needs the ROLE_ICONS feature."
		}
	}
	if create {
		for path, null := range map[string]bool{
			"name": b.Name.IsNull(), "permissions": b.Permissions.IsNull(), "color": b.Color.IsNull(),
			"colors": b.Colors.IsNull(), "hoist": b.Hoist.IsNull(), "mentionable": b.Mentionable.IsNull(),
		} {
			if null {
				problems[path] = "This field cannot be null."
			}
		}
	}
	return problems
}

// apply sets the fields the body carries on r; null resets a field to
// Create Guild Role's default.
func (b *roleBody) apply(gs *guildState, r *guildkit.Role) {
	if !b.Name.IsZero() {
		r.Name = b.Name.Or("new role")
	}
	if !b.Permissions.IsZero() {
		r.Permissions = b.Permissions.Or(gs.roles[gs.guild.ID].Permissions)
	}
	if !b.Color.IsZero() {
		r.Color = b.Color.Or(0)
		r.Colors = guildkit.RoleColors{PrimaryColor: r.Color}
	}
	if !b.Colors.IsZero() {
		r.Colors = b.Colors.Or(guildkit.RoleColors{})
		r.Color = r.Colors.PrimaryColor
	}
	if !b.Hoist.IsZero() {
		r.Hoist = b.Hoist.Or(false)
	}
	if !b.Icon.IsZero() {
		r.Icon = guildkit.Null[string]()
		if v, ok := b.Icon.Get(); ok {
			r.Icon = guildkit.Some(imageHash(guildkit.ImageData(v)))
		}
	}
	if !b.UnicodeEmoji.IsZero() {
		r.UnicodeEmoji = b.UnicodeEmoji
	}
	if !b.Mentionable.IsZero() {
		r.Mentionable = b.Mentionable.Or(false)
	}
}

// createRole: Create Guild Role with the interface's defaults, at position 1
// (above @everyone; ties sort by id). The caller may grant only permissions
// it holds (403 otherwise, as the reference platform answers; hierarchy.go).
func (s *Server) createRole(c *call) {
	gs, ok := c.guild()
	if !ok || !c.require(gs, guildkit.PermissionManageRoles) {
		return
	}
	var body roleBody
	if !c.decodeOptional(&body) {
		return
	}
	if problems := body.check(gs, true); len(problems) > 0 {
		c.formError(problems)
		return
	}
	if p, ok := body.Permissions.Get(); ok && !c.requireGrant(gs, p) {
		return
	}
	r := &guildkit.Role{
		ID: s.newID(), Name: "new role", Permissions: gs.roles[gs.guild.ID].Permissions, Position: 1,
		Icon: guildkit.Null[string](), UnicodeEmoji: guildkit.Null[string](),
	}
	body.apply(gs, r)
	gs.roles[r.ID] = r
	s.emit(guildkit.EventGuildRoleCreate, gs.guild.ID, *r)
	c.json(http.StatusOK, *r)
}

// modifyRolePositions: Modify Guild Role Positions; one GUILD_ROLE_UPDATE
// per role whose position changed. @everyone cannot move; a role at or
// above the caller's highest, or a move to such a position, is refused with
// 403 (the role hierarchy, hierarchy.go).
func (s *Server) modifyRolePositions(c *call) {
	gs, ok := c.guild()
	if !ok || !c.require(gs, guildkit.PermissionManageRoles) {
		return
	}
	var items []struct {
		ID       guildkit.Snowflake `json:"id"`
		Position guildkit.Opt[int]  `json:"position"`
	}
	if !c.decode(&items) {
		return
	}
	problems := map[string]string{}
	for i, it := range items {
		if r, ok := gs.roles[it.ID]; ok && it.Position.IsSet() {
			// The role hierarchy: only roles below the caller's highest,
			// and only to positions below it.
			p, _ := it.Position.Get()
			if !gs.managesRole(c.user, r) || !gs.managesRole(c.user, &guildkit.Role{ID: r.ID, Position: p}) {
				c.forbidden()
				return
			}
		}
		if _, ok := gs.roles[it.ID]; !ok {
			problems[fmt.Sprintf("%d.id", i)] = "Unknown role."
		} else if it.ID == gs.guild.ID && it.Position.IsSet() {
			problems[fmt.Sprintf("%d.id", i)] = "The @everyone role cannot be moved."
		}
		if p, ok := it.Position.Get(); ok && p < 0 {
			problems[fmt.Sprintf("%d.position", i)] = "Must be 0 or more."
		}
	}
	if len(problems) > 0 {
		c.formError(problems)
		return
	}
	for _, it := range items {
		r := gs.roles[it.ID]
		if p, ok := it.Position.Get(); ok && p != r.Position {
			r.Position = p
			s.emit(guildkit.EventGuildRoleUpdate, gs.guild.ID, *r)
		}
	}
	c.json(http.StatusOK, gs.sortedRoles())
}

// modifyRole: Modify Guild Role. A role at or above the caller's highest is
// refused (403), and so are permissions the caller does not hold added to
// the role (the role hierarchy and grant limit, hierarchy.go). Bits the role
// already has may stay: the reference platform checks what a change adds.
// @everyone ranks below every other role, so a manager holding any role may
// edit it, within the grant limit.
func (s *Server) modifyRole(c *call) {
	gs, ok := c.guild()
	if !ok || !c.require(gs, guildkit.PermissionManageRoles) {
		return
	}
	r, ok := c.role(gs)
	if !ok {
		return
	}
	var body roleBody
	if !c.decodeOptional(&body) {
		return
	}
	if problems := body.check(gs, false); len(problems) > 0 {
		c.formError(problems)
		return
	}
	if !c.requireManagesRoles(gs, r.ID) {
		return
	}
	if p, ok := body.Permissions.Get(); ok && !c.requireGrant(gs, p&^r.Permissions) {
		return
	}
	body.apply(gs, r)
	s.emit(guildkit.EventGuildRoleUpdate, gs.guild.ID, *r)
	c.json(http.StatusOK, *r)
}

// deleteRole: Delete Guild Role, taken from every member. The event carries
// the role id. @everyone cannot be deleted (400 Invalid Role); a role at or
// above the caller's highest is refused (403; hierarchy.go).
func (s *Server) deleteRole(c *call) {
	gs, ok := c.guild()
	if !ok || !c.require(gs, guildkit.PermissionManageRoles) {
		return
	}
	r, ok := c.role(gs)
	if !ok {
		return
	}
	if r.ID == gs.guild.ID {
		c.error(http.StatusBadRequest, codeInvalidRole, "Invalid Role")
		return
	}
	if !c.requireManagesRoles(gs, r.ID) {
		return
	}
	delete(gs.roles, r.ID)
	for _, ms := range gs.members {
		ms.member.Roles = slices.DeleteFunc(ms.member.Roles, func(id guildkit.Snowflake) bool { return id == r.ID })
	}
	s.emit(guildkit.EventGuildRoleDelete, gs.guild.ID, r.ID)
	c.noContent()
}
