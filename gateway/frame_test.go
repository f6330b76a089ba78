package gateway

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeFrame(t *testing.T) {
	t.Parallel()
	f, _, err := decodeFrame([]byte(`{"op":0,"d":{"a":1},"s":42,"t":"GUILD_CREATE"}`))
	require.NoError(t, err)
	assert.Equal(t, frame{Op: OpDispatch, D: []byte(`{"a":1}`), S: 42, T: "GUILD_CREATE"}, f)
	f, _, err = decodeFrame([]byte(`{"op":1,"d":null,"s":null,"t":null}`))
	require.NoError(t, err)
	assert.Equal(t, frame{Op: OpHeartbeat}, f)
	for _, bad := range []string{``, `[]`, `{"d":1}`, `{"op":0,"d":{}}`, `{"op":0,"s":-1,"t":"X"}`, `{"op":0,"s":"1","t":"X"}`, `{"op":"0"}`} {
		_, _, err := decodeFrame([]byte(bad))
		assert.Error(t, err, "%s", bad)
	}
	m := readMessage([]byte(`{"op":10,"d":{"heartbeat_interval":41250}}`))
	assert.Equal(t, 41250*time.Millisecond, m.interval)
	assert.True(t, readMessage([]byte(`{"op":9,"d":true}`)).resumable)
	assert.False(t, readMessage([]byte(`{"op":9,"d":false}`)).resumable)
}

// FuzzFrame feeds the decoder of the messages a connection reads: never a
// panic, and a dispatch is an event or an error.
func FuzzFrame(f *testing.F) {
	for _, s := range []string{
		`{"op":10,"d":{"heartbeat_interval":41250},"s":null,"t":null}`,
		`{"op":0,"d":{"session_id":"x","resume_gateway_url":"wss://r"},"s":1,"t":"READY"}`,
		`{"op":0,"d":{"guild_id":"1","user":{"id":"2"}},"s":2,"t":"GUILD_BAN_ADD"}`,
		`{"op":9,"d":true}`, `{"op":11}`, `{"op":0,"d":[],"s":3,"t":"GUILD_CREATE"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m := readMessage(b)
		if m.skip == nil && m.f.Op == OpDispatch && m.ev == nil && m.decodeErr == nil {
			t.Fatalf("a dispatch with neither an event nor an error: %q", b)
		}
	})
}
