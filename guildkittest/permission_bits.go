package guildkittest

import "github.com/seed012df1e9/guildkit"

// platformPermissions is every permission bit the reference platform
// defines ([guildkit.AllPermissions]: bits 0 to 46 and 48 to 52,
// 8,866,461,766,385,663 in all). The owner of a guild and holders of
// ADMINISTRATOR get all of these and no more: the platform never sends
// undefined bits, and a value with bit 63 set (all 64 bits,
// 18446744073709551615) is one that discordgo and disgo read as a signed
// 64-bit integer and fail on, dropping the whole INTERACTION_CREATE that
// carries it. Every permission value the server computes (a member's
// permissions, an interaction's app_permissions, a guild's permissions in
// List Current User Guilds) holds only these bits.
const platformPermissions = guildkit.AllPermissions
