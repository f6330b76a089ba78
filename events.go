package guildkit

// EventName names a gateway event, as the operations of the interface emit
// them. The interface names the events but does not show their payloads; the
// names are the reference platform's.
type EventName string

// The events the interface's operations emit.
const (
	EventGuildUpdate             EventName = "GUILD_UPDATE"              // Modify Guild, Modify Guild Widget, Modify Guild Welcome Screen
	EventChannelCreate           EventName = "CHANNEL_CREATE"            // Create Guild Channel
	EventChannelUpdate           EventName = "CHANNEL_UPDATE"            // Modify Guild Channel Positions, one per channel moved
	EventGuildMemberAdd          EventName = "GUILD_MEMBER_ADD"          // Add Guild Member; a member joining
	EventGuildMemberUpdate       EventName = "GUILD_MEMBER_UPDATE"       // Modify Guild Member, Modify Current Member, Modify Current User Nick, Add/Remove Guild Member Role, screening completed
	EventGuildMemberRemove       EventName = "GUILD_MEMBER_REMOVE"       // Remove Guild Member; Begin Guild Prune, one per member pruned
	EventGuildBanAdd             EventName = "GUILD_BAN_ADD"             // Create Guild Ban
	EventGuildBanRemove          EventName = "GUILD_BAN_REMOVE"          // Remove Guild Ban
	EventGuildRoleCreate         EventName = "GUILD_ROLE_CREATE"         // Create Guild Role
	EventGuildRoleUpdate         EventName = "GUILD_ROLE_UPDATE"         // Modify Guild Role; Modify Guild Role Positions, one per role
	EventGuildRoleDelete         EventName = "GUILD_ROLE_DELETE"         // Delete Guild Role
	EventGuildIntegrationsUpdate EventName = "GUILD_INTEGRATIONS_UPDATE" // Delete Guild Integration
	EventIntegrationDelete       EventName = "INTEGRATION_DELETE"        // Delete Guild Integration
	EventInviteCreate            EventName = "INVITE_CREATE"             // Get Guild Widget, when it generates an invite
	EventInviteDelete            EventName = "INVITE_DELETE"             // Delete Invite
	EventWebhooksUpdate          EventName = "WEBHOOKS_UPDATE"           // Create, Modify and Delete Webhook
)

// Events of messages, which the interface's documents do not list: the
// in-memory server emits them for the messages interactions make, edit and
// delete (the reference platform's names). They are not in [Events].
const (
	EventMessageCreate EventName = "MESSAGE_CREATE" // an answer or a follow-up that is not ephemeral
	EventMessageUpdate EventName = "MESSAGE_UPDATE" // UPDATE_MESSAGE, an edit of an original response or follow-up
	EventMessageDelete EventName = "MESSAGE_DELETE" // a deleted original response or follow-up
)

// Events lists every event name the interface's operations emit.
var Events = []EventName{
	EventGuildUpdate, EventChannelCreate, EventChannelUpdate, EventGuildMemberAdd,
	EventGuildMemberUpdate, EventGuildMemberRemove, EventGuildBanAdd, EventGuildBanRemove,
	EventGuildRoleCreate, EventGuildRoleUpdate, EventGuildRoleDelete,
	EventGuildIntegrationsUpdate, EventIntegrationDelete, EventInviteCreate,
	EventInviteDelete, EventWebhooksUpdate,
}

// String returns the event's name.
func (e EventName) String() string { return string(e) }
