package guildkit_test

import (
	"context"
	"fmt"
	"log"
	"net/http"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// An observer for metrics or tracing sees every call and every attempt by
// route template, never by URL. Here the first answer is a 503, so the call
// takes two attempts. (Module otelguildkit builds OpenTelemetry spans and
// metrics on the same hook.)
func ExampleWithObserver() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{Name: "Gopher Guild"})
	if err := srv.InjectFault("GET /guilds/{guild.id}", 1, guildkittest.Fault{Status: http.StatusServiceUnavailable}); err != nil {
		log.Fatal(err)
	}

	client := srv.Client(guildkit.WithObserver(guildkit.Observer{
		Attempt: func(_ context.Context, e guildkit.AttemptEvent) {
			fmt.Printf("attempt %d of %s %s: %d, error kind %q\n", e.Attempt, e.Call.Method, e.Call.Route, e.Status, e.ErrorKind)
		},
		CallEnd: func(_ context.Context, e guildkit.CallEvent) {
			fmt.Printf("call %s %s: %d after %d attempts, error kind %q\n", e.Call.Method, e.Call.Route, e.Status, e.Attempts, e.ErrorKind)
		},
	}))
	if _, err := client.Guilds.Get(context.Background(), g.ID, nil); err != nil {
		log.Fatal(err)
	}
	// Output:
	// attempt 1 of GET /guilds/{guild.id}: 503, error kind "api"
	// attempt 2 of GET /guilds/{guild.id}: 200, error kind ""
	// call GET /guilds/{guild.id}: 200 after 2 attempts, error kind ""
}
