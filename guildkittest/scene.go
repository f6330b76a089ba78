package guildkittest

import (
	"errors"
	"fmt"
	"slices"

	"github.com/seed012df1e9/guildkit"
)

// The scene verbs: what people do in a guild, as the platform's client
// lets them, with the events the platform sends for it. The seeding
// methods (AddRole, AddMember) set a scene up silently, before a bot
// connects; these happen while it watches. The control API and the page
// offer the same verbs (POST /_guildkit/api/guilds/{guild_id}/roles and
// the routes beside it).

// CreateRole creates a role in the guild, as a member with Manage Roles
// would, and returns it; it emits GUILD_ROLE_CREATE. A zero ID gets a
// fresh one; a zero Position is 1 (just above @everyone). It panics when
// the guild does not exist.
func (s *Server) CreateRole(guildID guildkit.Snowflake, r guildkit.Role) guildkit.Role {
	s.mu.Lock()
	defer s.mu.Unlock()
	return shaped(*s.createRoleLocked(s.mustGuild(guildID), r))
}

func (s *Server) createRoleLocked(gs *guildState, r guildkit.Role) *guildkit.Role {
	if r.ID == 0 {
		r.ID = s.newID()
	}
	if r.Position == 0 {
		r.Position = 1
	}
	syncRoleColors(&r)
	gs.roles[r.ID] = &r
	s.emit(guildkit.EventGuildRoleCreate, gs.guild.ID, shaped(r))
	return &r
}

// GiveRole gives the member a role of the guild, as a moderator would in
// the platform's client; it emits GUILD_MEMBER_UPDATE, unless the member
// had it already. It panics when the member or the role does not exist.
func (s *Server) GiveRole(guildID, userID, roleID guildkit.Snowflake) {
	s.mustSetRole(guildID, userID, roleID, true)
}

// TakeRole takes a role from the member; it emits GUILD_MEMBER_UPDATE,
// unless the member did not have it. It panics when the member or the role
// does not exist.
func (s *Server) TakeRole(guildID, userID, roleID guildkit.Snowflake) {
	s.mustSetRole(guildID, userID, roleID, false)
}

func (s *Server) mustSetRole(guildID, userID, roleID guildkit.Snowflake, give bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.setRoleLocked(guildID, userID, roleID, give); err != nil {
		panic("guildkittest: " + err.Error())
	}
}

// errSceneNotFound marks what a scene verb did not find (the control API
// answers it 404).
var errSceneNotFound = errors.New("not found")

func (s *Server) setRoleLocked(guildID, userID, roleID guildkit.Snowflake, give bool) error {
	gs, ms, err := s.sceneMemberLocked(guildID, userID)
	if err != nil {
		return err
	}
	if _, ok := gs.roles[roleID]; !ok || roleID == guildID {
		return fmt.Errorf("role_id: guild %s has no role %s (@everyone is every member's already): %w", guildID, roleID, errSceneNotFound)
	}
	i := slices.Index(ms.member.Roles, roleID)
	switch {
	case give && i < 0:
		ms.member.Roles = append(ms.member.Roles, roleID)
	case !give && i >= 0:
		ms.member.Roles = slices.Delete(ms.member.Roles, i, i+1)
	default:
		return nil
	}
	s.emit(guildkit.EventGuildMemberUpdate, gs.guild.ID, eventMember(ms.member))
	return nil
}

// LeaveMember makes the member leave the guild, as a person would; it
// emits GUILD_MEMBER_REMOVE. It panics when the user is not a member, or
// is the guild's owner (an owner must hand the guild over first).
func (s *Server) LeaveMember(guildID, userID guildkit.Snowflake) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.leaveLocked(guildID, userID); err != nil {
		panic("guildkittest: LeaveMember: " + err.Error())
	}
}

// errOwnerLeaves is a leave the platform refuses.
var errOwnerLeaves = errors.New("the guild's owner cannot leave it (the platform asks them to transfer ownership first)")

func (s *Server) leaveLocked(guildID, userID guildkit.Snowflake) error {
	gs, ms, err := s.sceneMemberLocked(guildID, userID)
	if err != nil {
		return err
	}
	if gs.guild.OwnerID == userID {
		return errOwnerLeaves
	}
	s.removeMemberLocked(gs, ms)
	return nil
}

func (s *Server) sceneMemberLocked(guildID, userID guildkit.Snowflake) (*guildState, *memberState, error) {
	gs, ok := s.guilds[guildID]
	if !ok {
		return nil, nil, fmt.Errorf("guild_id: no guild %s: %w", guildID, errSceneNotFound)
	}
	ms, ok := gs.members[userID]
	if !ok {
		return nil, nil, fmt.Errorf("user_id: %s is not a member of guild %s: %w", userID, guildID, errSceneNotFound)
	}
	return gs, ms, nil
}
