package state_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run when a test leaves a goroutine behind: shards,
// member-list requests and read-through fetches must all end.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
