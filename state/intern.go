package state

import (
	"runtime"
	"sync"
	"weak"

	"github.com/seed012df1e9/guildkit"
)

// Statuses are kept as one byte each: the platform's five, and any other
// value seen, in a small table that only grows (up to 255 values; past
// that an unknown status reads as "").
var statuses = struct {
	sync.RWMutex
	names []guildkit.PresenceStatus
	codes map[guildkit.PresenceStatus]uint8
}{
	names: []guildkit.PresenceStatus{"", guildkit.StatusOnline, guildkit.StatusIdle, guildkit.StatusDND, guildkit.StatusOffline, guildkit.StatusInvisible},
	codes: map[guildkit.PresenceStatus]uint8{"": 0, guildkit.StatusOnline: 1, guildkit.StatusIdle: 2, guildkit.StatusDND: 3, guildkit.StatusOffline: 4, guildkit.StatusInvisible: 5},
}

func statusCode(s guildkit.PresenceStatus) uint8 {
	statuses.RLock()
	c, ok := statuses.codes[s]
	statuses.RUnlock()
	if ok {
		return c
	}
	statuses.Lock()
	defer statuses.Unlock()
	if c, ok := statuses.codes[s]; ok {
		return c
	}
	if len(statuses.names) >= 255 {
		return 0
	}
	c = uint8(len(statuses.names))
	statuses.names = append(statuses.names, s)
	statuses.codes[s] = c
	return c
}

func statusOf(c uint8) guildkit.PresenceStatus {
	statuses.RLock()
	defer statuses.RUnlock()
	if int(c) < len(statuses.names) {
		return statuses.names[c]
	}
	return ""
}

// actBox holds one interned activity; presences share its slice.
type actBox struct {
	list [1]Activity
	s    []Activity // list[:]
}

// activities interns single activities: every presence showing the same
// activity shares one copy, collected when none does.
var activities = struct {
	sync.Mutex
	m map[Activity]weak.Pointer[actBox]
}{m: make(map[Activity]weak.Pointer[actBox])}

// internActivity returns a one-element slice holding a, shared with every
// other presence that shows an equal activity.
func internActivity(a Activity) *[]Activity {
	activities.Lock()
	defer activities.Unlock()
	if wp, ok := activities.m[a]; ok {
		if b := wp.Value(); b != nil {
			return &b.s
		}
	}
	b := &actBox{list: [1]Activity{a}}
	b.s = b.list[:]
	activities.m[a] = weak.Make(b)
	runtime.AddCleanup(b, func(a Activity) {
		activities.Lock()
		defer activities.Unlock()
		if wp, ok := activities.m[a]; ok && wp.Value() == nil {
			delete(activities.m, a)
		}
	}, a)
	return &b.s
}
