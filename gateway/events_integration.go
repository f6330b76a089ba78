package gateway

import "github.com/seed012df1e9/guildkit"

// GuildIntegrationsUpdate is GUILD_INTEGRATIONS_UPDATE (intent
// GUILD_INTEGRATIONS): the guild's integrations changed (Delete Guild
// Integration); read them again with [guildkit.GuildService.ListIntegrations].
type GuildIntegrationsUpdate struct {
	GuildID guildkit.Snowflake `json:"guild_id"`
}

// EventName returns "GUILD_INTEGRATIONS_UPDATE".
func (*GuildIntegrationsUpdate) EventName() string { return "GUILD_INTEGRATIONS_UPDATE" }

// IntegrationCreate is INTEGRATION_CREATE (intent GUILD_INTEGRATIONS): an
// integration was added. The platform sends the integration without its
// user (Integration.User is nil).
type IntegrationCreate struct {
	guildkit.Integration
	GuildID guildkit.Snowflake `json:"guild_id"`
}

// EventName returns "INTEGRATION_CREATE".
func (*IntegrationCreate) EventName() string { return "INTEGRATION_CREATE" }

// IntegrationUpdate is INTEGRATION_UPDATE (intent GUILD_INTEGRATIONS): an
// integration changed; like [IntegrationCreate], without its user.
type IntegrationUpdate struct {
	guildkit.Integration
	GuildID guildkit.Snowflake `json:"guild_id"`
}

// EventName returns "INTEGRATION_UPDATE".
func (*IntegrationUpdate) EventName() string { return "INTEGRATION_UPDATE" }

// IntegrationDelete is INTEGRATION_DELETE (intent GUILD_INTEGRATIONS): an
// integration was removed (Delete Guild Integration, with a
// GUILD_INTEGRATIONS_UPDATE).
type IntegrationDelete struct {
	ID      guildkit.Snowflake `json:"id"`
	GuildID guildkit.Snowflake `json:"guild_id"`
	// ApplicationID is the bot or OAuth2 application of the integration.
	// Nil when absent.
	ApplicationID *guildkit.Snowflake `json:"application_id,omitempty"`
}

// EventName returns "INTEGRATION_DELETE".
func (*IntegrationDelete) EventName() string { return "INTEGRATION_DELETE" }

// WebhooksUpdate is WEBHOOKS_UPDATE (intent GUILD_WEBHOOKS): a webhook of
// the channel was created, changed or deleted (Create, Modify or Delete
// Webhook). It says nothing more: read the channel's webhooks with
// [guildkit.WebhookService.ListChannel].
type WebhooksUpdate struct {
	GuildID   guildkit.Snowflake `json:"guild_id"`
	ChannelID guildkit.Snowflake `json:"channel_id"`
}

// EventName returns "WEBHOOKS_UPDATE".
func (*WebhooksUpdate) EventName() string { return "WEBHOOKS_UPDATE" }
