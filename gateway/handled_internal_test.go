package gateway

import "testing"

// TestNoteHandledAllocatesNothingUnwatched: recording a handled event costs
// no allocation when no WaitHandled waits (it runs for every event), and
// wakes a waiter when one does.
func TestNoteHandledAllocatesNothingUnwatched(t *testing.T) {
	s, err := NewShard("token", WithURL("ws://127.0.0.1:1"))
	if err != nil {
		t.Fatal(err)
	}
	q := queued{session: "s", seq: 1}
	if n := testing.AllocsPerRun(100, func() { q.seq++; s.noteHandled(q) }); n != 0 {
		t.Errorf("noteHandled: %v allocations with no waiter, want 0", n)
	}
	s.handledMu.Lock()
	s.handledc = make(chan struct{}) // as a waiting WaitHandled makes it
	changed := s.handledc
	s.handledMu.Unlock()
	s.noteHandled(queued{session: "s", seq: 1000})
	select {
	case <-changed:
	default:
		t.Fatal("a waiter's channel was not closed")
	}
}
