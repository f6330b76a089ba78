package state

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/seed012df1e9/guildkit"
)

// TestFetcherCollapsesConcurrentMisses: ten readers missing the same
// member wait for one Get Guild Member; the member is then stored and the
// next read is a hit (no request).
func TestFetcherCollapsesConcurrentMisses(t *testing.T) {
	var requests atomic.Int32
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		if r.Method != http.MethodGet || r.URL.Path != "/guilds/1/members/7" {
			t.Errorf("request %s %s", r.Method, r.URL.Path)
		}
		<-release
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"user": map[string]any{"id": "7", "username": "ann"},
			"roles": []string{"5"}, "nick": "annie", "joined_at": "2026-01-02T03:04:05.000000+00:00"})
	}))
	defer srv.Close()
	rest, err := guildkit.New(guildkit.BotToken("t"), guildkit.WithBaseURL(srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	c := NewCache(nil)
	f := NewFetcher(c, rest)
	var wg sync.WaitGroup
	got := make([]Member, 10)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m, err := f.Member(context.Background(), 1, 7)
			if err != nil {
				t.Error(err)
			}
			got[i] = m
		}()
	}
	for { // until one asks and nine wait
		f.mu.Lock()
		fl := f.flights[flightKey{fetchMember, 1, 7}]
		n := 0
		if fl != nil {
			n = fl.waiters
		}
		f.mu.Unlock()
		if n == 9 {
			break
		}
		runtime.Gosched()
	}
	close(release)
	wg.Wait()
	if n := requests.Load(); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
	for _, m := range got {
		if m.Nick != "annie" || m.User.Username != "ann" || !m.Roles.Has(5) {
			t.Errorf("member %+v", m)
		}
	}
	// The guild is not held, so the member could not be stored: another
	// read asks again. Hold the guild and it is stored.
	gs := c.lockGuild(1, true)
	gs.g.Unavailable, gs.g.Stale = false, false // a stale entry is read through too
	gs.mu.Unlock()
	if _, err := f.Member(context.Background(), 1, 7); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Member(context.Background(), 1, 7); err != nil {
		t.Fatal(err)
	}
	if n := requests.Load(); n != 2 {
		t.Errorf("%d requests after the member was stored, want 2", n)
	}
}

// TestFetcherWaiterOutlivesTheAsker: the caller whose miss started the
// request gives up while another waits for it; the waiter, whose own
// context is live, asks again and gets the member instead of the asker's
// context error.
func TestFetcherWaiterOutlivesTheAsker(t *testing.T) {
	var requests atomic.Int32
	first := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if requests.Add(1) == 1 {
			close(first)
			<-r.Context().Done() // the asker gave up
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"user": map[string]any{"id": "7", "username": "ann"},
			"roles": []string{}, "joined_at": "2026-01-02T03:04:05.000000+00:00"})
	}))
	defer srv.Close()
	rest, err := guildkit.New(guildkit.BotToken("t"), guildkit.WithBaseURL(srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	f := NewFetcher(NewCache(nil), rest)
	askerCtx, cancel := context.WithCancel(context.Background())
	askerErr := make(chan error, 1)
	go func() {
		_, err := f.Member(askerCtx, 1, 7)
		askerErr <- err
	}()
	<-first
	waiter := make(chan error, 1)
	go func() {
		m, err := f.Member(context.Background(), 1, 7)
		if err == nil && m.User.Username != "ann" {
			t.Errorf("member %+v", m)
		}
		waiter <- err
	}()
	for { // until the waiter waits on the asker's request
		f.mu.Lock()
		n := 0
		if fl := f.flights[flightKey{fetchMember, 1, 7}]; fl != nil {
			n = fl.waiters
		}
		f.mu.Unlock()
		if n == 1 {
			break
		}
		runtime.Gosched()
	}
	cancel()
	if err := <-askerErr; !(errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		t.Errorf("asker: %v, want its context's error", err)
	}
	if err := <-waiter; err != nil {
		t.Errorf("waiter: %v, want the member", err)
	}
	if n := requests.Load(); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
}
