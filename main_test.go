package guildkit_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run when a test leaves a goroutine behind: the client
// starts none of its own, so any left over is a leak.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
