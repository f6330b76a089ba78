package guildkittest_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/coder/websocket"
	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// A bot connects to the server's gateway as to the platform's: HELLO,
// IDENTIFY, READY, then a GUILD_CREATE per guild and the events that REST
// calls cause.
func Example_gateway() {
	srv := guildkittest.New()
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{Name: "example"})
	ctx := context.Background()

	ws, _, err := websocket.Dial(ctx, srv.GatewayURL()+"/?v=10&encoding=json", nil)
	if err != nil {
		panic(err)
	}
	defer ws.CloseNow()
	ws.SetReadLimit(1 << 20)
	type frame struct {
		Op int             `json:"op"`
		D  json.RawMessage `json:"d"`
		S  *int64          `json:"s"`
		T  *string         `json:"t"`
	}
	read := func() frame {
		_, b, err := ws.Read(ctx)
		if err != nil {
			panic(err)
		}
		var f frame
		_ = json.Unmarshal(b, &f)
		return f
	}
	hello := read()
	fmt.Println("op", hello.Op, string(hello.D))

	identify, _ := json.Marshal(map[string]any{"op": 2, "d": map[string]any{
		"token": srv.Token(), "intents": 1, // GUILDS
		"properties": map[string]string{"os": "linux", "browser": "example", "device": "example"},
	}})
	_ = ws.Write(ctx, websocket.MessageText, identify)
	for range 2 {
		f := read()
		fmt.Println(*f.T, "s =", *f.S)
	}
	_, _ = srv.Client().Roles.Create(ctx, g.ID, &guildkit.RoleCreateParams{Name: guildkit.Some("mods")})
	f := read()
	fmt.Println(*f.T, "s =", *f.S)
	// Output:
	// op 10 {"heartbeat_interval":41250}
	// READY s = 1
	// GUILD_CREATE s = 2
	// GUILD_ROLE_CREATE s = 3
}
