package main

import (
	"context"
	"fmt"
	"io"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/gateway"
	"github.com/seed012df1e9/guildkit/interactions"
	"github.com/seed012df1e9/guildkit/state"
)

// keepState opens a shard that keeps cache true (GUILDS only: no
// privileged intent), and returns once the cache holds every guild.
func keepState(ctx context.Context, cache *state.Cache, token string, opts ...gateway.Option) (*gateway.Shard, error) {
	shard, err := gateway.NewShard(token, opts...)
	if err != nil {
		return nil, err
	}
	filled := make(chan struct{}, 1)
	cache.Attach(shard, &state.AttachOptions{OnRebuild: func(state.Rebuild) { filled <- struct{}{} }})
	if err := shard.Open(ctx); err != nil {
		_ = shard.End(context.WithoutCancel(ctx))
		return nil, fmt.Errorf("connecting to the gateway: %w", err)
	}
	select {
	case <-filled:
		return shard, nil
	case <-ctx.Done():
		_ = shard.End(context.WithoutCancel(ctx))
		return nil, ctx.Err()
	}
}

// serveGateway receives the bot's interactions over the gateway until ctx
// ends: the same functions as the endpoint, answered through the callback
// route. It needs no public key, and no intent: INTERACTION_CREATE always
// arrives.
func serveGateway(ctx context.Context, out io.Writer, getenv func(string) string) error {
	token := getenv("GUILDKIT_TOKEN")
	client, err := guildkit.New(guildkit.BotToken(token), guildkit.WithBaseURL(getenv("GUILDKIT_BASE_URL")))
	if err != nil {
		return err
	}
	b := &bot{client: client, cache: state.NewCache(nil)}
	h, err := interactions.NewGatewayHandler(client)
	if err != nil {
		return err
	}
	b.register(h)
	appID, _ := guildkit.ParseSnowflake(getenv("GUILDKIT_APPLICATION_ID")) // 0 when unset: the token's own
	if err := syncCommands(ctx, out, h, appID, getenv); err != nil {
		return err
	}
	shard, err := gateway.NewShard(token, gateway.WithClient(client))
	if err != nil {
		return err
	}
	b.cache.Attach(shard, nil)                       // GUILDS: the guilds' roles and channels, the bot's member
	gateway.OnInteraction(shard, h.ServeInteraction) // instead of http.Handle("/interactions", h)
	// Run until ctx ends (Ctrl-C), then close resumably and let the
	// functions still answering finish: Wait: h.
	return shard.Run(ctx, &gateway.RunOptions{
		Wait:  []gateway.Waiter{h},
		Ready: func() { fmt.Fprintln(out, "connected to the gateway: answering interactions") },
	})
}
