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
	// d decoded where it lies, then kept or not by what follows it.
	`{"op":0,"d":{"user":{"id":"2"},"roles":["3"]},"s":4,"t":"GUILD_MEMBER_ADD"}`,
	`{"op":0,"d":{"user":{"id":"2"}},"s":4,"t":"GUILD_MEMBER_ADD" , "t":"GUILD_BAN_ADD"}`,
	`{"op":0,"d":{"user":{"id":"2"}},"s":4,"t":"GUILD_BAN_ADD","x":{"t":"GUILD_MEMBER_ADD"}}`,
	`{"op":0,"d":{"user":{"id":"2"}},"s":4,"t":"GUILD_MEMBER_\u0041DD"}`,
	`{"t":"GUILD_BAN_ADD","op":0,"d":{"user":{"id":"2"}},"t":"GUILD_MEMBER_ADD"}`,
	`{"t":"GUILD_BAN_ADD","op":0,"d":{"user":{"id":"2"}},"d":{"guild_id":"5"}}`,
	`{"t":"GUILD_BAN_ADD","op":0,"d":{"user":{"id":"2"}},"op":1}`,
	`{"t":"GUILD_BAN_ADD","op":1,"d":{"user":{"id":"2"}},"op":0}`,
	`{"t":"GUILD_BAN_ADD","op":0,"d":{"user":{"id":2}}}`,
	`{"t":"GUILD_BAN_ADD","op":0,"d":{"user":{"id":"2"}} x`,
	`{"t":"GUILD_BAN_ADD","op":0,"d":{"user":{"id":"2"},}}`,
	`{"t":"GUILD_BAN_ADD","op":0,"d":null}`,
	`{"t":"GUILD_CREATE","op":0,"d":{"members":[{"nick":"a \"b\"\n"},{}]},"D":1}`,
	// MESSAGE_UPDATE notes the members of d, not those within them.
	`{"t":"MESSAGE_UPDATE","op":0,"d":{"id":"5","channel_id":"6","referenced_message":{"content":"x","embeds":[]},"c\u006fntent":"y"}}`,
	`{"op":0,"d":{"id":"5","channel_id":"6","embeds":[{"type":"link","title":"t"}]},"s":1,"t":"MESSAGE_UPDATE"}`,
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
		f, _, ok := scanFrame(msg)
		require.True(t, ok, "the fast path takes a platform dispatch")
		assert.Equal(t, d.T, f.T)
		checkScanFrame(t, msg)
	}
}

// TestScanFrameDecodesDataOnce: a dispatch's d is decoded in the pass that
// reads the frame, in the platform's order (t, s, op, d) and in the
// order op, d, s, t alike, for every event the SDK's decoder reads.
func TestScanFrameDecodesDataOnce(t *testing.T) {
	t.Parallel()
	for _, d := range fixtures(t) {
		if _, ok := eventDecodersAt[d.T]; !ok {
			continue
		}
		for _, msg := range [][]byte{
			frameOf(d.T, int(d.S), d.D),
			[]byte(`{"op":0,"d":` + string(d.D) + `,"s":` + itoa(int(d.S)) + `,"t":"` + d.T + `"}`),
		} {
			_, ev, ok := scanFrame(msg)
			require.True(t, ok)
			require.NotNil(t, ev, "%s: %.60s", d.T, msg)
			checkScanFrame(t, msg)
		}
	}
}

func checkScanFrame(t *testing.T, in []byte) {
	t.Helper()
	f, ev, ok := scanFrame(in)
	ref, err := decodeFrameJSON(in)
	if !ok {
		assert.Zero(t, f)
		assert.Nil(t, ev)
		return
	}
	require.NoError(t, err, "scanFrame took %q, which encoding/json refuses", in)
	assert.Equal(t, ref.Op, f.Op, "%q", in)
	assert.Equal(t, ref.S, f.S, "%q", in)
	assert.Equal(t, ref.T, f.T, "%q", in)
	assert.True(t, bytes.Equal(ref.D, f.D), "%q: d %q, want %q", in, f.D, ref.D)
	if ev != nil {
		// Decoded with the frame: the event d decodes into, by its name.
		want, err := decodeEvent(ref.T, ref.D)
		require.NoError(t, err, "%q: decoded with the frame, but d does not decode alone", in)
		assert.Equal(t, want, ev, "%q", in)
	}
}

func FuzzScanFrameMatchesEncodingJSON(f *testing.F) {
	for _, s := range frameSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		checkScanFrame(t, in)
		_, _, _ = decodeFrame(in) // never a panic
	})
}
