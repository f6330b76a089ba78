package ratelimit

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	shared "github.com/seed012df1e9/guildkit/ratelimit"
)

// recordingStore is a MemoryStore that records what it is asked, and may
// answer with a given epoch, as a store with a fallback does.
type recordingStore struct {
	*shared.MemoryStore
	mu     sync.Mutex
	seen   []shared.Reservation
	epochs []uint64 // answered in turn, when set
}

func (s *recordingStore) Reserve(ctx context.Context, r *shared.Reservation) error {
	err := s.MemoryStore.Reserve(ctx, r)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen = append(s.seen, *r)
	if len(s.epochs) > 0 {
		r.Epoch, s.epochs = s.epochs[0], s.epochs[1:]
		r.Fallback = r.Epoch%2 == 1
		if r.Fallback {
			r.FallbackErr = errors.New("store unreachable")
		}
	}
	return err
}

// TestStoreSeesHashesNotTokens: the store is told the token's hash and a
// webhook token's hash, never either token.
func TestStoreSeesHashesNotTokens(t *testing.T) {
	t.Parallel()
	store := &recordingStore{MemoryStore: shared.NewMemoryStore(shared.MemoryOptions{})}
	tr := New(Config{Next: &fakeServer{limit: 5, per: 1e9}, Store: store, Token: shared.TokenHash("Bot bot-secret")})
	_, err := send(tr, context.Background(), &Request{Method: "POST", Route: "/webhooks/{webhook.id}/{webhook.token}", Major: "42/hook-secret"}, "/webhooks/42/hook-secret")
	require.NoError(t, err)
	_, err = send(tr, context.Background(), &Request{Method: "GET", Route: "/guilds/{guild.id}", Major: "7"}, "/guilds/7")
	require.NoError(t, err)
	require.Len(t, store.seen, 2)
	assert.Equal(t, "42/"+shared.SecretHash("hook-secret"), store.seen[0].Major)
	assert.Equal(t, "7", store.seen[1].Major, "ids are not secret")
	for _, r := range store.seen {
		assert.Equal(t, shared.TokenHash("Bot bot-secret"), r.Token)
		for _, f := range []string{r.Token, r.Major, r.Route, r.Method, r.Bucket, r.Ticket.Key} {
			assert.NotContains(t, f, "secret")
		}
	}
}

// TestFallbackToldOncePerChange: reservations that cross a change between a
// store and its fallback may finish in any order; the observer is told of
// each change once, in order, and never of an older state again.
func TestFallbackToldOncePerChange(t *testing.T) {
	t.Parallel()
	store := &recordingStore{MemoryStore: shared.NewMemoryStore(shared.MemoryOptions{}), epochs: []uint64{0, 1, 0, 1, 2, 1, 2, 3, 4}}
	var events []Event
	tr := New(Config{Next: &fakeServer{limit: 100, per: 1e9}, Store: store, Observe: func(e Event) {
		if e.Kind == EventFallback || e.Kind == EventRecovered {
			events = append(events, e)
		}
	}})
	for range 9 {
		req, _ := http.NewRequest("GET", "http://x.invalid/", nil)
		resp, err := tr.RoundTrip(req)
		require.NoError(t, err)
		resp.Body.Close()
	}
	var kinds []EventKind
	for _, e := range events {
		kinds = append(kinds, e.Kind)
		if e.Kind == EventFallback {
			assert.EqualError(t, e.Err, "store unreachable")
		}
	}
	assert.Equal(t, []EventKind{EventFallback, EventRecovered, EventFallback, EventRecovered}, kinds)
}

// TestFallbackUnseenOutageNotTold: an outage none of this process's
// reservations met (epoch 2 to 4, 5 to 7) is not reported, so Down and Up
// still alternate.
func TestFallbackUnseenOutageNotTold(t *testing.T) {
	t.Parallel()
	store := &recordingStore{MemoryStore: shared.NewMemoryStore(shared.MemoryOptions{}), epochs: []uint64{1, 2, 4, 5, 7, 8}}
	var kinds []EventKind
	tr := New(Config{Next: &fakeServer{limit: 100, per: 1e9}, Store: store, Observe: func(e Event) {
		if e.Kind == EventFallback || e.Kind == EventRecovered {
			kinds = append(kinds, e.Kind)
		}
	}})
	for range 6 {
		req, _ := http.NewRequest("GET", "http://x.invalid/", nil)
		resp, err := tr.RoundTrip(req)
		require.NoError(t, err)
		resp.Body.Close()
	}
	assert.Equal(t, []EventKind{EventFallback, EventRecovered, EventFallback, EventRecovered}, kinds)
}
