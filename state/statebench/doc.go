// Package statebench measures the state cache beside the caches of two
// other Go libraries, discordgo's State and disgo's cache, fed the same
// GUILD_CREATE stream. It is a module of its own so that those libraries
// never enter guildkit's go.mod.
package statebench
