package guildkittest_test

import (
	"testing"

	"github.com/seed012df1e9/guildkit/guildkittest"
)

// TestGatewayTokenOtherPrefixesRefused: IDENTIFY takes the token bare or
// with "Bot " (TestGatewayTokenWithBotPrefix), and with nothing else: no
// other scheme, and a doubled prefix is not stripped twice.
func TestGatewayTokenOtherPrefixesRefused(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	for _, prefix := range []string{"Bearer ", "Bot Bot ", "bot", "Bot"} {
		c := dial(t, srv.GatewayURL(), "/?v=10&encoding=json")
		c.hello()
		c.identify(prefix+srv.Token(), 1, nil)
		if code := c.closed(); code != 4004 {
			t.Errorf("IDENTIFY with the token prefixed %q: closed %d, want 4004", prefix, code)
		}
	}
}
