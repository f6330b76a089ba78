package guildkittest

import (
	"net/http"

	"github.com/seed012df1e9/guildkit"
)

// The role hierarchy. The interface's documents are silent on it; the
// server follows the reference platform (API v10), which enforces it on
// every moderation and role operation:
//
//   - a member may not kick, ban, time out, or change the roles or the
//     nickname of a member whose highest role is not below its own highest
//     role (its own roles and nickname excepted, as the platform allows);
//   - it may not edit, move, delete, assign or remove a role at or above its
//     own highest role;
//   - it may not grant permissions it does not hold, to a role or to
//     @everyone;
//   - nobody but the owner changes the owner's nickname, and nobody kicks,
//     bans or times out the owner;
//   - the owner is exempt from all of it. ADMINISTRATOR is not: an
//     administrator too may act only on members and roles below it.
//
// Every refusal is 403 Missing Permissions (code 50013), as the platform
// answers.

// roleRank is where a role sits in the hierarchy.
type roleRank struct {
	everyone bool // the @everyone role, below every other role
	position int
	id       guildkit.Snowflake
}

// above reports whether a ranks above b: @everyone is the lowest role
// whatever its position; otherwise the higher position, and among equal
// positions the older role (the lower id), as the reference platform sorts
// them.
func (a roleRank) above(b roleRank) bool {
	switch {
	case a.everyone != b.everyone:
		return b.everyone
	case a.position != b.position:
		return a.position > b.position
	}
	return a.id < b.id
}

// rankOf returns a role's rank in gs.
func (gs *guildState) rankOf(r *guildkit.Role) roleRank {
	return roleRank{everyone: r.ID == gs.guild.ID, position: r.Position, id: r.ID}
}

// topRank returns the rank of userID's highest role: @everyone's for a
// member with no role (and for a non-member).
func (gs *guildState) topRank(userID guildkit.Snowflake) roleRank {
	top := roleRank{everyone: true, id: gs.guild.ID}
	ms, ok := gs.members[userID]
	if !ok {
		return top
	}
	for _, id := range ms.member.Roles {
		if r, ok := gs.roles[id]; ok && id != gs.guild.ID {
			if rk := gs.rankOf(r); rk.above(top) {
				top = rk
			}
		}
	}
	return top
}

// outranks reports whether caller may act on the member target: the owner
// may act on anyone; nobody else on the owner; otherwise caller's highest
// role must be above target's.
func (gs *guildState) outranks(caller, target guildkit.Snowflake) bool {
	switch {
	case caller == gs.guild.OwnerID:
		return true
	case target == gs.guild.OwnerID:
		return false
	}
	return gs.topRank(caller).above(gs.topRank(target))
}

// managesRole reports whether caller may edit, move, delete, assign or
// remove the role: the owner always; anyone else only below its highest
// role.
func (gs *guildState) managesRole(caller guildkit.Snowflake, r *guildkit.Role) bool {
	return caller == gs.guild.OwnerID || gs.topRank(caller).above(gs.rankOf(r))
}

// forbidden answers 403 Missing Permissions, the reference platform's
// answer to every hierarchy refusal.
func (c *call) forbidden() {
	c.error(http.StatusForbidden, guildkit.CodeMissingPermissions, "Missing Permissions")
}

// requireOutranks answers 403 unless the caller may act on target.
func (c *call) requireOutranks(gs *guildState, target guildkit.Snowflake) bool {
	if gs.outranks(c.user, target) {
		return true
	}
	c.forbidden()
	return false
}

// requireManagesRoles answers 403 unless the caller may manage every role
// in ids (ids that name no role are left to the caller's own checks).
func (c *call) requireManagesRoles(gs *guildState, ids ...guildkit.Snowflake) bool {
	for _, id := range ids {
		if r, ok := gs.roles[id]; ok && !gs.managesRole(c.user, r) {
			c.forbidden()
			return false
		}
	}
	return true
}

// requireGrant answers 403 unless the caller holds every permission in
// granted (the owner and administrators hold all).
func (c *call) requireGrant(gs *guildState, granted guildkit.Permissions) bool {
	if gs.permissions(c.user).Has(granted) {
		return true
	}
	c.forbidden()
	return false
}
