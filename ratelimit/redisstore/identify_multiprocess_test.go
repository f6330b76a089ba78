package redisstore_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed012df1e9/guildkit/ratelimit"
	"github.com/seed012df1e9/guildkit/ratelimit/redisstore"
)

// identifyChildEnv carries the orders of a child process of the identify
// tests (see runIdentifyChild).
const identifyChildEnv = "GUILDKIT_IDENTIFY_CHILD"

type identifyOrders struct {
	Redis          string
	Token          string // the bot token itself: the limiter hashes it
	Shards         []int
	MaxConcurrency int
	Window, Lease  time.Duration
	Handshake      time.Duration // from a take to its done: the IDENTIFY's handshake
	Hang           bool          // take the first key, then hang until killed
}

// runIdentifyChild is a process of one token's shards: it acquires the
// identify limiter for each of its shards at once, as a shard manager
// starting a bucket does, and prints "take <shard> <unix ns>" when a shard
// may identify and "done <shard> <unix ns>" when it says it did.
func runIdentifyChild(raw string) int {
	var o identifyOrders
	if err := json.Unmarshal([]byte(raw), &o); err != nil {
		fmt.Fprintln(os.Stderr, "bad orders:", err)
		return 2
	}
	rdb := newClient(o.Redis)
	defer rdb.Close()
	l := redisstore.NewIdentifyLimiter(rdb, redisstore.IdentifyOptions{Window: o.Window, Lease: o.Lease,
		PollInterval: 10 * time.Millisecond})
	if err := l.SetLimit(context.Background(), o.Token, ratelimit.SessionStartLimit{
		Total: 1000, Remaining: 1000, ResetAfter: 24 * time.Hour, MaxConcurrency: o.MaxConcurrency}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	var out sync.Mutex
	say := func(format string, a ...any) {
		out.Lock()
		defer out.Unlock()
		fmt.Printf(format+"\n", a...)
	}
	say("ready")
	var wg sync.WaitGroup
	var failed atomic.Bool
	for _, shard := range o.Shards {
		wg.Add(1)
		go func() {
			defer wg.Done()
			done, err := l.Acquire(context.Background(), o.Token, shard, o.MaxConcurrency)
			if err != nil {
				say("error %d %v", shard, err)
				failed.Store(true)
				return
			}
			say("take %d %d", shard, time.Now().UnixNano())
			if o.Hang {
				select {} // killed mid-identify
			}
			time.Sleep(o.Handshake)
			say("done %d %d", shard, time.Now().UnixNano())
			done()
		}()
	}
	wg.Wait()
	if failed.Load() {
		return 1
	}
	return 0
}

// identifyEvent is a line of a child's output.
type identifyEvent struct {
	proc  int
	kind  string // take or done
	shard int
	at    time.Time
}

type identifyChild struct {
	cmd    *exec.Cmd
	stderr strings.Builder
	exited chan struct{}
}

// startIdentifyChild starts process proc with orders o; its events go to
// events. It returns once the child is ready.
func startIdentifyChild(t *testing.T, proc int, o identifyOrders, mu *sync.Mutex, events *[]identifyEvent) *identifyChild {
	t.Helper()
	raw, err := json.Marshal(o)
	require.NoError(t, err)
	ch := &identifyChild{cmd: exec.Command(os.Args[0], "-test.run=^$"), exited: make(chan struct{})}
	ch.cmd.Env = append(os.Environ(), identifyChildEnv+"="+string(raw))
	ch.cmd.Stderr = &ch.stderr
	stdout, err := ch.cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, ch.cmd.Start())
	t.Cleanup(func() {
		_ = ch.cmd.Process.Kill()
		<-ch.exited
	})
	ready := make(chan struct{})
	go func() {
		defer close(ch.exited)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			switch {
			case len(f) == 1 && f[0] == "ready":
				close(ready)
			case len(f) == 3 && (f[0] == "take" || f[0] == "done"):
				shard, _ := strconv.Atoi(f[1])
				ns, _ := strconv.ParseInt(f[2], 10, 64)
				mu.Lock()
				*events = append(*events, identifyEvent{proc, f[0], shard, time.Unix(0, ns)})
				mu.Unlock()
			default:
				t.Errorf("process %d: %s", proc, sc.Text())
			}
		}
		_ = ch.cmd.Wait()
	}()
	select {
	case <-ready:
	case <-ch.exited:
		t.Fatalf("process %d ended before it was ready: %s", proc, ch.stderr.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("process %d not ready", proc)
	}
	return ch
}

