package guildkit_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
)

// cannedTransport answers every request with the same small guild, without
// a network, so that allocation counts measure the client alone.
type cannedTransport struct{}

func (cannedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{
		StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(`{"id":"1","name":"g"}`)), Request: r,
	}, nil
}

func cannedClient(tb testing.TB, opts ...guildkit.Option) *guildkit.Client {
	tb.Helper()
	c, err := guildkit.New(guildkit.BotToken(testToken), append([]guildkit.Option{
		guildkit.WithBaseURL("https://chat.example.com/api/v10"),
		guildkit.WithHTTPClient(&http.Client{Transport: cannedTransport{}}),
		guildkit.WithoutRateLimiter(),
	}, opts...)...)
	require.NoError(tb, err)
	return c
}

// countingObserver counts calls and attempts without allocating.
func countingObserver(calls, attempts *int) guildkit.Observer {
	return guildkit.Observer{
		Attempt: func(context.Context, guildkit.AttemptEvent) { *attempts++ },
		CallEnd: func(context.Context, guildkit.CallEvent) { *calls++ },
	}
}

// TestObserverUnsetCostsNothing shows what an unset observer costs: a call
// without one allocates the same as a call with an empty Observer (which
// WithObserver treats as none), and strictly less than one with an observer,
// whose allocations are its events and its transport layer.
// BenchmarkObserver gives the numbers.
func TestObserverUnsetCostsNothing(t *testing.T) {
	ctx := t.Context()
	measure := func(c *guildkit.Client) float64 {
		return testing.AllocsPerRun(200, func() {
			if _, err := c.Guilds.Get(ctx, 1, nil); err != nil {
				t.Fatal(err)
			}
		})
	}
	var calls, attempts int
	off := measure(cannedClient(t))
	empty := measure(cannedClient(t, guildkit.WithObserver(guildkit.Observer{})))
	on := measure(cannedClient(t, guildkit.WithObserver(countingObserver(&calls, &attempts))))
	t.Logf("allocations per call: no observer %v, empty observer %v, counting observer %v", off, empty, on)
	require.Equal(t, off, empty)
	require.Less(t, off, on)
	require.Equal(t, 201, calls) // 200 runs and AllocsPerRun's warm-up
	require.Equal(t, 201, attempts)
}

// BenchmarkObserver measures one call through the client with no observer
// and with one that counts events:
//
//	go test -run '^$' -bench BenchmarkObserver -benchmem .
func BenchmarkObserver(b *testing.B) {
	ctx := b.Context()
	run := func(b *testing.B, c *guildkit.Client) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := c.Guilds.Get(ctx, 1, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("off", func(b *testing.B) { run(b, cannedClient(b)) })
	b.Run("on", func(b *testing.B) {
		var calls, attempts int
		run(b, cannedClient(b, guildkit.WithObserver(countingObserver(&calls, &attempts))))
	})
}

// TestCallAllocationBounds keeps the allocations of two everyday calls
// from growing unnoticed. The transport is canned (no network), so the
// count is the client's own and does not vary; the bounds are a little above
// what the client makes today.
func TestCallAllocationBounds(t *testing.T) {
	c := cannedClient(t)
	ctx := context.Background()
	for name, tc := range map[string]struct {
		bound float64
		call  func() error
	}{
		"Get Guild": {32, func() error { _, err := c.Guilds.Get(ctx, 1, nil); return err }},
		"Create Ban": {38, func() error {
			return c.Bans.Create(ctx, 1, 2, &guildkit.BanCreateParams{DeleteMessageSeconds: guildkit.Some(60)})
		}},
	} {
		allocs := testing.AllocsPerRun(100, func() {
			if err := tc.call(); err != nil {
				t.Fatal(err)
			}
		})
		t.Logf("%s: %.0f allocations per call", name, allocs)
		if allocs > tc.bound {
			t.Errorf("%s: %.0f allocations per call, want at most %.0f", name, allocs, tc.bound)
		}
	}
}
