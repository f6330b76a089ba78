package guildkittest

import (
	"strconv"
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
	record := int(unsafe.Sizeof(frameRecord{}))

	// A burst of small dispatches fills the log to its budget, not 256.
	small := []byte(`{"content":"` + strings.Repeat("x", 100) + `"}`)
	for i := range 300 {
		sess.logLocked(GatewayFrame{Direction: FrameOut, Op: opDispatch, Seq: int64(i + 1), Name: "MESSAGE_CREATE", data: small})
	}
	assert.LessOrEqual(t, sess.log.bytes, budget)
	assert.Equal(t, budget/(record+len(small)), sess.log.n)
	last, _ := sess.log.last()
	assert.Equal(t, int64(300), last.seq, "the newest are kept")

	// Big payloads are logged by size only: GatewayFrames never shows them.
	big := []byte(`"` + strings.Repeat("x", 2*maxFrameData) + `"`)
	for range 3 {
		sess.logLocked(GatewayFrame{Direction: FrameOut, Op: opDispatch, Name: "GUILD_CREATE", data: big})
	}
	last, _ = sess.log.last()
	assert.Nil(t, last.data)
	assert.Equal(t, int32(len(big)), last.size)
	assert.LessOrEqual(t, sess.log.bytes, budget)

	// A payload over an eighth of the budget is kept by size only.
	eighth := []byte(`"` + strings.Repeat("x", budget/8-1) + `"`)
	sess.logLocked(GatewayFrame{Direction: FrameOut, Op: opDispatch, Name: "MESSAGE_UPDATE", data: eighth})
	last, _ = sess.log.last()
	assert.Nil(t, last.data)
	assert.Equal(t, int32(len(eighth)), last.size)

	// Frames of a couple of KiB push out many records: the ring gives the
	// room back.
	mid := eighth[1:]
	for range budget / len(mid) {
		sess.logLocked(GatewayFrame{Direction: FrameOut, Op: opDispatch, Name: "MESSAGE_UPDATE", data: mid})
	}
	assert.LessOrEqual(t, sess.log.bytes, budget)
	assert.Equal(t, budget/(record+len(mid)), sess.log.n)
	assert.LessOrEqual(t, len(sess.log.buf), 4*sess.log.n, "%d frames held in room for %d", sess.log.n, len(sess.log.buf))

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

// TestFrameLogsShareOneBudget: the sessions' logs together keep at most
// FrameLogTotalBytes; when many sessions come, the logs of the first ones,
// which had a bigger share, are trimmed to the new one, and a payload
// over an eighth of the share is no longer kept.
func TestFrameLogsShareOneBudget(t *testing.T) {
	t.Parallel()
	h := &gatewayHub{settings: GatewaySettings{FrameLogBytes: 64 << 10, FrameLogTotalBytes: 256 << 10}.withDefaults(), sessions: map[string]*gwSession{}}
	h.setLogShareLocked()
	ready := []byte(`{"v":10,"user":{},"guilds":[],"pad":"` + strings.Repeat("x", 3000) + `"}`)
	var first *gwSession
	for i := range 100 {
		sess := &gwSession{id: strconv.Itoa(i), hub: h}
		sess.log.max = 256
		h.sessions[sess.id] = sess
		h.setLogShareLocked()
		sess.logLocked(GatewayFrame{Direction: FrameOut, Op: opDispatch, Seq: 1, Name: "READY", data: ready})
		for j := range 5 {
			sess.logLocked(GatewayFrame{Direction: FrameIn, Op: opHeartbeat, data: []byte(strconv.Itoa(j))})
		}
		if first == nil {
			first = sess
		}
	}
	share := (256 << 10) / 100
	assert.Equal(t, share, h.logShare)
	total := 0
	for _, sess := range h.sessions {
		total += sess.log.bytes
		assert.LessOrEqual(t, sess.log.bytes, 2*share, "session %s", sess.id)
	}
	assert.LessOrEqual(t, total, 2*(256<<10), "the logs together")
	// The first session logged its READY whole, when its share was 64 KiB;
	// the trim keeps the record and drops the payload.
	records := first.log.all()
	require.NotEmpty(t, records)
	assert.Equal(t, "READY", records[0].name)
	assert.Zero(t, len(records[0].data), "the first session's READY is no longer kept whole")
	assert.Equal(t, int32(len(ready)), records[0].size)
	assert.Equal(t, FrameIn, records[len(records)-1].frame().Direction)
}

// TestReplayBufferIsBoundedInBytes: a session keeps at most ReplayBytes of
// dispatches written and not yet acknowledged, the oldest dropped first
// (down to three quarters), and never one not yet written.
func TestReplayBufferIsBoundedInBytes(t *testing.T) {
	t.Parallel()
	const budget = 8 << 10
	s := New(WithGateway(GatewaySettings{ReplayBytes: budget}))
	t.Cleanup(s.Close)
	sess := &gwSession{hub: &s.gw}
	d := []byte(`{"content":"` + strings.Repeat("x", 200) + `"}`)
	s.gw.mu.Lock()
	defer s.gw.mu.Unlock()
	for range 100 {
		s.appendLocked(sess, "MESSAGE_CREATE", d)
		sess.written = sess.seq // as a flush does
		sess.trimReplayLocked(budget)
		assert.LessOrEqual(t, sess.bufBytes, budget)
	}
	entry := gwEntry{d: d}.size()
	assert.GreaterOrEqual(t, len(sess.buf), budget*3/4/entry, "only down to three quarters")
	assert.Equal(t, int64(100), sess.buf[len(sess.buf)-1].seq, "the newest are kept")
	assert.Equal(t, int64(100-len(sess.buf)+1), sess.buf[0].seq, "contiguous")

	// Not written: kept whatever their size.
	for range 100 {
		s.appendLocked(sess, "MESSAGE_CREATE", d)
	}
	assert.Equal(t, sess.seq-sess.written, int64(100))
	assert.Greater(t, sess.bufBytes, budget)
	assert.Equal(t, sess.written+1, sess.buf[len(sess.buf)-100].seq, "every unwritten dispatch is kept")
	total := 0
	for _, e := range sess.buf {
		total += e.size()
	}
	assert.Equal(t, total, sess.bufBytes)
}
