package gateway

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDecodeEventAllocationBound bounds what decoding costs in
// allocations: the realistic GUILD_CREATE of 1,000 members (every
// nullable field set, a nickname with quotes in each), one GUILD_MEMBER_ADD
// and one MESSAGE_CREATE (content of several lines), and the frame around
// them.
// encoding/json takes about 41,000 and 60 (BenchmarkGatewayGuildCreate and
// BenchmarkGatewayMemberAdd, twin).
func TestDecodeEventAllocationBound(t *testing.T) {
	guild := frameOf("GUILD_CREATE", 1, realisticGuildCreate(t, 1000))
	member := memberAddMessages(t, 1)[0]
	message := messageCreateMessages(t, 1)[0]
	for _, tc := range []struct {
		name string
		msg  []byte
		max  float64
	}{
		{"GUILD_CREATE of 1,000 members", guild, 200},
		{"GUILD_MEMBER_ADD", member, 12},
		{"MESSAGE_CREATE", message, 22}, // 17; 21 under -race, whose builds keep fewer values on the stack
	} {
		allocs := testing.AllocsPerRun(10, func() {
			m := readMessage(tc.msg)
			if m.ev == nil {
				t.Fatalf("%s: %v %v", tc.name, m.skip, m.decodeErr)
			}
		})
		t.Logf("%s: %.0f allocations", tc.name, allocs)
		if allocs > tc.max {
			t.Errorf("%s: %.0f allocations, want at most %.0f", tc.name, allocs, tc.max)
		}
	}
}

// TestEscapesCostNoAllocation: a string with escapes costs what the same
// string without them costs (it is unquoted into the decoder's string
// chunks): a MESSAGE_CREATE whose content has lines, quotes and an emoji
// as a surrogate pair against the same message with plain content.
func TestEscapesCostNoAllocation(t *testing.T) {
	escaped := messageCreateMessages(t, 1)[0]
	plain := bytes.Replace(escaped, []byte(messageContent), []byte(`Hello, a line without any escape in it at all, of some length.`), 1)
	require.NotEqual(t, escaped, plain)
	allocs := func(msg []byte) float64 {
		return testing.AllocsPerRun(20, func() {
			if m := readMessage(msg); m.ev == nil {
				t.Fatalf("%v %v", m.skip, m.decodeErr)
			}
		})
	}
	withEscapes, without := allocs(escaped), allocs(plain)
	t.Logf("MESSAGE_CREATE: %.0f allocations with escapes, %.0f without", withEscapes, without)
	assert.LessOrEqual(t, withEscapes, without)
}
