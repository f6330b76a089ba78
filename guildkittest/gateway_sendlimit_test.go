package guildkittest_test

import (
	"testing"
	"time"

	"github.com/seed012df1e9/guildkit/guildkittest"
)

// TestGatewaySendWindow: by default the send limit counts fixed 60 s
// windows from the connection's start, as client libraries count them: a
// full burst at the end of one window and another at the start of the next
// pass, and one payload more in a window closes with 4008. With
// StrictSendWindow any 60 s counts, and the second burst closes with 4008.
func TestGatewaySendWindow(t *testing.T) {
	t.Parallel()
	const limit = 10
	for _, strict := range []bool{false, true} {
		srv := guildkittest.NewServer(t, guildkittest.WithGateway(guildkittest.GatewaySettings{SendLimit: limit, StrictSendWindow: strict}))
		c, _, ready := connect(t, srv, 1, nil)
		beat := func(n int) {
			t.Helper()
			for range n {
				c.send(1, ready.seq())
				for c.read().Op != 11 {
				}
			}
		}
		// The first window: IDENTIFY, then 5 beats just before its end.
		srv.AdvanceClock(58 * time.Second)
		beat(5)
		// The second window: 3 s later, a full window's worth.
		srv.AdvanceClock(3 * time.Second)
		if strict {
			for range limit {
				c.send(1, ready.seq())
			}
			if code := c.closed(); code != 4008 {
				t.Errorf("strict window: closed with %d, want 4008", code)
			}
			continue
		}
		beat(limit)
		c.send(1, ready.seq())
		if code := c.closed(); code != 4008 {
			t.Errorf("fixed window: one payload over the limit within a window closed with %d, want 4008", code)
		}
	}
}
