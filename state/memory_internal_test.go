package state

import (
	"testing"
	"unsafe"
)

// TestRecordSizes pins the sizes the memory figures rest on.
func TestRecordSizes(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"memberRec", unsafe.Sizeof(memberRec{}), 80},
		{"userRec", unsafe.Sizeof(userRec{}), 56},
		{"presenceRec", unsafe.Sizeof(presenceRec{}), 32},
	} {
		if c.got != c.want {
			t.Errorf("%s is %d bytes, want %d", c.name, c.got, c.want)
		}
	}
}
