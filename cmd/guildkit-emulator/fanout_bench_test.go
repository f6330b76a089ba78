package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/seed012df1e9/guildkit/internal/cputime"
	"github.com/seed012df1e9/guildkit/internal/jsonscan"
	"github.com/seed012df1e9/guildkit/internal/procstat"
)

// The fan-out harness: the emulator's binary as a process of its own,
// gateway sessions and REST callers in this one. Every session identifies
// as shard [0, 1] with GUILDS | GUILD_MESSAGES and receives the
// MESSAGE_CREATE of every message the callers post ("fan k") in one
// channel; its reader checks that s grows by one with each dispatch and
// records when each event k arrived, and in which order (the callers race
// each other, so the emulator decides the order; every session must get
// the same).

const (
	// fanOutIntents is GUILDS | GUILD_MESSAGES.
	fanOutIntents = 1 | 1<<9
	// fanOutCallers post the messages of a burst at once.
	fanOutCallers = 8
	// fanOutHeartbeatEvery is how often, in real time, every session
	// sends a heartbeat with the last sequence it received, as a bot
	// acknowledges what it got.
	fanOutHeartbeatEvery = 15 * time.Second
	// fanOutStall fails a burst in which no delivery arrived for this
	// long (a lost event, a hung emulator): a guard, not a measurement.
	fanOutStall = 2 * time.Minute
)

// fanOutEmulatorArgs start the emulator with REST rate limits out of the
// picture, and a heartbeat interval (on the server's clock, which the
// harness moves 5 s per IDENTIFY) that no session outlives.
var fanOutEmulatorArgs = []string{
	"-addr", "127.0.0.1:0",
	"-global-limit", "0",
	"-route-limit", createMessageRoute + "=1000000/1s",
	"-default-route-limit", "off",
	"-heartbeat-interval", "24h",
}

// fanOutHarness is an emulator process and the sessions connected to it
// from this process.
type fanOutHarness struct {
	cmd       *exec.Cmd
	exited    chan struct{} // closed when the process has been waited for
	stderr    *tailBuffer
	vars      map[string]string
	root      string // the emulator's root URL, http://127.0.0.1:port
	admin     string // the control API's Authorization value
	http      *http.Client
	origin    time.Time // receipt and return times are nanoseconds since it
	next      int       // the index k of the next message posted
	ctx       context.Context
	cancel    context.CancelFunc
	hbDone    chan struct{}
	hbStarted atomic.Bool
	closing   sync.Once
	fault     atomic.Pointer[error] // the first thing a session did wrong

	sessions []*fanOutSession
	// Idle: before any session (baseline) and with every session
	// connected, before any burst; each after a garbage collection.
	baseline, idle       emulatorRuntime
	baselineRSS, idleRSS uint64
}

// emulatorRuntime is GET /_guildkit/api/runtime's answer.
type emulatorRuntime struct {
	Goroutines   int    `json:"goroutines"`
	HeapAlloc    uint64 `json:"heap_alloc"`
	HeapInuse    uint64 `json:"heap_inuse"`
	StackInuse   uint64 `json:"stack_inuse"`
	Sys          uint64 `json:"sys"`
	HeapReleased uint64 `json:"heap_released"`
	GCCycles     uint32 `json:"gc_cycles"`
	RSS          uint64 `json:"rss"`
}

