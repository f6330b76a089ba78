package gateway

import "context"

// First registers fn to run for every event before the functions
// registered with [On] and [OnAny], whatever the order of registration,
// and adds intents to those the Mux asks for. It is for a layer every
// handler builds on, such as a cache of guild state (package state): its
// functions see each event only after fn has run, on the same dispatch
// goroutine. A panic in fn is recovered and logged, and the event still
// reaches the other functions.
func First(r Registrar, intents Intents, fn func(ctx context.Context, e Event)) {
	m := r.mux()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.first = append(m.first, fn)
	m.firstI |= intents
}
