package guildkit

// InviteService handles the operations on invites and their target users. Reach it through
// [Client].Invites.
type InviteService service