// tailBuffer keeps the last 4 KB written to it: the emulator's standard
// error, for failure messages.
type tailBuffer struct {
	mu sync.Mutex
	b  []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if over := len(t.b) - 4096; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// startFanOut starts the emulator built at bin and connects sessions to
// it, measuring the emulator's memory before and after. The process is
// killed and the sessions closed in owner's cleanup (or by close);
// failures are reported to tb.
func startFanOut(tb, owner testing.TB, bin string, sessions int) *fanOutHarness {
	tb.Helper()
	if limit := openFileLimit(); limit > 0 && limit < uint64(sessions)+256 {
		tb.Skipf("%d sessions need %d open files in this process and in the emulator's; the limit is %d (raise it: ulimit -n)",
			sessions, sessions+256, limit)
	}
	var token [16]byte
	_, _ = rand.Read(token[:])
	admin := hex.EncodeToString(token[:])
	h := &fanOutHarness{
		exited: make(chan struct{}),
		stderr: &tailBuffer{},
		vars:   map[string]string{},
		http: &http.Client{Transport: &http.Transport{
			MaxIdleConnsPerHost: 2 * fanOutCallers,
			DisableCompression:  true,
		}},
		origin: time.Now(),
		hbDone: make(chan struct{}),
	}
	h.ctx, h.cancel = context.WithCancel(context.Background())
	h.cmd = exec.Command(bin, append(slices.Clone(fanOutEmulatorArgs), "-admin-token", admin)...)
	h.cmd.Stderr = h.stderr
	stdout, err := h.cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := h.cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	go func() {
		_ = h.cmd.Wait()
		close(h.exited)
	}()
	owner.Cleanup(h.close)

	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		if k, v, ok := strings.Cut(lines.Text(), "="); ok && strings.HasPrefix(k, "GUILDKIT_") {
			h.vars[k] = v
		}
		if strings.HasPrefix(lines.Text(), "# inspector:") {
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	for _, k := range []string{"GUILDKIT_BASE_URL", "GUILDKIT_GATEWAY_URL", "GUILDKIT_TOKEN", "GUILDKIT_CHANNEL_ID", "GUILDKIT_ADMIN_TOKEN"} {
		if h.vars[k] == "" {
			tb.Fatalf("the emulator printed no %s (printed %v); its standard error: %s", k, h.vars, h.stderr)
		}
	}
	h.root = strings.TrimSuffix(h.vars["GUILDKIT_BASE_URL"], "/api/v10")
	h.admin = "Bearer " + h.vars["GUILDKIT_ADMIN_TOKEN"]

	h.baseline = h.runtime(tb, true)
	h.baselineRSS = procstat.Resident(h.cmd.Process.Pid)
	h.sessions = make([]*fanOutSession, 0, sessions)
	for i := range sessions {
		h.sessions = append(h.sessions, h.connect(tb, i))
		h.control(tb, "POST", "api/clock", `{"advance": "5s"}`, nil) // the next IDENTIFY's turn
	}
	h.hbStarted.Store(true)
	go h.heartbeat()
	h.idle = h.runtime(tb, true)
	h.idleRSS = procstat.Resident(h.cmd.Process.Pid)
	return h
}

// openFileLimit is this process's limit of open files (which Go raises to
// the hard limit at start, and the emulator's start does too), 0 when
// unknown.
func openFileLimit() uint64 {
	var l syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l) != nil {
		return 0
	}
	return l.Max
}

// close closes every session and ends the emulator: SIGTERM, then a kill
// when it has not stopped within 10 s.
func (h *fanOutHarness) close() {
	h.closing.Do(func() {
		h.cancel()
		for _, s := range h.sessions {
			_ = s.ws.CloseNow()
		}
		for _, s := range h.sessions {
			<-s.done
		}
		if h.hbStarted.Load() {
			<-h.hbDone
		}
		_ = h.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-h.exited:
		case <-time.After(10 * time.Second):
			_ = h.cmd.Process.Kill()
			<-h.exited
		}
		h.http.CloseIdleConnections()
	})
}

// control calls the control API; out, when not nil, receives the answer.
func (h *fanOutHarness) control(tb testing.TB, method, path, body string, out any) {
	tb.Helper()
	req, err := http.NewRequestWithContext(h.ctx, method, h.root+"/_guildkit/"+path, strings.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	req.Header.Set("Authorization", h.admin)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := h.http.Do(req)
	if err != nil {
		tb.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		tb.Fatalf("%s %s: %d %s (%v)", method, path, resp.StatusCode, raw, err)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			tb.Fatalf("%s %s: %v: %s", method, path, err, raw)
		}
	}
}

// runtime reads the emulator's runtime route, after a garbage collection
// when gc is true.
func (h *fanOutHarness) runtime(tb testing.TB, gc bool) emulatorRuntime {
	tb.Helper()
	path := "api/runtime"
	if gc {
		path += "?gc=1"
	}
	var rt emulatorRuntime
	h.control(tb, "GET", path, "", &rt)
	return rt
}

// fanOutSession is one gateway session of the harness.
type fanOutSession struct {
	i    int
	ws   *websocket.Conn
	seq  atomic.Int64              // the last s received, for heartbeats
	run  atomic.Pointer[fanOutRun] // the burst under way
	done chan struct{}             // closed when the reader has returned
}

