package thirdparty

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that the scenario leaves no goroutine behind: the
// readers of the bots' output, the server's, and the client's.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
