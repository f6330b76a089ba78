package guildkittest

import (
	"cmp"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/seed012df1e9/guildkit"
)

// The command permission routes (spec/commands.md §4.4): each command's
// overwrites in a guild (and the application-wide ones, under the
// application's id), kept in the guild's command scope. Reading them takes
// the bot's token; replacing them takes a user's access token (Bearer), of
// a member with MANAGE_GUILD and MANAGE_ROLES, as the platform requires,
// and emits APPLICATION_COMMAND_PERMISSIONS_UPDATE.

// codeBotsCannotUse is the platform's answer to a bot token on a route
// only a user may call.
const codeBotsCannotUse guildkit.ErrorCode = 20001

func (s *Server) commandPermissionRoutes(reg registrar) {
	const base = "/applications/{application_id}/guilds/{guild_id}/commands"
	reg("GET "+base+"/permissions", authRequired, s.listCommandPermissions)
	reg("GET "+base+"/{command_id}/permissions", authRequired, s.getCommandPermissions)
	reg("PUT "+base+"/{command_id}/permissions", authRequired, s.editCommandPermissions)
}

// guildPermissionsOf is one command's overwrites as the routes answer them.
func guildPermissionsOf(app, guildID, cmdID guildkit.Snowflake, perms []guildkit.CommandPermission) guildkit.GuildCommandPermissions {
	return guildkit.GuildCommandPermissions{ID: cmdID, ApplicationID: app, GuildID: guildID, Permissions: slices.Clone(perms)}
}

func (s *Server) listCommandPermissions(c *call) {
	sc, app, guildID, _, ok := c.commandScope()
	if !ok {
		return
	}
	out := []guildkit.GuildCommandPermissions{}
	for id, perms := range sc.perms {
		out = append(out, guildPermissionsOf(app, guildID, id, perms))
	}
	slices.SortFunc(out, func(a, b guildkit.GuildCommandPermissions) int { return cmp.Compare(a.ID, b.ID) })
	c.json(http.StatusOK, out)
}

// permissionsTarget resolves {command_id}: a global command, one of the
// guild's, or the application itself (its application-wide overwrites);
// anything else is answered 404 Unknown application command.
func (c *call) permissionsTarget(app, guildID guildkit.Snowflake) (guildkit.Snowflake, bool) {
	id, ok := c.id("command_id", guildkit.CodeUnknownApplicationCommand, "application command")
	if !ok {
		return 0, false
	}
	has := func(scope guildkit.Snowflake) bool {
		return slices.ContainsFunc(c.s.scopeLocked(app, scope).list, func(cmd *guildkit.Command) bool { return cmd.ID == id })
	}
	if id != app && !has(0) && !has(guildID) {
		c.error(http.StatusNotFound, guildkit.CodeUnknownApplicationCommand, "Unknown application command")
		return 0, false
	}
	return id, true
}

func (s *Server) getCommandPermissions(c *call) {
	sc, app, guildID, _, ok := c.commandScope()
	if !ok {
		return
	}
	id, ok := c.permissionsTarget(app, guildID)
	if !ok {
		return
	}
	perms, ok := sc.perms[id]
	if !ok {
		c.error(http.StatusNotFound, guildkit.CodeUnknownCommandPermissions, "Unknown application command permissions")
		return
	}
	c.json(http.StatusOK, guildPermissionsOf(app, guildID, id, perms))
}

func (s *Server) editCommandPermissions(c *call) {
	if scheme, _, _ := strings.Cut(c.r.Header.Get("Authorization"), " "); scheme != "Bearer" {
		c.error(http.StatusForbidden, codeBotsCannotUse, "Bots cannot use this endpoint")
		return
	}
	app, err := guildkit.ParseSnowflake(c.r.PathValue("application_id"))
	if err != nil || app != s.appID() {
		c.error(http.StatusForbidden, guildkit.CodeMissingAccess, "Missing Access")
		return
	}
	gs, ok := c.guild()
	if !ok {
		return
	}
	const needed = guildkit.PermissionManageGuild | guildkit.PermissionManageRoles
	if gs.permissions(c.user)&needed != needed {
		c.error(http.StatusForbidden, guildkit.CodeMissingPermissions, "Missing Permissions")
		return
	}
	guildID := gs.guild.ID
	id, ok := c.permissionsTarget(app, guildID)
	if !ok {
		return
	}
	var p guildkit.CommandPermissionsParams
	if !c.decode(&p) {
		return
	}
	if err := p.Validate(); err != nil {
		c.commandFormError(err)
		return
	}
	problems := map[string]string{}
	for i, o := range p.Permissions {
		if !s.permissionTargetExistsLocked(gs, o) {
			problems["permissions."+strconv.Itoa(i)+".id"] = "Unknown " + strings.ToLower(o.Type.String())
		}
	}
	if len(problems) > 0 {
		c.formError(problems)
		return
	}
	sc := s.scopeLocked(app, guildID)
	if sc.perms == nil {
		sc.perms = map[guildkit.Snowflake][]guildkit.CommandPermission{}
	}
	if len(p.Permissions) == 0 {
		delete(sc.perms, id)
	} else {
		sc.perms[id] = slices.Clone(p.Permissions)
	}
	out := guildPermissionsOf(app, guildID, id, p.Permissions)
	if out.Permissions == nil {
		out.Permissions = []guildkit.CommandPermission{}
	}
	d, _ := json.Marshal(out)
	s.dispatchRawLocked("APPLICATION_COMMAND_PERMISSIONS_UPDATE", guildID, 0, d)
	c.json(http.StatusOK, out)
}

// permissionTargetExistsLocked reports whether o's target is in the guild:
// a role (the guild's id is @everyone), a user, or a channel (the guild's
// id minus one is every channel).
func (s *Server) permissionTargetExistsLocked(gs *guildState, o guildkit.CommandPermission) bool {
	switch o.Type {
	case guildkit.CommandPermissionRole:
		_, ok := gs.roles[o.ID]
		return ok || o.ID == gs.guild.ID
	case guildkit.CommandPermissionUser:
		_, ok := s.users[o.ID]
		return ok
	case guildkit.CommandPermissionChannel:
		_, ok := gs.channels[o.ID]
		return ok || o.ID == guildkit.AllChannels(gs.guild.ID)
	}
	return false
}

// dropCommandPermissionsLocked removes the overwrites of the application's
// commands ids in every guild, as the platform does when a command is
// deleted.
func (s *Server) dropCommandPermissionsLocked(app guildkit.Snowflake, ids ...guildkit.Snowflake) {
	if s.commands == nil {
		return
	}
	for k, sc := range s.commands.scopes {
		if k.app != app {
			continue
		}
		for _, id := range ids {
			delete(sc.perms, id)
		}
	}
}