// connect opens session i: HELLO, IDENTIFY, READY and a GUILD_CREATE per
// guild READY lists; then its reader runs.
func (h *fanOutHarness) connect(tb testing.TB, i int) *fanOutSession {
	tb.Helper()
	ws, _, err := websocket.Dial(h.ctx, h.vars["GUILDKIT_GATEWAY_URL"]+"/?v=10&encoding=json",
		&websocket.DialOptions{CompressionMode: websocket.CompressionDisabled})
	if err != nil {
		tb.Fatalf("session %d: %v", i, err)
	}
	connected := false
	defer func() {
		if !connected {
			_ = ws.CloseNow()
		}
	}()
	ws.SetReadLimit(1 << 24)
	s := &fanOutSession{i: i, ws: ws, done: make(chan struct{})}
	var buf []byte
	next := func() frame {
		tb.Helper()
		if buf, err = readMessage(h.ctx, ws, buf); err != nil {
			tb.Fatalf("session %d: %v", i, err)
		}
		f, ok := scanFrame(buf)
		if !ok {
			tb.Fatalf("session %d: not a JSON object: %.200s", i, buf)
		}
		if f.op == 0 {
			s.seq.Store(f.s)
		}
		return f
	}
	if f := next(); f.op != 10 {
		tb.Fatalf("session %d: op %d before HELLO", i, f.op)
	}
	identify := fmt.Sprintf(`{"op":2,"d":{"token":%q,"intents":%d,"shard":[0,1],"properties":{"os":"linux","browser":"fanout","device":"fanout"}}}`,
		h.vars["GUILDKIT_TOKEN"], fanOutIntents)
	if err := ws.Write(h.ctx, websocket.MessageText, []byte(identify)); err != nil {
		tb.Fatalf("session %d: IDENTIFY: %v", i, err)
	}
	guilds := -1
	for guilds != 0 {
		f := next()
		switch {
		case f.op == 9:
			tb.Fatalf("session %d: INVALID_SESSION answers IDENTIFY (the identify window on the server's clock?)", i)
		case f.op != 0:
		case string(f.t) == "READY":
			var ready struct {
				Guilds []json.RawMessage `json:"guilds"`
			}
			if err := json.Unmarshal(f.d, &ready); err != nil {
				tb.Fatalf("session %d: READY: %v", i, err)
			}
			guilds = len(ready.Guilds)
		case string(f.t) == "GUILD_CREATE" && guilds > 0:
			guilds--
		}
	}
	// The first heartbeat, which every client sends within its first
	// interval, acknowledges READY and the GUILD_CREATEs: the idle session
	// measured is the one a bot keeps, not one a moment old whose replay
	// buffer still holds them.
	if err := ws.Write(h.ctx, websocket.MessageText, []byte(`{"op":1,"d":`+strconv.FormatInt(s.seq.Load(), 10)+`}`)); err != nil {
		tb.Fatalf("session %d: heartbeat: %v", i, err)
	}
	for next().op != 11 {
	}
	connected = true
	go h.read(s, buf)
	return s
}

