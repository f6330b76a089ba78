package state

import (
	"errors"
	"time"

	"github.com/seed012df1e9/guildkit"
)

// timedOutKeeps is what a timed-out member keeps: VIEW_CHANNEL and
// READ_MESSAGE_HISTORY.
const timedOutKeeps = guildkit.PermissionViewChannel | guildkit.PermissionReadMessageHistory

// sendDependent is what a member without SEND_MESSAGES cannot use in a
// text channel.
const sendDependent = guildkit.PermissionMentionEveryone | guildkit.PermissionSendTTSMessages |
	guildkit.PermissionAttachFiles | guildkit.PermissionEmbedLinks

// connectDependent is what a member without CONNECT cannot use in a voice or
// stage channel: the voice permissions, and MANAGE_CHANNELS, the docs'
// example.
const connectDependent = guildkit.PermissionManageChannels | guildkit.PermissionPrioritySpeaker |
	guildkit.PermissionStream | guildkit.PermissionSpeak | guildkit.PermissionMuteMembers |
	guildkit.PermissionDeafenMembers | guildkit.PermissionMoveMembers | guildkit.PermissionUseVAD |
	guildkit.PermissionRequestToSpeak | guildkit.PermissionUseSoundboard | guildkit.PermissionUseExternalSounds |
	guildkit.PermissionSetVoiceChannelStatus

// staleness remembers whether any read of a computation was stale.
type staleness struct{ stale bool }

// ok reports whether err lets the computation go on, noting ErrStale.
func (s *staleness) ok(err error) bool {
	if err == nil {
		return true
	}
	if errors.Is(err, ErrStale) {
		s.stale = true
		return true
	}
	return false
}

func (s *staleness) result(p guildkit.Permissions) (guildkit.Permissions, error) {
	if s.stale {
		return p, ErrStale
	}
	return p, nil
}

// base computes userID's guild-level permissions (permissions.md §3) and
// whether they are the owner's or an administrator's.
func base(r Reader, guildID, userID Snowflake, st *staleness) (p guildkit.Permissions, m Member, admin bool, err error) {
	g, err := r.Guild(guildID)
	if !st.ok(err) {
		return 0, m, false, err
	}
	m, err = r.Member(guildID, userID)
	if userID == g.OwnerID {
		return guildkit.AllPermissions, m, true, nil
	}
	if !st.ok(err) {
		return 0, m, false, err
	}
	every, err := r.Role(guildID, guildID)
	if err != nil && !st.ok(err) && !errors.Is(err, ErrNotFound) {
		return 0, m, false, err
	}
	p = every.Permissions
	for i := range m.Roles.Len() {
		rid := m.Roles.At(i)
		if rid == guildID {
			continue
		}
		role, err := r.Role(guildID, rid)
		switch {
		case err == nil:
		case errors.Is(err, ErrNotFound):
			continue // a deleted role lingering in the member's roles
		case !st.ok(err):
			return 0, m, false, err
		}
		p |= role.Permissions
	}
	if p.Has(guildkit.PermissionAdministrator) {
		return guildkit.AllPermissions, m, true, nil
	}
	return p, m, false, nil
}

// MemberPermissions returns the guild-level permissions of the member
// userID in guildID at time now, by the platform's algorithm
// (permissions.md §3, §7): ALL for the owner and for ADMINISTRATOR; else
// the @everyone role's and the member's roles' permissions, cut down to
// VIEW_CHANNEL and READ_MESSAGE_HISTORY while the member is timed out.
//
// It reads the guild, the member and its roles from r: an error matching
// [ErrNotFound] when the cache does not hold the member (read it through
// a [Fetcher] first), [ErrStale] with the permissions when a read was.
func MemberPermissions(r Reader, guildID, userID Snowflake, now time.Time) (guildkit.Permissions, error) {
	var st staleness
	p, m, admin, err := base(r, guildID, userID, &st)
	if err != nil {
		return 0, err
	}
	if !admin && m.TimedOut(now) {
		p &= timedOutKeeps
	}
	return st.result(p)
}

// RawPermissionsIn returns the member's permissions in a channel after the
// overwrites (permissions.md §3-§4), without timeouts and implicit
// denials: the value the platform precomputes (an interaction member's
// permissions), for comparison with it. A thread takes its parent's
// overwrites. Use [MemberPermissionsIn] to learn what the member can do.
func RawPermissionsIn(r Reader, channelID, userID Snowflake) (guildkit.Permissions, error) {
	var st staleness
	p, _, _, _, err := channelRaw(r, channelID, userID, &st)
	if err != nil {
		return 0, err
	}
	return st.result(p)
}

// channelRaw computes the raw channel permissions, returning the channel
// (not its parent), the member and whether the member is owner or admin.
func channelRaw(r Reader, channelID, userID Snowflake, st *staleness) (p guildkit.Permissions, ch Channel, m Member, admin bool, err error) {
	ch, err = r.Channel(channelID)
	if !st.ok(err) {
		return 0, ch, m, false, err
	}
	p, m, admin, err = base(r, ch.GuildID, userID, st)
	if err != nil || admin {
		return p, ch, m, admin, err
	}
	src := ch
	if ch.IsThread() && ch.ParentID != 0 {
		parent, err := r.Channel(ch.ParentID)
		if !st.ok(err) {
			return 0, ch, m, false, err
		}
		src = parent
	}
	guildID := ch.GuildID
	var allow, deny guildkit.Permissions
	ows := src.Overwrites.s
	for i := range ows { // step 1: @everyone
		if ows[i].Type == guildkit.OverwriteTypeRole && ows[i].ID == guildID {
			p = p&^ows[i].Deny | ows[i].Allow
		}
	}
	for i := range ows { // step 2: the member's roles, together
		if ows[i].Type == guildkit.OverwriteTypeRole && ows[i].ID != guildID && m.Roles.Has(ows[i].ID) {
			allow |= ows[i].Allow
			deny |= ows[i].Deny
		}
	}
	p = p&^deny | allow
	for i := range ows { // step 3: the member
		if ows[i].Type == guildkit.OverwriteTypeMember && ows[i].ID == userID {
			p = p&^ows[i].Deny | ows[i].Allow
		}
	}
	return p, ch, m, false, nil
}

