package guildkittest

import (
	"fmt"
	"time"

	"github.com/seed012df1e9/guildkit"
)

// inviteState is an invite and what the server tracks about it. Invites are
// kept per server by code; guildID and channelID say where they lead.
type inviteState struct {
	invite    guildkit.Invite // without guild, channel and counts: filled when served
	guildID   guildkit.Snowflake
	channelID guildkit.Snowflake
	inviterID guildkit.Snowflake
}

// AddInvite adds an invite to a channel of a guild and returns it with its
// metadata. An empty Code gets a fresh one; Inviter defaults to the bot;
// CreatedAt to now; MaxAge, MaxUses and Uses to 0. Only Code, Type,
// TargetType, TargetUser, Flags, ExpiresAt, Roles and the metadata fields of
// inv are used.
func (s *Server) AddInvite(guildID, channelID guildkit.Snowflake, inv guildkit.Invite) guildkit.Invite {
	s.mu.Lock()
	defer s.mu.Unlock()
	gs := s.mustGuild(guildID)
	if _, ok := gs.channels[channelID]; !ok {
		panic("guildkittest: AddInvite: unknown channel " + channelID.String())
	}
	inviter := s.bot
	if inv.Inviter != nil {
		inviter = inv.Inviter.ID
	}
	return s.addInviteLocked(gs, channelID, inviter, inv)
}

// addInviteLocked stores a new invite; the caller holds s.mu.
func (s *Server) addInviteLocked(gs *guildState, channelID, inviterID guildkit.Snowflake, inv guildkit.Invite) guildkit.Invite {
	if s.invites == nil {
		s.invites = make(map[string]*inviteState)
	}
	if inv.Code == "" {
		inv.Code = fmt.Sprintf("inv%x", uint64(s.newID())&0xffffffffff)
	}
	zero := 0
	for _, p := range []**int{&inv.Uses, &inv.MaxUses, &inv.MaxAge} {
		if *p == nil {
			v := zero
			*p = &v
		}
	}
	if inv.Temporary == nil {
		f := false
		inv.Temporary = &f
	}
	if inv.CreatedAt == nil {
		now := s.now().UTC().Truncate(time.Millisecond)
		inv.CreatedAt = &now
	}
	if inv.ExpiresAt.IsZero() {
		inv.ExpiresAt = guildkit.Null[time.Time]()
	}
	inv.Guild, inv.Channel, inv.Inviter = nil, nil, nil
	inv.ApproximateMemberCount, inv.ApproximatePresenceCount = nil, nil
	s.invites[inv.Code] = &inviteState{invite: inv, guildID: gs.guild.ID, channelID: channelID, inviterID: inviterID}
	return s.inviteJSON(s.invites[inv.Code], true)
}

// inviteJSON returns the invite as the interface shows it, with its guild,
// channel and inviter, and with the metadata when withMetadata is true.
func (s *Server) inviteJSON(is *inviteState, withMetadata bool) guildkit.Invite {
	inv := is.invite
	if gs, ok := s.guilds[is.guildID]; ok {
		g := gs.guild
		inv.Guild = &guildkit.PartialGuild{
			ID: g.ID, Name: g.Name, Icon: g.Icon, Splash: g.Splash, Banner: g.Banner,
			Description: g.Description, Features: append([]guildkit.GuildFeature{}, g.Features...),
			VerificationLevel: g.VerificationLevel, VanityURLCode: g.VanityURLCode, NSFWLevel: g.NSFWLevel,
			PremiumSubscriptionCount: g.PremiumSubscriptionCount,
		}
		if ch, ok := gs.channels[is.channelID]; ok {
			inv.Channel = &guildkit.PartialChannel{ID: ch.ID, Name: ch.Name, Type: ch.Type}
		}
	}
	if u, ok := s.users[is.inviterID]; ok {
		cp := *u
		inv.Inviter = &cp
	}
	if !withMetadata {
		inv.Uses, inv.MaxUses, inv.MaxAge, inv.Temporary, inv.CreatedAt = nil, nil, nil, nil, nil
	}
	return inv
}

// Invite returns an invite as the server holds it, with its metadata.
func (s *Server) Invite(code string) (guildkit.Invite, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	is, ok := s.invites[code]
	if !ok {
		return guildkit.Invite{}, false
	}
	return s.inviteJSON(is, true), true
}