// readMessage reads the next message of ws into buf's storage.
func readMessage(ctx context.Context, ws *websocket.Conn, buf []byte) ([]byte, error) {
	_, r, err := ws.Reader(ctx)
	if err != nil {
		return buf, err
	}
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// heartbeat sends every session a heartbeat with its last sequence every
// fanOutHeartbeatEvery, until the harness closes.
func (h *fanOutHarness) heartbeat() {
	defer close(h.hbDone)
	tick := time.NewTicker(fanOutHeartbeatEvery)
	defer tick.Stop()
	var b []byte
	for {
		select {
		case <-h.ctx.Done():
			return
		case <-tick.C:
		}
		for _, s := range h.sessions {
			b = strconv.AppendInt(append(b[:0], `{"op":1,"d":`...), s.seq.Load(), 10)
			b = append(b, '}')
			ctx, cancel := context.WithTimeout(h.ctx, 10*time.Second)
			_ = s.ws.Write(ctx, websocket.MessageText, b) // a session that fails ends its reader, which says so
			cancel()
		}
	}
}

// fanOutRun is one burst: messages first..first+n-1, when each session
// received each, and in which order.
type fanOutRun struct {
	first, n  int
	returned  []int64   // when each call returned, ns since origin
	recv      [][]int64 // per session, when event first+j arrived, ns since origin
	order     [][]int32 // per session, the j of the events in the order they arrived
	remaining atomic.Int64
	progress  atomic.Int64 // deliveries so far
	complete  chan struct{}
	failed    chan struct{}
	failOnce  sync.Once
	failure   error
}

// sessionFailed records what session s did wrong: the burst under way fails
// with it, and so does the next check.
func (h *fanOutHarness) sessionFailed(s *fanOutSession, err error) {
	h.fault.CompareAndSwap(nil, &err)
	if run := s.run.Load(); run != nil {
		run.fail(err)
	}
}

// check fails tb when a session did something wrong since the harness
// started.
func (h *fanOutHarness) check(tb testing.TB) {
	tb.Helper()
	if err := h.fault.Load(); err != nil {
		tb.Fatalf("%v (the emulator's standard error: %s)", *err, h.stderr)
	}
}

func (r *fanOutRun) fail(err error) {
	r.failOnce.Do(func() {
		r.failure = err
		close(r.failed)
	})
}

// read is session s's reader: it checks every dispatch's s, records the
// fan events of the burst under way, and reports a session's end during a
// burst as the burst's failure. It parses no more of a frame than it needs.
func (h *fanOutHarness) read(s *fanOutSession, buf []byte) {
	defer close(s.done)
	last := s.seq.Load()
	var cur *fanOutRun
	got := 0
	for {
		var err error
		// Without a deadline or cancellation to watch, a read costs the
		// client less; close ends it by closing the connection.
		if buf, err = readMessage(context.Background(), s.ws, buf); err != nil {
			if h.ctx.Err() == nil {
				h.sessionFailed(s, fmt.Errorf("session %d ended: %v", s.i, err))
			}
			return
		}
		now := int64(time.Since(h.origin))
		f, ok := scanFrame(buf)
		if !ok {
			h.sessionFailed(s, fmt.Errorf("session %d: not a JSON object: %.200s", s.i, buf))
			continue
		}
		if f.op != 0 {
			continue
		}
		if f.s != last+1 {
			h.sessionFailed(s, fmt.Errorf("session %d: %s with s %d after %d", s.i, f.t, f.s, last))
		}
		last = f.s
		s.seq.Store(last)
		if string(f.t) != "MESSAGE_CREATE" {
			continue
		}
		k, ok := fanIndex(f.d)
		if !ok {
			continue
		}
		run := s.run.Load()
		if run != cur {
			cur, got = run, 0
		}
		if run == nil {
			continue
		}
		j := k - run.first
		switch {
		case j < 0 || j >= run.n:
			h.sessionFailed(s, fmt.Errorf("session %d: event %d during the burst of %d..%d", s.i, k, run.first, run.first+run.n-1))
			continue
		case run.recv[s.i][j] != 0:
			h.sessionFailed(s, fmt.Errorf("session %d: event %d twice", s.i, k))
			continue
		}
		run.recv[s.i][j] = now
		run.order[s.i][got] = int32(j)
		got++
		run.progress.Add(1)
		if got == run.n && run.remaining.Add(-1) == 0 {
			close(run.complete)
		}
	}
}

// frame is the top level of a gateway payload: op, t, s (0 when null or
// absent) and d as they appear in the message.
type frame struct {
	op int
	t  []byte
	s  int64
	d  []byte
}

// scanFrame reads a payload's top-level members without decoding d.
func scanFrame(b []byte) (f frame, ok bool) {
	i := jsonscan.SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return f, false
	}
	i = jsonscan.SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return f, true
	}
	for i < len(b) {
		if b[i] != '"' {
			return f, false
		}
		end := skipValue(b, i)
		if end < 0 {
			return f, false
		}
		key := b[i+1 : end-1]
		i = jsonscan.SkipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return f, false
		}
		i = jsonscan.SkipSpace(b, i+1)
		end = skipValue(b, i)
		if end < 0 {
			return f, false
		}
		v := b[i:end]
		switch string(key) {
		case "op":
			n, err := strconv.Atoi(string(v))
			if err != nil {
				return f, false
			}
			f.op = n
		case "t":
			if len(v) >= 2 && v[0] == '"' {
				f.t = v[1 : len(v)-1]
			}
		case "s":
			if v[0] != 'n' {
				n, err := strconv.ParseInt(string(v), 10, 64)
				if err != nil {
					return f, false
				}
				f.s = n
			}
		case "d":
			f.d = v
		}
		i = jsonscan.SkipSpace(b, end)
		if i < len(b) && b[i] == ',' {
			i = jsonscan.SkipSpace(b, i+1)
			continue
		}
		return f, i < len(b) && b[i] == '}'
	}
	return f, false
}