func (ch *identifyChild) wait(t *testing.T) {
	t.Helper()
	select {
	case <-ch.exited:
	case <-time.After(60 * time.Second):
		t.Fatal("a process did not finish")
	}
	assert.True(t, ch.cmd.ProcessState.Success(), "exit %v: %s", ch.cmd.ProcessState, ch.stderr.String())
}

// TestIdentifyMultiProcess: four processes share one token's identify
// limiter through a real redis-server, 16 shards split among them, at
// max_concurrency 4, each process a range of four (one shard of every
// key). Process 0's first run takes its four keys and is killed
// mid-identify; restarted, it and the others identify every shard once; no
// rate-limit key is taken again before a window after the last take's done
// (or, for the dead run's takes, before their lease ended); no window of
// 5 s (here: of Window) sees more than max_concurrency identifies.
func TestIdentifyMultiProcess(t *testing.T) {
	rs := startRedis(t)
	const procs, shards, mc = 4, 16, 4
	const window, lease = 250 * time.Millisecond, 900 * time.Millisecond
	token := "Bot multi-process-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	var mu sync.Mutex
	var events []identifyEvent

	// Process 0's first run: it takes its four shards' keys and is killed
	// mid-identify.
	orders := func(p int) identifyOrders {
		var mine []int
		for s := p * shards / procs; s < (p+1)*shards/procs; s++ { // a range: every process has every key
			mine = append(mine, s)
		}
		return identifyOrders{Redis: rs.Addr(), Token: token, Shards: mine, MaxConcurrency: mc,
			Window: window, Lease: lease, Handshake: 20 * time.Millisecond}
	}
	o := orders(0)
	o.Hang = true
	dying := startIdentifyChild(t, -1, o, &mu, &events)
	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(events) == mc
	}, 10*time.Second, 5*time.Millisecond, "the dying process took no key")
	require.NoError(t, dying.cmd.Process.Kill())
	<-dying.exited

	// Process 0 restarted, and the three others.
	var children []*identifyChild
	for p := range procs {
		children = append(children, startIdentifyChild(t, p, orders(p), &mu, &events))
	}
	for _, ch := range children {
		ch.wait(t)
	}

	mu.Lock()
	defer mu.Unlock()
	takes := map[int][]identifyEvent{} // by key
	var all []time.Time
	taken := map[int]int{}
	for _, e := range events {
		if e.kind == "take" {
			takes[e.shard%mc] = append(takes[e.shard%mc], e)
			all = append(all, e.at)
			taken[e.shard]++
		}
	}
	for s := range shards {
		want := 1
		if s < shards/procs {
			want = 2 // the dead run's take, and the restarted one's
		}
		assert.Equal(t, want, taken[s], "shard %d identified %d times", s, taken[s])
	}
	done := map[[2]int]time.Time{} // (proc, shard) → done
	for _, e := range events {
		if e.kind == "done" {
			done[[2]int{e.proc, e.shard}] = e.at
		}
	}
	const tolerance = 5 * time.Millisecond
	for k, ts := range takes {
		slices.SortFunc(ts, func(a, b identifyEvent) int { return a.at.Compare(b.at) })
		for i := 1; i < len(ts); i++ {
			prev := ts[i-1]
			free, ok := done[[2]int{prev.proc, prev.shard}]
			if ok {
				free = free.Add(window)
			} else {
				free = prev.at.Add(lease) // never done: the lease
			}
			assert.False(t, ts[i].at.Before(free.Add(-tolerance)),
				"key %d: shard %d (process %d) took it %v before it was free", k, ts[i].shard, ts[i].proc, free.Sub(ts[i].at))
		}
	}
	slices.SortFunc(all, time.Time.Compare)
	for i := range all {
		n := 0
		for j := i; j < len(all) && all[j].Sub(all[i]) < window; j++ {
			n++
		}
		assert.LessOrEqual(t, n, mc, "%d identifies within one window from %v", n, all[i])
	}
	first, last := all[0], all[len(all)-1]
	t.Logf("%d identifies by %d processes over %v (ideal: a lease, then 4 windows and handshakes: about %v)",
		len(all), procs+1, last.Sub(first).Round(time.Millisecond), lease+3*(window+20*time.Millisecond))
}
