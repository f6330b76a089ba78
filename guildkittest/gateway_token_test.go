package guildkittest_test

import (
	"encoding/json"
	"testing"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// TestGatewayTokenWithBotPrefix: IDENTIFY and RESUME take the token bare
// or with the Authorization header's "Bot " prefix, as the reference
// platform does (discordgo sends "Bot <token>"); no other prefix, and a
// doubled one is not stripped twice.
func TestGatewayTokenWithBotPrefix(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	g := srv.AddGuild(guildkit.Guild{})
	c := dial(t, srv.GatewayURL(), "/?v=9&encoding=json")
	c.hello()
	c.identify("Bot "+srv.Token(), 1, nil)
	f := c.until("READY")
	var r ready
	if err := json.Unmarshal(f.D, &r); err != nil {
		t.Fatal(err)
	}
	last := c.until("GUILD_CREATE").seq()
	c.ws.CloseNow()
	if _, err := srv.Client().Roles.Create(t.Context(), g.ID, nil); err != nil {
		t.Fatal(err)
	}

	c2 := dial(t, r.ResumeGatewayURL, "?v=9&encoding=json")
	c2.hello()
	c2.send(6, map[string]any{"token": "Bot " + srv.Token(), "session_id": r.SessionID, "seq": last})
	if f := c2.read(); f.name() != "GUILD_ROLE_CREATE" || f.seq() != last+1 {
		t.Fatalf("replay: %s s=%d, want GUILD_ROLE_CREATE s=%d", f.name(), f.seq(), last+1)
	}
	if f := c2.read(); f.name() != "RESUMED" {
		t.Fatalf("after the replay: %s, want RESUMED", f.name())
	}

	for _, token := range []string{"Bearer " + srv.Token(), "Bot Bot " + srv.Token(), "bot" + srv.Token()} {
		c := dial(t, srv.GatewayURL(), "/?v=10&encoding=json")
		c.hello()
		c.identify(token, 1, nil)
		if code := c.closed(); code != 4004 {
			t.Errorf("IDENTIFY with a token prefixed %q: closed %d, want 4004", token[:len(token)-len(srv.Token())], code)
		}
	}
}
