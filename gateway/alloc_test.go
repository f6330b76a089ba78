package gateway

import (
	"testing"
)

// TestDecodeEventAllocationBound bounds what decoding costs in
// allocations: the realistic GUILD_CREATE of 1,000 members (every
// nullable field set) and one GUILD_MEMBER_ADD, and the frame around them.
// encoding/json takes about 41,000 and 60 (BenchmarkGatewayGuildCreate and
// BenchmarkGatewayMemberAdd, twin).
func TestDecodeEventAllocationBound(t *testing.T) {
	guild := frameOf("GUILD_CREATE", 1, realisticGuildCreate(t, 1000))
	member := memberAddMessages(t, 1)[0]
	for _, tc := range []struct {
		name string
		msg  []byte
		max  float64
	}{
		{"GUILD_CREATE of 1,000 members", guild, 200},
		{"GUILD_MEMBER_ADD", member, 12},
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
