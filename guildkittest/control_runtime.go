package guildkittest

import (
	"net/http"
	"runtime"
	"strconv"

	"github.com/seed012df1e9/guildkit/internal/procstat"
)

// runtimeStats is what GET /_guildkit/api/runtime answers: the serving
// process's memory and goroutines, for measuring the server from outside
// (what a gateway session costs, whether memory comes back after a
// burst). Sizes are in bytes.
type runtimeStats struct {
	Goroutines   int    `json:"goroutines"`
	HeapAlloc    uint64 `json:"heap_alloc"`    // live and not yet collected heap objects
	HeapInuse    uint64 `json:"heap_inuse"`    // heap spans in use
	StackInuse   uint64 `json:"stack_inuse"`   // goroutine stacks
	Sys          uint64 `json:"sys"`           // obtained from the operating system
	HeapReleased uint64 `json:"heap_released"` // heap returned to the operating system
	GCCycles     uint32 `json:"gc_cycles"`     // completed garbage collections
	// RSS is the resident set size (VmRSS of /proc/self/status), absent
	// where the system does not give it.
	RSS uint64 `json:"rss,omitempty"`
}

// readRuntimeStats reads the process's runtimeStats, after a garbage
// collection when gc is true. It stops the world briefly, as
// runtime.ReadMemStats does.
func readRuntimeStats(gc bool) runtimeStats {
	if gc {
		runtime.GC()
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return runtimeStats{
		Goroutines: runtime.NumGoroutine(),
		HeapAlloc:  m.HeapAlloc, HeapInuse: m.HeapInuse, StackInuse: m.StackInuse,
		Sys: m.Sys, HeapReleased: m.HeapReleased, GCCycles: m.NumGC,
		RSS: procstat.Resident(0),
	}
}

// controlRuntimeRoutes registers GET runtime.
func (s *Server) controlRuntimeRoutes(api func(pattern string, h func(w http.ResponseWriter, r *http.Request))) {
	api("GET runtime", func(w http.ResponseWriter, r *http.Request) {
		gc := false
		if v := r.URL.Query().Get("gc"); v != "" {
			var err error
			if gc, err = strconv.ParseBool(v); err != nil {
				controlError(w, http.StatusBadRequest, "gc: "+strconv.Quote(v)+" is not 1 or 0")
				return
			}
		}
		controlJSON(w, http.StatusOK, readRuntimeStats(gc))
	})
}
