package thirdparty

import (
	"context"
	"testing"
	"time"

	"github.com/seed012df1e9/guildkit/guildkittest"
)

// onlySession returns the id of the one gateway session the bot opened,
// failing the test when there is not exactly one.
func onlySession(t *testing.T, srv *guildkittest.Server) guildkittest.GatewaySession {
	t.Helper()
	sessions := srv.GatewaySessions()
	if len(sessions) != 1 {
		t.Fatalf("the server has %d gateway sessions, want the bot's one: %+v", len(sessions), sessions)
	}
	s := sessions[0]
	if !s.Connected || s.Identifies != 1 {
		t.Fatalf("the bot's session: %+v, want connected after one IDENTIFY", s)
	}
	return s
}

// injectFault applies a fault of kind to the bot's session.
func injectFault(ctx context.Context, t *testing.T, srv *guildkittest.Server, session guildkittest.GatewaySession, kind guildkittest.FaultKind) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	n, err := srv.InjectGatewayFault(ctx, session.ID, guildkittest.GatewayFault{Kind: kind})
	if err != nil || n != 1 {
		t.Fatalf("fault %s: applied to %d connections, %v", kind, n, err)
	}
}

// checkResumed checks on the server's side that, after the fault of kind
// (the n-th), the bot's session was resumed, not replaced: still the one
// session, connected, one IDENTIFY in all, n resumes.
func checkResumed(t *testing.T, srv *guildkittest.Server, session guildkittest.GatewaySession, kind guildkittest.FaultKind, n int) {
	t.Helper()
	var live []guildkittest.GatewaySession
	for _, s := range srv.GatewaySessions() {
		if !s.Ended {
			live = append(live, s)
		}
	}
	if len(live) != 1 || live[0].ID != session.ID {
		t.Errorf("after %s: sessions %+v, want %s alone", kind, live, session.ID)
		return
	}
	s := live[0]
	if !s.Connected || s.Identifies != 1 || s.Resumes != n {
		t.Errorf("after %s: session %+v, want connected, 1 IDENTIFY, %d resumes", kind, s, n)
	}
	t.Logf("after %s: session %s resumed on %v (library %q)", kind, s.ID, s.ResumedTo, s.Properties["browser"])
}
