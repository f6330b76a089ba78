package gateway

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run when a test leaves a goroutine behind: a shard's
// reader, dialer, limiter wait or close must all end with Close or End.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
