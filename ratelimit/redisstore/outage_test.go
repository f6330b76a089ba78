package redisstore_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
)

// sendLog records when each request reached the server, through a proxy in
// front of it, for the figures of an outage.
type sendLog struct {
	mu    sync.Mutex
	start time.Time
	sends []sent
}

type sent struct {
	at     time.Duration // since start
	path   string
	status int
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

// proxy returns a server passing requests on to srv and logging them.
func (l *sendLog) proxy(t testing.TB, srv *guildkittest.Server) *httptest.Server {
	target, err := url.Parse(srv.URL)
	require.NoError(t, err)
	rp := httputil.NewSingleHostReverseProxy(target)
	p := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		at := time.Since(l.start)
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		rp.ServeHTTP(sw, r)
		l.mu.Lock()
		l.sends = append(l.sends, sent{at: at, path: r.URL.Path, status: sw.status})
		l.mu.Unlock()
	}))
	t.Cleanup(p.Close)
	return p
}

// between returns the sends that arrived in [from, to), in order, with path
// suffix when not "".
func (l *sendLog) between(from, to time.Duration, suffix string) []time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []time.Duration
	for _, s := range l.sends {
		if s.at >= from && s.at < to && strings.HasSuffix(s.path, suffix) {
			out = append(out, s.at)
		}
	}
	slices.Sort(out)
	return out
}

// longestGap returns the longest time without a send that ends in
// (from, to]: the pause the senders made.
func (l *sendLog) longestGap(from, to time.Duration) time.Duration {
	all := l.between(0, to+time.Nanosecond, "")
	longest := time.Duration(0)
	for i := 1; i < len(all); i++ {
		if all[i] > from && all[i] <= to {
			longest = max(longest, all[i]-all[i-1])
		}
	}
	return longest
}

// mostInAnyWindow returns the most sends in any window of length w among
// times (sorted).
func mostInAnyWindow(times []time.Duration, w time.Duration) int {
	most, j := 0, 0
	for i := range times {
		for times[i]-times[j] >= w {
			j++
		}
		most = max(most, i-j+1)
	}
	return most
}

// outageRun is what an outage scenario gave.
type outageRun struct {
	srv     *guildkittest.Server
	log     *sendLog
	results []childResult
	hot     string // the hammered bucket's path
	stops   []time.Duration
	starts  []time.Duration
	runFor  time.Duration
}

// The outage scenario: four processes hammer one bucket (Get Guild of one
// guild, 5 per second, two workers each) and, with their other ten workers,
// twelve other buckets of that route whose sum (60 per second) is more than
// the global limit (50 per second, a sliding window). Redis is killed twice
// while they do, for 2.5s each time, and started again empty.
const (
	outProcs   = 4
	outOutages = 2
	outUpFor   = 1500 * time.Millisecond // Redis serves this long before each outage
	outDownFor = 2500 * time.Millisecond
)

func outageScenario(t testing.TB, defaultClient bool) outageRun {
	rs := startRedis(t)
	srv := guildkittest.NewServer(t,
		guildkittest.WithGlobalLimit(50, time.Second), guildkittest.WithGlobalWindow(guildkittest.SlidingWindow),
		guildkittest.WithRouteLimit("GET /guilds/{guild.id}", 5, time.Second))
	var guilds []guildkit.Snowflake
	for range 13 {
		guilds = append(guilds, srv.AddGuild(guildkit.Guild{}).ID)
	}
	log := &sendLog{}
	proxy := log.proxy(t, srv)
	run := outageRun{srv: srv, log: log, hot: "/guilds/" + guilds[0].String(),
		runFor: outOutages*(outUpFor+outDownFor) + outUpFor}
	var children []*child
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range outProcs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ch := startChild(t, childOrders{
				BaseURL: proxy.URL + guildkittest.APIPrefix, Token: srv.Token(), Redis: rs.Addr(), Guilds: guilds,
				For: run.runFor, Workers: 12, Retry: 200 * time.Millisecond, UntilUp: true, DefaultClient: defaultClient,
			})
			mu.Lock()
			children = append(children, ch)
			mu.Unlock()
		}()
	}
	wg.Wait()
	log.start = time.Now()
	for _, ch := range children {
		ch.start()
	}
	for k := range outOutages {
		time.Sleep(time.Duration(k)*(outUpFor+outDownFor) + outUpFor - time.Since(log.start))
		run.stops = append(run.stops, time.Since(log.start))
		rs.stop(t)
		time.Sleep(outDownFor)
		rs.start(t)
		run.starts = append(run.starts, time.Since(log.start))
	}
	for _, ch := range children {
		run.results = append(run.results, ch.result(t))
	}
	return run
}