// skipValue returns the end of the JSON value at b[i], or -1. It checks
// no more than it must to find the end: strings with their escapes,
// nesting, and the extent of numbers and literals. (jsonscan.SkipValue
// checks the whole value; the sessions' reader shares the two cores with
// the emulator it measures, so it does the least work that finds d.)
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		for i++; ; {
			q := bytes.IndexByte(b[i:], '"')
			if q < 0 {
				return -1
			}
			i += q
			escapes := 0
			for j := i - 1; b[j] == '\\'; j-- {
				escapes++
			}
			i++
			if escapes%2 == 0 {
				return i
			}
		}
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			for i < len(b) && !structural[b[i]] {
				i++
			}
			if i == len(b) {
				break
			}
			switch b[i] {
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			case '"':
				end := skipValue(b, i)
				if end < 0 {
					return -1
				}
				i = end - 1
			}
		}
		return -1
	default:
		start := i
		for i < len(b) && !strings.ContainsRune(",}] \t\n\r", rune(b[i])) {
			i++
		}
		if i == start {
			return -1
		}
		return i
	}
}

// structural marks the bytes skipValue stops at inside an object or an
// array.
var structural = [256]bool{'{': true, '}': true, '[': true, ']': true, '"': true}

// fanContent is how a fan event's content starts in its JSON.
var fanContent = []byte(`"content":"fan `)

// fanIndex is k of a MESSAGE_CREATE whose content is "fan k".
func fanIndex(d []byte) (int, bool) {
	_, rest, ok := bytes.Cut(d, fanContent)
	if !ok {
		return 0, false
	}
	k, n := 0, 0
	for ; n < len(rest) && rest[n] >= '0' && rest[n] <= '9'; n++ {
		k = k*10 + int(rest[n]-'0')
	}
	if n == 0 || n >= len(rest) || rest[n] != '"' {
		return 0, false
	}
	return k, true
}

// burstResult is what a burst measured.
type burstResult struct {
	deliveries    int
	elapsed       time.Duration // from the first call's start to the last receipt
	latencies     []int64       // every receipt minus its call's return, ns, sorted (0 when it came first)
	emuCPU        time.Duration
	clientCPU     time.Duration
	afterBurstRSS uint64
}

func (r burstResult) percentile(p float64) time.Duration {
	if len(r.latencies) == 0 {
		return 0
	}
	return time.Duration(r.latencies[min(len(r.latencies)-1, int(float64(len(r.latencies))*p))])
}

