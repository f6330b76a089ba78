package gateway

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var frameSeeds = []string{
	`{"op":0,"t":"GUILD_CREATE","s":1,"d":{"id":"1"}}`,
	`{"t":null,"s":null,"op":10,"d":{"heartbeat_interval":41250}}`,
	`{"op":11}`,
	`{"op":9,"d":false}`,
	`{"op":0,"d":{},"s":2}`,
	`{"OP":0,"t":"X","s":1,"d":1}`,
	`{"op":0,"t":"X\u0041","s":1,"d":1}`,
	`{"op":0,"t":"GUILD_\u0043REATE","s":1,"d":{"name":"a \"quoted\"\nname \ud83d\ude00"}}`,
	`{"op":0,"t":"\ud83d\ude00 \ud83d \ude00 \ud83d\u0041","s":1,"d":1}`,
	"{\"op\":0,\"t\":\"X\xff\xc3\",\"s\":1,\"d\":1}",
	`{"\u006fp":0,"t":"X","s":1,"d":1}`,
	`{"op":1.0,"d":null}`,
	`{"op":0,"t":"X","s":"5","d":1}`,
	`{"op":0,"t":"X","s":-1,"d":1}`,
	`{"op":0,"t":"X","s":1,"d":[1,2,}`,
	`{"op":0,"t":"X","s":1,"d":{}} x`,
	`{"op":0,"op":7,"t":5}`,
	` {"op" : 1 , "d" : 12 } `,
	`[]`,
	``,
	`{"op":0,"t":"X","s":99999999999999999999,"d":1}`,
}

// TestScanFrameMatchesEncodingJSON checks the fast path against the
// encoding/json one on every seed: where it takes a message, it gives what
// encoding/json gives.
func TestScanFrameMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, in := range frameSeeds {
		checkScanFrame(t, []byte(in))
	}
	for _, d := range fixtures(t) {
		msg := frameOf(d.T, int(d.S), d.D)
		f, ok := scanFrame(msg)
		require.True(t, ok, "the fast path takes a platform dispatch")
		assert.Equal(t, d.T, f.T)
		checkScanFrame(t, msg)
	}
}

func checkScanFrame(t *testing.T, in []byte) {
	t.Helper()
	f, ok := scanFrame(in)
	ref, err := decodeFrameJSON(in)
	if !ok {
		assert.Zero(t, f)
		return
	}
	require.NoError(t, err, "scanFrame took %q, which encoding/json refuses", in)
	assert.Equal(t, ref.Op, f.Op, "%q", in)
	assert.Equal(t, ref.S, f.S, "%q", in)
	assert.Equal(t, ref.T, f.T, "%q", in)
	assert.True(t, bytes.Equal(ref.D, f.D), "%q: d %q, want %q", in, f.D, ref.D)
}

func FuzzScanFrameMatchesEncodingJSON(f *testing.F) {
	for _, s := range frameSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		checkScanFrame(t, in)
		_, _ = decodeFrame(in) // never a panic
	})
}
