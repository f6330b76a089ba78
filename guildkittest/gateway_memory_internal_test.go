package guildkittest

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSessionMemoryIsBoundedInBytes: a session's frame log keeps at most
// FrameLogBytes, whatever its frames carry, and gives back the room of a
// burst; its queue, once the burst is acknowledged, shrinks back too.
func TestSessionMemoryIsBoundedInBytes(t *testing.T) {
	t.Parallel()
	const budget = 16 << 10
	sess := &gwSession{}
	sess.log.max, sess.log.budget = 256, budget
	record := int(unsafe.Sizeof(GatewayFrame{}))

	// A burst of small dispatches fills the log to its budget, not 256.
	small := []byte(`{"content":"` + strings.Repeat("x", 100) + `"}`)
	for i := range 300 {
		sess.logLocked(GatewayFrame{Direction: FrameOut, Op: opDispatch, Seq: int64(i + 1), Name: "MESSAGE_CREATE", data: small})
	}
	assert.LessOrEqual(t, sess.log.bytes, budget)
	assert.Equal(t, budget/(record+len(small)), sess.log.n)
	last, _ := sess.log.last()
	assert.Equal(t, int64(300), last.Seq, "the newest are kept")

	// Big payloads are logged by size only: GatewayFrames never shows them.
	big := []byte(`"` + strings.Repeat("x", 2*maxFrameData) + `"`)
	for range 3 {
		sess.logLocked(GatewayFrame{Direction: FrameOut, Op: opDispatch, Name: "GUILD_CREATE", data: big})
	}
	last, _ = sess.log.last()
	assert.Nil(t, last.data)
	assert.Equal(t, len(big), last.size)
	assert.LessOrEqual(t, sess.log.bytes, budget)

	// Frames of a few KiB push out many records: the ring gives the
	// room back.
	mid := []byte(`"` + strings.Repeat("x", maxFrameData-2) + `"`)
	for range budget / maxFrameData {
		sess.logLocked(GatewayFrame{Direction: FrameOut, Op: opDispatch, Name: "MESSAGE_UPDATE", data: mid})
	}
	assert.LessOrEqual(t, sess.log.bytes, budget)
	assert.Equal(t, budget/(record+len(mid)), sess.log.n)
	assert.LessOrEqual(t, len(sess.log.buf), 8, "%d frames held in room for %d", sess.log.n, len(sess.log.buf))

	// The queue: 5,000 dispatches, then a heartbeat acknowledging them.
	for i := range 5000 {
		sess.seq++
		sess.buf = append(sess.buf, gwEntry{seq: sess.seq, name: "MESSAGE_CREATE", d: small})
		sess.written = int64(i + 1)
	}
	sess.ackLocked(4998)
	require.Len(t, sess.buf, 2)
	assert.LessOrEqual(t, cap(sess.buf), 8, "the burst's array is given back")
}