// burst posts n messages from fanOutCallers callers at once and waits
// until every session has received every one, in order.
func (h *fanOutHarness) burst(tb testing.TB, n int) burstResult {
	tb.Helper()
	run := &fanOutRun{
		first: h.next, n: n,
		returned: make([]int64, n),
		recv:     make([][]int64, len(h.sessions)),
		complete: make(chan struct{}),
		failed:   make(chan struct{}),
	}
	h.next += n
	run.order = make([][]int32, len(h.sessions))
	for i := range run.recv {
		run.recv[i] = make([]int64, n)
		run.order[i] = make([]int32, n)
	}
	run.remaining.Store(int64(len(h.sessions)))
	for _, s := range h.sessions {
		s.run.Store(run)
	}
	defer func() {
		for _, s := range h.sessions {
			s.run.Store(nil)
		}
	}()

	url := h.vars["GUILDKIT_BASE_URL"] + "/channels/" + h.vars["GUILDKIT_CHANNEL_ID"] + "/messages"
	auth := "Bot " + h.vars["GUILDKIT_TOKEN"]
	var taken atomic.Int64
	var callers sync.WaitGroup
	pid := h.cmd.Process.Pid
	emuCPU, clientCPU := procstat.CPU(pid), cputime.Process()
	start := int64(time.Since(h.origin))
	for range fanOutCallers {
		callers.Add(1)
		go func() {
			defer callers.Done()
			for {
				j := int(taken.Add(1)) - 1
				if j >= n {
					return
				}
				body := `{"content":"fan ` + strconv.Itoa(run.first+j) + `"}`
				req, _ := http.NewRequestWithContext(h.ctx, "POST", url, strings.NewReader(body))
				req.Header.Set("Authorization", auth)
				req.Header.Set("Content-Type", "application/json")
				resp, err := h.http.Do(req)
				if err != nil {
					run.fail(fmt.Errorf("POST message %d: %v", run.first+j, err))
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				run.returned[j] = int64(time.Since(h.origin))
				if resp.StatusCode != http.StatusOK {
					run.fail(fmt.Errorf("POST message %d: %s", run.first+j, resp.Status))
					return
				}
			}
		}()
	}
	h.await(tb, run, &callers)
	// The callers race each other, so the messages are created in an
	// order of the emulator's choosing: every session gets that one.
	for i, order := range run.order {
		if !slices.Equal(order, run.order[0]) {
			tb.Fatalf("session %d received the burst in the order %v, session 0 in %v", i, order, run.order[0])
		}
	}
	res := burstResult{
		deliveries:    n * len(h.sessions),
		emuCPU:        procstat.CPU(pid) - emuCPU,
		clientCPU:     cputime.Process() - clientCPU,
		afterBurstRSS: procstat.Resident(pid),
	}
	last := start
	res.latencies = make([]int64, 0, res.deliveries)
	for _, recv := range run.recv {
		for j, at := range recv {
			last = max(last, at)
			res.latencies = append(res.latencies, max(0, at-run.returned[j]))
		}
	}
	slices.Sort(res.latencies)
	res.elapsed = time.Duration(last - start)
	return res
}

// await waits until run is complete and its callers have returned; it
// fails tb when the run failed, the emulator exited, or no delivery came
// for fanOutStall.
func (h *fanOutHarness) await(tb testing.TB, run *fanOutRun, callers *sync.WaitGroup) {
	tb.Helper()
	callersDone := make(chan struct{})
	go func() { callers.Wait(); close(callersDone) }()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	seen, stalled := int64(-1), time.Now()
	complete, waiting := run.complete, callersDone
	for complete != nil || waiting != nil {
		select {
		case <-complete:
			complete = nil
		case <-waiting:
			waiting = nil
		case <-run.failed:
			h.cancel() // ends the callers and the sessions: the harness is done
			<-callersDone
			tb.Fatalf("%v (the emulator's standard error: %s)", run.failure, h.stderr)
		case <-h.exited:
			h.cancel()
			<-callersDone
			tb.Fatalf("the emulator exited during the burst: %v; its standard error: %s", h.cmd.ProcessState, h.stderr)
		case <-tick.C:
			if p := run.progress.Load(); p != seen {
				seen, stalled = p, time.Now()
			} else if time.Since(stalled) > fanOutStall {
				h.cancel()
				<-callersDone
				tb.Fatalf("no delivery for %s: %d of %d delivered", fanOutStall, p, int64(run.n)*int64(len(h.sessions)))
			}
		}
	}
	h.check(tb)
}

// settle waits d of real time while the sessions heartbeat, then checks
// that every session is still connected.
func (h *fanOutHarness) settle(tb testing.TB, d time.Duration) {
	tb.Helper()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-h.exited:
		tb.Fatalf("the emulator exited while settling: %v; its standard error: %s", h.cmd.ProcessState, h.stderr)
	}
	h.check(tb)
	for _, s := range h.sessions {
		select {
		case <-s.done:
			tb.Fatalf("session %d ended while settling", s.i)
		default:
		}
	}
}

// fanOutSettle is how long the sessions stay connected after a burst
// before the emulator's memory is read again: GUILDKIT_FANOUT_SETTLE, 60 s
// when unset.
func fanOutSettle(tb testing.TB) time.Duration {
	v := os.Getenv("GUILDKIT_FANOUT_SETTLE")
	if v == "" {
		return time.Minute
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		tb.Fatalf("GUILDKIT_FANOUT_SETTLE=%q is not a duration", v)
	}
	return d
}

