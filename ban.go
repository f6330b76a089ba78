package guildkit

// BanService handles the operations on guild bans. Reach it through
// [Client].Bans.
type BanService service
