package gateway

import (
	"errors"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzDecodeEvent decodes any data under any event's name: never a panic;
// an error only as *EventDecodeError; for a typed event, the value
// encoding/json gives, or an error where it gives one.
func FuzzDecodeEvent(f *testing.F) {
	for _, d := range fixtures(f) {
		f.Add(d.T, []byte(d.D))
	}
	f.Add("GUILD_CREATE", []byte(`{"members":[{},{},null,{"user":null}]}`))
	f.Add("GUILD_MEMBER_ADD", []byte(`{"roles":["1","2"],"pending":null,"joined_at":null}`))
	f.Add("READY", []byte(`{"shard":[0,1]}`))
	// Escapes: quotes, lines, surrogate pairs whole and broken, invalid
	// UTF-8, an escaped key.
	f.Add("GUILD_MEMBER_ADD", []byte(`{"nick":"Nelly the \"Gopher\"","user":{"id":"1","username":"a\\b\/c","global_name":"\ud83d\ude00 \ud83d \ude00 \ud83d\u0041"}}`))
	f.Add("MESSAGE_CREATE", []byte(`{"content":"line one\nline two\r\n\ttabbed \u00e9\u2028","n\u006fnce":"x","author":{"username":"\u0000\u001f"}}`))
	f.Add("MESSAGE_CREATE", []byte("{\"content\":\"bad \xff\xfe byte \xed\xa0\x80 \\n\"}"))
	f.Add("SOMETHING_NEW", []byte(`not json`))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		e, err := decodeEvent(name, data)
		if err != nil {
			var de *EventDecodeError
			require.True(t, errors.As(err, &de), "%T", err)
			require.Nil(t, e)
		} else {
			require.NotNil(t, e)
		}
		if _, typed := eventDecoders[name]; !typed {
			require.NoError(t, err)
			require.IsType(t, (*RawEvent)(nil), e)
			return
		}
		if name == "INTERACTION_CREATE" {
			return // the root's own fuzzing covers the interaction decoder
		}
		ref, refErr := referenceDecode(t, typedEventOf(name), data)
		if refErr != nil {
			require.Error(t, err, "encoding/json refuses %q (%v)", data, refErr)
			return
		}
		require.NoError(t, err, "encoding/json accepts %q", data)
		require.Equal(t, ref, e)
	})
}

// TestDecodeEventMemoryIsBoundedByItsInput feeds inputs shaped to make a
// decoder allocate much per byte (long arrays of empty objects, deep
// nesting) and bounds what decoding allocates to a fixed multiple of the
// input: the frame's read limit bounds the memory an event can take.
func TestDecodeEventMemoryIsBoundedByItsInput(t *testing.T) {
	const n = 20000
	for _, tc := range []struct {
		name, data string
		perByte    uint64 // bytes allocated per input byte, at most
	}{
		{"GUILD_CREATE", `{"members":[` + strings.Repeat(`{},`, n) + `{}]}`, 128},
		{"GUILD_CREATE", `{"channels":[` + strings.Repeat(`{},`, n) + `{}]}`, 256},
		{"GUILD_CREATE", `{"voice_states":[` + strings.Repeat(`{"member":{}},`, n) + `{}]}`, 128},
		{"GUILD_MEMBERS_CHUNK", `{"not_found":[` + strings.Repeat(`1,`, n) + `1]}`, 64},
		{"GUILD_CREATE", `{"members":[` + strings.Repeat(`[`, 20000) + strings.Repeat(`]`, 20000) + `]}`, 64},
		{"SOMETHING_NEW", strings.Repeat(`[`, n), 4},
	} {
		// The least of three: TotalAlloc counts what the whole process
		// allocates, and a goroutine an earlier test left finishing may
		// allocate meanwhile.
		alloc := uint64(math.MaxUint64)
		for range 3 {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, _ = decodeEvent(tc.name, []byte(tc.data))
			runtime.ReadMemStats(&after)
			alloc = min(alloc, after.TotalAlloc-before.TotalAlloc)
		}
		t.Logf("%s %.20s: %.1f bytes per input byte", tc.name, tc.data, float64(alloc)/float64(len(tc.data)))
		assert.LessOrEqual(t, alloc, tc.perByte*uint64(len(tc.data)), "%s %.40s: %d bytes for %d", tc.name, tc.data, alloc, len(tc.data))
	}
}