// BenchmarkFanOut measures the emulator's gateway under fan-out from
// outside: the emulator's binary runs as a process of its own and the
// sessions connect from this one. An op is one message posted (from 8
// callers at once, REST rate limits off), reaching every session as
// MESSAGE_CREATE. It reports:
//
//	deliveries/s            sessions × messages / (last receipt − first call's start)
//	p50-ms, p99-ms          from a call's return to each session's receipt of its event
//	emu-cpu-ns/delivery     the emulator's CPU time (/proc/<pid>/stat) per delivery
//	client-cpu-ns/delivery  this process's CPU time (the sessions and the callers) per delivery
//	B/session-live          the emulator's heap and stacks in use per idle session, after a collection
//	B/session-rss           the emulator's resident memory per idle session
//	rss-idle-MB             its resident memory with every session connected, before any burst
//	rss-after-burst-MB      its resident memory as the burst ends
//	rss-settled-MB          its resident memory after GUILDKIT_FANOUT_SETTLE (default 60s) of
//	                        heartbeats, and rss-settled/idle its ratio to rss-idle-MB; beside them
//	                        the runtime's view then (no collection forced): settled-heap-inuse-MB,
//	                        settled-heap-released-MB, settled-sys-MB, settled-goroutines;
//	                        settle-s is the settle period
//	load-avg                the machine's 1-minute load average as the burst ends
//
// The sub-benchmarks are sessions=1000 and sessions=10000, or the counts
// GUILDKIT_FANOUT_SESSIONS lists ("1000,5000"). The sessions are
// connected once per sub-benchmark; use -benchtime Nx (the run of 1 that
// the testing package makes first skips the settle period unless
// -benchtime is 1x). scripts/bench-fanout.sh runs it:
//
//	go test -run '^$' -bench 'FanOut/sessions=1000$' -benchtime 300x -timeout 1h ./cmd/guildkit-emulator/
func BenchmarkFanOut(b *testing.B) {
	bin := buildEmulator(b)
	for _, sessions := range fanOutSizes(b) {
		var h *fanOutHarness
		b.Run("sessions="+strconv.Itoa(sessions), func(sb *testing.B) {
			if h == nil {
				h = startFanOut(sb, b, bin, sessions)
			}
			live := float64(int64(h.idle.HeapInuse+h.idle.StackInuse)-int64(h.baseline.HeapInuse+h.baseline.StackInuse)) / float64(sessions)
			resident := float64(int64(h.idleRSS)-int64(h.baselineRSS)) / float64(sessions)

			sb.ResetTimer()
			res := h.burst(sb, sb.N)
			sb.StopTimer()
			perDelivery := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(res.deliveries) }
			sb.ReportMetric(float64(res.deliveries)/res.elapsed.Seconds(), "deliveries/s")
			sb.ReportMetric(float64(res.percentile(0.50))/float64(time.Millisecond), "p50-ms")
			sb.ReportMetric(float64(res.percentile(0.99))/float64(time.Millisecond), "p99-ms")
			sb.ReportMetric(perDelivery(res.emuCPU), "emu-cpu-ns/delivery")
			sb.ReportMetric(perDelivery(res.clientCPU), "client-cpu-ns/delivery")
			sb.ReportMetric(live, "B/session-live")
			sb.ReportMetric(resident, "B/session-rss")
			sb.ReportMetric(mb(h.idleRSS), "rss-idle-MB")
			sb.ReportMetric(mb(res.afterBurstRSS), "rss-after-burst-MB")
			sb.ReportMetric(loadAverage(), "load-avg")
			if sb.N == 1 && benchtime() != "1x" {
				return // the testing package's first run of 1: the real run follows
			}
			settle := fanOutSettle(sb)
			h.settle(sb, settle)
			settled := procstat.Resident(h.cmd.Process.Pid)
			rt := h.runtime(sb, false)
			sb.ReportMetric(mb(settled), "rss-settled-MB")
			sb.ReportMetric(float64(settled)/float64(h.idleRSS), "rss-settled/idle")
			sb.ReportMetric(settle.Seconds(), "settle-s")
			sb.ReportMetric(mb(rt.HeapInuse), "settled-heap-inuse-MB")
			sb.ReportMetric(mb(rt.HeapReleased), "settled-heap-released-MB")
			sb.ReportMetric(mb(rt.Sys), "settled-sys-MB")
			sb.ReportMetric(float64(rt.Goroutines), "settled-goroutines")
		})
		if h != nil {
			h.close() // before the next size connects its sessions
		}
	}
}

// fanOutSizes are the sub-benchmarks' session counts:
// GUILDKIT_FANOUT_SESSIONS, a comma-separated list, or 1,000 and 10,000.
func fanOutSizes(tb testing.TB) []int {
	v := os.Getenv("GUILDKIT_FANOUT_SESSIONS")
	if v == "" {
		return []int{1000, 10000}
	}
	var sizes []int
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			tb.Fatalf("GUILDKIT_FANOUT_SESSIONS=%q: %q is not a number of sessions", v, f)
		}
		sizes = append(sizes, n)
	}
	return sizes
}