// outageFigures are an outage's figures: the longest time no request went
// out after Redis went and after it came back, the most requests in any
// second on the fallback (after its hand-over window, until Redis was
// back), and the rate into the hammered bucket then.
type outageFigures struct {
	pauseDown, pauseUp time.Duration
	fallbackMost       int
	hotRate            float64
}

func (run outageRun) figures(k int) outageFigures {
	stop, start := run.stops[k], run.starts[k]
	from := stop + 1100*time.Millisecond
	return outageFigures{
		pauseDown:    run.log.longestGap(stop, stop+2500*time.Millisecond),
		pauseUp:      run.log.longestGap(start, start+2500*time.Millisecond),
		fallbackMost: mostInAnyWindow(run.log.between(from, start, ""), time.Second),
		hotRate:      float64(len(run.log.between(from, start, run.hot))) / (start - from).Seconds(),
	}
}

// TestMultiProcessOutage: in the outage scenario, every call succeeds; the
// global limit holds (no global 429); each process meets at most one 429
// per outage; and the figures of the outages are logged. The scenario
// saturates the global limit, so requests go out in bursts once a window
// (about a second) even while Redis serves: the longest gap before the
// first outage is logged beside the outages' for comparison.
func TestMultiProcessOutage(t *testing.T) {
	run := outageScenario(t, false)
	for i, res := range run.results {
		assert.Empty(t, res.Errors, "child %d", i)
		assert.Empty(t, res.Leaked, "child %d", i)
		assert.LessOrEqual(t, res.Hits, outOutages, "child %d: at most one 429 per outage", i)
		assert.GreaterOrEqual(t, res.StoreDown, outOutages, "child %d told of each outage", i)
		assert.Equal(t, res.StoreDown, res.StoreUp, "child %d told each outage's end", i)
		assert.Positive(t, res.OK)
		t.Logf("child %d: %d calls, %d 429s, told of %d outages", i, res.OK, res.Hits, res.StoreDown)
	}
	assert.Zero(t, run.srv.GlobalRateLimited(), "the global limit held")
	t.Logf("while Redis served: longest time without a request %v",
		run.log.longestGap(100*time.Millisecond, run.stops[0]).Round(time.Millisecond))
	for k := range outOutages {
		f := run.figures(k)
		t.Logf("outage %d (Redis down %v..%v): no request for %v after it went, %v after it came back; "+
			"on the fallback at most %d requests in any second (4 × 12 allowed), %.1f/s into the hammered bucket (limit 5/s)",
			k+1, run.stops[k].Round(time.Millisecond), run.starts[k].Round(time.Millisecond),
			f.pauseDown.Round(time.Millisecond), f.pauseUp.Round(time.Millisecond), f.fallbackMost, f.hotRate)
		assert.LessOrEqual(t, f.fallbackMost, 50, "outage %d: the fallbacks together keep the global limit", k+1)
	}
	t.Logf("429s: %d (%d global) by bucket %v", run.srv.RateLimited(), run.srv.GlobalRateLimited(), run.srv.RateLimitedByBucket())
}

// BenchmarkMultiProcessOutage runs the outage scenario with the test's
// go-redis client (one dial of at most 200ms, no retries) and with
// go-redis's defaults, and reports each outage's figures: seconds without
// a request after Redis went and after it came back, the most requests in
// any second on the fallback, the rate into the hammered bucket then, and
// the 429s per process. Use -benchtime=1x.
func BenchmarkMultiProcessOutage(b *testing.B) {
	for _, defaults := range []bool{false, true} {
		name := "quick-client"
		if defaults {
			name = "default-client"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				run := outageScenario(b, defaults)
				for k := range outOutages {
					f := run.figures(k)
					unit := fmt.Sprintf("-outage%d", k+1)
					b.ReportMetric(f.pauseDown.Seconds(), "s-pause-down"+unit)
					b.ReportMetric(f.pauseUp.Seconds(), "s-pause-up"+unit)
					b.ReportMetric(float64(f.fallbackMost), "most-per-s-fallback"+unit)
					b.ReportMetric(f.hotRate, "hot-per-s-fallback"+unit)
				}
				most, failed := 0, 0
				for _, res := range run.results {
					most = max(most, res.Hits)
					failed += len(res.Errors)
				}
				b.ReportMetric(float64(most), "max-429s-per-process")
				b.ReportMetric(float64(run.srv.GlobalRateLimited()), "global-429s")
				b.ReportMetric(float64(failed), "failed-calls")
				b.ReportMetric(run.log.longestGap(100*time.Millisecond, run.stops[0]).Seconds(), "s-longest-gap-up")
			}
		})
	}
}
