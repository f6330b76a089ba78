package guildkittest_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit/guildkittest"
)

// TestGatewayViewNoFalseLate: the sessions view's LATE follows the
// server's own rule, 1.5 intervals from the later of the last beat and
// the current connection's HELLO: a correct bot is not flagged after one
// interval, nor after a resume for the time it was away.
func TestGatewayViewNoFalseLate(t *testing.T) {
	t.Parallel()
	srv := guildkittest.NewServer(t)
	interval := guildkittest.DefaultGatewaySettings.HeartbeatInterval
	c, rd, f := connect(t, srv, 1, nil)
	c.send(1, f.seq())
	for c.read().Op != 11 {
	}
	late := func() bool {
		t.Helper()
		v := listGateway(t, srv)
		require.Len(t, v.Sessions, 1)
		return v.Sessions[0].Heartbeat.Late
	}
	srv.AdvanceClock(interval + interval/4)
	assert.False(t, late(), "1.25 intervals after a beat: the server allows 1.5")

	// The bot drops and resumes 30 s later; its new connection's HELLO
	// starts the clock again.
	_ = c.ws.CloseNow()
	require.Eventually(t, func() bool { return !sessionByID(t, srv, rd.SessionID).Connected }, 5*time.Second, 10*time.Millisecond)
	srv.AdvanceClock(30 * time.Second)
	resumeOn(t, srv, rd, f.seq())
	srv.AdvanceClock(interval)
	assert.False(t, late(), "one interval after the resumed connection's HELLO, its last beat long before")
}