func mb(n uint64) float64 { return float64(n) / (1 << 20) }

// benchtime is the -test.benchtime flag's value.
func benchtime() string {
	if f := flag.Lookup("test.benchtime"); f != nil {
		return f.Value.String()
	}
	return ""
}

// loadAverage is the machine's 1-minute load average, 0 where
// /proc/loadavg is missing.
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	first, _, _ := strings.Cut(string(b), " ")
	v, _ := strconv.ParseFloat(first, 64)
	return v
}

// TestFanOutHarness runs BenchmarkFanOut's harness small (50 sessions, two
// bursts of 10 messages, no settle period), so that it keeps working: every
// session receives every event, in order, with s increasing by one, and
// the runtime route answers.
func TestFanOutHarness(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	const sessions, events = 50, 10
	h := startFanOut(t, t, buildEmulator(t), sessions)
	if h.baseline.Goroutines == 0 || h.baseline.HeapInuse == 0 || h.idle.StackInuse <= h.baseline.StackInuse {
		t.Fatalf("runtime route: baseline %+v, with %d sessions %+v", h.baseline, sessions, h.idle)
	}
	if h.idle.Goroutines < h.baseline.Goroutines+sessions {
		t.Errorf("%d goroutines with %d sessions, %d without: the sessions are not there", h.idle.Goroutines, sessions, h.baseline.Goroutines)
	}
	for range 2 {
		res := h.burst(t, events)
		if res.deliveries != sessions*events || len(res.latencies) != sessions*events || res.elapsed <= 0 {
			t.Fatalf("a burst of %d to %d sessions: %d deliveries, %d latencies in %s", events, sessions, res.deliveries, len(res.latencies), res.elapsed)
		}
	}
	h.settle(t, 0)
	if rt := h.runtime(t, false); rt.Goroutines < sessions {
		t.Errorf("runtime after the bursts: %+v", rt)
	}
	h.close()
	if h.cmd.ProcessState == nil {
		t.Error("the emulator was not waited for")
	}
}

// TestScanFrame: the harness's reader finds op, t, s and d at the top
// level whatever their order and whatever d holds (escaped quotes and
// backslashes, nesting, members named like the top level's), and k in a
// fan event's content.
func TestScanFrame(t *testing.T) {
	t.Parallel()
	d := `{"id":"7","content":"fan 42","author":{"id":"1","username":"a \"q\" \\\\"},"t":"X","s":9,"embeds":[[],{"a":[1,{"b":"}]"}]}],"n":null}`
	for _, payload := range []string{
		`{"op":0,"t":"MESSAGE_CREATE","s":12,"d":` + d + `}`,
		`{"d":` + d + `,"s":12,"t":"MESSAGE_CREATE","op":0}`,
		" {\n \"t\" : \"MESSAGE_CREATE\" ,\t\"d\": " + d + ", \"op\": 0, \"s\": 12 }\n",
	} {
		f, ok := scanFrame([]byte(payload))
		if !ok || f.op != 0 || string(f.t) != "MESSAGE_CREATE" || f.s != 12 || string(f.d) != d {
			t.Errorf("%s: op %d t %q s %d d %s (ok %v)", payload, f.op, f.t, f.s, f.d, ok)
		}
		if k, ok := fanIndex(f.d); !ok || k != 42 {
			t.Errorf("%s: k %d, %v", payload, k, ok)
		}
	}
	f, ok := scanFrame([]byte(`{"op":11,"t":null,"s":null,"d":null}`))
	if !ok || f.op != 11 || f.t != nil || f.s != 0 {
		t.Errorf("HEARTBEAT_ACK: %+v %v", f, ok)
	}
	for _, bad := range []string{``, `[]`, `{"op":}`, `{"op":0`, `{"d":"unterminated}`, `{"d":{"a":[}`, `{op:0}`, `{"op":"0"}`} {
		if _, ok := scanFrame([]byte(bad)); ok {
			t.Errorf("%q: read as a frame", bad)
		}
	}
	for _, d := range []string{`{"content":"fan "}`, `{"content":"fan 3x"}`, `{"content":"fans 3"}`, `{"content":"fan 3`} {
		if k, ok := fanIndex([]byte(d)); ok {
			t.Errorf("%s: k %d", d, k)
		}
	}
}
