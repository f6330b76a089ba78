package thirdparty

import (
	"context"
	"slices"
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
//
// It also checks that the connection is the one the library's source
// describes (want): its API version, its compression, and the URL it
// resumes on.
func checkResumed(t *testing.T, srv *guildkittest.Server, session guildkittest.GatewaySession, kind guildkittest.FaultKind, n int, want wire) {
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
	if s.Version != want.version || !slices.Contains(want.compression, s.Compression) {
		t.Errorf("after %s: API v%s, compression %q; want v%s, one of %q", kind, s.Version, s.Compression, want.version, want.compression)
	}
	for _, url := range s.ResumedTo {
		if url != want.resumesTo {
			t.Errorf("after %s: resumed on %v, want each on %q", kind, s.ResumedTo, want.resumesTo)
			break
		}
	}
	t.Logf("after %s: session %s resumed on %v (library %q, compression %q, API v%s)", kind, s.ID, s.ResumedTo, s.Properties["browser"], s.Compression, s.Version)
}
