package redisstate

import (
	"context"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/gateway"
	"github.com/seed012df1e9/guildkit/state"
)

// RESTResync returns an [Options.Resync] that rebuilds a guild through
// client: the guild (with its roles, emojis and stickers, and its
// approximate member count), its channels and its active threads, applied
// as a GUILD_CREATE without members would be. Members held stay when the
// member policy keeps the guild's members wholesale (the next member list
// refreshes them); otherwise all but the bot's own are dropped, and come
// back as they act. Three requests per guild, rate-limit aware as every
// request of client is.
func RESTResync(client *guildkit.Client) func(ctx context.Context, guildID state.Snowflake) ([]state.Update, error) {
	return func(ctx context.Context, guildID state.Snowflake) ([]state.Update, error) {
		g, err := client.Guilds.Get(ctx, guildID, &guildkit.GuildGetParams{WithCounts: guildkit.Some(true)})
		if err != nil {
			return nil, err
		}
		chans, err := client.Channels.List(ctx, guildID)
		if err != nil {
			return nil, err
		}
		threads, err := client.Channels.ListActiveThreads(ctx, guildID)
		if err != nil {
			return nil, err
		}
		e := &gateway.GuildCreate{Guild: *g, Channels: chans, Threads: threads.Threads}
		if g.ApproximateMemberCount != nil {
			e.MemberCount = *g.ApproximateMemberCount
		}
		return state.Updates([2]int{0, 1}, e)
	}
}
