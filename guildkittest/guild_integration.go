package guildkittest

import (
	"cmp"
	"net/http"
	"slices"
	"time"

	"github.com/seed012df1e9/guildkit"
)

// MaxIntegrations is how many integrations Get Guild Integrations returns;
// the rest cannot be reached.
const MaxIntegrations = 50

// AddIntegration adds an integration to a guild and returns it. A zero ID
// gets a fresh one; an empty Account gets the integration's id and name.
// An external integration (twitch, youtube) carries, as the reference
// platform's answers do and its published schema requires, the user who
// connected it (the guild's owner when User is nil) and its sync fields
// (syncing, synced_at, subscriber_count, revoked, expire_behavior,
// expire_grace_period; enable_emoticons for twitch) with the platform's
// defaults when unset. A guild can hold more than [MaxIntegrations]; only
// that many are listed.
func (s *Server) AddIntegration(guildID guildkit.Snowflake, in guildkit.Integration) guildkit.Integration {
	s.mu.Lock()
	defer s.mu.Unlock()
	gs := s.mustGuild(guildID)
	if in.ID == 0 {
		in.ID = s.newID()
	}
	if in.Type == "" {
		in.Type = guildkit.IntegrationTypeBot
	}
	if in.Type == guildkit.IntegrationTypeBot && len(in.Scopes) == 0 {
		// The reference platform always sends a bot integration's
		// scopes; a bot is added with at least "bot".
		in.Scopes = []string{"bot"}
	}
	if in.Account == (guildkit.IntegrationAccount{}) {
		in.Account = guildkit.IntegrationAccount{ID: in.ID.String(), Name: in.Name}
	}
	if in.Type == guildkit.IntegrationTypeTwitch || in.Type == guildkit.IntegrationTypeYouTube {
		s.fillExternalIntegrationLocked(gs, &in)
	}
	cp := copyIntegration(in)
	gs.settings.integrations[in.ID] = &cp
	return shaped(copyIntegration(in))
}

// fillExternalIntegrationLocked gives an external integration the fields
// the platform always sends with one: its user and its sync state.
func (s *Server) fillExternalIntegrationLocked(gs *guildState, in *guildkit.Integration) {
	if in.User == nil {
		in.User = s.userLocked(gs.guild.OwnerID)
	}
	no, zero, oneDay := false, 0, 1
	behavior := guildkit.IntegrationExpireRemoveRole
	if in.Syncing == nil {
		in.Syncing = &no
	}
	if in.Revoked == nil {
		in.Revoked = &no
	}
	if in.SubscriberCount == nil {
		in.SubscriberCount = &zero
	}
	if in.ExpireBehavior == nil {
		in.ExpireBehavior = &behavior
	}
	if in.ExpireGracePeriod == nil {
		in.ExpireGracePeriod = &oneDay
	}
	if in.SyncedAt == nil {
		at := s.now().UTC().Truncate(time.Second)
		in.SyncedAt = &at
	}
	if in.EnableEmoticons == nil && in.Type == guildkit.IntegrationTypeTwitch {
		in.EnableEmoticons = &no
	}
}

// Integrations returns a guild's integrations by id, all of them.
func (s *Server) Integrations(guildID guildkit.Snowflake) []guildkit.Integration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return shaped(sortedIntegrations(s.mustGuild(guildID)))
}

func sortedIntegrations(gs *guildState) []guildkit.Integration {
	out := make([]guildkit.Integration, 0, len(gs.settings.integrations))
	for _, in := range gs.settings.integrations {
		out = append(out, copyIntegration(*in))
	}
	slices.SortFunc(out, func(a, b guildkit.Integration) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

func copyIntegration(in guildkit.Integration) guildkit.Integration {
	in.Scopes = slices.Clone(in.Scopes)
	if in.Application != nil {
		a := *in.Application
		in.Application = &a
	}
	if in.User != nil {
		u := *in.User
		in.User = &u
	}
	return in
}

// listIntegrations: Get Guild Integrations, the first 50 by id.
func (s *Server) listIntegrations(c *call) {
	gs, ok := c.guild()
	if !ok || !c.require(gs, guildkit.PermissionManageGuild) {
		return
	}
	out := sortedIntegrations(gs)
	c.json(http.StatusOK, out[:min(len(out), MaxIntegrations)])
}

// GuildIntegrationsUpdate is the data of a GUILD_INTEGRATIONS_UPDATE event.
type GuildIntegrationsUpdate struct {
	GuildID guildkit.Snowflake `json:"guild_id"`
}

// IntegrationDelete is the data of an INTEGRATION_DELETE event.
type IntegrationDelete struct {
	ID            guildkit.Snowflake  `json:"id"`
	GuildID       guildkit.Snowflake  `json:"guild_id"`
	ApplicationID *guildkit.Snowflake `json:"application_id,omitempty"`
}

// deleteIntegration: Delete Guild Integration. It kicks the integration's
// bot (emitting GUILD_MEMBER_REMOVE with the member) and emits
// GUILD_INTEGRATIONS_UPDATE and INTEGRATION_DELETE. The integration's
// webhooks are not tracked by this server.
func (s *Server) deleteIntegration(c *call) {
	gs, ok := c.guild()
	if !ok || !c.require(gs, guildkit.PermissionManageGuild) {
		return
	}
	id, ok := c.id("integration_id", guildkit.CodeUnknownIntegration, "Integration")
	if !ok {
		return
	}
	in, ok := gs.settings.integrations[id]
	if !ok {
		c.error(http.StatusNotFound, guildkit.CodeUnknownIntegration, "Unknown Integration")
		return
	}
	delete(gs.settings.integrations, id)
	gid := gs.guild.ID
	var appID *guildkit.Snowflake
	if in.Application != nil {
		app := in.Application.ID
		appID = &app
		if bot := in.Application.Bot; bot != nil && bot.ID != gs.guild.OwnerID {
			if ms, ok := gs.members[bot.ID]; ok {
				delete(gs.members, bot.ID)
				s.emit(guildkit.EventGuildMemberRemove, gid, copyMember(ms.member))
			}
		}
	}
	if appID != nil {
		s.deleteApplicationWebhooksLocked(gid, *appID)
	}
	s.emit(guildkit.EventGuildIntegrationsUpdate, gid, GuildIntegrationsUpdate{GuildID: gid})
	s.emit(guildkit.EventIntegrationDelete, gid, IntegrationDelete{ID: id, GuildID: gid, ApplicationID: appID})
	c.noContent()
}
