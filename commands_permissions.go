package guildkit

import (
	"context"
	"fmt"
	"net/http"

	"github.com/seed012df1e9/guildkit/wire"
)

// CommandPermissionType is what a command permission overwrite targets.
type CommandPermissionType int

// Command permission overwrite targets.
const (
	CommandPermissionRole    CommandPermissionType = 1
	CommandPermissionUser    CommandPermissionType = 2
	CommandPermissionChannel CommandPermissionType = 3
)

func (t CommandPermissionType) String() string {
	switch t {
	case CommandPermissionRole:
		return "ROLE"
	case CommandPermissionUser:
		return "USER"
	case CommandPermissionChannel:
		return "CHANNEL"
	}
	return fmt.Sprintf("CommandPermissionType(%d)", int(t))
}

// CommandPermission is one overwrite of who may use a command: a role, a
// user or a channel (a channel's overwrite applies to its threads too).
// Two constants stand for more than one target: the guild's id is
// @everyone (a ROLE overwrite) and [AllChannels] of the guild is every
// channel (a CHANNEL overwrite).
type CommandPermission struct {
	ID         Snowflake             `json:"id"`
	Type       CommandPermissionType `json:"type"`
	Permission bool                  `json:"permission"` // true allows, false denies
}

// AllChannels returns the id that stands for every channel of the guild
// guildID in a CHANNEL overwrite: the guild's id minus one.
func AllChannels(guildID Snowflake) Snowflake { return guildID - 1 }

// GuildCommandPermissions are the overwrites of one command in a guild, or,
// when ID is the application's id, the application-wide overwrites that
// apply to commands without their own.
type GuildCommandPermissions struct {
	ID            Snowflake           `json:"id"` // the command's, or the application's
	ApplicationID Snowflake           `json:"application_id"`
	GuildID       Snowflake           `json:"guild_id"`
	Permissions   []CommandPermission `json:"permissions"`
}

// MaxCommandPermissions is how many overwrites a command may have in a
// guild.
const MaxCommandPermissions = 100

// CommandPermissionsParams is the body of [CommandService.EditPermissions]:
// the command's complete list of overwrites in the guild.
type CommandPermissionsParams struct {
	Permissions []CommandPermission `json:"permissions"` // at most 100
}

// Validate checks the overwrites: at most [MaxCommandPermissions], each
// with an id and a known type, no target twice.
func (p *CommandPermissionsParams) Validate() error {
	if p == nil {
		return problem("", wire.CodeRequired, "the permissions are required")
	}
	var v ValidationError
	if n := len(p.Permissions); n > MaxCommandPermissions {
		v.Add("permissions", wire.CodeLength, "at most %d overwrites, got %d", MaxCommandPermissions, n)
	}
	type target struct {
		id Snowflake
		t  CommandPermissionType
	}
	seen := map[target]int{}
	for i, o := range p.Permissions {
		path := "permissions" + indexPath(i, "")
		if o.ID == 0 {
			v.Add(path+".id", wire.CodeRequired, "the id of a role, a user or a channel is required")
		}
		if o.Type < CommandPermissionRole || o.Type > CommandPermissionChannel {
			v.Add(path+".type", wire.CodeInvalid, "%s is not a command permission type (ROLE, USER, CHANNEL)", o.Type)
		}
		k := target{o.ID, o.Type}
		if j, dup := seen[k]; dup {
			v.Add(path+".id", wire.CodeDuplicate, "%s %s is the target of permissions[%d] too", o.Type, o.ID, j)
		} else {
			seen[k] = i
		}
	}
	return v.Err()
}

// Routes of the command permission operations.
const (
	routeGuildCommandsPermissions = "/applications/{application.id}/guilds/{guild.id}/commands/permissions"
	routeCommandPermissions       = "/applications/{application.id}/guilds/{guild.id}/commands/{command.id}/permissions"
)

// ListPermissions returns the overwrites of every command of the
// application in the guild guildID that has any, the application-wide ones
// included (their ID is the application's).
//
// Spec: "Get Guild Application Command Permissions" — GET /applications/{application.id}/guilds/{guild.id}/commands/permissions
func (s *CommandService) ListPermissions(ctx context.Context, applicationID, guildID Snowflake, opts ...RequestOption) ([]GuildCommandPermissions, error) {
	out := []GuildCommandPermissions{}
	if _, err := s.c.do(ctx, &request{method: http.MethodGet, route: routeGuildCommandsPermissions, path: []any{applicationID, guildID}, opts: opts}, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// GetPermissions returns the overwrites of the command commandID (a global
// or a guild command; the application's id for the application-wide ones)
// in the guild guildID. A command with none gives an [*APIError] with code
// [CodeUnknownCommandPermissions] (404, matching [ErrNotFound]).
//
// Spec: "Get Application Command Permissions" — GET /applications/{application.id}/guilds/{guild.id}/commands/{command.id}/permissions
func (s *CommandService) GetPermissions(ctx context.Context, applicationID, guildID, commandID Snowflake, opts ...RequestOption) (*GuildCommandPermissions, error) {
	var out GuildCommandPermissions
	if _, err := s.c.do(ctx, &request{method: http.MethodGet, route: routeCommandPermissions, path: []any{applicationID, guildID, commandID}, opts: opts}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// EditPermissions replaces the overwrites of the command commandID in the
// guild guildID with params.Permissions (at most 100; an empty list removes
// them) and returns them; the platform emits
// APPLICATION_COMMAND_PERMISSIONS_UPDATE. It needs a client made with a
// user's [BearerToken] carrying the applications.commands.permissions.update
// scope (a bot token is refused), of a user with MANAGE_GUILD and
// MANAGE_ROLES in the guild who may use the command and manage each target.
// The overwrites are checked before sending
// ([CommandPermissionsParams.Validate]).
//
// Spec: "Edit Application Command Permissions" — PUT /applications/{application.id}/guilds/{guild.id}/commands/{command.id}/permissions
func (s *CommandService) EditPermissions(ctx context.Context, applicationID, guildID, commandID Snowflake, params *CommandPermissionsParams, opts ...RequestOption) (*GuildCommandPermissions, error) {
	if err := params.Validate(); err != nil {
		return nil, err
	}
	body := *params
	if body.Permissions == nil {
		body.Permissions = []CommandPermission{} // never null
	}
	var out GuildCommandPermissions
	if _, err := s.c.do(ctx, &request{method: http.MethodPut, route: routeCommandPermissions, path: []any{applicationID, guildID, commandID}, body: &body, opts: opts}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
