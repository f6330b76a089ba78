package guildkittest_test

import (
	"context"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// FuzzGatewayFrame sends any payload to an identified session of a live
// server: the server answers (an ack, a dispatch, INVALID_SESSION) or
// closes with a gateway close code; it never panics, never hangs (a
// heartbeat sent after the payload is answered or the connection closed
// within the deadline) and never answers a 5xx-like 1011.
func FuzzGatewayFrame(f *testing.F) {
	for _, seed := range []string{
		`{"op":1,"d":null}`, `{"op":1,"d":7}`, `{"op":1,"d":"x"}`, `{"op":1}`, `{"op":"1"}`, `{}`, `[]`, `null`, `{"op":1e400}`,
		`{"op":2,"d":{"token":"x","properties":{},"intents":1}}`, `{"op":6,"d":{"token":"x","session_id":"y","seq":1}}`,
		`{"op":6,"d":{"token":"x","session_id":"y","seq":-1}}`, `{"op":3,"d":{"since":null,"activities":[],"status":"idle","afk":false}}`,
		`{"op":3,"d":{"status":"wat"}}`, `{"op":4,"d":{"guild_id":"1","channel_id":null}}`, `{"op":8,"d":{"guild_id":"1","query":"","limit":0}}`,
		`{"op":8,"d":{"guild_id":"1","user_ids":["1","2"]}}`, `{"op":8,"d":{"guild_id":"x"}}`, `{"op":31,"d":{"guild_ids":["1"]}}`,
		`{"op":43,"d":{"guild_id":"1","fields":["status"]}}`, `{"op":99}`, `{"op":-1}`, `{"op":9223372036854775808}`,
		`{"op":1,"d":null,"s":null,"t":null,"extra":[[[[[[[[[[]]]]]]]]]]}`, "\xff\xfe", `{"op":2,"d":{"token":1}}`,
	} {
		f.Add([]byte(seed))
	}
	srv := guildkittest.New(guildkittest.WithGateway(guildkittest.GatewaySettings{SendLimit: 1000}))
	defer srv.Close()
	g := srv.AddGuild(guildkit.Guild{})
	_ = g
	f.Fuzz(func(t *testing.T, payload []byte) {
		srv.AdvanceClock(5 * time.Second) // the identify concurrency window
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		c := dial(t, srv.GatewayURL(), "/?v=10&encoding=json")
		c.ctx = ctx
		c.hello()
		c.identify(srv.Token(), 1|1<<1|1<<8, nil)
		c.until("READY")
		if err := c.ws.Write(ctx, websocket.MessageText, payload); err != nil {
			t.Fatalf("write: %v", err)
		}
		_ = c.ws.Write(ctx, websocket.MessageText, []byte(`{"op":1,"d":null}`))
		for {
			fr, err := c.next()
			if err != nil {
				code := websocket.CloseStatus(err)
				if ctx.Err() != nil {
					t.Fatalf("payload %q: no answer and no close within the deadline", payload)
				}
				if code != -1 && (code < 4000 || code > 4014) {
					t.Fatalf("payload %q: closed with %d, want a gateway close code", payload, code)
				}
				return
			}
			if fr.Op == 11 {
				return
			}
		}
	})
}
