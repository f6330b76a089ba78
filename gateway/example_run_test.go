package gateway_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"log/slog"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/gateway"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// A bot's whole life in one call. A program's main is
//
//	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
//	defer stop()
//	if err := shard.Run(ctx, nil); err != nil {
//		log.Fatal(err)
//	}
//
// Here the in-memory server plays the platform and cancelling the context
// plays Ctrl-C: Run closes resumably, waits for the handlers, and hands
// the session to Save for the next start (gateway.WithSession).
func ExampleShard_Run() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{Name: "Makers"})
	shard, err := gateway.NewShard(srv.Token(), gateway.WithClient(srv.Client()),
		gateway.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	if err != nil {
		log.Fatal(err)
	}
	gateway.On(shard, func(ctx context.Context, e *gateway.GuildRoleCreate) {
		fmt.Println("role created:", e.Role.Name)
	})

	ctx, interrupt := context.WithCancel(context.Background())
	ready, done := make(chan struct{}), make(chan error, 1)
	go func() {
		done <- shard.Run(ctx, &gateway.RunOptions{
			Ready: func() { close(ready) },
			Save: func(s []gateway.Session) error {
				fmt.Printf("saved the session at event %d\n", s[0].Sequence)
				return nil
			},
		})
	}()
	<-ready
	if _, err := srv.Client().Roles.Create(ctx, g.ID, &guildkit.RoleCreateParams{Name: guildkit.Some("Artist")}); err != nil {
		log.Fatal(err)
	}
	if err := srv.Settle(ctx, shard); err != nil {
		log.Fatal(err)
	}
	interrupt()
	fmt.Println("Run returned:", <-done)
	// Output:
	// role created: Artist
	// saved the session at event 3
	// Run returned: <nil>
}

// A test waits for the handlers with the in-memory server's Settle: one
// line, no sleep. The server knows which events it sent to the shard's
// session; WaitHandled knows which of them the handlers finished.
func ExampleShard_WaitHandled() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{Name: "Makers"})
	shard, _ := gateway.NewShard(srv.Token(), gateway.WithClient(srv.Client()),
		gateway.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	joined := 0 // written by the handler, read after Settle: no race
	gateway.On(shard, func(ctx context.Context, e *gateway.GuildMemberAdd) { joined++ })
	ctx := context.Background()
	if err := shard.Open(ctx); err != nil {
		log.Fatal(err)
	}
	defer shard.End(ctx)

	srv.JoinMember(g.ID, guildkit.User{Username: "ada"})
	srv.JoinMember(g.ID, guildkit.User{Username: "grace"})
	if err := srv.Settle(ctx, shard); err != nil {
		log.Fatal(err)
	}
	fmt.Println("members the handler saw join:", joined)
	// Output:
	// members the handler saw join: 2
}