// MemberPermissionsIn returns what the member userID can do in a channel
// or thread at time now, by the platform's algorithm (permissions.md
// §3-§7): ALL for the owner and ADMINISTRATOR (overwrites, timeouts and
// implicit denials do not apply); else the guild-level permissions, then
// the channel's overwrites for @everyone, for the member's roles (allow
// beats deny among them) and for the member, in that order; cut down to
// VIEW_CHANNEL and READ_MESSAGE_HISTORY while timed out; then the implicit
// denials: without VIEW_CHANNEL nothing (0), without SEND_MESSAGES none of
// MENTION_EVERYONE, SEND_TTS_MESSAGES, ATTACH_FILES, EMBED_LINKS, and in a
// voice or stage channel without CONNECT none of the voice permissions. A
// thread has its parent's permissions; posting in it needs
// SEND_MESSAGES_IN_THREADS, which the result shows as is.
//
// Errors are [MemberPermissions']: ErrNotFound also for an unknown channel
// (or a thread's unknown parent).
func MemberPermissionsIn(r Reader, channelID, userID Snowflake, now time.Time) (guildkit.Permissions, error) {
	var st staleness
	p, ch, m, admin, err := channelRaw(r, channelID, userID, &st)
	if err != nil {
		return 0, err
	}
	if admin {
		return st.result(p)
	}
	if m.TimedOut(now) {
		p &= timedOutKeeps
	}
	if !p.Has(guildkit.PermissionViewChannel) {
		return st.result(0)
	}
	switch ch.Type {
	case guildkit.ChannelTypeGuildVoice, guildkit.ChannelTypeGuildStageVoice:
		if !p.Has(guildkit.PermissionConnect) {
			p &^= connectDependent
		}
	}
	if !p.Has(guildkit.PermissionSendMessages) {
		p &^= sendDependent
	}
	return st.result(p)
}

// rank is where a role sits in the hierarchy.
type rank struct {
	everyone bool
	position int
	id       Snowflake
}

// above reports whether a ranks above b: @everyone is the lowest; then
// the higher position; among equal positions the lower (older) id.
func (a rank) above(b rank) bool {
	switch {
	case a.everyone != b.everyone:
		return b.everyone
	case a.position != b.position:
		return a.position > b.position
	}
	return a.id < b.id
}

func rankOf(r Role) rank { return rank{everyone: r.ID == r.GuildID, position: r.Position, id: r.ID} }

// HighestRole returns the member's highest role (permissions.md §8): the
// one with the greatest position, the older of two at the same position;
// the @everyone role for a member with none.
func HighestRole(r Reader, guildID, userID Snowflake) (Role, error) {
	var st staleness
	m, err := r.Member(guildID, userID)
	if !st.ok(err) {
		return Role{}, err
	}
	top, err := r.Role(guildID, guildID)
	if err != nil && !st.ok(err) && !errors.Is(err, ErrNotFound) {
		return Role{}, err
	}
	top.ID, top.GuildID = guildID, guildID
	for i := range m.Roles.Len() {
		role, err := r.Role(guildID, m.Roles.At(i))
		if err != nil {
			if errors.Is(err, ErrNotFound) || !st.ok(err) {
				continue
			}
		}
		if rankOf(role).above(rankOf(top)) {
			top = role
		}
	}
	if st.stale {
		return top, ErrStale
	}
	return top, nil
}

// CanManageMember reports whether actorID may kick, ban, time out or change
// the nickname or roles of targetID, as far as the role hierarchy goes
// (permissions.md §8): the owner may act on anyone and nobody on the
// owner; otherwise the actor's highest role must be strictly above the
// target's. It does not check the permission the action needs: see
// [MemberPermissions].
func CanManageMember(r Reader, guildID, actorID, targetID Snowflake) (bool, error) {
	var st staleness
	g, err := r.Guild(guildID)
	if !st.ok(err) {
		return false, err
	}
	switch {
	case actorID == g.OwnerID:
		return true, st.err()
	case targetID == g.OwnerID:
		return false, st.err()
	}
	a, err := HighestRole(r, guildID, actorID)
	if !st.ok(err) {
		return false, err
	}
	t, err := HighestRole(r, guildID, targetID)
	if !st.ok(err) {
		return false, err
	}
	return rankOf(a).above(rankOf(t)), st.err()
}

// CanManageRole reports whether actorID may give, take, edit, move or
// delete roleID as far as the hierarchy goes: the owner always; anyone
// else only when the role is strictly below the actor's highest role.
// Editing a role also needs that it grants only permissions the actor has.
func CanManageRole(r Reader, guildID, actorID, roleID Snowflake) (bool, error) {
	var st staleness
	g, err := r.Guild(guildID)
	if !st.ok(err) {
		return false, err
	}
	if actorID == g.OwnerID {
		return true, st.err()
	}
	role, err := r.Role(guildID, roleID)
	if !st.ok(err) {
		return false, err
	}
	a, err := HighestRole(r, guildID, actorID)
	if !st.ok(err) {
		return false, err
	}
	return rankOf(a).above(rankOf(role)), st.err()
}

func (s *staleness) err() error {
	if s.stale {
		return ErrStale
	}
	return nil
}
