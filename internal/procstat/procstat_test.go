package procstat

import (
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestReadsThisProcess(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	assert.Greater(t, Resident(0), uint64(1<<20), "a Go test process holds more than 1 MB")
	assert.Greater(t, Resident(os.Getpid()), uint64(1<<20))
	// Work until the kernel's 10 ms tick has counted some CPU time.
	for CPU(os.Getpid()) == 0 {
		x := 0
		for i := range 1_000_000 {
			x += i
		}
		_ = x
	}
	assert.Greater(t, CPU(0), time.Duration(0))
}

func TestParse(t *testing.T) {
	status := "Name:\tguildkit-emulat\nVmPeak:\t  900 kB\nVmRSS:\t   51236 kB\nRssAnon:\t 40000 kB\n"
	assert.Equal(t, uint64(51236<<10), resident([]byte(status)))
	assert.Zero(t, resident([]byte("Name:\tx\nVmRSS:\t12 MB\n")), "an unknown unit")
	assert.Zero(t, resident([]byte("Name:\tkthreadd\n")), "no VmRSS line (a kernel thread)")

	// The command name may hold spaces and parentheses.
	stat := "4242 (a) b (c) S 1 4242 4242 0 -1 4194560 900 0 0 0 250 75 0 0 20 0 12 0 100 1000 300"
	assert.Equal(t, 3250*time.Millisecond, cpu([]byte(stat)))
	assert.Zero(t, cpu([]byte("4242 (a) S 1 2")), "too few fields")
	assert.Zero(t, cpu([]byte("no parenthesis")))
}

func TestMissingProcess(t *testing.T) {
	assert.Zero(t, Resident(-1))
	assert.Zero(t, CPU(-1))
}
