package guildkit

import (
	"context"
	"time"
)

// IntegrationType is the kind of an integration.
type IntegrationType string

// Integration types: two third-party streaming/video kinds, the platform's
// own bot kind and guild subscriptions. The interface does not name the
// first three; these are the reference platform's names.
const (
	IntegrationTypeTwitch            IntegrationType = "twitch"
	IntegrationTypeYouTube           IntegrationType = "youtube"
	IntegrationTypeBot               IntegrationType = "discord"
	IntegrationTypeGuildSubscription IntegrationType = "guild_subscription"
)

// IntegrationExpireBehavior is what happens to a subscriber whose
// subscription expires.
type IntegrationExpireBehavior int

// Integration expire behaviours.
const (
	IntegrationExpireRemoveRole IntegrationExpireBehavior = 0
	IntegrationExpireKick       IntegrationExpireBehavior = 1
)

func (b IntegrationExpireBehavior) String() string {
	return enumString("IntegrationExpireBehavior", []string{"REMOVE_ROLE", "KICK"}, int(b))
}

// Integration is a guild integration. The fields marked "not for bots" are
// absent for bot integrations.
type Integration struct {
	ID                Snowflake                  `json:"id"`
	Name              string                     `json:"name"`
	Type              IntegrationType            `json:"type"`
	Enabled           bool                       `json:"enabled"`
	Syncing           *bool                      `json:"syncing,omitempty"`             // not for bots; nil when absent
	RoleID            *Snowflake                 `json:"role_id,omitempty"`             // subscriber role; not for bots; nil when absent
	EnableEmoticons   *bool                      `json:"enable_emoticons,omitempty"`    // one streaming kind only; nil when absent
	ExpireBehavior    *IntegrationExpireBehavior `json:"expire_behavior,omitempty"`     // not for bots; nil when absent
	ExpireGracePeriod *int                       `json:"expire_grace_period,omitempty"` // days; not for bots; nil when absent
	User              *User                      `json:"user,omitempty"`                // some older integrations have none; nil when absent
	Account           IntegrationAccount         `json:"account"`
	SyncedAt          *time.Time                 `json:"synced_at,omitempty"`        // not for bots; nil when absent
	SubscriberCount   *int                       `json:"subscriber_count,omitempty"` // not for bots; nil when absent
	Revoked           *bool                      `json:"revoked,omitempty"`          // not for bots; nil when absent
	Application       *PartialApplication        `json:"application,omitempty"`      // nil when absent
	Scopes            []string                   `json:"scopes,omitzero"`            // OAuth2 scopes
}

// IntegrationAccount is the account an integration belongs to.
type IntegrationAccount struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// ListIntegrations returns the guild's integrations: at most 50 (the rest
// cannot be reached). Requires MANAGE_GUILD.
//
// Spec: "Get Guild Integrations" — GET /guilds/{guild.id}/integrations
func (s *GuildService) ListIntegrations(ctx context.Context, guildID Snowflake, opts ...RequestOption) ([]Integration, error) {
	var out []Integration
	if _, err := s.c.do(ctx, &request{method: "GET", route: "/guilds/{guild.id}/integrations", path: []any{guildID}, opts: opts}, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// DeleteIntegration deletes an integration, its webhooks, and kicks its bot.
// Requires MANAGE_GUILD. Emits GUILD_INTEGRATIONS_UPDATE and
// INTEGRATION_DELETE. The service answers 204. Supports WithReason.
//
// Spec: "Delete Guild Integration" — DELETE /guilds/{guild.id}/integrations/{integration.id}
func (s *GuildService) DeleteIntegration(ctx context.Context, guildID, integrationID Snowflake, opts ...RequestOption) error {
	_, err := s.c.do(ctx, &request{method: "DELETE", route: "/guilds/{guild.id}/integrations/{integration.id}",
		path: []any{guildID, integrationID}, auditLog: true, opts: opts}, nil)
	return err
}
